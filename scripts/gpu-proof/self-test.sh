#!/bin/sh
# self-test.sh GPU_PROOF_SH: `scripts/gpu-proof.sh --self-test`. Runs the GPU proof kit on
# this machine as it would run on a GPU machine, with everything NVIDIA replaced by our
# fakes, so that the kit itself is tested before a real machine is lent:
#   the fake libnvidia-ml.so.1 / libcuda.so.1 (tests/fakes, built beside DLENV) answering
#     from tests/gpu/healthy-1gpu/scenario plus verify's rates,
#   a fake nvidia-smi (tests/fakes/fake_nvidia_smi.py) first on PATH, printing its XML
#     from the same scenario,
#   a fake CUDA torch (tests/fakes/fake_torch) in a venv made here, as the machine's torch.
# Run 1 must pass every check and write every file; run 2 plants two differences (nvidia-smi
# reports another power limit, torch copies slower than dlenv measured) that the checkers
# must catch. Needs no GPU, no CUDA torch and no network. Exit 77 (skipped) without the
# fakes (a build other than Linux) or without `python3 -m venv`.
set -u
proof=$1
root=$(CDPATH='' cd -- "$(dirname -- "$proof")/.." && pwd)
dlenv=${DLENV:-$root/build/dlenv}
# Absolute: the loader path below must not depend on the directory the kit runs in.
dlenv=$(CDPATH='' cd -- "$(dirname -- "$dlenv")" && pwd)/$(basename -- "$dlenv")
fakes=$(dirname -- "$dlenv")/tests/fakes
if [ ! -f "$fakes/nvml/libnvidia-ml.so.1" ] || [ ! -f "$fakes/cuda/libcuda.so.1" ]; then
    echo "SKIP: no fake driver libraries in $fakes"
    exit 77
fi
base=$root/tests/gpu/healthy-1gpu/scenario
work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-gpu-proof-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
failures=0
fail() { echo "gpu-proof self-test: $*"; failures=$((failures + 1)); }

# --- The fakes ------------------------------------------------------------------------
host_py=/usr/bin/python3
[ -x "$host_py" ] || host_py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
"$host_py" -m venv --without-pip "$work/venv" >/dev/null 2>&1 ||
    { echo "SKIP: $host_py -m venv does not work here"; exit 77; }
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cp -R "$root/tests/fakes/fake_torch/torch" "$site/"
mkdir "$work/bin"
ln -s "$root/tests/fakes/fake_nvidia_smi.py" "$work/bin/nvidia-smi"
{ cat "$base"; printf '%s\n' "dev0.threads_per_sm = 1536" "dev0.mem_free = 67108864" \
    "dev0.alloc_max = 62914560" "dev0.fma_tflops = 70" "dev0.mem_gbps = 900" \
    "dev0.h2d_gbps = 25" "dev0.d2h_gbps = 26" "torch.fp32_tflops = 60" \
    "torch.tf32_tflops = 120" "torch.fp16_tflops = 150" "torch.bf16_tflops = 150"; } \
    > "$work/healthy.scenario"
{ cat "$work/healthy.scenario"; echo "torch.copy_gbps = 600"; } > "$work/planted.scenario"

# kit RUN SCENARIO [VAR=VALUE...]: the kit as a GPU machine would run it; sets $rc.
kit() {
    _run=$1 _scenario=$2
    shift 2
    env PATH="$work/bin:$PATH" LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        DLENV_FAKE_SCENARIO="$_scenario" DLENV="$dlenv" DLENV_PROOF_QUICK=1 \
        DLENV_PROOF_PYTHON="$work/venv/bin/python" "$@" \
        sh "$proof" "$work/$_run" > "$work/$_run.log" 2>&1
    rc=$?
}

# has RUN FILE TEXT: FILE of RUN holds TEXT.
has() {
    grep -F -q -e "$3" "$work/$1/$2" 2>/dev/null || fail "$1/$2 has no line with: $3"
}
# counts RUN: "N M K GPU..." from the first line of RUN's summary.txt.
counts() { sed -n '1s/^gpu-proof: \([0-9]*\) checks, \([0-9]*\) passed, \([0-9]*\) failed, on \(.*\)$/\1 \2 \3 \4/p' "$work/$1/summary.txt"; }

# --- Run 1: a healthy machine, every check passes ------------------------------------
t0=$(date +%s)
kit run1 "$work/healthy.scenario"
[ "$rc" = 0 ] || { fail "run 1: exit $rc, expected 0"; cat "$work/run1.log"; }
for f in report.json doctor.json verify.json nvidia-smi.xml compare.txt references.json \
         bad-settings.json summary.txt; do
    [ -s "$work/run1/$f" ] || fail "run 1: no $f"
