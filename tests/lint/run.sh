#!/bin/sh
# `dlenv lint` through the real binary (ctest lint.fixtures): every fixture in fires/
# gives exactly the findings its `# expect: ID SEVERITY` comments name, on their lines;
# every near miss in near/ gives none; fix/before.py --fix becomes fix/after.py and --diff
# shows it; a file that does not parse, a non-UTF-8 file, a 5 MB generated file and a
# symbolic link loop are reported without a crash while the other files are still
# linted. A fixture's first line `# lint-args: ...` is its target (--os, --torch, --cuda).
#   sh run.sh DLENV JSON_MATCH
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../e2e/lib.inc"

run lint --help
[ "$rc" -eq 0 ] || fail "lint --help: exit $rc"
run lint "$here/fires/load.py"
if [ "$rc" -eq 6 ]; then
    # built without the parser (no network when configured, or a cross build)
    skip_or_fail "lint is not built into this binary: $err"
fi

# lint_one FILE: the findings as "LINE ID SEVERITY" lines, sorted
findings_of() {
    args=$(sed -n '1s/^# lint-args: //p' "$1")
    # shellcheck disable=SC2086
    "$dlenv" lint --json --fail-on error $args "$1" >"$work/one.json" 2>"$work/one.err" || true
    python3 - "$work/one.json" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["line"], f["id"], f["severity"])
PY
}
expected_of() {
    grep -n '# expect: ' "$1" | sed 's/^\([0-9]*\):.*# expect: \([a-z-]*\) \([a-z]*\).*/\1 \2 \3/'
}

command -v python3 >/dev/null 2>&1 || skip_or_fail "no python3 (reads the JSON)"
for f in "$here"/fires/*.py; do
    name=$(basename "$f")
    got=$(findings_of "$f" | sort)
    want=$(expected_of "$f" | sort)
    [ -n "$want" ] || fail "fires/$name has no # expect: line"
    expect_eq "fires/$name" "$want" "$got"
done
for f in "$here"/near/*.py; do
    expect_eq "near/$(basename "$f")" "" "$(findings_of "$f")"
done

# a folder (a package, or a folder of scripts) linted as a whole, for what crosses files
# (an import of a function that starts workers): its lint-args in any one file's first
# line; each file's findings on its `# expect:` lines, none in near/'s folders
folder_findings() {
    args=$(for f in "$1"/*.py; do sed -n '1s/^# lint-args: //p' "$f"; done | head -n 1)
    # shellcheck disable=SC2086
    "$dlenv" lint --json --fail-on error $args "$1" >"$work/dir.json" 2>"$work/dir.err" || true
    python3 - "$work/dir.json" "$1" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["file"][len(sys.argv[2]) + 1:], f["line"], f["id"], f["severity"])
PY
}
for d in "$here"/fires/*/; do
    d=${d%/}
    want=$(for f in "$d"/*.py; do
        expected_of "$f" | sed "s|^|$(basename "$f") |"
    done | sort)
    [ -n "$want" ] || fail "fires/$(basename "$d")/ has no # expect: line"
    expect_eq "fires/$(basename "$d")/" "$want" "$(folder_findings "$d" | sort)"
done
for d in "$here"/near/*/; do
    d=${d%/}
    expect_eq "near/$(basename "$d")/" "" "$(folder_findings "$d")"
done

# every rule has a fixture that fires and a near miss
for id in load amp guard paths encoding save device pin dist visible tqdm seed; do
    [ -f "$here/fires/$id.py" ] && [ -f "$here/near/$id.py" ] ||
        fail "rule $id has no fires/$id.py or near/$id.py"
    grep -q "^### \`$id\`" "$here/../../docs/lint.md" || fail "docs/lint.md does not document $id"
done

# --diff shows the fixes and changes nothing; --fix writes them
cp "$here/fix/before.py" "$work/fixme.py"
run lint --diff --os windows "$work/fixme.py"
cmp -s "$here/fix/before.py" "$work/fixme.py" || fail "--diff changed the file"
printf '%s\n' "$out" >"$work/fix.diff"
(cd "$work" && patch -s -o patched.py fixme.py fix.diff) || fail "--diff is not a patch"
cmp -s "$here/fix/after.py" "$work/patched.py" || fail "--diff's patch is not fix/after.py"
run lint --fix --os windows "$work/fixme.py"
cmp -s "$here/fix/after.py" "$work/fixme.py" ||
    fail "--fix: $(diff "$here/fix/after.py" "$work/fixme.py" | head -n 20)"
run lint --fix --os windows "$work/fixme.py"
case "$out" in *"fixed"*) fail "a second --fix still fixed something: $out" ;; esac

