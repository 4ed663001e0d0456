#!/usr/bin/env python3
"""bench/corpus_variants.py [DLENV] [CORPUS_DIR] [--only NAME,...] [--write DIR] [--quiet]:
how robust `dlenv explain` is to the way a report is written. For every tune-fold report
of the corpus (tests/cases/real, index.tsv) whose accepted root cause dlenv names today,
each transformation below rewrites the text the way real pastes differ (CRLF, a markdown
fence, "> " quoting, HTML entities, log prefixes, ...) without changing what a human reads
in it, and the variant is explained again. A variant whose root cause is no longer an
accepted one is a break. Prints, per transformation, the breaks against the variants made
(a transformation that does not apply to a report makes none), then every break (file,
transformation, the answer before, the answer after). Two finer counts follow: variants
whose root cause holds but whose alternatives differ, and variants whose facts read from
the text differ (a reader that a rewrite fooled, even where the answer survived).
--write DIR keeps each such variant as DIR/<transformation>-<file> (to read it or to make
a fixture of it).

Held-out reports are never read: the fold is filtered on the index before a file is
opened. Exit 0: the figures are information, not a test.
"""
import collections
import concurrent.futures
import json
import os
import re
import sys
import subprocess
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus as corpus_mod  # noqa: E402  (bench/corpus.py: the same explain and index)

KV = re.compile(r"^([A-Za-z][A-Za-z0-9 ()._/+-]{0,45}):( |$)")
NOT_A_KEY = re.compile(r"error|exception|warning|traceback|file|http|note|hint", re.I)


def lines_of(text):
    return text.split("\n")


def key_value(line):
    """The key of a "Key: value" line a human wrote or collect_env printed; None for an
    error message ("RuntimeError: ...") or an indented traceback line."""
    m = KV.match(line)
    if not m or NOT_A_KEY.search(m.group(1)):
        return None
    return m.group(1)


# ---- the transformations: text -> text, or None where it does not apply ----

def crlf(t):
    return t.replace("\n", "\r\n")


def fence(t):
    return "```shell\n" + t.rstrip("\n") + "\n```\n"


def quote(t):
    return "\n".join("> " + l if l else ">" for l in lines_of(t.rstrip("\n"))) + "\n"


def template(t):
    """An issue form: "### Describe the bug" above the text, its "Key: value" lines as
    "- Key: value" bullets under an "**Environment**:" heading, "_No response_" below."""
    out, in_env = [], False
    for l in lines_of(t.rstrip("\n")):
        key = key_value(l)
        if key and not in_env:
            out += ["", "**Environment**:", ""]
            in_env = True
        elif not key and l.strip():
            in_env = False
        out.append("- " + l if key else l)
    return ("### Describe the bug\n\n" + "\n".join(out) +
            "\n\n### Additional context\n\n_No response_\n")