done
set -- "$work/run1"/*
[ $# = 8 ] || fail "run 1: $# files in OUTDIR, expected 8: $*"
# shellcheck disable=SC2046 # the words of the first line
set -- $(counts run1)
if [ $# -lt 4 ] || [ "$3" != 0 ] || [ "$1" != "$2" ] || [ "$1" -lt 40 ]; then
    fail "run 1: summary's first line: $(head -n 1 "$work/run1/summary.txt")"
fi
[ "$(head -n 1 "$work/run1/summary.txt" | sed 's/.*, on //')" = "NVIDIA GeForce RTX 4090 driver 550.54.14" ] ||
    fail "run 1: the GPU and driver in: $(head -n 1 "$work/run1/summary.txt")"
for s in "find torch" nvidia-smi report doctor verify torch-reference; do
    has run1 summary.txt "PASS step $s: "
done
for fact in "driver version" "CUDA version (NVML)" "CUDA version (cuDriverGetVersion)" \
            "GPU count" "gpu0 name" "gpu0 UUID" "gpu0 minor number" "gpu0 total memory" \
            "gpu0 compute capability" "gpu0 SM clock" "gpu0 SM clock max" "gpu0 memory clock" \
            "gpu0 memory clock max" "gpu0 power limit" "gpu0 PCIe generation" \
            "gpu0 PCIe generation max" "gpu0 PCIe width" "gpu0 PCIe width max" \
            "gpu0 persistence mode" "gpu0 MIG mode" "cuda0 total memory"; do
    has run1 compare.txt "$fact: same ("
done
has run1 compare.txt "gpu0 power limit: same (450 W)"
has run1 compare.txt "gpu0 total memory: same (25757220864 bytes)"
grep -q ': differs: ' "$work/run1/compare.txt" && fail "run 1: $(grep ': differs: ' "$work/run1/compare.txt")"
has run1 summary.txt "PASS reference gpu0 memory bandwidth, cuMemcpyDtoD vs torch copy: 900 vs 900 GB/s, ratio 1.000"
has run1 summary.txt "PASS reference gpu0 torch bf16 matmul, verify vs timed here: 150 vs 150 TFLOPS, ratio 1.000"
has run1 summary.txt "PASS reference gpu0 fp32 FMA vs datasheet: 70 vs 82.6 TFLOPS, ratio 0.848"
for c in cvd_empty cvd_too_many cvd_bad_uuid probe_timeout; do
    has run1 summary.txt "PASS bad-settings $c: "
done
if ls /usr/local/cuda*/lib64/stubs/libcuda.so /usr/local/cuda*/targets/*/lib/stubs/libcuda.so \
        /usr/local/cuda*/lib/stubs/libcuda.so >/dev/null 2>&1; then
    has run1 summary.txt "PASS bad-settings stub_libcuda: "
else
    has run1 summary.txt "SKIP bad-settings stub_libcuda: "
fi
has run1 bad-settings.json '"root_cause": "cuda_visible_devices"'
t1=$(date +%s)

# --- Run 2: nvidia-smi reports another power limit, torch copies at 600 GB/s ---------
kit run2 "$work/planted.scenario" DLENV_FAKE_SMI_SET="gpu0.power_limit_mw=300000"
[ "$rc" = 1 ] || fail "run 2: exit $rc, expected 1 (checks failed)"
has run2 compare.txt "gpu0 power limit: differs: 450 W vs 300.00 W"
[ "$(grep -c ': differs: ' "$work/run2/compare.txt")" = 1 ] ||
    fail "run 2: not just the planted difference: $(grep ': differs: ' "$work/run2/compare.txt")"
# shellcheck disable=SC2046
set -- $(counts run2)
if [ $# -lt 3 ] || [ "$3" != 3 ]; then
    fail "run 2: expected 3 failures: $(head -n 1 "$work/run2/summary.txt")"
fi
has run2 summary.txt "FAIL compare gpu0 power limit: differs: 450 W vs 300.00 W"
has run2 summary.txt "FAIL reference gpu0 memory bandwidth, cuMemcpyDtoD vs torch copy: 900 vs 600 GB/s, ratio 1.500"
has run2 summary.txt "FAIL reference gpu0 memory bandwidth, copy kernel vs torch copy: "
has run2 references.json '"verdict": "fail"'

# --- The record kept in docs/hardware-runs ---------------------------------------------
mkdir "$work/records"
if sh "$proof" --record "$work/run1" "$work/records" > "$work/record.log" 2>&1; then
    rec=$(ls "$work/records")
    case "$rec" in
        ????-??-??-NVIDIA-GeForce-RTX-4090.json) ;;
        *) fail "record: named '$rec'" ;;
    esac
    has records "$rec" '"failed": 0'
else
    fail "record: $(cat "$work/record.log")"
fi

if [ "$failures" != 0 ]; then
    echo "--- run 1 summary"; cat "$work/run1/summary.txt"
    echo "--- run 2 summary"; cat "$work/run2/summary.txt"
    exit 1
fi
echo "gpu-proof self-test: passed (run 1 in $((t1 - t0)) s, run 2 in $(( $(date +%s) - t1 )) s)"
