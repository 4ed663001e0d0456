#!/usr/bin/env python3
"""check.py DLENV TESTS FAKES (or --self-test): every command dlenv prints for a user to paste must run in the
shell it is written for. Collects each fix step of every doctor fixture (tests/doctor
patches, tests/machines roots, tests/gpu scenarios with the fake driver libraries), every
explain case (tests/explain, tests/cases) and every command of every plan machine
(tests/plan/machines.tsv), then checks each line:

  POSIX sh (Linux, WSL, macOS): `bash -n` parses it; no comment after the command.
  PowerShell (Windows): a parser of our own (tokens, quotes, brackets): balanced quotes
    and brackets, no comment after the command, nothing from POSIX shells (export, unset,
    $VAR without env:, &&/|| which Windows PowerShell 5.1 lacks, sudo).
  Both: no placeholder (<env>, cuXYZ, ...), no prose in parentheses after the command.

A line starting with "#" is a note in words, not a command: it is only checked for
placeholders. Prints each bad line with where it came from; exit 1 if any.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

bad = []
checked = {"sh": 0, "ps": 0, "note": 0}
seen_ids = set()   # the findings whose fixes were checked

PLACEHOLDER = re.compile(r"<[A-Za-z][A-Za-z _-]*>|\bcuXYZ\b|\bX\.Y\b|\.\.\.(?!\w)|\bTODO\b")
PROSE_TAIL = re.compile(r"\s{2,}\(|\s\((?:or|then|see|log|the|a|from|on|in|PowerShell|"
                        r"enable|check|if)\b[^)]*\)\s*$")


def report(source, shell, line, why):
    bad.append("%s [%s] %s\n    %s" % (source, shell, why, line))


# ---- POSIX ---------------------------------------------------------------------------------

def sh_comment_after_command(line):
    """A '#' that starts a word outside quotes, after some command text."""
    quote = None
    prev = " "
    i = 0
    while i < len(line):
        c = line[i]
        if quote == "'":
            if c == "'":
                quote = None
        elif quote == '"':
            if c == "\\":
                i += 1
            elif c == '"':
                quote = None
        elif c == "\\":
            i += 1
        elif c in "'\"":
            quote = c
        elif c == "#" and prev in " \t;&|" and line[:i].strip():
            return True
        prev = c
        i += 1
    return False


def check_sh(source, line):
    checked["sh"] += 1
    r = subprocess.run(["bash", "-n", "-c", line], capture_output=True, text=True)
    if r.returncode != 0:
        report(source, "sh", line, "bash -n: " + r.stderr.strip().splitlines()[-1])
    if sh_comment_after_command(line):
        report(source, "sh", line, "a comment after the command")


# ---- PowerShell ----------------------------------------------------------------------------

def ps_tokens(line):
    """Splits a PowerShell command line into (kind, text) tokens: str, word, op, comment.
    Raises ValueError for an unterminated string."""
    toks = []
    i = 0
    n = len(line)
    while i < n:
        c = line[i]
        if c in " \t":
            i += 1
        elif c == "#":
            toks.append(("comment", line[i:]))
            break
        elif c in "'\u2018\u2019":
            j = i + 1
            while True:
                if j >= n:
                    raise ValueError("unterminated single-quoted string")
                if line[j] in "'\u2018\u2019":
                    if j + 1 < n and line[j + 1] in "'\u2018\u2019":
                        j += 2
                        continue
                    break
                j += 1
            toks.append(("str", line[i:j + 1]))
            i = j + 1
        elif c in '"\u201c\u201d':
            j = i + 1
            while True:
                if j >= n:
                    raise ValueError("unterminated double-quoted string")
                if line[j] == "`":
                    j += 2
                    continue
                if line[j] in '"\u201c\u201d':
                    if j + 1 < n and line[j + 1] in '"\u201c\u201d':
                        j += 2
                        continue
                    break
                j += 1
            toks.append(("str", line[i:j + 1]))
            i = j + 1
        elif line.startswith("&&", i) or line.startswith("||", i):
            toks.append(("op", line[i:i + 2]))
            i += 2
        elif c in "&|;(){}[],":
            toks.append(("op", c))
            i += 1
        else:
            j = i
            while j < n and line[j] not in " \t'\"&|;(){}[],#":
                if line[j] == "`":
                    j += 1
                j += 1
            toks.append(("word", line[i:j]))
            i = j
    return toks


def check_ps(source, line):
    checked["ps"] += 1
    try:
        toks = ps_tokens(line)
    except ValueError as e:
        report(source, "ps", line, str(e))
        return
    depth = {"(": 0, "{": 0, "[": 0}
    closing = {")": "(", "}": "{", "]": "["}
    for kind, text in toks:
        if kind == "comment":
            report(source, "ps", line, "a comment after the command")
        elif kind == "op" and text in ("&&", "||"):
            report(source, "ps", line, "%s does not exist in Windows PowerShell 5.1" % text)
        elif kind == "op" and text in depth:
            depth[text] += 1
        elif kind == "op" and text in closing:
            depth[closing[text]] -= 1
            if depth[closing[text]] < 0:
                report(source, "ps", line, "unbalanced %s" % text)
        elif kind == "word" and re.match(r"^\$(?!env:|true$|false$|null$)[A-Za-z_]", text):
            report(source, "ps", line, "a variable that is not $env: (%s)" % text)
        elif kind == "word" and re.search(r"%[A-Za-z_]+%", text):
            report(source, "ps", line, "cmd's %VAR% syntax")
    if any(v for v in depth.values()):
        report(source, "ps", line, "unbalanced brackets")
    words = [t for k, t in toks if k == "word"]
    first = words[0] if words else ""
    if first.lower() == "set" and len(words) > 1 and "=" in words[1]:
        report(source, "ps", line, "cmd's set NAME=value")
    if first in ("export", "unset", "sudo", "rm", "ln", "chmod") or first.endswith("="):
        report(source, "ps", line, "a POSIX shell command (%s)" % first)


def check_line(source, shell, line):
    if line.startswith("#"):
        checked["note"] += 1
        if PLACEHOLDER.search(line):
            report(source, shell, line, "a placeholder")
        return
    if PLACEHOLDER.search(line):
        report(source, shell, line, "a placeholder")
    if PROSE_TAIL.search(line):
        report(source, shell, line, "prose after the command")
    if shell == "ps":
        check_ps(source, line)
    else:
        check_sh(source, line)


# ---- sources -------------------------------------------------------------------------------

def run(args, env=None, cwd=None):
    r = subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd)
    try:
        return json.loads(r.stdout)
    except ValueError:
        raise SystemExit("check.py: not JSON from %s (exit %d): %s" %
                         (" ".join(args), r.returncode, r.stderr.strip()))


def shell_of(facts):
    family = ((facts or {}).get("os") or {}).get("family")
    return "ps" if family == "windows" else "sh"


def findings_fixes(doc, source):
    shell = shell_of(doc.get("facts"))
    for x in doc.get("findings") or []:
        seen_ids.add(x.get("id"))
        for step in x.get("fix") or []:
            check_line("%s: %s" % (source, x.get("id")), shell, step)


def doctor_patches(work):
    apply = os.path.join(TESTS, "doctor", "apply_patch.py")
    base = os.path.join(TESTS, "doctor", "base.json")
    for patch in sorted(glob.glob(os.path.join(TESTS, "doctor", "*.patch"))):
        out = os.path.join(work, "facts.json")
        subprocess.run([sys.executable, apply, base, patch, out], check=True)
        findings_fixes(run([DLENV, "doctor", "--json", "--from", out]),
                       "doctor/" + os.path.basename(patch))


def machines():
    for root in sorted(glob.glob(os.path.join(TESTS, "machines", "*", "root"))):
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
        findings_fixes(run([DLENV, "doctor", "--json", "--root", root], env=env),
                       "machines/" + os.path.basename(os.path.dirname(root)))


def gpu_scenarios():
    if not os.path.exists(os.path.join(FAKES, "cuda", "libcuda.so.1")):
        return
    for scenario in sorted(glob.glob(os.path.join(TESTS, "gpu", "*", "scenario"))):
        d = os.path.dirname(scenario)
        nvml = "nvml-old" if open_or(os.path.join(d, "nvml")) == "old" else "nvml"
        env = dict(os.environ, DLENV_FAKE_SCENARIO=scenario,
                   LD_LIBRARY_PATH="%s/%s:%s/cuda" % (FAKES, nvml, FAKES))
        args = shlex.split(open_or(os.path.join(d, "args")))
        findings_fixes(run([DLENV, "doctor", "--json", "--no-runtime"] + args, env=env),
                       "gpu/" + os.path.basename(d))


def open_or(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def explain_cases():
    texts = sorted(glob.glob(os.path.join(TESTS, "explain", "*.txt")) +
                   glob.glob(os.path.join(TESTS, "cases", "*.txt")))
    for text in texts:
        findings_fixes(run([DLENV, "explain", "--json", text]),
                       os.path.relpath(text, TESTS))


def plan_machines():
    table = os.path.join(TESTS, "plan", "machines.tsv")
    with open(table, encoding="utf-8") as f:
        for row in f:
            if not row.strip() or row.startswith("#"):
                continue
            name, args, torch = row.split("\t")[:3]
            if torch == "usage":
                continue  # a usage error by design: no plan, no commands
            doc = run([DLENV, "plan", "--json"] + shlex.split(args))
            shell = "ps" if (doc.get("machine") or {}).get("os") == "windows" else "sh"
            source = "plan/" + name
            note = doc.get("venv_note")
            if note:
                check_line(source + ": venv", shell, note)
            for key in ("recommended", "after_driver_update", "cpu_alternative"):
                cmds = (doc.get(key) or {}).get("commands") or {}
                for what, line in cmds.items():
                    if isinstance(line, str):
                        check_line("%s: %s.%s" % (source, key, what), shell, line)
                    elif isinstance(line, dict):
                        for sub in ("download", "install"):
                            if isinstance(line.get(sub), str):
                                check_line("%s: %s.%s.%s" % (source, key, what, sub), shell,
                                           line[sub])


# The checker itself: lines it must reject and lines it must pass.
SELF_TEST = [
    ("sh", "unset CUDA_VISIBLE_DEVICES   (or list existing GPUs)", False),
    ("sh", "kill 4242   # if it is not yours", False),
    ("sh", "conda activate <env> && python -m pip install torch", False),
    ("sh", "python -m pip install torch --index-url https://download.pytorch.org/whl/cuXYZ", False),
    ("sh", "echo 'unbalanced", False),
    ("sh", "# remove .../stubs from the path", False),
    ("sh", "export LD_LIBRARY_PATH='/opt/a b:/x'", True),
    ("sh", "sudo sh -c \"printf 'blacklist nouveau\\n' > /etc/modprobe.d/b.conf\"", True),
    ("sh", "echo 'a # b'", True),
    ("sh", "# a note (with words in parentheses)", True),
    ("ps", "$env:OPENBLAS_CORETYPE = \"SkylakeX\"   (set it where the job starts)", False),
    ("ps", "conda create -y -n torch python=3.12 && conda run -n torch python", False),
    ("ps", "export OMP_NUM_THREADS=4", False),
    ("ps", "& 'C:\\Program Files\\Python312\\python.exe -m pip install torch", False),
    ("ps", "Stop-Process -Id 4242  # if it is yours", False),
    ("ps", "set CUDA_VISIBLE_DEVICES=%GPU%", False),
    ("ps", "& 'C:\\Program Files\\Python312\\python.exe' -m pip install torch==2.5.1", True),
    ("ps", "$env:PYTHONPATH = 'C:\\it''s'", True),
    ("ps", "Remove-Item -LiteralPath 'C:\\x\\old torch.pth'", True),
    ("ps", "winget install --id Microsoft.VCRedist.2015+.x64 -e --source winget", True),
]


def self_test():
    failures = 0
    for shell, line, good in SELF_TEST:
        before = len(bad)
        check_line("self-test", shell, line)
        if (len(bad) == before) != good:
            print("self-test: %s line %s: %s" % (shell, "rejected" if good else "passed", line))
            failures += 1
        del bad[before:]
    print("%d self-test lines, %d wrong" % (len(SELF_TEST), failures))
    sys.exit(1 if failures else 0)


def main():
    global DLENV, TESTS, FAKES
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    DLENV, TESTS, FAKES = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as work:
        doctor_patches(work)
    machines()
    gpu_scenarios()
    explain_cases()
    plan_machines()
    rules = subprocess.run([DLENV, "doctor", "--list-checks"], capture_output=True,
                           text=True).stdout.split("\n")
    for row in rules:
        rule = row.split(" ")[0]
        if rule and rule not in seen_ids:
            bad.append("no fixture makes %s fire: its fixes were not checked" % rule)
    for b in bad:
        print(b)
    print("%d POSIX lines, %d PowerShell lines, %d notes checked; %d bad" %
          (checked["sh"], checked["ps"], checked["note"], len(bad)))
    if checked["sh"] < 50 or checked["ps"] < 10:
        print("too few lines: a source went silent")
        sys.exit(1)
    sys.exit(1 if bad else 0)


main()
