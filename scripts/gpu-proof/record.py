#!/usr/bin/env python3
"""record.py OUTDIR DOCSDIR: keeps a real run of the GPU proof kit as data.

Reads OUTDIR/summary.txt (and, where present, references.json and bad-settings.json) and
writes DOCSDIR/YYYY-MM-DD-GPU.json (the run's date, the GPU's name with spaces as "-"):
the counts, every check with its verdict and detail, the reference ratios and the bad
settings' root causes. Later changes to dlenv are compared with these real answers
(docs/hardware-runs/README.md). Prints the path written; refuses to overwrite a record.
"""
import json
import os
import re
import sys

FIRST = re.compile(r"^gpu-proof: (\d+) checks, (\d+) passed, (\d+) failed, on (.*) driver (\S+)$")
CHECK = re.compile(r"^(PASS|FAIL|SKIP) (.*?): (.*)$")
STAMP = re.compile(r"^# (dlenv \S+) \((.*)\), verify (\S+), torch: (.*), "
                   r"(\d{4}-\d\d-\d\d)T(\S+) UTC, (\d+) s$")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    outdir, docs = argv[1], argv[2]
    with open(os.path.join(outdir, "summary.txt")) as f:
        lines = f.read().splitlines()
    first = FIRST.match(lines[0]) if lines else None
    stamp = STAMP.match(lines[-1]) if lines else None
    if not first or not stamp:
        sys.stderr.write("record.py: %s/summary.txt is not a summary of gpu-proof.sh\n" % outdir)
        return 1
    gpu = first.group(4)
    rec = {"schema": "dlenv.gpu-proof.record/1", "date": stamp.group(5),
           "time_utc": stamp.group(6), "gpu": gpu, "driver": first.group(5),
           "dlenv": stamp.group(1), "verify": stamp.group(3), "torch": stamp.group(4),
           "seconds": int(stamp.group(7)),
           "checks": int(first.group(1)), "passed": int(first.group(2)),
           "failed": int(first.group(3)), "results": []}
    for line in lines[1:-1]:
        m = CHECK.match(line)
        if m:
            rec["results"].append({"verdict": m.group(1).lower(), "check": m.group(2),
                                   "detail": m.group(3)})
    refs = load(os.path.join(outdir, "references.json"))
    if refs:
        rec["references"] = [dict((k, r.get(k)) for k in ("name", "unit", "dlenv", "reference",
                                                            "ratio", "verdict"))
                             for r in refs.get("references", [])]
    bad = load(os.path.join(outdir, "bad-settings.json"))
    if bad:
        rec["bad_settings"] = [dict((k, c.get(k)) for k in ("name", "setting", "root_cause",
                                                             "expected", "verdict"))
                               for c in bad.get("cases", [])]
    name = "%s-%s.json" % (rec["date"], re.sub(r"[^A-Za-z0-9.]+", "-", gpu).strip("-"))
    path = os.path.join(docs, name)
    if os.path.exists(path):
        sys.stderr.write("record.py: %s exists; keep both runs by renaming one\n" % path)
        return 1
    with open(path, "w") as f:
        json.dump(rec, f, indent=2)
        f.write("\n")
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
