# dlenv verify's native GPU measurements against the fake libcuda (tests/fakes), which runs
# dlenv's kernels on the host and advances a virtual GPU clock at the rates a scenario
# gives: so each figure, its limit and its verdict are known in advance. Also a kernel
# that computes wrong, a launch that fails, PTX the driver cannot compile, a throttled GPU
# and a PCIe link that trains down under load. Skipped without the fakes (a Windows build).
set -eu
. "$(dirname "$0")/lib.inc"

fakes=$(dirname "$dlenv")/tests/fakes
[ -f "$fakes/cuda/libcuda.so.1" ] || { echo "SKIP: no fake libcuda in $fakes"; exit 77; }
base=$(dirname "$0")/../gpu/healthy-1gpu/scenario

# scenario NAME LINES...: the healthy RTX 4090 plus the given lines
scenario() {
    name=$1
    shift
    { cat "$base"; printf '%s\n' \
        "dev0.threads_per_sm = 1536" "dev0.mem_free = 67108864" "dev0.alloc_max = 62914560" \
        "dev0.fma_tflops = 70" "dev0.mem_gbps = 900" "dev0.h2d_gbps = 25" \
        "dev0.d2h_gbps = 26" "$@"; } > "$work/$name.scenario"
}

# A venv whose torch is a CUDA build that sees the GPU (tests/e2e/fake_wheel.py): verify's
# verdict follows the doctor's, so torch itself must work for a healthy verdict.
py=""
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -m venv "$work/venv" >/dev/null 2>&1; then
    /usr/bin/python3 "$(dirname "$0")/fake_wheel.py" "$work" torch 2.5.1+cu124 \
        "healthy_cuda:NVIDIA GeForce RTX 4090:8.9" >/dev/null
    "$work/venv/bin/python" -m pip install --quiet --no-index --no-deps \
        "$work/torch-2.5.1+cu124-py3-none-any.whl" >/dev/null
    py="$work/venv/bin/python"
fi
[ -n "$py" ] || skip_or_fail "no python3 -m venv with pip here"

verify_on() { # verify_on NAME: dlenv verify --quick --json with that scenario's fakes
    LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$work/$1.scenario" \
        run verify --quick --json --python "$py"
}

near() { # near WHAT EXPECTED ACTUAL: within 1%
    awk -v e="$2" -v a="$3" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= e / 100) }' ||
        fail "$1: expected about $2, got '$3'"
}

has() { # has WHAT NEEDLE HAYSTACK
    case "$3" in *"$2"*) ;; *) fail "$1: '$2' not in '$3'" ;; esac
}

# 1. A healthy GPU: every figure at the scenario's rate, next to the limit worked out from
#    the device: 128 SMs x 256 FLOP/clock x 2520 MHz; 2 x 10501 MHz x 384 bits; gen 4 x16.
scenario healthy
verify_on healthy
expect_eq "healthy: exit" 0 "$rc"
expect_eq "healthy: check" passed "$(get measurements.gpu0.check)"
near "healthy: fp32" 70 "$(get measurements.gpu0.fp32_tflops)"
near "healthy: fp32 limit" 82.575 "$(get measurements.gpu0.fp32_tflops_limit)"
expect_eq "healthy: fp32 verdict" ok "$(get measurements.gpu0.fp32_tflops_verdict)"
near "healthy: copy kernel" 900 "$(get measurements.gpu0.copy_kernel_gbps)"
near "healthy: dtod" 900 "$(get measurements.gpu0.dtod_gbps)"
near "healthy: memory limit" 1008.096 "$(get measurements.gpu0.copy_kernel_gbps_limit)"
near "healthy: h2d pinned" 25 "$(get measurements.gpu0.h2d_pinned_gbps)"
near "healthy: d2h pinned" 26 "$(get measurements.gpu0.d2h_pinned_gbps)"
near "healthy: h2d pageable" 12.5 "$(get measurements.gpu0.h2d_pageable_gbps)"
near "healthy: pcie limit" 31.508 "$(get measurements.gpu0.h2d_pinned_gbps_limit)"
near "healthy: largest allocation" 0.05859375 "$(get measurements.gpu0.max_alloc_gib)"
expect_eq "healthy: clock under load" 2520 "$(get measurements.gpu0.sm_clock_under_load_mhz)"
expect_eq "healthy: status" measured "$(get facts.gpu_measure.devices.0.status)"
expect_eq "healthy: bus id" 00000000:01:00.0 "$(get facts.gpu_measure.devices.0.pci_bus_id)"
case "$out" in *gpu_throttled*|*pcie_link_degraded*) fail "healthy: a GPU finding fired" ;; esac
case "$out" in *"power limit is"*) fail "healthy: a power limit named (it is the default)" ;; esac