# --unsafe-fixes: only with it; --diff shows them as a patch, --fix writes them
cp "$here/fix/unsafe_before.py" "$work/unsafe.py"
run lint --fix --os windows --cuda no --torch 2.6 "$work/unsafe.py"
cmp -s "$here/fix/unsafe_before.py" "$work/unsafe.py" || fail "--fix applied an unsafe fix"
run lint --diff --unsafe-fixes --os windows --cuda no --torch 2.6 "$work/unsafe.py"
printf '%s\n' "$out" >"$work/unsafe.diff"
(cd "$work" && patch -s -o unsafe_patched.py unsafe.py unsafe.diff) ||
    fail "--unsafe-fixes --diff is not a patch"
cmp -s "$here/fix/unsafe_after.py" "$work/unsafe_patched.py" ||
    fail "--unsafe-fixes --diff: $(diff "$here/fix/unsafe_after.py" "$work/unsafe_patched.py")"
run lint --fix --unsafe-fixes --os windows --cuda no --torch 2.6 "$work/unsafe.py"
expect_eq "--fix --unsafe-fixes exit" 0 "$rc"
cmp -s "$here/fix/unsafe_after.py" "$work/unsafe.py" ||
    fail "--fix --unsafe-fixes: $(diff "$here/fix/unsafe_after.py" "$work/unsafe.py")"
python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' "$work/unsafe.py" ||
    fail "--fix --unsafe-fixes wrote a file that does not parse"
# a string over two lines in the module code: indenting would change it, so no wrap
cp "$here/fix/unsafe_nowrap.py" "$work/nowrap.py"
run lint --fix --unsafe-fixes --os windows "$work/nowrap.py"
expect_eq "no safe wrap: exit" 1 "$rc"
cmp -s "$here/fix/unsafe_nowrap.py" "$work/nowrap.py" || fail "wrapped a multi-line string"

run lint --json --torch 2.6 "$here/fires/load.py"
case "$out" in *'"fix"'*) fail "an unsafe fix offered without --unsafe-fixes" ;; esac
run lint --json --unsafe-fixes --torch 2.6 "$here/fires/load.py"
case "$out" in *'"fix_unsafe":'*true*) ;; *) fail "no fix_unsafe with --unsafe-fixes: $out" ;; esac

# after --fix, what remains is reported where it is in the fixed file
printf 'import torch\nf = open("log.txt", "w"); state = torch.load("m.pt")\n' >"$work/shift.py"
run lint --fix --json --torch 2.6 --os windows "$work/shift.py"
printf '%s\n' "$out" >"$work/shift.json"
python3 - "$work/shift.json" "$work/shift.py" >"$work/shift.check" <<'PY' || true
import json, sys
doc, text = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
lines = text.split("\n")
col = lines[1].find("torch.load") + 1
got = [(f["id"], f["line"], f["column"], f["fixed"]) for f in doc["findings"]]
want = [("encoding", 2, 5, True), ("load", 2, col, False)]
if 'encoding="utf-8"' not in text or got != want:
    print(got, "not", want)
PY
[ ! -s "$work/shift.check" ] || fail "positions after --fix: $(cat "$work/shift.check")"

