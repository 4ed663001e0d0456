#!/bin/sh
# text.sh DLENV: what `dlenv plan` prints for people (issue 17): never a check mark it
# cannot back, every reason in --why, Windows driver minimums in Windows' form, a "did you
# mean" for a guessed name, and the speed of a described plan.
set -u
dlenv=$1
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
has() { # what text needle
    case "$2" in *"$3"*) ;; *) fail "$1: no '$3' in:"; printf '%s\n' "$2" | sed 's/^/    /' ;; esac
}
lacks() {
    case "$2" in *"$3"*) fail "$1: '$3' in:"; printf '%s\n' "$2" | sed 's/^/    /' ;; esac
}

# An unknown GPU: the CUDA build is named only as unverified, with the question to ask.
out=$("$dlenv" plan --os linux --gpu "Banana GPU" --driver 580.65.06 --python 3.12 --why)
has "unknown GPU" "$out" "Recommended: torch 2.15.0, CPU only (cpu)"
has "unknown GPU" "$out" "? Unverified: torch 2.15.0, CUDA 13.0 (cu130)"
has "unknown GPU" "$out" "nvidia-smi --query-gpu=name,compute_cap --format=csv"
has "unknown GPU --why" "$out" "? 2.15.0  cu130     unverified: the compute capability of Banana GPU is unknown"
lacks "unknown GPU --why" "$out" "cu130     fits"
lacks "unknown GPU --why" "$out" "cu132     fits"

# GT 730 is two chips: the text says so.
out=$("$dlenv" plan --os linux --gpu "GT 730" --driver 470.82.01 --python 3.10)
has "GT 730" "$out" "sold as Kepler (sm_35) and as Fermi (sm_21)"

# A guessed name says what it was read as.
out=$("$dlenv" plan --os linux --gpu "GeForce GTZ 1060" --driver 580.65.06 --python 3.12)
has "typo" "$out" "GTZ 1060 (sm_61, read as GeForce GTX 1060: did you mean that?)"
has "typo" "$out" "Did you mean GeForce GTX 1060?"

# --why: every reason (a GTX 1060 on an old driver fails cu130 for the driver and the arch).
out=$("$dlenv" plan --os linux --gpu "GeForce GTX 1060" --driver 418.87.01 --python 3.12 --why)
has "--why all reasons" "$out" "cu130     driver_too_old: cu130 needs driver >= 580.65.06"
has "--why all reasons" "$out" "gpu_arch_dropped: torch 2.15.0 cu130 has no kernels for sm_61"
has "after update" "$out" "After a driver update to >= 525.60.13: torch 2.14.1, CUDA 12.6 (cu126)"
has "after update" "$out" "through CUDA minor-version compatibility; >= 560.28.03 runs it outright"

# Kepler: cuDNN 9.1 in 2.4+ cu118 is named as the reason.
out=$("$dlenv" plan --os linux --gpu "Tesla K80" --driver 470.82.01 --python 3.10 --why)
has "K80 cuDNN" "$out" "bundles cuDNN 9.1.0.70, which has no kernels for sm_37"

# A Kepler GTX 680: CPU, and the text says no CUDA build runs on it.
out=$("$dlenv" plan --os linux --gpu "GTX 680" --driver 470.82.01 --python 3.10)
has "GTX 680" "$out" "Recommended: torch 2.14.1, CPU only (cpu)"
has "GTX 680" "$out" "note: no CUDA build dlenv knows runs on GTX 680 (sm_30)"
lacks "GTX 680" "$out" "cu118"

# An impossible pair is warned about.
out=$("$dlenv" plan --os linux --gpu "GeForce GTX 1060" --driver 590.48.01 --python 3.12)
has "Pascal + R590" "$out" "warning: driver 590.48.01 does not exist for GeForce GTX 1060: R580"