# 2. Slow and held back: 20 of 82.6 TFLOPS with NVML reporting a hardware slowdown.
scenario slow "dev0.fma_tflops = 20" "gpu0.throttle = 0x8" "gpu0.sm_clock = 1200"
verify_on slow
expect_eq "slow: fp32 verdict" warning "$(get measurements.gpu0.fp32_tflops_verdict)"
has "slow: finding" gpu_throttled "$out"
has "slow: under load" "hw_slowdown at 1200 of 3105 MHz" "$out"
has "slow: evidence names the measurement" "under load" "$out"

# 2b. Slow under a power limit set to 150 of its 450 W default: the finding names the setting
#     beside the figure it slowed, with the command that restores the default (the healthy
#     run, at the default, names none).
scenario capped "dev0.fma_tflops = 20" "gpu0.power_limit_mw = 150000"
verify_on capped
has "capped: finding" gpu_below_peak "$out"
has "capped: names the limit and the figure" \
    "measured 20.0 TFLOPS, 24% of peak; the power limit is 150 W of a 450 W default" "$out"
has "capped: fix" "nvidia-smi -i 0 -pl 450" "$out"

# 3. A link that stays at gen 3 while dlenv copies to the GPU (idle, NVML alone would not
#    blame it): pcie_link_degraded, and the copies measured against gen 3 x16.
scenario link "gpu0.pcie_gen = 3" "dev0.h2d_gbps = 12" "dev0.d2h_gbps = 12"
verify_on link
has "link: finding" pcie_link_degraded "$out"
has "link: evidence" "gen 3 x16 while copying, can do gen 4 x16" "$out"
near "link: limit" 15.754 "$(get measurements.gpu0.h2d_pinned_gbps_limit)"

# 4. A kernel that computes one value wrong: the check says which, verify fails.
scenario wrong "dev0.check_wrong = 7"
verify_on wrong
expect_eq "wrong: exit" 1 "$rc"
has "wrong: check" "1 of 1048576 values differ from the CPU (first at 7" "$(get measurements.gpu0.check)"
expect_eq "wrong: verdict" failure "$(get measurements.gpu0.check_verdict)"

# 5. Every launch fails: the error names the call and CUDA's code; the rest is unknown.
scenario launch "dev0.launch = error:719"
verify_on launch
expect_eq "launch: exit" 1 "$rc"
expect_eq "launch: error" "cuLaunchKernel(dl_fma_check): CUDA_ERROR_LAUNCH_FAILED" \
    "$(get facts.gpu_measure.devices.0.error)"
has "launch: figure unknown" "CUDA_ERROR_LAUNCH_FAILED" "$(get measurements.gpu0.fp32_tflops)"

# 6. The driver cannot compile dlenv's PTX: its own log is in the error.
scenario jit "cuda.jit = error:222" "cuda.jit_log = ptxas fatal: Unsupported .version 5.0"
verify_on jit
has "jit: error" "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" "$(get facts.gpu_measure.devices.0.error)"
has "jit: log" "ptxas fatal: Unsupported .version 5.0" "$(get facts.gpu_measure.devices.0.error)"

# 7. The text form shows the GPU's lines with their limits.
LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$work/healthy.scenario" \
    run verify --quick --python "$py"
has "text: title" "GPU 0: NVIDIA GeForce RTX 4090 (compute capability 8.9, 128 SMs)" "$out"
has "text: fp32 line" "of 82.6 (128 SMs x 256 fp32 FLOP/clock x 2520 MHz)" "$out"
has "text: check" "kernel check" "$out"

# 8. The same healthy GPU with a CPU-only torch: doctor's failure is verify's too.
if /usr/bin/python3 -c 'import torch, sys; sys.exit(torch.version.cuda is not None)' 2>/dev/null; then
    LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$work/healthy.scenario" \
        run verify --quick --json --python /usr/bin/python3
    expect_eq "cpu torch: exit" 1 "$rc"
    expect_eq "cpu torch: verdict" failure "$(get verdict)"
    expect_eq "cpu torch: root cause" cpu_only_build "$(get root_cause)"
    expect_eq "cpu torch: GPU figures still measured" ok "$(get measurements.gpu0.fp32_tflops_verdict)"
fi

finish