# a tree with everything that must not stop the others: a syntax error, a non-UTF-8
# file, a binary file, a symbolic link loop, a 5 MB generated file, ignored files
tree="$work/tree"
mkdir -p "$tree/pkg/sub" "$tree/ignored_dir" "$tree/.hidden"
printf 'def f(:\n    pass\n' >"$tree/pkg/broken.py"
printf '# -*- coding: latin-1 -*-\nname = "caf\351"\n' >"$tree/pkg/latin1.py"
printf 'x = 1\0\0\0' >"$tree/pkg/binary.py"
ln -s .. "$tree/pkg/sub/loop"
ln -s self "$tree/pkg/self"
printf 'import torch\nstate = torch.load("m.pt")\n' >"$tree/pkg/good.py"
cp "$tree/pkg/good.py" "$tree/ignored_dir/skip.py"
cp "$tree/pkg/good.py" "$tree/.hidden/skip.py"
cp "$tree/pkg/good.py" "$tree/pkg/generated_skip.py"
printf 'ignored_dir/\n*_skip.py\n' >"$tree/.gitignore"
python3 - "$tree/pkg/big.py" <<'PY'
import sys
parts, size, i = [], 0, 0
while size < 5 * 1024 * 1024:
    parts.append(f"def f{i}(x):\n    y = torch.zeros(3, device=dev)\n    return x + y * {i}\n\n")
    size += len(parts[-1])
    i += 1
parts.append('state = torch.load("m.pt")\n')
with open(sys.argv[1], "w", encoding="utf-8") as fh:
    fh.write("".join(parts))
PY
big_lines=$(wc -l <"$tree/pkg/big.py")
run lint --json --torch 2.6 "$tree"
expect_eq "tree exit" 1 "$rc"
printf '%s\n' "$out" >"$work/tree.json"
python3 - "$work/tree.json" "$tree" "$big_lines" >"$work/tree.check" <<'PY' || true
import json, sys
doc = json.load(open(sys.argv[1]))
tree, big = sys.argv[2], int(sys.argv[3])
seen = {(f["file"].replace(tree + "/", ""), f["id"], f["line"]) for f in doc["findings"]}
want = {("pkg/broken.py", "syntax", 1), ("pkg/latin1.py", "source", 2),
        ("pkg/binary.py", "source", 0), ("pkg/sub/loop", "walk", 0),
        ("pkg/self", "walk", 0), ("pkg/good.py", "load", 2), ("pkg/big.py", "load", big)}
for w in sorted(want - seen):
    print("missing", w)
for s in sorted(seen - want):
    print("unexpected", s)
if doc["files"] != 5:
    print("files", doc["files"], "not 5")
PY
[ ! -s "$work/tree.check" ] || fail "tree: $(cat "$work/tree.check")"

# a folder given inside a repository: the .gitignore files above it up to the root, and
# .git/info/exclude, apply; a .gitignore above the root does not
repo="$work/outer/repo"
mkdir -p "$repo/.git/info" "$repo/sub/gen" "$repo/sub/keep" "$repo/sub/deep/gen"
printf 'a.py\n' >"$work/outer/.gitignore"
printf 'excluded_*.py\n' >"$repo/.git/info/exclude"
printf '/sub/gen/\n*_tmp.py\n!sub/keep/*_tmp.py\n' >"$repo/.gitignore"
for f in a.py b_tmp.py excluded_x.py gen/c.py keep/d.py keep/e_tmp.py deep/gen/f.py; do
    printf 'import torch\nstate = torch.load("m.pt")\n' >"$repo/sub/$f"
done
run lint --json --torch 2.6 "$repo/sub"
printf '%s\n' "$out" >"$work/repo.json"
python3 - "$work/repo.json" "$repo/sub/" >"$work/repo.check" <<'PY' || true
import json, sys
doc = json.load(open(sys.argv[1]))
got = sorted(f["file"].replace(sys.argv[2], "") for f in doc["findings"])
want = ["a.py", "deep/gen/f.py", "keep/d.py", "keep/e_tmp.py"]
if got != want:
    print(got, "not", want)
PY
[ ! -s "$work/repo.check" ] || fail "ignores above the folder given: $(cat "$work/repo.check")"

