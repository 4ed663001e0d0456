"""What the GPU proof kit's checkers share (compare.py, references.py, bad_settings.py):
reading dlenv's JSON, where a value dlenv could not read is {"unknown": "why"}, and the
check lines scripts/gpu-proof.sh counts into summary.txt.

Standard library only: the kit runs on a lent machine where nothing can be installed.
"""
import json
import sys


def load_json(path):
    """(document, None) or (None, why)."""
    try:
        with open(path) as f:
            return json.load(f), None
    except (OSError, ValueError) as e:
        return None, "%s: %s" % (path, e)


def get(doc, path, default=None):
    """doc["a"]["b"][0]... for the dotted path "a.b.0"; default where any step is missing."""
    cur = doc
    for part in path.split("."):
        if isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return default
    return cur


def is_unknown(value):
    return isinstance(value, dict) and "unknown" in value


def known(value):
    return value is not None and not is_unknown(value)


def show(value):
    """A dlenv value for a person: its reason when unknown."""
    if value is None:
        return "absent"
    if is_unknown(value):
        return "unknown (%s)" % value["unknown"]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return "%.4g" % value
    return str(value)


def check(verdict, name, detail):
    """One check line for summary.txt: verdict is pass, fail or skip."""
    assert verdict in ("pass", "fail", "skip"), verdict
    detail = " ".join(str(detail).split())
    sys.stdout.write("%s\t%s\t%s\n" % (verdict, name, detail))


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=2, sort_keys=False)
        f.write("\n")
