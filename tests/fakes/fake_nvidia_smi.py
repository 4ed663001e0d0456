#!/usr/bin/env python3
"""A fake nvidia-smi for the GPU proof kit's self-test (scripts/gpu-proof.sh --self-test).

Answers from the same scenario file the fake libnvidia-ml.so.1 reads (DLENV_FAKE_SCENARIO,
see fake_scenario.h), so its XML says what the fake NVML told dlenv, in nvidia-smi's own
units and spellings (MiB, W with two decimals, "16x", "P2", "Enabled", "N/A"). Put first
on PATH as `nvidia-smi`. Understands only what the kit asks:

  nvidia-smi -q -x                                        the XML report (DTD v12 layout)
  nvidia-smi --query-gpu=F,... --format=csv,noheader      F in index, name, uuid,
                                                          driver_version, compute_cap

DLENV_FAKE_SMI_SET="gpu0.power_limit_mw=300000;..." changes scenario values for nvidia-smi
only: the planted difference that the kit's checker must catch.
"""
import os
import sys

MIB = 1024 * 1024
COMPUTE_MODES = {"0": "Default", "1": "Exclusive_Thread", "2": "Prohibited",
                 "3": "Exclusive_Process"}


def read_scenario():
    values = {}
    path = os.environ.get("DLENV_FAKE_SCENARIO")
    if not path:
        sys.exit("fake nvidia-smi: DLENV_FAKE_SCENARIO is not set")
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            for mark in (" #", "\t#"):
                if mark in line:
                    line = line[:line.index(mark)]
            key, sep, value = line.partition("=")
            if sep:
                values[key.strip()] = value.strip()
    for item in os.environ.get("DLENV_FAKE_SMI_SET", "").split(";"):
        key, sep, value = item.partition("=")
        if sep:
            values[key.strip()] = value.strip()
    return values


class Gpu(object):
    def __init__(self, s, i):
        self.s, self.p = s, "gpu%d." % i

    def raw(self, key):
        return self.s.get(self.p + key)

    def num(self, key):
        v = self.raw(key)
        if v is None or v.startswith("error:") or v == "":
            return None
        return int(v, 0)

    def text(self, key, fmt="%d", scale=1):
        n = self.num(key)
        if n is None:
            return "N/A"
        return fmt % (n / scale if scale != 1 else n)

    def mode(self, key):
        n = self.num(key)
        return "N/A" if n is None else ("Enabled" if n else "Disabled")


