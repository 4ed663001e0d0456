#!/usr/bin/env python3
"""compare.py REPORT_JSON SMI_XML SMI_AFTER_XML COMPUTE_CAP_CSV OUT_TXT

Every GPU fact `dlenv report --json` read (through NVML and the CUDA driver API) against
what nvidia-smi says on the same machine: OUT_TXT gets one line per fact, "same (VALUE)"
or "differs: DLENV vs NVIDIA-SMI", and each line is a check on stdout (proofkit.check).

nvidia-smi is asked twice, just before and just after the report (SMI_XML, SMI_AFTER_XML:
`nvidia-smi -q -x`); a value that moves on its own (a current clock, the link the GPU
trained down to while idle, the P-state) is the same when dlenv's reading lies between the
two. COMPUTE_CAP_CSV is `nvidia-smi --query-gpu=uuid,compute_cap --format=csv,noheader`
(-q has no compute capability; an old nvidia-smi has no such field, and the lines say so).
Units are converted where the two differ: bytes vs MiB, W vs "450.00 W", "16x".
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import proofkit  # noqa: E402

MIB = 1024 * 1024


def smi_text(node, path):
    """The text at path ("a/b|c/d": the first that exists); None where absent."""
    if node is None:
        return None
    for alt in path.split("|"):
        found = node.find(alt)
        if found is not None and found.text is not None:
            return found.text.strip()
    return None


def smi_number(text):
    """"2520 MHz" -> 2520, "450.00 W" -> 450.0, "16x" -> 16, "P2" -> 2; None for N/A."""
    if text is None:
        return None
    m = re.match(r"^P?(-?\d+(?:\.\d+)?)\s*(x|MHz|MiB|W)?$", text)
    if not m:
        return None
    return float(m.group(1)) if "." in m.group(1) else int(m.group(1))


def bus_key(bus_id):
    """"00000000:01:00.0" and "0000:01:00.0" name the same device."""
    m = re.match(r"^([0-9a-fA-F]+):([0-9a-fA-F]+):([0-9a-fA-F]+)\.([0-7])$", bus_id or "")
    return tuple(int(x, 16) for x in m.groups()) if m else None


class Comparison(object):
    def __init__(self):
        self.lines = []

    def line(self, verdict, name, text):
        self.lines.append("%s: %s" % (name, text))
        proofkit.check(verdict, "compare " + name, text)

    def same(self, name, shown):
        self.line("pass", name, "same (%s)" % shown)

    def differs(self, name, ours, theirs):
        self.line("fail", name, "differs: %s vs %s" % (ours, theirs))

    def skip(self, name, why):
        self.line("skip", name, "not compared: %s" % why)

    def value(self, name, ours, theirs, equal, unit="", na_means=None):
        """ours: dlenv's JSON value; theirs: nvidia-smi's text (None: no such element).
        na_means: what nvidia-smi's "N/A" stands for in dlenv's terms (default: unknown)."""
        if theirs is None:
            self.skip(name, "nvidia-smi's XML has no such element (dlenv: %s)"
                      % proofkit.show(ours))
            return
        na = theirs in ("N/A", "[N/A]", "Not Supported", "[Not Supported]")
        if na and na_means is not None and proofkit.known(ours) and ours == na_means:
            self.same(name, "%s, nvidia-smi %s" % (proofkit.show(ours), theirs))
        elif na and not proofkit.known(ours):
            self.same(name, "neither knows: %s, nvidia-smi %s" % (proofkit.show(ours), theirs))
        elif not proofkit.known(ours) or na:
            self.differs(name, proofkit.show(ours) + unit, theirs)
        elif equal(ours, theirs):
            self.same(name, "%s%s" % (proofkit.show(ours), unit))
        else:
            self.differs(name, "%s%s" % (proofkit.show(ours), unit), theirs)

    def moving(self, name, ours, before, after, unit):
        """A value that changes on its own: dlenv's reading between nvidia-smi's two."""
        if before is None:
            self.skip(name, "nvidia-smi's XML has no such element")
            return
        b, a = smi_number(before), smi_number(after) if after is not None else None
        if not proofkit.known(ours) or b is None:
            self.value(name, ours, before, lambda o, t: False, unit)
            return
        low, high = (b, b) if a is None else (min(a, b), max(a, b))
        seen = before if a is None or a == b else "%s before, %s after" % (before, after)
        if low <= ours <= high:
            self.same(name, "%s%s; nvidia-smi %s" % (ours, unit, seen))
        else:
            self.differs(name, "%s%s" % (ours, unit), "nvidia-smi %s" % seen)


def equal_text(ours, theirs):
    return str(ours) == theirs


def equal_mode(ours, theirs):
    return ("Enabled" if ours else "Disabled") == theirs


def equal_number(ours, theirs):
    return smi_number(theirs) is not None and smi_number(theirs) == ours


def equal_mib(ours, theirs):
    # nvidia-smi rounds down to whole MiB.
    mib = smi_number(theirs)
    return mib is not None and abs(ours / float(MIB) - mib) < 1.0


def equal_watts(ours, theirs):
    # Both come from the same milliwatts; nvidia-smi shows two decimals.
    w = smi_number(theirs)
    return w is not None and abs(float(ours) - w) <= 0.006


def equal_compute_mode(ours, theirs):
    return str(ours).lower() == theirs.lower()


def cuda_text(version):
    """CUDA's integer 12040 as nvidia-smi writes it: "12.4"."""
    if not proofkit.known(version):
        return version
    return "%d.%d" % (version // 1000, (version % 1000) // 10)


def compute_caps(path):
    caps, why = {}, None
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        return caps, str(e)
    for row in text.splitlines():
        parts = [p.strip() for p in row.split(",")]
        if len(parts) == 2 and parts[0].startswith("GPU-"):
            caps[parts[0]] = parts[1]
    if not caps:
        why = "nvidia-smi --query-gpu=compute_cap gave: %s" % (" ".join(text.split())[:200]
                                                             or "nothing")
    return caps, why


def compare_nvml_gpu(c, label, g, node, after, caps, caps_why):
    c.value(label + " name", g.get("name"), smi_text(node, "product_name"), equal_text)
    c.value(label + " UUID", g.get("uuid"), smi_text(node, "uuid"), equal_text)
    c.value(label + " PCI bus id", g.get("pci_bus_id"), smi_text(node, "pci/pci_bus_id"),
            lambda o, t: bus_key(o) is not None and bus_key(o) == bus_key(t))
    # gres.conf's File=/dev/nvidiaN (dlenv fleet gres-conf) rests on this number.
    c.value(label + " minor number", g.get("minor_number"), smi_text(node, "minor_number"),
            equal_number)
    c.value(label + " total memory", g.get("memory_total_bytes"),
            smi_text(node, "fb_memory_usage/total"), equal_mib, " bytes")
    uuid = g.get("uuid") if isinstance(g.get("uuid"), str) else None
    if caps_why:
        c.skip(label + " compute capability", "%s (dlenv: %s)"
               % (caps_why, proofkit.show(g.get("compute_capability"))))
    else:
        c.value(label + " compute capability", g.get("compute_capability"),
                caps.get(uuid, "N/A"), equal_text)
    c.moving(label + " SM clock", g.get("sm_clock_mhz"), smi_text(node, "clocks/sm_clock"),
             smi_text(after, "clocks/sm_clock"), " MHz")
    c.value(label + " SM clock max", g.get("sm_clock_max_mhz"),
            smi_text(node, "max_clocks/sm_clock"), equal_number, " MHz")
    c.moving(label + " memory clock", g.get("memory_clock_mhz"),
             smi_text(node, "clocks/mem_clock"), smi_text(after, "clocks/mem_clock"), " MHz")
    c.value(label + " memory clock max", g.get("memory_clock_max_mhz"),
            smi_text(node, "max_clocks/mem_clock"), equal_number, " MHz")
    # NVML's enforced limit is what nvidia-smi calls the current (older: enforced) limit.
    c.value(label + " power limit", g.get("power_limit_watts"),
            smi_text(node, "gpu_power_readings/current_power_limit|"
                           "power_readings/enforced_power_limit|power_readings/power_limit"),
            equal_watts, " W")
    c.value(label + " default power limit", g.get("power_limit_default_watts"),
            smi_text(node, "gpu_power_readings/default_power_limit|"
                           "power_readings/default_power_limit"), equal_watts, " W")
    for ours, smi in (("app_clock_graphics_mhz", "applications_clocks/graphics_clock"),
                      ("app_clock_graphics_default_mhz",
                       "default_applications_clocks/graphics_clock"),
                      ("app_clock_memory_mhz", "applications_clocks/mem_clock"),
                      ("app_clock_memory_default_mhz", "default_applications_clocks/mem_clock")):
        c.value(label + " " + ours.replace("_", " ").replace(" mhz", ""), g.get(ours),
                smi_text(node, smi), equal_number, " MHz")
    # nvidia-smi 555 and later call display mode "display attached".
    c.value(label + " display connected", g.get("display_connected"),
            smi_text(node, "display_attached|display_mode"), equal_mode)
    c.value(label + " display active", g.get("display_active"),
            smi_text(node, "display_active"), equal_mode)
    link = "pci/pci_gpu_link_info/"
    c.moving(label + " PCIe generation", g.get("pcie_generation"),
             smi_text(node, link + "pcie_gen/current_link_gen"),
             smi_text(after, link + "pcie_gen/current_link_gen"), "")
    c.value(label + " PCIe generation max", g.get("pcie_generation_max"),
            smi_text(node, link + "pcie_gen/max_link_gen"), equal_number)
    c.moving(label + " PCIe width", g.get("pcie_width"),
             smi_text(node, link + "link_widths/current_link_width"),
             smi_text(after, link + "link_widths/current_link_width"), "x")
    c.value(label + " PCIe width max", g.get("pcie_width_max"),
            smi_text(node, link + "link_widths/max_link_width"), equal_number, "x")
    c.value(label + " persistence mode", g.get("persistence_mode"),
            smi_text(node, "persistence_mode"), equal_mode)
    # A GPU without MIG: NVML says "not supported", dlenv "no", nvidia-smi "N/A".
    c.value(label + " MIG mode", g.get("mig_enabled"), smi_text(node, "mig_mode/current_mig"),
            equal_mode, na_means=False)
    c.value(label + " ECC mode", g.get("ecc_enabled"), smi_text(node, "ecc_mode/current_ecc"),
            equal_mode)
    c.value(label + " compute mode", g.get("compute_mode"), smi_text(node, "compute_mode"),
            equal_compute_mode)
    c.moving(label + " performance state", g.get("performance_state"),
             smi_text(node, "performance_state"), smi_text(after, "performance_state"), "")


def compare_cuda_device(c, label, d, node, caps):
    """The CUDA driver API's view of the same GPU (verify's limits rest on it)."""
    c.value(label + " name", d.get("name"), smi_text(node, "product_name"), equal_text)
    c.value(label + " total memory", d.get("memory_bytes"),
            smi_text(node, "fb_memory_usage/total"), equal_mib, " bytes")
    uuid = smi_text(node, "uuid")
    if uuid in caps:
        c.value(label + " compute capability", d.get("compute_capability"), caps[uuid],
                equal_text)
    # cuDeviceGetAttribute's memory clock is the peak one, in kHz. (Its SM clock is the
    # rated boost clock, below nvidia-smi's maximum on GeForce cards: 2520 vs 3105 MHz on
    # an RTX 4090, so there is nothing of nvidia-smi's to hold it against.)
    khz = d.get("memory_clock_khz")
    c.value(label + " memory clock (peak)", khz // 1000 if proofkit.known(khz) else khz,
            smi_text(node, "max_clocks/mem_clock"), equal_number, " MHz")


def parse_xml(path):
    try:
        return ET.parse(path).getroot(), None
    except (OSError, ET.ParseError) as e:
        return None, "%s: %s" % (path, e)


def main(argv):
    if len(argv) != 6:
        sys.stderr.write(__doc__)
        return 2
    report, why = proofkit.load_json(argv[1])
    smi, smi_why = parse_xml(argv[2])
    after, _ = parse_xml(argv[3])
    caps, caps_why = compute_caps(argv[4])
    c = Comparison()
    if report is None or smi is None:
        c.line("fail", "all facts", "not compared: %s" % (why or smi_why))
    else:
        nvml, cuda = report.get("nvml", {}), report.get("cuda_driver", {})
        c.value("driver version", nvml.get("driver_version"), smi_text(smi, "driver_version"),
                equal_text)
        c.value("CUDA version (NVML)", cuda_text(nvml.get("cuda_driver_version")),
                smi_text(smi, "cuda_version"), equal_text)
        c.value("CUDA version (cuDriverGetVersion)", cuda_text(cuda.get("driver_version")),
                smi_text(smi, "cuda_version"), equal_text)
        gpus = nvml.get("gpus")
        nodes = smi.findall("gpu")
        after_nodes = after.findall("gpu") if after is not None else []
        c.value("GPU count", len(gpus) if proofkit.known(gpus) else gpus,
                smi_text(smi, "attached_gpus"), equal_number)
        by_uuid = dict((smi_text(n, "uuid"), n) for n in nodes)
        by_bus = dict((bus_key(smi_text(n, "pci/pci_bus_id")), n) for n in nodes)
        after_by_uuid = dict((smi_text(n, "uuid"), n) for n in after_nodes)
        for g in gpus if proofkit.known(gpus) else []:
            label = "gpu%s" % g.get("index", "?")
            node = by_uuid.get(g.get("uuid")) or by_bus.get(bus_key(g.get("pci_bus_id")))
            if node is None:
                c.differs(label, "%s %s" % (proofkit.show(g.get("name")),
                                            proofkit.show(g.get("uuid"))),
                          "no GPU with that UUID or bus id in nvidia-smi")
                continue
            compare_nvml_gpu(c, label, g, node, after_by_uuid.get(smi_text(node, "uuid")),
                             caps, caps_why)
        devices = cuda.get("devices")
        for d in devices if proofkit.known(devices) else []:
            label = "cuda%s" % d.get("index", "?")
            node = by_bus.get(bus_key(d.get("pci_bus_id")))
            if node is None:
                c.differs(label, proofkit.show(d.get("pci_bus_id")),
                          "no GPU at that bus id in nvidia-smi")
                continue
            compare_cuda_device(c, label, d, node, caps)
        if not proofkit.known(devices):
            c.skip("CUDA driver API devices", "dlenv: %s" % proofkit.show(devices))
    with open(argv[5], "w") as f:
        f.write("# dlenv's GPU facts (report.json) against nvidia-smi (nvidia-smi.xml):\n"
                "# FACT: same (VALUE) | differs: DLENV vs NVIDIA-SMI | not compared: WHY\n")
        for line in c.lines:
            f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
