# dlenv doctor on this real machine: Debian's CPU torch with the generic BLAS, the real CUDA
# toolkit and its stub libcuda, the command line and exit codes.
set -eu
. "$(dirname "$0")/lib.inc"

run doctor --list-checks
expect_eq "list-checks exit code" 0 "$rc"
case "$out" in *"libcuda_stub_on_path"*"cpu_matmul_slow"*) ;; *) fail "list-checks: $out" ;; esac

run doctor --check no_such_check
expect_eq "unknown check exit code" 2 "$rc"
run doctor --json --markdown
expect_eq "json with markdown exit code" 2 "$rc"

py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c "import torch" 2>/dev/null; then
    # Debian's torch: a CPU build on a machine without GPU, with the reference BLAS.
    run doctor --json --python "$py"
    expect_eq "debian torch: exit code (warnings only)" 0 "$rc"
    expect_eq "debian torch: schema" dlenv.doctor/1 "$(get schema)"
    expect_eq "debian torch: no root cause" null "$(get root_cause)"
    expect_eq "debian torch: verdict" warning "$(get verdict)"
    case "$(get findings)" in *'"id":"cpu_matmul_slow"'*) ;; *) fail "cpu_matmul_slow missing" ;; esac
    case "$(get findings)" in *'"id":"cpu_only_build"'*) fail "cpu_only_build without a GPU" ;; esac
    run doctor --python "$py" --strict
    expect_eq "strict: warnings fail" 1 "$rc"
    case "$out" in *"Performance"*"generic reference BLAS"*) ;; *) fail "text view: $out" ;; esac
    case "$out" in *"libopenblas0-pthread"*) ;; *) fail "the fix for Debian's torch is missing" ;; esac
    run doctor --python "$py" --markdown --redact
    case "$out" in "## dlenv doctor"*"| Layer | Status |"*) ;; *) fail "markdown: $out" ;; esac
    if [ -n "${HOME:-}" ] && [ ${#HOME} -ge 3 ]; then
        case "$out" in *"$HOME"*) fail "--redact left the home directory" ;; esac
    fi
    run doctor --python "$py" --check cpu_matmul_slow --json
    expect_eq "one check: only its finding" '["cpu_matmul_slow"]' \
        "$(printf '%s' "$(get findings)" | tr ',' '\n' | grep -o '"id":"[a-z_]*"' | sed 's/"id"://' | tr '\n' ',' | sed 's/,$//;s/^/[/;s/$/]/')"
else
    missing "Debian's python3-torch ($py with torch) is not installed; its checks skipped"
fi

# The toolkit's stub libcuda on the loader path of this machine, which has no NVIDIA GPU:
# a warning (nothing here needs the real libcuda), with the exact fix; with a GPU it is a
# failure (tests/doctor/libcuda-stub.patch).
stub=""
for f in /usr/local/cuda*/targets/*/lib/stubs/libcuda.so /usr/local/cuda*/lib64/stubs/libcuda.so; do
    [ -f "$f" ] && { stub=$f; break; }
done
if [ -n "$stub" ]; then
    mkdir -p "$work/broken"
    ln -s "$stub" "$work/broken/libcuda.so.1"
    LD_LIBRARY_PATH="$work/broken:$(dirname "$stub")" run doctor --json --no-runtime \
        --check libcuda_stub_on_path
    expect_eq "stub: exit code" 0 "$rc"
    expect_eq "stub: no root cause" null "$(get root_cause)"
    expect_eq "stub: a warning" warning "$(get findings.0.severity)"
    expect_eq "stub: verdict" warning "$(get verdict)"
    case "$(get findings)" in *"export LD_LIBRARY_PATH=$work/broken"*) ;;
        *) fail "stub: the fix does not drop the stubs directory: $(get findings)" ;; esac
    LD_LIBRARY_PATH="$work/broken:$(dirname "$stub")" run doctor --no-runtime \
        --check libcuda_stub_on_path --strict
    expect_eq "stub: --strict fails on the warning" 1 "$rc"
    LD_LIBRARY_PATH="$work/broken" run doctor --no-runtime
    case "$out" in *"is not needed to run PyTorch wheels"*) ;; *) fail "no toolkit note" ;; esac
else
    missing "no CUDA toolkit stub libcuda in /usr/local/cuda*; stub checks skipped"
fi

# --from: a saved report read back; what is not one gets one line and exit code 4.
run report --json --no-runtime
printf '%s\n' "$out" > "$work/saved.json"
run doctor --json --from "$work/saved.json"
case "$rc" in 0|1|5) ;; *) fail "doctor --from a saved report: exit $rc: $err" ;; esac
expect_eq "--from keeps the machine" "$(get facts.os.pretty_name)" \
    "$("$match" --get "$work/saved.json" os.pretty_name)"
printf '{"schema": "dlenv.report/1", "os": 7}' > "$work/bad.json"
printf '{"schema": "dlenv.report/1", "os": {' > "$work/truncated.json"
for bad in "$work/bad.json" "$work/truncated.json" "$work/missing.json"; do
    run doctor --from "$bad"
    expect_eq "doctor --from $(basename "$bad")" 4 "$rc"
    expect_eq "one line for $(basename "$bad")" 1 "$(printf '%s\n' "$err" | wc -l)"
    case "$err" in "dlenv: $bad: "*) ;; *) fail "error names the file: $err" ;; esac
    expect_eq "nothing on stdout for $(basename "$bad")" "" "$out"
done

finish
