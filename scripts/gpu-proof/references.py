#!/usr/bin/env python3
"""references.py VERIFY_JSON TORCH_JSON OUT_JSON

dlenv verify's GPU figures next to references from outside dlenv, each with the ratio
dlenv / reference, the band the ratio must fall in, and a verdict (pass, fail, skip):

  against the machine's own CUDA torch, measured in the same run (torch_reference.py;
  TORCH_JSON may hold {"error": why} when there is none), on device 0:
    the device-to-device bandwidth (cuMemcpyDtoD and dlenv's copy kernel) vs torch's
    copy of a large buffer, within 15 %; torch's products as verify timed them (fp32,
    tf32, fp16, bf16) vs the same products timed here, within 15 %
  against the datasheet (datasheets.csv, by the CUDA device's name), every GPU:
    the fp32 FMA rate (75-105 % of the peak: a figure above it means dlenv counts wrong),
    verify's own fp32 and memory limits (within 15 %), the copy bandwidth (60-102 %) and
    verify's bf16 product (40-102 % of the dense tensor peak)

Each reference is a check on stdout (proofkit.check).
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import proofkit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WITHIN_15 = (0.85, 1.15)


def datasheets():
    with open(os.path.join(HERE, "datasheets.csv")) as f:
        return dict((row["name"], row) for row in csv.DictReader(f))


class References(object):
    def __init__(self):
        self.rows = []

    def add(self, name, unit, ours_key, ours, reference_is, reference, band):
        row = {"name": name, "unit": unit, "dlenv": ours, "dlenv_is": "verify.json " + ours_key,
               "reference": reference, "reference_is": reference_is,
               "accepted_ratio": list(band)}
        if not proofkit.known(ours) or not isinstance(ours, (int, float)):
            row["dlenv"] = None
            row["verdict"], row["why"] = "skip", "verify has no figure: %s" % proofkit.show(ours)
        elif isinstance(reference, str) or reference is None:
            row["reference"] = None
            row["verdict"], row["why"] = "skip", "no reference: %s" % (reference or "none")
        else:
            row["ratio"] = round(ours / reference, 4)
            row["verdict"] = "pass" if band[0] <= row["ratio"] <= band[1] else "fail"
        self.rows.append(row)
        if row["verdict"] == "skip":
            detail = row["why"]
        else:
            detail = "%.4g vs %.4g %s, ratio %.3f (accepted %.2f-%.2f)" % (
                ours, reference, unit, row["ratio"], band[0], band[1])
        proofkit.check(row["verdict"], "reference " + name, detail)


def torch_figure(torch, *path):
    """A figure from torch_reference.py's output, or the reason there is none."""
    if torch.get("error"):
        return torch["error"]
    cur = torch
    for p in path[:-1]:
        cur = cur.get(p) or {}
    if cur.get("error"):
        return cur["error"]
    return cur.get(path[-1], "torch_reference.py measured no %s" % "/".join(path[:-1]))


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    verify, why = proofkit.load_json(argv[1])
    torch, torch_why = proofkit.load_json(argv[2])
    if torch is None:
        torch = {"error": torch_why}
    refs = References()
    doc = {"schema": "dlenv.gpu-proof.references/1", "torch": dict(
        (k, torch.get(k)) for k in ("python", "torch", "cuda", "device", "error")
        if torch.get(k) is not None)}
    if verify is None:
        proofkit.check("fail", "reference verify.json", why)
        doc["error"] = why
        proofkit.write_json(argv[3], doc)
        return 0
    m = verify.get("measurements", {})
    g0, t0 = m.get("gpu0", {}), m.get("torch_gpu0", {})
    copy = torch_figure(torch, "copy", "gbps")
    copy_is = "torch b.copy_(a) on device 0, read + written"
    refs.add("gpu0 memory bandwidth, cuMemcpyDtoD vs torch copy", "GB/s",
             "measurements.gpu0.dtod_gbps", g0.get("dtod_gbps"), copy_is, copy, WITHIN_15)
    refs.add("gpu0 memory bandwidth, copy kernel vs torch copy", "GB/s",
             "measurements.gpu0.copy_kernel_gbps", g0.get("copy_kernel_gbps"), copy_is, copy,
             WITHIN_15)
    for dtype in ("fp32", "tf32", "fp16", "bf16"):
        key = "matmul_%s_tflops" % dtype
        refs.add("gpu0 torch %s matmul, verify vs timed here" % dtype, "TFLOPS",
                 "measurements.torch_gpu0." + key, t0.get(key, "verify did not time it"),
                 "torch.mm 4096 x 4096 %s on device 0, timed by the kit" % dtype,
                 torch_figure(torch, "matmul", dtype, "tflops"), WITHIN_15)

    sheets = datasheets()
    devices = proofkit.get(verify, "facts.cuda_driver.devices")
    doc["datasheets"] = []
    for d in devices if proofkit.known(devices) else []:
        label = "gpu%s" % d.get("index")
        g, name = m.get(label, {}), d.get("name")
        sheet = sheets.get(name)
        if sheet is None:
            proofkit.check("skip", "reference %s datasheet" % label,
                           "no datasheet figures for %s in datasheets.csv" % name)
            continue
        doc["datasheets"].append(dict(sheet, device=label))
        src = "datasheet: " + sheet["source"]
        fp32, mem, bf16 = (float(sheet[k]) for k in ("fp32_tflops", "memory_gbps", "bf16_tflops"))
        refs.add(label + " fp32 FMA vs datasheet", "TFLOPS", "measurements.%s.fp32_tflops" % label,
                 g.get("fp32_tflops"), src, fp32, (0.75, 1.05))
        refs.add(label + " fp32 limit vs datasheet", "TFLOPS",
                 "measurements.%s.fp32_tflops_limit" % label, g.get("fp32_tflops_limit"), src,
                 fp32, WITHIN_15)
        refs.add(label + " copy kernel vs datasheet bandwidth", "GB/s",
                 "measurements.%s.copy_kernel_gbps" % label, g.get("copy_kernel_gbps"), src, mem,
                 (0.6, 1.02))
        refs.add(label + " memory limit vs datasheet bandwidth", "GB/s",
                 "measurements.%s.copy_kernel_gbps_limit" % label,
                 g.get("copy_kernel_gbps_limit"), src, mem, WITHIN_15)
        t = m.get("torch_" + label)
        if not t:
            continue  # torch's products run on its device 0 only
        refs.add(label + " torch bf16 matmul (verify) vs datasheet dense", "TFLOPS",
                 "measurements.torch_%s.matmul_bf16_tflops" % label,
                 t.get("matmul_bf16_tflops", "verify did not time bf16"), src, bf16, (0.4, 1.02))
    doc["references"] = refs.rows
    proofkit.write_json(argv[3], doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
