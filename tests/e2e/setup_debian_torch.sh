# setup's proof with Debian's real torch (python3-torch, a CPU build) as its subject: a venv
# made with --system-site-packages, nothing installed in it, proven by `dlenv setup --prove`
# (the proof alone: the runtime probe with verify's quick matrix product, run for real, and
# the doctor's rules). The planner targets download.pytorch.org's wheels, never Debian's
# build (1.13.0a0), so the whole transaction cannot take Debian's torch as its plan; this
# proves the proof step itself against real torch, its rate against this CPU's measured peak
# included. Nothing in the venv changes.
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
"$py" -c 'import torch' > /dev/null 2>&1 || skip_or_fail "Debian's torch (python3-torch) is not installed"
"$py" -m venv --system-site-packages --without-pip "$work/deb" > /dev/null 2>&1 ||
    skip_or_fail "python3 -m venv cannot make a venv (python3-venv)"
trap 'rm -rf "$work"' EXIT INT TERM

listing() { (cd "$1" && find . | LC_ALL=C sort); }
before=$(listing "$work/deb")

# Its CPU product is judged against this CPU's own peak, as `dlenv verify` judges it: with
# the reference BLAS libblas.so.3 points at by default (1-5% of the peak), the proof fails
# at the performance layer and says why; with OpenBLAS (or BLIS) behind it, it passes.
multiarch=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("MULTIARCH") or "")')
blas=$(readlink -f "/usr/lib/$multiarch/libblas.so.3" 2>/dev/null || true)
run setup --prove "$work/deb"
case "$out" in *"fp32 matrix product on the CPU is right"*) ;; *) fail "prove: no matrix product: $out" ;; esac
case "$blas" in
*openblas* | *blis*)
    expect_eq "prove Debian's torch (optimised BLAS $blas): exit code" 0 "$rc"
    [ "$rc" = 0 ] || echo "$out$err" | tail -10
    case "$out" in *"/usr/lib/python3/dist-packages/torch/"*) ;; *) fail "prove: not Debian's torch: $out" ;; esac
    case "$out" in *"(this CPU's fp32 peak)"*) ;; *) fail "prove: no comparison with the peak: $out" ;; esac
    ;;
*)
    expect_eq "prove Debian's torch (reference BLAS $blas): exit code" 18 "$rc"
    case "$err" in *"failed at the performance layer"*"cpu_measure.fp32_gflops_all"*"libopenblas"*) ;;
        *) fail "prove, reference BLAS: the layer, the peak or the fix not named: $err" ;; esac
    ;;
esac
expect_eq "prove: the venv unchanged" "$before" "$(listing "$work/deb")"

# --cpu: the CPU product alone, whatever the build (the same judgement).
run setup --prove "$work/deb" --cpu
case "$blas" in *openblas* | *blis*) want=0 ;; *) want=18 ;; esac
expect_eq "prove --cpu: exit code" "$want" "$rc"

run setup --prove "$work/nothing"
expect_eq "prove, no environment: exit code" 12 "$rc"
run setup --prove
expect_eq "prove, no PATH: exit code" 2 "$rc"

finish
