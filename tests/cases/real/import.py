#!/usr/bin/env python3
"""import.py BATCH_DIR...: adds researchers' batches (NNN.txt + index.tsv with file, accept,
platform, torch, source, settled_by) to this corpus: each report renamed to the next free
rNNN.txt, a thread already here (same source) skipped, and its fold chosen from the source
URL alone (a fifth held out: nobody tunes rules on those). Prints what it added."""
import csv
import hashlib
import os
import shutil
import sys

here = os.path.dirname(os.path.abspath(__file__))
index = os.path.join(here, "index.tsv")
columns = ["file", "accept", "platform", "torch", "fold", "source", "settled_by"]


def fold_of(source):
    return "heldout" if hashlib.sha256(source.encode()).digest()[0] % 5 == 0 else "tune"


rows = []
if os.path.exists(index):
    with open(index, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
sources = {r["source"] for r in rows}
number = max([int(r["file"][1:].split(".")[0]) for r in rows] + [0])
added = 0
for batch in sys.argv[1:]:
    with open(os.path.join(batch, "index.tsv"), encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            src = (r.get("source") or "").strip()
            path = os.path.join(batch, (r.get("file") or "").strip())
            if not src or src in sources or not os.path.isfile(path):
                continue
            number += 1
            name = "r%03d.txt" % number
            shutil.copyfile(path, os.path.join(here, name))
            sources.add(src)
            rows.append({"file": name, "accept": r["accept"].strip(),
                         "platform": r["platform"].strip(), "torch": r["torch"].strip(),
                         "fold": fold_of(src), "source": src,
                         "settled_by": " ".join(r["settled_by"].split())})
            added += 1
with open(index, "w", encoding="utf-8", newline="") as f:
    w = csv.DictWriter(f, fieldnames=columns, delimiter="\t", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
print("added %d reports; %d in all" % (added, len(rows)))
