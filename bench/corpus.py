#!/usr/bin/env python3
"""bench/corpus.py [DLENV] [CORPUS_DIR]: how often `dlenv explain` names the accepted root
cause on real users' reports (tests/cases/real: one file per report, index.tsv with the
cause the thread settled). Prints the share for the whole corpus and for its held-out
fifth (the `fold` column: cases nobody looks at while tuning the rules), per platform, and
every tune-fold miss with what dlenv said instead. Held-out misses are only counted unless
--show-heldout is given (look at them only after the last fix). --since rNNN.txt restricts
everything to the reports from that one on (a newly imported batch). Exit 0: the figures are
information, not a test.

A case counts as named when the root cause is one of its accepted ids; a case whose thread
had no environment failure ("none") counts when dlenv names no root cause. Two more columns
say how the rest failed, and are not counted as named: "candidate" (an accepted id is among
the alternatives dlenv names, so the text view shows it and asks the question that decides)
and, of the misses, how many name nothing (silent) and how many name another cause (wrong).
"""
import collections
import csv
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
dlenv = os.path.join(here, "..", "build", "dlenv")
corpus = os.path.join(here, "..", "tests", "cases", "real")


def report_number(name):
    """rNNN.txt's number (r1000.txt sorts after r999.txt)."""
    digits = "".join(c for c in name if c.isdigit())
    return int(digits) if digits else 0


def explain(path, program=None):
    """(root cause id or "none", [alternative ids]) that `dlenv explain` gives for path."""
    r = subprocess.run([program or dlenv, "explain", "--json", path], capture_output=True,
                       text=True)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        return "error: exit %d: %s" % (r.returncode, r.stderr.strip()[:120]), []
    root = doc.get("root_cause")
    if isinstance(root, dict):
        root = root.get("id")
    alternatives = [a.get("id") if isinstance(a, dict) else a
                    for a in doc.get("alternatives") or []]
    return root or "none", alternatives


def read_index(corpus_dir):
    with open(os.path.join(corpus_dir, "index.tsv"), encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def accepted(row):
    return [a.strip() for a in row["accept"].split(",") if a.strip()]


def main():
    global dlenv, corpus
    show_heldout = "--show-heldout" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "--show-heldout"]
    since = None
    if "--since" in args:
        at = args.index("--since")
        since = args[at + 1] if at + 1 < len(args) else None
        del args[at:at + 2]
    if len(args) > 0:
        dlenv = args[0]
    if len(args) > 1:
        corpus = args[1]
    rows = read_index(corpus)
    if since:
        rows = [r for r in rows if report_number(r["file"]) >= report_number(since)]
    totals = collections.Counter()
    named = collections.Counter()
    candidate = collections.Counter()
    wrong = collections.Counter()
    misses = []
    for row in rows:
        got, alternatives = explain(os.path.join(corpus, row["file"]))
        accept = accepted(row)
        ok = got in accept
        for key in ("all", row["fold"], "platform " + row["platform"]):
            totals[key] += 1
            named[key] += ok
            candidate[key] += not ok and any(a in alternatives for a in accept)
            wrong[key] += not ok and got != "none"
        if not ok:
            misses.append((row["fold"], row["file"], row["accept"], got,
                           ",".join(alternatives)))
    print("%-20s %-20s %-10s %s" % ("", "named", "candidate", "misses: silent / wrong"))
    for key in ["all", "heldout", "tune"] + sorted(k for k in totals if k.startswith("platform")):
        if totals[key]:
            missed = totals[key] - named[key]
            print("%-20s %4d / %4d  %5.1f%%  %4d       %4d / %d" % (
                key, named[key], totals[key], 100.0 * named[key] / totals[key],
                candidate[key], missed - wrong[key], wrong[key]))
    hidden = [m for m in misses if m[0] == "heldout" and not show_heldout]
    shown = [m for m in misses if m not in hidden]
    print("\nmisses (fold, file, accepted, dlenv's root cause, its alternatives):")
    for m in sorted(shown):
        print("  %s\t%s\t%s\t%s\t%s" % m)
    if hidden:
        print("  (%d held-out misses not shown: --show-heldout lists them)" % len(hidden))
    undocumented = without_reason(corpus, [m[1] for m in shown if m[0] == "tune"])
    if undocumented:
        print("\ntune misses that MISSES.md gives no reason for (%d): %s" % (
            len(undocumented), " ".join(undocumented)))


def without_reason(corpus_dir, files):
    """The files among `files` that tests/cases/real/MISSES.md never names (as rNNN)."""
    try:
        with open(os.path.join(corpus_dir, "MISSES.md"), encoding="utf-8") as f:
            named = set(re.findall(r"\br\d+\b", f.read()))
    except OSError:
        return files
    return [name for name in files if os.path.splitext(name)[0] not in named]


if __name__ == "__main__":
    main()