# AMD and Intel GPUs no ROCm/XPU build supports: CPU, and the text says why (issue 17).
out=$("$dlenv" plan --os windows --gpu "AMD Radeon RX 7900 XTX" --python 3.12)
has "AMD on Windows" "$out" "Recommended: torch 2.15.0, CPU only (cpu)"
has "AMD on Windows" "$out" "PyTorch publishes ROCm wheels (rocm7.14) for Linux only; none for Windows"
out=$("$dlenv" plan --os linux --gpu "AMD Radeon RX 580" --python 3.12 --why)
has "RX 580" "$out" "note: no ROCm build runs here: torch 2.13.0 rocm7.2 has no kernels for AMD Radeon RX 580 (gfx803)"
has "RX 580 --why" "$out" "arch_not_in_wheel: torch 2.13.0 rocm7.2 has no kernels for AMD Radeon RX 580 (gfx803)"
lacks "RX 580" "$out" "rocm7.2     fits"
out=$("$dlenv" plan --os linux --gpu "Intel(R) UHD Graphics 630" --python 3.12)
has "UHD 630" "$out" "note: no XPU build runs here: torch 2.15.0 xpu has no kernels for Intel(R) UHD Graphics 630"
lacks "UHD 630" "$out" "Recommended: torch 2.15.0, Intel XPU"
# An AMD GPU of unknown target: unverified, and the question is rocminfo's, not nvidia-smi's.
out=$("$dlenv" plan --os linux --gpu "AMD Radeon Graphics" --python 3.12)
has "AMD unknown" "$out" "? Unverified: torch 2.14.1, ROCm 7.14 (rocm7.14)"
has "AMD unknown" "$out" "ask:    rocminfo"
lacks "AMD unknown" "$out" "nvidia-smi"

# Windows: driver minimums also in Windows' form.
out=$("$dlenv" plan --os windows --gpu "GeForce GTX 1080" --driver 27.21.14.5671 --python 3.12)
has "Windows form" "$out" "NVIDIA driver: 456.71 (Windows: *.*.14.5671)"
has "Windows form" "$out" "After a driver update to >= 528.33 (Windows: *.*.15.2833)"
has "Windows form" "$out" ">= 560.76 (Windows: *.*.15.6076) runs it outright"

# Not an NVIDIA driver: one line, exit 2.
err=$("$dlenv" plan --os windows --gpu "GeForce RTX 3060" --driver 32.0.101.6556 --python 3.12 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] || fail "Intel driver: exit $rc, want 2"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "Intel driver: not one line: $err"

# 2.15.0 cu132 on Linux: its architectures read from the wheel's fatbin (no PTX), not
# assumed from 2.14's row; cu130 has no 2.15 row yet and says so.
out=$("$dlenv" plan --os linux --gpu "RTX 5090" --driver 595.45.04 --python 3.12)
lacks "2.15 cu132 arches" "$out" "architectures of torch 2.15.0 cu132 on linux assumed"
has "2.15 cu132" "$out" "Recommended: torch 2.15.0, CUDA 13.2 (cu132)"

# PyPI's 2.14.1+cu130 carries no PTX (its fatbin, read): a GPU newer than sm_120 gets no
# JIT through it (RELEASE.md's "+PTX" does not hold for that wheel).
out=$("$dlenv" plan --os linux --gpu sm_130 --driver 595.45.04 --python 3.12 --why)
has "2.14.1 cu130 no PTX" "$out" "2.14.1  cu130     arch_not_in_wheel: torch 2.14.1 cu130 has no kernels for sm_130"

# No driver given: a CUDA build is a guess about the driver, so no check mark; the warning
# names the minimum and the question that settles it. With the driver, the mark returns.
out=$("$dlenv" plan --os linux --gpu "RTX 4090" --python 3.12)
has "driver unknown" "$out" "? Recommended if the driver is new enough: torch 2.15.0, CUDA 13.2 (cu132)"
has "driver unknown" "$out" "warning: the NVIDIA driver is not known; this build needs a driver >= 595.45.04"
has "driver unknown" "$out" "ask:    nvidia-smi --query-gpu=driver_version"
lacks "driver unknown" "$out" "✓"
out=$("$dlenv" plan --os linux --gpu "RTX 4090" --python 3.12 --json)
has "driver unknown json" "$out" '"driver_checked":	false'
out=$("$dlenv" plan --os windows --gpu "RTX 4090" --python 3.12)
has "driver unknown, Windows" "$out" "? Recommended if the driver is new enough"
has "driver unknown, Windows" "$out" "needs a driver >= 595.45.04 (Linux figure; NVIDIA publishes none for Windows)"
out=$("$dlenv" plan --os windows --gpu "RTX 4090" --python 3.12 --json)
has "Linux figure json" "$out" '"min_driver_is_linux_figure":	true'
out=$("$dlenv" plan --os linux --gpu "RTX 4090" --driver 595.45.04 --python 3.12 --json)
lacks "Linux figure json on Linux" "$out" "min_driver_is_linux_figure"
has "driver known json" "$out" '"driver_checked":	true'
out=$("$dlenv" plan --os linux --gpu "RTX 4090" --driver 595.45.04 --python 3.12)
lacks "driver known" "$out" "driver is not known"

# Speed (a described machine with --why under 10 ms) is bench/run.sh's, not a test's: a
# timed test fails on a busy machine and proves nothing on an idle one.

[ "$failed" -eq 0 ] && echo "plan text: all checks passed"
[ "$failed" -eq 0 ]
