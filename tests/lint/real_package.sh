#!/bin/sh
# `dlenv lint` on a real package's sources (ctest lint.real_package): pytorch-lightning
# 2.5.0 (pure Python, 172 files, 36958 lines) from PyPI, installed without its
# dependencies into a venv of the test's own. No crash, and the counts recorded below
# (reviewed by hand: every load/amp finding is a true one). They include every instance
# TorchFix 0.7.0 finds on this tree for the rules both have (TOR101/TOR102, recorded
# below; bench/lint.sh runs TorchFix itself, which takes 30-40 s of CPU). No guard
# finding (not even info): the guard's call graph (methods, aliases, imports between the
# package's files) finds no worker start this library's module code reaches.
#   sh real_package.sh DLENV JSON_MATCH
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../e2e/lib.inc"

run lint "$here/fires/load.py"
[ "$rc" -ne 6 ] || skip_or_fail "lint is not built into this binary: $err"
make_venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check --no-deps \
    pytorch-lightning==2.5.0 >"$work/pip.log" 2>&1 ||
    skip_or_fail "pip cannot install pytorch-lightning==2.5.0 (no network?): $(tail -n 1 "$work/pip.log")"
tree=$(echo "$work"/venv/lib/python3*/site-packages/pytorch_lightning)
[ -d "$tree" ] || fail "no $tree after pip install"

run lint --json --os linux --torch 2.6 --cuda yes "$tree"
expect_eq "exit" 1 "$rc"
printf '%s\n' "$out" >"$work/real.json"
python3 - "$work/real.json" "$tree" >"$work/real.check" <<'PY' || true
import collections, json, sys
doc = json.load(open(sys.argv[1]))
tree = sys.argv[2]
counts = collections.Counter(f["id"] for f in doc["findings"])
want = {"save": 7, "load": 6, "encoding": 5, "device": 6, "amp": 1}
if (doc["files"], doc["lines"]) != (172, 36958):
    print("files/lines", doc["files"], doc["lines"], "not 172/36958")
if dict(counts) != want:
    print("counts", dict(counts), "not", want)
# TorchFix 0.7.0 -j 1 --select TOR101,TOR102 on this tree: these six (all TOR102; none
# for the deprecated amp call dlenv finds in plugins/precision/amp.py:54)
torchfix = {("demos/mnist_datamodule.py", 110, 23, "load"),
            ("strategies/fsdp.py", 624, 24, "load"),
            ("strategies/xla.py", 242, 19, "load"),
            ("utilities/deepspeed.py", 96, 19, "load"),
            ("utilities/deepspeed.py", 99, 20, "load"),
            ("utilities/upgrade_checkpoint.py", 62, 26, "load")}
seen = {(f["file"][len(tree) + 1:], f["line"], f["column"], f["id"]) for f in doc["findings"]}
for miss in sorted(torchfix - seen):
    print("TorchFix finds", miss, "and dlenv does not")
PY
[ ! -s "$work/real.check" ] || fail "$(cat "$work/real.check")"
finish
