#!/usr/bin/env python3
"""bad_settings.py CASES_DIR OUT_JSON

The doctor run in known-bad settings on the real driver (scripts/gpu-proof.sh makes them),
each against what the fake drivers taught us to expect. CASES_DIR holds, per case NAME:
NAME.setting (what was set, one line), NAME.rc (doctor's exit code) and NAME.json (its
--json output), or NAME.skip (why the case could not be made on this machine).

  cvd_empty, cvd_too_many, cvd_bad_uuid   CUDA_VISIBLE_DEVICES "", 5, a UUID no GPU has:
                                          the root cause cuda_visible_devices
  stub_libcuda                            the toolkit's stub libcuda.so first on the loader
                                          path: libcuda_stub_on_path
  probe_timeout                           --probe-timeout 0.5: no crash (an exit code the
                                          doctor gives, a whole document), the facts of a
                                          probe that timed out all unknown, and the driver
                                          layer not ok when NVML timed out

Each case is a check on stdout (proofkit.check); OUT_JSON has the details.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import proofkit  # noqa: E402

EXPECTED = {
    "cvd_empty": "cuda_visible_devices",
    "cvd_too_many": "cuda_visible_devices",
    "cvd_bad_uuid": "cuda_visible_devices",
    "stub_libcuda": "libcuda_stub_on_path",
    "probe_timeout": None,
}
ORDER = ["cvd_empty", "cvd_too_many", "cvd_bad_uuid", "stub_libcuda", "probe_timeout"]
DOCTOR_EXIT_CODES = (0, 1, 5)   # ok / warning, failure, cannot judge
TIMEOUT_EXPECTED = "no crash; no fact of a probe that timed out known; driver not ok on them"


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def timeout_problems(doc, rc):
    """What breaks the rule for a short --probe-timeout; [] when nothing does."""
    problems, timed_out = [], []
    if rc not in DOCTOR_EXIT_CODES:
        problems.append("exit code %s is none the doctor gives (a crash?)" % rc)
    if doc is None or doc.get("schema") != "dlenv.doctor/1":
        problems.append("no doctor document")
        return problems, timed_out
    probes = proofkit.get(doc, "facts.tool.probes") or []
    for p in probes:
        if p.get("status") == "timed_out":
            timed_out.append(p.get("name"))
    for name in ("nvml", "cuda_driver"):
        if name not in timed_out:
            continue
        section = proofkit.get(doc, "facts." + name) or {}
        taken = sorted(k for k, v in section.items() if proofkit.known(v))
        if taken:
            problems.append("%s timed out, yet %s known" % (name, ", ".join(taken)))
    layers = dict((l.get("layer"), l) for l in doc.get("layers", []))
    driver = layers.get("driver", {})
    if "nvml" in timed_out and driver.get("status") == "ok":
        problems.append("NVML timed out, yet the driver layer is ok: %s" % driver.get("summary"))
    return problems, timed_out


def judge(cases_dir, name):
    case = {"name": name, "setting": read(os.path.join(cases_dir, name + ".setting"))}
    skip = read(os.path.join(cases_dir, name + ".skip"))
    expected = EXPECTED[name]
    case["expected"] = expected or TIMEOUT_EXPECTED
    if skip is not None:
        case["verdict"], case["detail"] = "skipped", skip
        return case
    rc = read(os.path.join(cases_dir, name + ".rc"))
    case["exit_code"] = int(rc) if rc and rc.lstrip("-").isdigit() else rc
    doc, why = proofkit.load_json(os.path.join(cases_dir, name + ".json"))
    if doc is not None:
        case["root_cause"] = doc.get("root_cause")
        case["verdict_of_doctor"] = doc.get("verdict")
        case["layers"] = dict((l.get("layer"), l.get("status")) for l in doc.get("layers", []))
        case["probes"] = dict((p.get("name"), p.get("status"))
                              for p in proofkit.get(doc, "facts.tool.probes") or []
                              if p.get("name") in ("nvml", "cuda_driver", "libraries"))
        for f in doc.get("findings", []):
            if f.get("id") == case["root_cause"]:
                case["root_cause_title"] = f.get("title")
    if expected is not None:
        got = case.get("root_cause") if doc is not None else "no document (%s)" % why
        same = got == expected
        case["detail"] = "root cause %s, expected %s (exit %s)" % (got, expected, rc)
    else:
        problems, timed_out = timeout_problems(doc, case["exit_code"])
        same = not problems
        case["timed_out"] = timed_out
        case["detail"] = "; ".join(problems) if problems else (
            "exit %s, root cause %s; timed out: %s" % (
                rc, case.get("root_cause") or "none", ", ".join(timed_out) or "nothing within 0.5 s"))
    case["verdict"] = "same" if same else "differs"
    return case


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    cases = []
    for name in ORDER:
        case = judge(argv[1], name)
        cases.append(case)
        verdict = {"same": "pass", "differs": "fail", "skipped": "skip"}[case["verdict"]]
        proofkit.check(verdict, "bad-settings " + name,
                       "%s: %s %s" % (case["setting"], case["verdict"], case["detail"])
                       if case["verdict"] != "skipped" else
                       "%s: %s" % (case["setting"], case["detail"]))
    proofkit.write_json(argv[2], {"schema": "dlenv.gpu-proof.bad-settings/1", "cases": cases})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
