#!/usr/bin/env python3
"""mutate_members.py DLENV REPORT|PATCH|DIR...: the structure-aware pass over saved reports.

Every member of each report (each key of each object, at every depth, in list items too:
the first item that has it, as the others share its shape and its reader) is in turn
deleted, and replaced by null, a number, a string, an empty array and an empty
object. A PATCH (tests/doctor's format, applied to its base by tests/doctor/apply_patch.py)
gives a report with something a healthy one lacks (a missing DLL, a device node this user
may not open); there only what the patch touched is changed: the members of a list item
it appended, or the member it set and its siblings. A DIR
stands for its patches that add list items (PATH += JSON): the members a healthy report
has none of. Each
changed document goes through the real binary twice:

    dlenv doctor --from CHANGED        dlenv diff REPORT CHANGED

(diff is left out for a member below the top level that doctor --from refused with exit
4: both read the facts with the same reader, and each run under ASan costs 60 ms)

and each run must end by itself with an exit code of 0-4: no signal, no sanitizer report
(ASan, UBSan, LeakSanitizer) on stderr. And the doctor must never say "Everything ...
works" with exit 0 for a document whose core facts are gone: a top-level section of the
machine (os, cpu, memory, gpus, nvidia_kernel, nvml, cuda_driver, libraries, pythons)
deleted or null. Every failure is listed with the member, the change, the command and
what it said (for a sanitizer report, the first frame of dlenv's own code); the exit code
is 1 when there is any."""
import concurrent.futures
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

DELETE = object()
CHANGES = [
    ("deleted", DELETE),
    ("null", None),
    ("a number", 12345),
    ("a string", "x"),
    ("an empty array", []),
    ("an empty object", {}),
]
CORE = {"os", "cpu", "memory", "gpus", "nvidia_kernel", "nvml", "cuda_driver", "libraries",
        "pythons"}
SANITIZER = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|"
                       r"SUMMARY: (Address|Undefined|Leak)Sanitizer")
FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (\S+) (\S*src/\S+)")
EVERYTHING = re.compile(r"Everything .* works")


HERE = os.path.dirname(os.path.abspath(__file__))
APPLY_PATCH = os.path.join(HERE, "..", "doctor", "apply_patch.py")
PATCH_BASE = os.path.join(HERE, "..", "doctor", "base.json")


