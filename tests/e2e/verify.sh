# dlenv verify on this machine, for real: the native CPU figures in sane ranges (not exact
# numbers), torch's fp32 product through Debian's python3-torch, which with its reference
# BLAS must fire cpu_matmul_slow with the fix "install OpenBLAS". OpenBLAS is not
# installed: its Debian package is downloaded and unpacked into a scratch folder, and
# LD_LIBRARY_PATH points the same torch at it. Then the kernel OpenBLAS chose must be
# reported; where it is narrower than the CPU (OpenBLAS does not know the model a virtual
# machine shows: "Prescott" on AVX-512 here) the finding must name OPENBLAS_CORETYPE, and
# with the kernel it names, torch's product must be faster and the finding gone.
set -eu
. "$(dirname "$0")/lib.inc"

py=/usr/bin/python3
[ -x "$py" ] || skip_or_fail "no /usr/bin/python3"
"$py" -c "import torch" 2>/dev/null || skip_or_fail "Debian's python3-torch is not installed"

in_range() { # in_range WHAT VALUE LOW HIGH
    "$py" -c "import sys; v=float(sys.argv[1]); sys.exit(0 if $3 <= v <= $4 else 1)" "$2" ||
        fail "$1: $2 is outside [$3, $4]"
}

finding_index() { # finding_index ID: prints the index of finding ID in $work/out
    i=0
    while id=$(get "findings.$i.id" 2>/dev/null); do
        [ "$id" = "$1" ] && { echo "$i"; return 0; }
        i=$((i + 1))
    done
    return 1
}

has_finding() { # has_finding ID: 0 when the answer in $work/out has it
    finding_index "$1" >/dev/null
}

fixes_of() { # fixes_of ID: the fix steps of finding ID, as JSON
    get "findings.$(finding_index "$1").fix"
}

# 1. The reference BLAS Debian's torch uses by default (when nothing switched libblas.so.3).
run verify --quick --json --python "$py"
expect_eq "schema" dlenv.verify/1 "$(get schema)"
in_range "fp32 peak, 1 core" "$(get measurements.cpu.fp32_gflops_1core)" 1 100000
in_range "fp32 peak, all cores" "$(get measurements.cpu.fp32_gflops_all)" 1 1000000
in_range "fp64 peak, all cores" "$(get measurements.cpu.fp64_gflops_all)" 0.5 1000000
in_range "triad" "$(get measurements.cpu.triad_gbps)" 0.5 2000
in_range "torch matmul" "$(get measurements.torch_cpu.matmul_gflops)" 0.01 1000000
expect_eq "matmul limit is the peak" "$(get measurements.cpu.fp32_gflops_all)" \
    "$(get measurements.torch_cpu.matmul_gflops_limit)"
expect_eq "GPU" '{"unknown":"no NVIDIA GPU on this machine"}' "$(get measurements.gpu.gpu)"
libs=$(get facts.pythons.0.runtime.loaded_libraries)
case "$libs" in
*openblas*|*mkl*) echo "note: this machine's libblas.so.3 is already optimised: part 1 checks quiet"
    has_finding cpu_matmul_slow && fail "cpu_matmul_slow with an optimised BLAS: $libs" ;;
*)  has_finding cpu_matmul_slow || fail "cpu_matmul_slow did not fire on the reference BLAS ($libs)"
    case "$(fixes_of cpu_matmul_slow)" in *"apt-get install -y libopenblas0-pthread"*) ;;
        *) fail "reference BLAS without the OpenBLAS fix: $(fixes_of cpu_matmul_slow)" ;; esac
    expect_eq "exit code (a warning)" 0 "$rc" ;;
esac

# 2. The same torch with OpenBLAS.
scratch="$work/openblas"
mkdir -p "$scratch"
if (cd "$scratch" && apt-get download libopenblas0-pthread >/dev/null 2>&1) &&
   dpkg-deb -x "$scratch"/libopenblas0-pthread_*.deb "$scratch/root" 2>/dev/null; then
    dir=$(dirname "$(find "$scratch/root" -name libblas.so.3 | head -n 1)")
    LD_LIBRARY_PATH="$dir" run verify --quick --json --python "$py"
    case "$(get facts.pythons.0.runtime.loaded_libraries)" in
    *openblas*) ;; *) fail "OpenBLAS was not loaded: $(get facts.pythons.0.runtime.loaded_libraries)" ;;
    esac
    core=$(get facts.pythons.0.runtime.blas_core)
    case "$core" in [A-Za-z]*) ;; *) fail "OpenBLAS kernel not reported: $core" ;; esac
    expect_eq "exit code with OpenBLAS" 0 "$rc"
    coretype=
    if has_finding cpu_matmul_slow; then
        fixes=$(fixes_of cpu_matmul_slow)
        case "$fixes" in *"apt install"*) fail "OpenBLAS is loaded, yet: $fixes" ;; esac
        coretype=$(echo "$fixes" | sed -n 's/.*OPENBLAS_CORETYPE=\([A-Za-z0-9]*\).*/\1/p')
        [ -n "$coretype" ] || echo "note: slow with OpenBLAS's $core kernel, which fits: $fixes"
    else
        echo "note: OpenBLAS chose $core and torch's product is not slow"
    fi
    if [ -n "$coretype" ]; then
        before=$(get measurements.torch_cpu.matmul_gflops)
        OPENBLAS_CORETYPE=$coretype LD_LIBRARY_PATH="$dir" run verify --quick --json --python "$py"
        expect_eq "kernel once OPENBLAS_CORETYPE is set" "$coretype" \
            "$(get facts.pythons.0.runtime.blas_core)"
        has_finding cpu_matmul_slow &&
            fail "cpu_matmul_slow with OPENBLAS_CORETYPE=$coretype: $(get measurements.torch_cpu)"
        after=$(get measurements.torch_cpu.matmul_gflops)
        in_range "$coretype kernel against $core ($before GFLOPS)" "$after" "$before" 1000000
    fi
else
    echo "SKIP part 2: cannot download and unpack libopenblas0-pthread (apt-get download / dpkg-deb)"
fi

# 3. Usage errors.
run verify --quick --full
expect_eq "--quick --full exit code" 2 "$rc"
run verify --from /dev/null
expect_eq "--from is not a verify option" 2 "$rc"

# 4. The text view: every figure with its limit, and the verdict.
run verify --quick --python "$py"
case "$out" in *"fp32 peak, all cores"*"% of"*"torch fp32 matmul"*"Verdict:"*) ;;
    *) fail "text view: $out" ;; esac
finish
