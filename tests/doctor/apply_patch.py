#!/usr/bin/env python3
"""apply_patch.py BASE PATCH OUT: a saved report (BASE) changed as PATCH says, written to OUT.

PATCH lines (blank lines and # comments skipped):
  PATH = JSON      set a value    (pythons.0.version = "3.16.0")
  PATH += JSON     append to a list
  PATH -           remove a key or a list item
  base FILE        start from FILE (beside BASE) instead: windows.json is a healthy
                   Windows 11 machine (RTX 4070, driver 560.94, Python 3.12, torch 2.5.1+cu124)
  expect ID        the root cause `dlenv doctor` must name ("none": no failure)
  fires ID         a finding that must be there;   quiet ID: one that must not
  fix ID TEXT      one of ID's fix steps must contain TEXT; nofix ID TEXT: none may
  says ID TEXT     ID's title or one of its evidence values must contain TEXT
  verdict V        the verdict it must give (ok, info, warning, failure, cannot_judge)
PATH is dot-separated keys and list indexes. Only the test reads the expect lines.
"""
import json
import os
import sys


def walk(doc, path):
    keys = path.split(".")
    node = doc
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    return node, int(last) if isinstance(node, list) else last


def main():
    base, patch, out = sys.argv[1:4]
    with open(patch, encoding="utf-8") as f:
        for line in f:
            if line.startswith("base "):
                base = os.path.join(os.path.dirname(base), line.split()[1])
    with open(base, encoding="utf-8") as f:
        doc = json.load(f)
    with open(patch, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#") or line.split()[0] in ("expect", "verdict", "nofix", "fires",
                                                                     "quiet", "base", "fix", "says"):
                continue
            try:
                if " += " in line:
                    path, value = line.split(" += ", 1)
                    node, key = walk(doc, path.strip())
                    node[key].append(json.loads(value))
                elif " = " in line:
                    path, value = line.split(" = ", 1)
                    node, key = walk(doc, path.strip())
                    node[key] = json.loads(value)
                elif line.endswith(" -"):
                    node, key = walk(doc, line[:-2].strip())
                    del node[key]
                else:
                    raise ValueError("not PATH = JSON, PATH += JSON or PATH -")
            except (KeyError, IndexError, ValueError) as e:
                sys.exit("%s:%d: %s: %s" % (patch, number, line, e))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
