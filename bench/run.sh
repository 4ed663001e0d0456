#!/bin/sh
# bench/run.sh [BUILD_DIR]: speed and memory of dlenv on this machine, against the targets
# in the issues. Run by hand (not in CI: timings on shared machines are not tests).
#   dlenv report --no-runtime   under 20 ms wall, under 8 MB peak RSS (import torch, which
#                               the runtime probe runs, is measured on its own below)
#   dlenv report --json   the same
#   with the fake driver libraries (tests/fakes, scenario healthy-1gpu): under 40 ms,
#   the NVML and CUDA child probes included
#   dlenv verify --quick / default   under 3 s / 10 s (with Debian's torch)
# Needs hyperfine (Debian package `hyperfine`); peak RSS is read with getrusage through
# python3 when GNU time is absent.
set -eu
build=${1:-build}
dlenv="$build/dlenv"
[ -x "$dlenv" ] || { echo "bench: build first (./dev.sh build)"; exit 1; }

peak_rss_kib() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
    else
        python3 -c 'import resource,subprocess,sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
    fi
}

mean_ms() { # mean_ms COMMAND...: hyperfine's mean in milliseconds
    out=$(mktemp)
    hyperfine -N -i --warmup 5 --runs 50 --export-json "$out" "$*" >/dev/null 2>&1
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]
print("%.2f ms (min %.2f, max %.2f)" % (r["mean"]*1e3, r["min"]*1e3, r["max"]*1e3))' "$out"
    rm -f "$out"
}

command -v hyperfine >/dev/null || { echo "bench: install hyperfine"; exit 1; }
printf '%-34s %-36s %s\n' "what" "wall (mean of 50)" "peak RSS"
root=$(cd "$(dirname "$0")/.." && pwd)
# 10 MB of a training log with one real report at its end, and 10 MB of real reports one
# after another (every signature's words are there many times: the hardest text to search)
awk 'BEGIN { for (i = 0; i < 196000; i++) printf "step %d loss 0.%04d lr 3e-4 epoch %d of the run\n", i, i % 9973, i / 1000 }' \
    > /tmp/dlenv-bench-10mb.log
cat "$root/tests/cases/c13.txt" >> /tmp/dlenv-bench-10mb.log
: > /tmp/dlenv-bench-10mb-reports.log
while [ "$(wc -c < /tmp/dlenv-bench-10mb-reports.log)" -lt 10485760 ]; do
    cat "$root"/tests/cases/c*.txt >> /tmp/dlenv-bench-10mb-reports.log
done
for args in "explain $root/tests/cases/c13.txt" "explain /tmp/dlenv-bench-10mb.log" \
            "explain /tmp/dlenv-bench-10mb-reports.log"; do
    # shellcheck disable=SC2086
    printf '%-34s %-36s %s KiB\n' "dlenv $(echo $args | sed "s|$root/||")" \
        "$(mean_ms "$dlenv" $args)" "$(peak_rss_kib "$dlenv" $args)"
done
echo "targets: explain one report under 5 ms, 10 MB of log under 200 ms (the reports: no target)"
# Instructions do not depend on what else the machine runs: compare these between commits
# when the wall-clock figures above are noisy (a shared machine).
if command -v valgrind >/dev/null; then
    head -c 1048576 /tmp/dlenv-bench-10mb.log > /tmp/dlenv-bench-1mb.log
    for args in "explain $root/tests/cases/c13.txt" "explain /tmp/dlenv-bench-1mb.log"; do
        # shellcheck disable=SC2086
        ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$dlenv" $args 2>&1 >/dev/null |
             sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
        printf '%-34s %s million instructions\n' "dlenv $(echo $args | sed "s|$root/||")" \
            "$(awk -v n="$ir" 'BEGIN { printf "%.1f", n / 1e6 }')"
    done
fi
for args in "report --no-runtime" "report --json --no-runtime" "plan" \
            "plan --os windows --gpu sm_61 --driver 535.98 --python 3.12 --why"; do
    # shellcheck disable=SC2086
    printf '%-34s %-36s %s KiB\n' "dlenv $args" "$(mean_ms "$dlenv" $args)" \
        "$(peak_rss_kib "$dlenv" $args)"
done
fakes="$build/tests/fakes"
if [ -f "$fakes/nvml/libnvidia-ml.so.1" ]; then
    export LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda"
    export DLENV_FAKE_SCENARIO="$(cd "$(dirname "$0")/.." && pwd)/tests/gpu/healthy-1gpu/scenario"
    printf '%-34s %-36s %s KiB\n' "dlenv report --no-runtime, fakes" "$(mean_ms "$dlenv" report --no-runtime)" \
        "$(peak_rss_kib "$dlenv" report --no-runtime)"
    unset LD_LIBRARY_PATH DLENV_FAKE_SCENARIO
fi
echo "targets: report under 20 ms (40 ms with the fake driver) and under 8192 KiB"

# The Python layer: static facts for every interpreter (the python probe's own time, from
# the report), and the runtime probe against a bare `import torch` in Debian's python3.
static_ms=$("$dlenv" report --json --no-runtime | python3 -c 'import json,sys
print("%.1f" % [p["duration_ms"] for p in json.load(sys.stdin)["tool"]["probes"] if p["name"] == "python"][0])')
echo "python probe, static facts, all interpreters: $static_ms ms (target 30 ms)"
if /usr/bin/python3 -c "import torch" 2>/dev/null; then
    probe_py="$(cd "$(dirname "$0")/.." && pwd)/src/probe/python/scripts/torch_probe.py"
    out=$(mktemp)
    hyperfine -N --warmup 3 --runs 15 --export-json "$out" \
        "/usr/bin/python3 -c 'import torch'" "/usr/bin/python3 $probe_py" >/dev/null 2>&1
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]
print("import torch %.0f ms, runtime probe %.0f ms: %+.1f%% (target at most +10%%)" % (
    r[0]["mean"]*1e3, r[1]["mean"]*1e3, (r[1]["mean"]/r[0]["mean"]-1)*100))' "$out"
    rm -f "$out"
fi

# dlenv doctor --no-runtime against python3 -m torch.utils.collect_env, side by side
# (target: at least 50 times faster).
if /usr/bin/python3 -c "import torch.utils.collect_env" 2>/dev/null; then
    out=$(mktemp)
    hyperfine -N -i --warmup 1 --runs 5 --export-json "$out" \
        "$dlenv doctor --no-runtime" "/usr/bin/python3 -m torch.utils.collect_env" >/dev/null 2>&1
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]
print("doctor --no-runtime %.1f ms, collect_env %.0f ms: %.0fx faster (target 50x)" % (
    r[0]["mean"]*1e3, r[1]["mean"]*1e3, r[1]["mean"]/r[0]["mean"]))' "$out"
    rm -f "$out"
fi

# dlenv verify, whole runs with Debian's torch as the interpreter (targets: --quick under
# 3 s, the default under 10 s; this machine has no GPU, so the GPU part is not in them).
if /usr/bin/python3 -c "import torch" 2>/dev/null; then
    out=$(mktemp)
    hyperfine -N -i --warmup 1 --runs 3 --export-json "$out" \
        "$dlenv verify --quick --python /usr/bin/python3" \
        "$dlenv verify --python /usr/bin/python3" >/dev/null 2>&1
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]
print("verify --quick %.2f s (target 3 s), verify %.2f s (target 10 s)" % (
    r[0]["mean"], r[1]["mean"]))' "$out"
    rm -f "$out"
fi
