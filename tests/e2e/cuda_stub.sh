# The CUDA toolkit's real stub libcuda, as broken containers have it (needs the toolkit in
# /usr/local/cuda*; skipped without it).
set -eu
. "$(dirname "$0")/lib.inc"

stub=""
for f in /usr/local/cuda*/targets/*/lib/stubs/libcuda.so /usr/local/cuda*/lib64/stubs/libcuda.so; do
    [ -f "$f" ] && { stub=$f; break; }
done
[ -n "$stub" ] || skip_or_fail "no CUDA toolkit stub libcuda.so here"
real_stub=$(readlink -f "$stub")
stubdir=$(dirname "$stub")

# 1. A directory whose libcuda.so.1 links to the stub: the stub is what loads, and cuInit
#    says so with 34.
mkdir -p "$work/broken"
ln -s "$stub" "$work/broken/libcuda.so.1"
LD_LIBRARY_PATH="$work/broken" run report --json
expect_eq "exit code" 0 "$rc"
expect_eq "loaded libcuda" "$real_stub" "$(get cuda_driver.library)"
expect_eq "cuInit code" 34 "$(get cuda_driver.init_code)"
expect_eq "cuInit name" CUDA_ERROR_STUB_LIBRARY "$(get cuda_driver.init_result)"
expect_eq "loader's pick" "$work/broken/libcuda.so.1" "$(get libraries.0.chosen)"
expect_eq "the pick is a stub" true "$(get libraries.0.copies.0.stub)"
case "$(get tool.probes)" in *'"cuda_driver","status":"failed"'*) ;;
    *) fail "cuda_driver probe not failed: $(get tool.probes)" ;; esac

# 2. Only the stubs directory on the path: no libcuda.so.1 exists, a stub libcuda.so does.
LD_LIBRARY_PATH="$stubdir" run report --json
expect_eq "exit code" 0 "$rc"
case "$(get cuda_driver.library)" in *"cannot open shared object file"*) ;;
    *) fail "libcuda.so.1 loaded from somewhere: $(get cuda_driver.library)" ;; esac
case "$(get libraries.0.chosen)" in *unknown*) ;;
    /*) echo "note: a real libcuda.so.1 exists on this machine" ;;
    *) fail "unexpected choice $(get libraries.0.chosen)" ;; esac
case "$(get libraries.0.copies)" in *"$stubdir/libcuda.so"*'"stub":true'*) ;;
    *) fail "stub libcuda.so not listed: $(get libraries.0.copies)" ;; esac

finish