def html(t):
    return (t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def timestamps(t):
    return "\n".join("2025-01-02 10:11:12,345 ERROR " + l if l.strip() else l
                     for l in lines_of(t))


def wrap80(t):
    """A terminal's copy of long lines: cut at exactly 80 columns."""
    out = []
    for l in lines_of(t):
        while len(l) > 80:
            out.append(l[:80])
            l = l[80:]
        out.append(l)
    return "\n".join(out)


def wrap_words(t):
    """A text box's or a mail client's soft wrap: long lines broken at the last space before
    column 80 (the break replaces the space). Nothing marks where a line went on, so the
    paste reader cannot join these; this one measures what that costs."""
    out = []
    for l in lines_of(t):
        while len(l) > 80 and " " in l[1:80]:
            cut = l.rindex(" ", 1, 80)
            out.append(l[:cut])
            l = l[cut + 1:]
        out.append(l)
    return "\n".join(out)


def web_reply(t):
    """A quoted e-mail reply copied from a web archive: "> " quoting, HTML entities, CRLF,
    no-break spaces."""
    return crlf(html(quote(t))).replace(" ", "\u00a0")


def tabs(t):
    """A column gap (two or more spaces) and each indentation step as a tab."""
    out = []
    for l in lines_of(t):
        lead = len(l) - len(l.lstrip(" "))
        l = "\t" * (lead // 4) + " " * (lead % 4) + re.sub(r"  +", "\t", l[lead:])
        out.append(l)
    return "\n".join(out)


WIN_PATH = re.compile(r"\b[A-Za-z]:(?:\\\\|\\|/)[^\s\"'<>|,;]*")


def winpaths(t):
    """Windows paths with / where they had \\ (or \\ where they had /); a doubled \\\\ of a
    Python repr becomes one /."""
    if not WIN_PATH.search(t):
        return None

    def flip(m):
        p = m.group(0)
        return re.sub(r"\\+", "/", p) if "\\" in p else p.replace("/", "\\")
    return WIN_PATH.sub(flip, t)


def nbsp(t):
    return t.replace(" ", "\u00a0")


def bom(t):
    return "\ufeff" + t


def collect_env_block(ls):
    """(first, last) line of collect_env's block; None when there is none."""
    start = next((i for i, l in enumerate(ls)
                  if "Collecting environment information" in l or l.startswith("PyTorch version:")),
                 None)
    if start is None:
        return None
    end = start
    for j in range(start + 1, len(ls)):
        l = ls[j]
        if not l.strip():
            continue
        if key_value(l) or l.startswith("[") or l.startswith("GPU "):
            end = j
            continue
        break
    return start, end


def env_after(t):
    """collect_env's block moved after the rest (or before it, where it came last)."""
    ls = lines_of(t.rstrip("\n"))
    block = collect_env_block(ls)
    if not block:
        return None
    start, end = block
    before, env, after = ls[:start], ls[start:end + 1], ls[end + 1:]
    if not any(l.strip() for l in before + after):
        return None
    if any(l.strip() for l in after):
        return "\n".join(before + after + [""] + env) + "\n"
    return "\n".join(env + [""] + before) + "\n"


NOISE = [
    "Collecting tqdm",
    "  Downloading tqdm-4.66.4-py3-none-any.whl.metadata (57 kB)",
    "     \u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501"
    "\u2501\u2501\u2501\u2501\u2501\u2501 78.3/78.3 kB 5.1 MB/s eta 0:00:00",
    "100%|\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588| 500/500 "
    "[00:12<00:00, 41.20it/s]",
    " 37%|\u2588\u2588\u2588\u258b      | 185/500 [00:04<00:07, 41.53it/s]",
]


def noise(t):
    """pip's and tqdm's progress lines before the text and at a paragraph break in it."""
    ls = lines_of(t.rstrip("\n"))
    breaks = [i for i, l in enumerate(ls) if not l.strip()]
    at = breaks[len(breaks) // 2] if breaks else len(ls)
    return "\n".join(NOISE + [""] + ls[:at] + [""] + NOISE + ls[at:]) + "\n"


def ansi(t):
    """A coloured terminal's escape codes: errors in red, the rest reset."""
    out = []
    for l in lines_of(t):
        if re.search(r"error|warning|fail", l, re.I):
            out.append("\x1b[31m" + l + "\x1b[0m")
        elif l.strip():
            out.append("\x1b[0m" + l)
        else:
            out.append(l)
    return "\n".join(out)


def _headings(t, case):
    out, changed = [], False
    for l in lines_of(t):
        key = key_value(l)
        m = re.match(r"^(#+ )(.*)$", l)
        if key:
            n = case(key)
            changed |= n != key
            l = n + l[len(key):]
        elif m:
            changed |= case(m.group(2)) != m.group(2)
            l = m.group(1) + case(m.group(2))
        elif l.rstrip().endswith(":") and len(l) < 60 and not l.startswith(" "):
            changed |= case(l) != l
            l = case(l)
        out.append(l)
    return "\n".join(out) if changed else None


def upper_headings(t):
    return _headings(t, str.upper)


def lower_headings(t):
    return _headings(t, str.lower)


def smart_quotes(t):
    """What a word processor or chat app makes of quotes: ' as \u2019, "..." as \u201c...\u201d."""
    t = re.sub(r'"([^"\n]*)"', "\u201c\\1\u201d", t)
    return t.replace("'", "\u2019")


def indent(t):
    """A markdown code block by indentation: four spaces before every line."""
    return "\n".join("    " + l if l.strip() else l for l in lines_of(t))


def bold_keys(t):
    """An issue form's bold field names: "**PyTorch version**: 2.3.1"."""
    out, changed = [], False
    for l in lines_of(t):
        key = key_value(l)
        if key:
            l = "**" + key + "**" + l[len(key):]
            changed = True
        out.append(l)
    return "\n".join(out) if changed else None


def backticks(t):
    """Values as inline code, as markdown writers quote them: "PyTorch version: `2.3.1`"."""
    out, changed = [], False
    for l in lines_of(t):
        key = key_value(l)
        value = l[len(key) + 1:].strip() if key else ""
        if value:
            l = key + ": `" + value + "`"
            changed = True
        out.append(l)
    return "\n".join(out) if changed else None


def utf16(t):
    """PowerShell 5's `python collect_env.py > out.txt`: UTF-16 LE with a BOM."""
    return t  # encoded in write_variant


TRANSFORMS = [
    ("crlf", crlf), ("fence", fence), ("quote", quote), ("template", template),
    ("html", html), ("timestamps", timestamps), ("wrap80", wrap80),
    ("wrap_words", wrap_words), ("web_reply", web_reply), ("tabs", tabs),
    ("winpaths", winpaths), ("nbsp", nbsp), ("bom", bom), ("utf16", utf16),
    ("env_after", env_after), ("noise", noise), ("ansi", ansi),
    ("upper_headings", upper_headings), ("lower_headings", lower_headings),
    ("smart_quotes", smart_quotes), ("indent", indent), ("bold_keys", bold_keys),
    ("backticks", backticks),
]


def reading(program, path):
    """What explain reads in path: (root cause or "none", its alternatives, the facts)."""
    r = subprocess.run([program, "explain", "--json", path], capture_output=True, text=True)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        return ("error: exit %d" % r.returncode, (), "")
    root = doc.get("root_cause")
    root = root.get("id") if isinstance(root, dict) else root
    alts = tuple(sorted(a.get("id") if isinstance(a, dict) else a
                        for a in doc.get("alternatives") or []))
    return (root or "none", alts, json.dumps(doc.get("facts"), sort_keys=True))


def flat(facts, prefix=""):
    """{"os.family": "linux", ...} from the facts' JSON: which facts differ, by name."""
    out = {}
    if isinstance(facts, dict):
        for k, v in facts.items():
            out.update(flat(v, prefix + k + "."))
    elif isinstance(facts, list):
        for i, v in enumerate(facts):
            out.update(flat(v, prefix + str(i) + "."))
    else:
        out[prefix.rstrip(".")] = facts
    return out


def facts_diff(before, after):
    a, b = flat(json.loads(before or "null")), flat(json.loads(after or "null"))
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def write_variant(path, name, text):
    data = ("\ufeff" + text).encode("utf-16-le") if name == "utf16" else \
        text.encode("utf-8", "surrogateescape")
    with open(path, "wb") as f:
        f.write(data)


def main():
    args = sys.argv[1:]
    only, keep, quiet = None, None, "--quiet" in args
    args = [a for a in args if a != "--quiet"]
    if "--only" in args:
        at = args.index("--only")
        only = set(args[at + 1].split(","))
        del args[at:at + 2]
    if "--write" in args:
        at = args.index("--write")
        keep = args[at + 1]
        del args[at:at + 2]
        os.makedirs(keep, exist_ok=True)
    dlenv = args[0] if len(args) > 0 else corpus_mod.dlenv
    corpus_dir = args[1] if len(args) > 1 else corpus_mod.corpus
    transforms = [(n, fn) for n, fn in TRANSFORMS if not only or n in only]
    rows = [r for r in corpus_mod.read_index(corpus_dir) if r["fold"] == "tune"]
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2)
    paths = [os.path.join(corpus_dir, r["file"]) for r in rows]
    base = list(pool.map(lambda p: reading(dlenv, p), paths))
    right = [(r, p, got) for r, p, got in zip(rows, paths, base)
             if got[0] in corpus_mod.accepted(r)]
    tmp = tempfile.mkdtemp(prefix="dlenv-variants-")
    jobs = []
    for row, path, got in right:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "surrogateescape")
        for name, fn in transforms:
            variant = fn(text)
            if variant is None or (variant == text and name != "utf16"):
                continue
            out = os.path.join(tmp, name + "-" + row["file"])
            write_variant(out, name, variant)
            jobs.append((row, name, got, out))
    after = list(pool.map(lambda j: reading(dlenv, j[3]), jobs))
    made, broke, moved, drifted = (collections.Counter() for _ in range(4))
    breaks, changes, drifts = [], [], []
    for (row, name, got, out), new in zip(jobs, after):
        made[name] += 1
        bad = new[0] not in corpus_mod.accepted(row)
        if bad:
            broke[name] += 1
            breaks.append((row["file"], name, got[0], new[0]))
        elif new[:2] != got[:2]:
            moved[name] += 1
            changes.append((row["file"], name, "%s [%s]" % (got[0], ",".join(got[1])),
                            "%s [%s]" % (new[0], ",".join(new[1]))))
        if new[2] != got[2]:
            drifted[name] += 1
            drifts.append((row["file"], name, ",".join(facts_diff(got[2], new[2]))))
        if keep and (bad or new[:2] != got[:2] or new[2] != got[2]):
            os.replace(out, os.path.join(keep, name + "-" + row["file"]))
        else:
            os.remove(out)
    os.rmdir(tmp)
    print("tune-fold reports named today: %d of %d" % (len(right), len(rows)))
    print("breaks: the root cause is no longer an accepted one; alternatives: the root cause")
    print("holds but its alternatives differ; facts: the facts read from the text differ\n")
    print("%-16s %8s %13s %6s  / variants" % ("transformation", "breaks", "alternatives",
                                                "facts"))
    for name, _ in transforms:
        print("%-16s %8d %13d %6d  / %d" % (name, broke[name], moved[name], drifted[name],
                                            made[name]))
    print("%-16s %8d %13d %6d  / %d" % ("all", sum(broke.values()), sum(moved.values()),
                                        sum(drifted.values()), sum(made.values())))
    if not quiet:
        print("\nbreaks (file, transformation, root cause before, after):")
        for b in sorted(breaks, key=lambda b: (b[1], b[0])):
            print("  %s\t%s\t%s\t%s" % b)
        print("\nalternatives changed (file, transformation, before, after):")
        for c in sorted(changes, key=lambda c: (c[1], c[0])):
            print("  %s\t%s\t%s\t%s" % c)
        print("\nfacts changed (file, transformation, the facts that differ):")
        for d in sorted(drifts, key=lambda d: (d[1], d[0])):
            print("  %s\t%s\t%s" % d)


if __name__ == "__main__":
    main()