def patched(patch, scratch):
    """The report a patch gives, and the paths (tuples) whose insides to change."""
    out = os.path.join(scratch, os.path.basename(patch) + ".json")
    subprocess.run([sys.executable, APPLY_PATCH, PATCH_BASE, patch, out], check=True)
    focus = []
    with open(patch, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.split()[0] in ("#", "expect", "fires", "quiet", "base", "fix",
                                                  "nofix", "says", "verdict"):
                continue
            for op in (" += ", " = ", " -"):
                if (op in line) if op != " -" else line.endswith(op):
                    keys = line.split(op, 1)[0].strip().split(".")
                    path = tuple(int(k) if k.isdigit() else k for k in keys)
                    focus.append(path)
                    break
    with open(out, encoding="utf-8") as f:
        return out, json.load(f), focus


def expand(args):
    """The arguments with each folder replaced by its patches that add list items."""
    out = []
    for arg in args:
        if not os.path.isdir(arg):
            out.append(arg)
            continue
        for name in sorted(os.listdir(arg)):
            path = os.path.join(arg, name)
            if name.endswith(".patch"):
                with open(path, encoding="utf-8") as f:
                    if " += " in f.read():
                        out.append(path)
    return out


def inside(path, touched, doc):
    """Whether a patch's change reaches path: inside a list item it appended (the last
    one), or the member it set or removed and its siblings."""
    node = doc
    for step in touched:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
            break
    if isinstance(node, list) and node:
        item = touched + (len(node) - 1,)
        return len(path) > len(item) and path[:len(item)] == item
    parent = touched[:-1]
    return len(path) == len(touched) and path[:len(parent)] == parent


def members(node, path=()):
    """Every key path in node, parents before their children."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,)
            yield from members(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from members(value, path + (i,))


def changed(doc, path, value):
    out = copy.deepcopy(doc)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(value)
    return out


def show(path):
    text = "$"
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else f".{step}"
    return text


def run(argv):
    env = dict(os.environ, NO_COLOR="1",
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "detect_leaks=1"),
               UBSAN_OPTIONS=os.environ.get("UBSAN_OPTIONS", "print_stacktrace=1"))
    try:
        p = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                           timeout=120, env=env)
    except subprocess.TimeoutExpired:
        return None, "", "did not end within 120 s"
    return p.returncode, p.stdout, p.stderr


def verdict(code, out, err):
    """What is wrong with one run, or None."""
    if code is None:
        return "hung: " + err
    if SANITIZER.search(err):
        frames = FRAME.findall(err)
        where = f" in {frames[0][0]} ({frames[0][1]})" if frames else ""
        rule = next((f for f in frames if f[0].startswith("dl_rule_")), None)
        if rule and rule != frames[0]:
            where += f", called from {rule[0]} ({rule[1]})"
        first = SANITIZER.search(err).group(0)
        return f"sanitizer{where}: {first}"
    if code < 0:
        return f"killed by signal {-code}"
    if code > 5:  # 5: cannot judge, the honest answer to a report with holes
        return f"exit code {code}: {err.strip()[:200]}"
    return None


def check(dlenv, report, doc, path, name, value, scratch):
    """The failures of one change, as (kind, text) pairs, and how many runs it took."""
    fd, changed_file = tempfile.mkstemp(suffix=".json", dir=scratch)
    with os.fdopen(fd, "w") as f:
        json.dump(changed(doc, path, value), f)
    what = f"{os.path.basename(report)} {show(path)} {name}"
    failures = []
    code, out, err = run([dlenv, "doctor", "--from", changed_file, "--ascii"])
    bad = verdict(code, out, err)
    if bad:
        failures.append(("crash", f"{what}: doctor --from: {bad}"))
    elif (code == 0 and EVERYTHING.search(out) and len(path) == 1 and path[0] in CORE
          and (value is DELETE or value is None)):
        failures.append(("core", f"{what}: doctor --from says everything works (exit 0) "
                                 f"without {path[0]}"))
    # diff reads the facts with the same reader (dl_schema_from_json): a member deep
    # inside that doctor --from refused (exit 4) is refused there too, and under ASan each
    # run costs 60 ms. Top-level members go through diff always: its own document check
    # (schema, facts, findings) is not doctor's.
    diffed = code != 4 or len(path) == 1
    if diffed:
        code, out, err = run([dlenv, "diff", report, changed_file, "--ascii"])
        bad = verdict(code, out, err)
        if bad:
            failures.append(("crash", f"{what}: diff: {bad}"))
    os.unlink(changed_file)
    return failures, 2 if diffed else 1


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    dlenv = sys.argv[1]
    jobs, failures, runs = [], [], 0
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for arg in expand(sys.argv[2:]):
            if arg.endswith(".patch"):
                report, doc, focus = patched(arg, scratch)
            else:
                with open(arg, encoding="utf-8") as f:
                    report, doc, focus = arg, json.load(f), None
            shapes = set()
            for path in members(doc):
                shape = tuple("[]" if isinstance(step, int) else step for step in path)
                if shape in shapes or (focus is not None and
                                       not any(inside(path, f, doc) for f in focus)):
                    continue
                shapes.add(shape)
                for name, value in CHANGES:
                    jobs.append(pool.submit(check, dlenv, report, doc, path, name, value,
                                            scratch))
        for job in jobs:
            found, ran = job.result()
            failures.extend(found)
            runs += ran
    print(f"mutate_members: {len(jobs)} changed documents, {runs} runs of dlenv")
    for kind, title in (("crash", "crashes, signals, exit codes above 5"),
                        ("core", "core facts gone, yet \"Everything works\"")):
        found = sorted(text for k, text in failures if k == kind)
        if found:
            print(f"\n{len(found)} {title}:")
            for text in found:
                print("  " + text)
    if failures:
        print(f"\nmutate_members: {len(failures)} failure(s)")
        return 1
    print("mutate_members: no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