def cuda_text(s):
    v = s.get("nvml.cuda")
    if not v or v.startswith("error:"):
        return "N/A"
    n = int(v)
    return "%d.%d" % (n // 1000, (n % 1000) // 10)


def xml_report(s):
    count = int(s.get("nvml.count", "0"))
    out = ['<?xml version="1.0" ?>',
           '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">',
           "<nvidia_smi_log>",
           "\t<timestamp>Thu Jan  1 00:00:00 2025</timestamp>",
           "\t<driver_version>%s</driver_version>" % s.get("nvml.driver", "N/A"),
           "\t<cuda_version>%s</cuda_version>" % cuda_text(s),
           "\t<attached_gpus>%d</attached_gpus>" % count]
    for i in range(count):
        g = Gpu(s, i)
        bus = g.raw("bus_id") or "N/A"
        dev = g.raw("pci_device_id") or "0x0"
        mem_total, mem_used = g.num("mem_total"), g.num("mem_used")
        used = "%d MiB" % (mem_used // MIB) if mem_used is not None else "N/A"
        free = ("%d MiB" % ((mem_total - mem_used) // MIB)
                if mem_total is not None and mem_used is not None else "N/A")
        out += ['\t<gpu id="%s">' % bus,
                "\t\t<product_name>%s</product_name>" % (g.raw("name") or "N/A"),
                "\t\t<display_mode>%s</display_mode>" % g.mode("display_mode"),
                "\t\t<display_active>%s</display_active>" % g.mode("display_active"),
                "\t\t<persistence_mode>%s</persistence_mode>" % g.mode("persistence"),
                "\t\t<mig_mode>",
                "\t\t\t<current_mig>%s</current_mig>" % g.mode("mig"),
                "\t\t\t<pending_mig>%s</pending_mig>" % g.mode("mig"),
                "\t\t</mig_mode>",
                "\t\t<uuid>%s</uuid>" % (g.raw("uuid") or "N/A"),
                "\t\t<minor_number>%d</minor_number>" % i,
                "\t\t<pci>",
                "\t\t\t<pci_device_id>%08X</pci_device_id>" % int(dev, 16),
                "\t\t\t<pci_bus_id>%s</pci_bus_id>" % bus,
                "\t\t\t<pci_gpu_link_info>",
                "\t\t\t\t<pcie_gen>",
                "\t\t\t\t\t<max_link_gen>%s</max_link_gen>" % g.text("pcie_gen_max"),
                "\t\t\t\t\t<current_link_gen>%s</current_link_gen>" % g.text("pcie_gen"),
                "\t\t\t\t</pcie_gen>",
                "\t\t\t\t<link_widths>",
                "\t\t\t\t\t<max_link_width>%s</max_link_width>" % g.text("pcie_width_max", "%dx"),
                "\t\t\t\t\t<current_link_width>%s</current_link_width>" % g.text("pcie_width", "%dx"),
                "\t\t\t\t</link_widths>",
                "\t\t\t</pci_gpu_link_info>",
                "\t\t</pci>",
                "\t\t<performance_state>%s</performance_state>" % g.text("pstate", "P%d"),
                "\t\t<fb_memory_usage>",
                "\t\t\t<total>%s</total>" % g.text("mem_total", "%d MiB", MIB),
                "\t\t\t<used>%s</used>" % used,
                "\t\t\t<free>%s</free>" % free,
                "\t\t</fb_memory_usage>",
                "\t\t<compute_mode>%s</compute_mode>" % COMPUTE_MODES.get(
                    g.raw("compute_mode") or "", "N/A"),
                "\t\t<ecc_mode>",
                "\t\t\t<current_ecc>%s</current_ecc>" % g.mode("ecc"),
                "\t\t\t<pending_ecc>%s</pending_ecc>" % g.mode("ecc"),
                "\t\t</ecc_mode>",
                "\t\t<gpu_power_readings>",
                "\t\t\t<power_draw>%s</power_draw>" % g.text("power_mw", "%.2f W", 1000.0),
                "\t\t\t<current_power_limit>%s</current_power_limit>" % g.text(
                    "power_limit_mw", "%.2f W", 1000.0),
                "\t\t\t<default_power_limit>%s</default_power_limit>" % g.text(
                    "power_limit_default_mw", "%.2f W", 1000.0),
                "\t\t</gpu_power_readings>",
                "\t\t<clocks>",
                "\t\t\t<graphics_clock>%s</graphics_clock>" % g.text("sm_clock", "%d MHz"),
                "\t\t\t<sm_clock>%s</sm_clock>" % g.text("sm_clock", "%d MHz"),
                "\t\t\t<mem_clock>%s</mem_clock>" % g.text("mem_clock", "%d MHz"),
                "\t\t</clocks>",
                "\t\t<max_clocks>",
                "\t\t\t<graphics_clock>%s</graphics_clock>" % g.text("sm_clock_max", "%d MHz"),
                "\t\t\t<sm_clock>%s</sm_clock>" % g.text("sm_clock_max", "%d MHz"),
                "\t\t\t<mem_clock>%s</mem_clock>" % g.text("mem_clock_max", "%d MHz"),
                "\t\t</max_clocks>",
                "\t\t<applications_clocks>",
                "\t\t\t<graphics_clock>%s</graphics_clock>" % g.text("app_clock_graphics",
                                                                      "%d MHz"),
                "\t\t\t<mem_clock>%s</mem_clock>" % g.text("app_clock_mem", "%d MHz"),
                "\t\t</applications_clocks>",
                "\t\t<default_applications_clocks>",
                "\t\t\t<graphics_clock>%s</graphics_clock>" % g.text(
                    "app_clock_graphics_default", "%d MHz"),
                "\t\t\t<mem_clock>%s</mem_clock>" % g.text("app_clock_mem_default", "%d MHz"),
                "\t\t</default_applications_clocks>",
                "\t</gpu>"]
    out.append("</nvidia_smi_log>")
    return "\n".join(out) + "\n"


def query(s, fields):
    count = int(s.get("nvml.count", "0"))
    for i in range(count):
        g = Gpu(s, i)
        row = []
        for f in fields:
            if f == "index":
                row.append(str(i))
            elif f == "name":
                row.append(g.raw("name") or "[N/A]")
            elif f == "uuid":
                row.append(g.raw("uuid") or "[N/A]")
            elif f == "driver_version":
                row.append(s.get("nvml.driver", "[N/A]"))
            elif f == "compute_cap":
                row.append(g.raw("cc") or "[N/A]")
            else:
                sys.stderr.write('Field "%s" is not a valid field to query.\n' % f)
                return 2
        print(", ".join(row))
    return 0


def main(argv):
    s = read_scenario()
    init = s.get("nvml.init", "")
    if init.startswith("error:") or "nvml.init_hang" in s or "nvml.init_crash" in s:
        print("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
              "Make sure that the latest NVIDIA driver is installed and running.")
        return 9
    if "-q" in argv and "-x" in argv:
        sys.stdout.write(xml_report(s))
        return 0
    fields = [a.split("=", 1)[1] for a in argv if a.startswith("--query-gpu=")]
    formats = [a.split("=", 1)[1] for a in argv if a.startswith("--format=")]
    if fields and formats and "noheader" in formats[0]:
        return query(s, fields[0].split(","))
    sys.stderr.write("fake nvidia-smi: unsupported arguments: %s\n" % " ".join(argv))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
