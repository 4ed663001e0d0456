#!/bin/sh
# bench/lint.sh [BUILD_DIR]: `dlenv lint`'s speed against the issue's targets, run by hand
# (timings on shared machines are not tests): over 100k lines a second, and at least 10x
# faster than TorchFix on the same tree; and that dlenv finds every weights_only /
# deprecated-amp instance TorchFix finds (TOR101, TOR102).
# The tree: pytorch-lightning 2.5.0 (172 files, 36958 lines) and a generated 5 MB file;
# TorchFix 0.7.0. Both from PyPI into a scratch venv. CPU seconds (user + sys) are
# compared, so other load on the machine counts less.
# Measured 2026-12-01 on a loaded 2-core machine (Debug build, parser -O2): dlenv 0.22 s
# CPU for the 36958 lines (166k lines/s; 323k lines/s on a generated 600k-line file),
# TorchFix 29.4 s (133x); TorchFix found 6 (TOR102), dlenv 7 (those 6 + 1 deprecated amp
# call), none missed. (TorchFix without -j 1 reported only 1 of the 6 here.)
set -eu
build=${1:-build}
dlenv="$(cd "$build" && pwd)/dlenv"
[ -x "$dlenv" ] || { echo "bench: build first (./dev.sh build)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-lint-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check torchfix==0.7.0
"$work/venv/bin/pip" install -q --disable-pip-version-check --no-deps pytorch-lightning==2.5.0
tree=$(echo "$work"/venv/lib/python3*/site-packages/pytorch_lightning)

cpu_s() { # cpu_s COMMAND...: user + sys seconds of the command and its children
    python3 -c 'import resource,subprocess,sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % (r.ru_utime + r.ru_stime))' "$@"
}

lines=$(find "$tree" -name '*.py' -exec cat {} + | wc -l)
d=$(cpu_s "$dlenv" lint --os linux --torch 2.6 --cuda yes "$tree")
python3 - "$work/big.py" <<'PY'
import sys
parts = [f"def f{i}(x):\n    return x * {i}\n\n" for i in range(200000)]
open(sys.argv[1], "w", encoding="utf-8").write("".join(parts))
PY
big_lines=$(wc -l <"$work/big.py")
b=$(cpu_s "$dlenv" lint --os linux "$work/big.py")
t=$(cpu_s "$work/venv/bin/torchfix" -j 1 --select TOR101,TOR102 "$tree")
python3 - "$lines" "$d" "$big_lines" "$b" "$t" <<'PY'
import sys
lines, d, big, b, t = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
print(f"dlenv lint: {lines} lines in {d:.3f} s CPU ({lines / max(d, 1e-3):,.0f} lines/s); "
      f"generated {big} lines in {b:.3f} s ({big / max(b, 1e-3):,.0f} lines/s); target > 100,000")
print(f"TorchFix:   {t:.1f} s CPU: dlenv is {t / max(d, 1e-3):.0f}x faster; target >= 10x")
PY
"$work/venv/bin/torchfix" -j 1 --select TOR101,TOR102 "$tree" 2>/dev/null |
    sed -n 's/^\([^ ]*:[0-9]*:[0-9]*\): TOR10[12] .*/\1/p' | sort -u >"$work/torchfix"
"$dlenv" lint --select load,amp --os linux --torch 2.6 --cuda yes "$tree" |
    sed -n 's/^\([^ ]*:[0-9]*:[0-9]*\): \(load\|amp\): .*/\1/p' | sort -u >"$work/dlenv"
missed=$(comm -23 "$work/torchfix" "$work/dlenv")
echo "TorchFix found $(wc -l <"$work/torchfix"), dlenv $(wc -l <"$work/dlenv"); missed by dlenv: ${missed:-none}"
[ -z "$missed" ]
