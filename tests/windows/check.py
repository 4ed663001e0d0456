#!/usr/bin/env python3
"""check.py OUTPUT EXIT_CODE EXPECT [STDERR]: checks a `dlenv.exe doctor --json` answer
against a scenario's expectations, one per line:
    exit N                      the exit code
    stderr TEXT...              standard error contains TEXT
    nostdout                    nothing was written on standard output
    root ID | root none         the root cause
    finding ID SEVERITY         a finding with this id and severity
    no ID                       no finding with this id
    fix ID TEXT...              one of ID's fixes contains TEXT
    title ID TEXT...            ID's title contains TEXT
    fact PATH JSON              facts.PATH equals JSON (PATH: a.b[0].c)
    has PATH TEXT...            facts.PATH, as text, contains TEXT (unknowns: their reason)
    above PATH NUMBER           facts.PATH is a number above NUMBER
    absent PATH                 facts.PATH does not exist
    probe NAME STATUS           the probe named NAME ended with STATUS
    lacks TEXT...               the output has TEXT nowhere, in any case, plain or as JSON
                                writes it
    line TEXT                   a line of standard output is TEXT, but for leading spaces
                                (TEXT is the rest of the expectation, spaces as they are)
    linere REGEX                a line of standard output, leading spaces dropped, matches
                                REGEX whole
    json PATH JSON              the output's PATH (from its top: a.b[0].c) equals JSON
    lint FILE LINE ID SEVERITY  `dlenv lint --json`: a finding ID of SEVERITY at FILE:LINE
Prints every failed line and exits 1 when any failed."""
import json
import re
import sys


def at(doc, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            doc = doc[int(part[1:-1])]
        else:
            doc = doc[part]
    return doc


def text_of(value):
    """Strings as they are, unknowns as "unknown: why", lists item by item joined by " | ",
    so an expectation writes a Windows path with single backslashes."""
    if isinstance(value, dict) and "unknown" in value:
        return "unknown: " + str(value.get("unknown"))
    if isinstance(value, list):
        return " | ".join(text_of(v) for v in value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def output_lines(out):
    return [l.lstrip(" ").rstrip("\r") for l in out.split("\n")]


def check(out, err, code, line):
    words = line.split()
    kind, args = words[0], words[1:]
    if kind in ("line", "linere"):
        want = line[len(kind) + 1:]
        lines = output_lines(out)
        if kind == "line":
            return want in lines, f"no such line in: {out[:1500]}"
        return any(re.fullmatch(want, l) for l in lines), f"no line matches in: {out[:1500]}"
    if kind == "exit":
        return code == int(args[0]), f"exit code {code}"
    if kind == "stderr":
        return " ".join(args) in err, f"stderr: {err.strip()[:300]}"
    if kind == "nostdout":
        return out == "", f"stdout: {out[:300]}"
    if kind == "lacks":
        text = " ".join(args).lower()
        hay = out.lower()
        where = max(hay.find(text), hay.find(json.dumps(text)[1:-1]))
        return where < 0, f"found: ...{out[max(where - 80, 0):where + 80]}..."
    if kind == "probe":
        try:
            probes = json.loads(out)["facts"]["tool"]["probes"]
        except (ValueError, KeyError) as e:
            return False, f"no probes: {e}"
        got = [p.get("status") for p in probes if p.get("name") == args[0]]
        return got == [args[1]], f"probe {args[0]}: {got}"
    try:
        doc = json.loads(out)
    except ValueError as e:
        return False, f"the output is not JSON: {e}"
    if kind == "json":
        try:
            value = at(doc, args[0])
        except (KeyError, IndexError, TypeError):
            return False, "no such path"
        return value == json.loads(" ".join(args[1:])), f"is {json.dumps(value)}"
    if kind == "lint":
        got = [(f.get("file"), f.get("line"), f.get("id"), f.get("severity"))
               for f in doc.get("findings", [])]
        want = (args[0], int(args[1]), args[2], args[3])
        return want in got, f"findings: {got}"
    findings = {f["id"]: f for f in doc.get("findings", [])}
    if kind == "root":
        root = doc.get("root_cause")
        root = root if isinstance(root, str) else "none"
        return root == args[0], f"root cause {root}"
    if kind == "finding":
        f = findings.get(args[0])
        return bool(f) and f["severity"] == args[1], f"found {f and f['severity']}"
    if kind == "no":
        return args[0] not in findings, "it was found"
    if kind in ("fix", "title"):
        f = findings.get(args[0])
        text = " ".join(args[1:])
        hay = " | ".join(f["fix"]) if f and kind == "fix" else (f["title"] if f else "")
        return bool(f) and text in hay, f"{kind}: {hay or 'no such finding'}"
    try:
        value = at(doc["facts"], args[0])
    except (KeyError, IndexError, TypeError):
        return kind == "absent", "no such fact"
    if kind == "absent":
        return False, f"is {text_of(value)}"
    if kind == "fact":
        want = json.loads(" ".join(args[1:]))
        return value == want, f"is {text_of(value)}"
    if kind == "above":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return ok and value > float(args[1]), f"is {text_of(value)}"
    if kind == "has":
        return " ".join(args[1:]) in text_of(value), f"is {text_of(value)}"
    return False, "unknown expectation"


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def main():
    out, code, expect = read(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    err = read(sys.argv[4]) if len(sys.argv) > 4 else ""
    failed = 0
    with open(expect, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            ok, why = check(out, err, code, line)
            if not ok:
                print(f"  FAILED: {line}   ({why})")
                failed += 1
    return 1 if failed else 0


sys.exit(main())