# usage errors, exit codes
run lint --fail-on never "$here/fires/load.py"
expect_eq "--fail-on never" 2 "$rc"
run lint --select nosuchrule "$here/fires/load.py"
expect_eq "--select nosuchrule" 2 "$rc"
run lint --fail-on error --torch 2.5 "$here/fires/load.py"
expect_eq "a warning under --fail-on error" 0 "$rc"
run lint --fail-on error --torch 2.6 "$here/fires/load.py"
expect_eq "an error under --fail-on error" 1 "$rc"
run lint --ignore load --torch 2.6 --cuda yes "$here/fires/load.py"
expect_eq "--ignore load" 0 "$rc"
run lint "$work/does-not-exist.py"
case "$out" in *"walk: cannot lint"*) ;; *) fail "missing path: $out" ;; esac
run lint --sarif --torch 2.6 "$here/fires/load.py"
printf '%s\n' "$out" >"$work/sarif.json"
expect_eq "sarif version" 2.1.0 "$(get version)"
expect_eq "sarif rule" load "$(get runs.0.results.0.ruleId)"
run lint --sarif "$here/fix/before.py"
printf '%s\n' "$out" >"$work/out"
expect_eq "sarif fix" torch.amp.GradScaler \
    "$(get runs.0.results.0.fixes.0.artifactChanges.0.replacements.0.insertedContent.text)"
expect_eq "sarif fix offset" 41 \
    "$(get runs.0.results.0.fixes.0.artifactChanges.0.replacements.0.deletedRegion.byteOffset)"

# SARIF 2.1.0: the fields it requires checked by hand here (offline); against the official
# schema in lint.sarif_schema (sarif_schema.sh)
cp "$here/fix/unsafe_before.py" "$work/sarif_all.py"
for args in "--torch 2.6 $here/fires" "--unsafe-fixes --os windows --cuda no $work/sarif_all.py" \
    "--os windows $here/fix/before.py"; do
    # shellcheck disable=SC2086
    "$dlenv" lint --sarif $args >"$work/one.sarif" 2>/dev/null || true
    python3 "$here/sarif_check.py" "$work/one.sarif" >"$work/sarif.check" 2>&1 || true
    [ ! -s "$work/sarif.check" ] || fail "SARIF of lint $args: $(head -n 5 "$work/sarif.check")"
done

# --env FILE: the machine a saved report describes (tests/doctor/windows.json: Windows,
# torch 2.5, an NVIDIA GPU)
run lint --env "$here/../doctor/windows.json" --json "$here/fires/guard.py"
expect_eq "--env windows.json: os" windows "$(get target.os)"
expect_eq "--env windows.json: torch" 2.5 "$(get target.torch)"
expect_eq "--env windows.json: guard is an error" error "$(get findings.0.severity)"
run lint --env "$work/no-such-report.json" "$here/fires/guard.py"
expect_eq "--env missing file" 4 "$rc"

# [tool.dlenv.lint] in the nearest pyproject.toml; the command line wins
mkdir -p "$work/proj/src"
cp "$here/fires/load.py" "$work/proj/src/train.py"
printf '[project]\nname = "x"\n\n[tool.dlenv.lint]\nfail-on = "error"  # errors only\nselect = [\n  "load",\n  "amp",  # both\n]\ntorch = "2.5"\n' >"$work/proj/pyproject.toml"
(cd "$work/proj/src" && "$dlenv" lint train.py >"$work/cfg.out" 2>&1) && rc=0 || rc=$?
expect_eq "config: torch 2.5 gives a warning, fail-on error passes" 0 "$rc"
grep -q "load: .*\[warning\]" "$work/cfg.out" || fail "config: $(cat "$work/cfg.out")"
(cd "$work/proj/src" && "$dlenv" lint --torch 2.6 train.py >"$work/cfg.out" 2>&1) && rc=0 || rc=$?
expect_eq "config: --torch 2.6 wins" 1 "$rc"
printf '[tool.dlenv.lint]\nselct = ["load"]\n' >"$work/proj/pyproject.toml"
(cd "$work/proj/src" && "$dlenv" lint train.py >"$work/cfg.out" 2>&1) && rc=0 || rc=$?
expect_eq "config: unknown key" 4 "$rc"
grep -q "pyproject.toml:2: .*unknown key 'selct'" "$work/cfg.out" || fail "config: $(cat "$work/cfg.out")"

finish
