# verify's embedded PTX must be something NVIDIA's own assembler accepts: ptxas from the
# CUDA toolkit here compiles it for the oldest architecture it still targets and for the
# newest. Skipped when no toolkit is installed.
set -eu
. "$(dirname "$0")/lib.inc"

ptx=$(dirname "$0")/../../src/measure/gpu_kernels.ptx
ptxas=""
for p in /usr/local/cuda/bin/ptxas /usr/local/cuda-*/bin/ptxas; do
    [ -x "$p" ] && { ptxas=$p; break; }
done
[ -n "$ptxas" ] || ptxas=$(command -v ptxas 2>/dev/null || true)
[ -n "$ptxas" ] || skip_or_fail "no ptxas (CUDA toolkit) here"

archs=$("$ptxas" --help 2>/dev/null | tr -c 'a-z0-9_\n' '\n' | grep -E '^sm_[0-9]+$' | sort -u)
[ -n "$archs" ] || archs="sm_75 sm_90"
compiled=0
for arch in $archs; do
    if "$ptxas" -arch="$arch" -v "$ptx" -o "$work/$arch.cubin" > "$work/log" 2>&1; then
        compiled=$((compiled + 1))
        for fn in dl_fma_check dl_fma_peak dl_copy; do
            grep -q "Compiling entry function '$fn'" "$work/log" ||
                fail "$arch: ptxas did not compile $fn"
        done
        if grep "spill stores" "$work/log" | grep -qv " 0 bytes spill stores"; then
            fail "$arch: the kernels spill registers"
        fi
    elif grep -q "is not defined for option" "$work/log"; then
        : # --help lists an architecture this ptxas no longer targets
    else
        fail "ptxas -arch=$arch rejects the PTX: $(cat "$work/log")"
    fi
done
[ "$compiled" -ge 2 ] || fail "ptxas compiled the PTX for only $compiled architectures"
echo "compiled for $compiled architectures"
finish
