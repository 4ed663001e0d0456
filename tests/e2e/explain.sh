# dlenv explain through the command line: a file, standard input, JSON, a large log,
# a missing file.
set -eu
. "$(dirname "$0")/lib.inc"
cases=$(cd "$(dirname "$0")/../cases" && pwd)

run explain "$cases/c05.txt"
expect_eq "a failure found: exit 1" 1 "$rc"
case "$out" in *"Most likely driver_library_mismatch"*"L1: Failed to initialize NVML"*) ;;
    *) fail "text: $out" ;; esac

run explain --json "$cases/c02.txt"
expect_eq "json schema" "dlenv.explain/1" "$(get schema)"
expect_eq "json root cause" driver_too_old "$(get root_cause.id)"
expect_eq "the driver's CUDA read from the text" 11040 "$(get facts.nvml.cuda_driver_version)"

set +e
printf 'Failed to initialize NVML: Driver/library version mismatch\r\n' |
    "$dlenv" explain --json - > "$work/out" 2> "$work/err"
rc=$?
set -e
expect_eq "stdin exit code" 1 "$rc"
expect_eq "stdin root cause" driver_library_mismatch "$(get root_cause.id)"

# A 10 MB log with the error in the middle: found, and nothing breaks.
awk 'BEGIN { for (i = 0; i < 120000; i++) printf "step %d loss 0.%04d lr 3e-4 epoch %d\n", i, i % 9973, i / 1000 }' \
    > "$work/big.log"
cat "$cases/c07.txt" >> "$work/big.log"
awk 'BEGIN { for (i = 0; i < 10000; i++) print "more progress text after the error" }' >> "$work/big.log"
run explain --json "$work/big.log"
expect_eq "large log exit code" 1 "$rc"
expect_eq "large log root cause" forward_compat_unsupported "$(get root_cause.id)"

# A companion mismatch under conda's torch (a pasted `conda list`): the fix comes from the
# channel conda names, torch pinned to its version and build, in the environment the
# traceback's paths lie in; pip's torch ("pypi") gets pip.
explain_dir=$(cd "$(dirname "$0")/../explain" && pwd)
run explain --json "$explain_dir/conda-list-vision-mismatch.txt"
expect_eq "conda list: root cause" torchvision_mismatch "$(get root_cause.id)"
case "$(get root_cause.fix)" in
    *"conda install -y --prefix /home/me/miniconda3/envs/dl -c pytorch -c nvidia pytorch=2.1.0=py3.10_cuda11.8_cudnn8.7.0_0 torchvision==0.16.0"*) ;;
    *) fail "conda list: not conda's fix: $(get root_cause.fix)" ;; esac
# a Windows user folder with a space: the whole prefix, quoted for PowerShell
run explain --json "$explain_dir/conda-list-windows-env-space.txt"
case "$(get root_cause.fix)" in
    *"conda install -y --prefix 'C:"*"Users"*"Ana Lee"*"anaconda3"*"envs"*"sd' -c pytorch"*) ;;
    *) fail "Windows conda prefix: $(get root_cause.fix)" ;; esac
run explain --json "$explain_dir/conda-list-torch-from-pip.txt"
expect_eq "pip's torch in conda list: root cause" torchvision_mismatch "$(get root_cause.id)"
case "$(get root_cause.fix)" in
    *"conda install"*) fail "pip's torch given conda's fix: $(get root_cause.fix)" ;;
    *"pip install --force-reinstall --no-deps torchvision==0.16.0"*) ;;
    *) fail "pip's torch: no pip fix: $(get root_cause.fix)" ;; esac

# A GPU's architecture missing from the wheel, in a text that names no OS: no install
# command is chosen (none can be), and the note says why, with the GPU for dlenv plan. With
# the OS named, the command comes, and an unknown driver is said beside it.
run explain --json "$explain_dir/docker-runtime-then-capability.txt"
expect_eq "no OS: root cause" arch_not_in_wheel "$(get root_cause.id)"
case "$(get root_cause.fix)" in
    *"pip install"*) fail "no OS, yet a command: $(get root_cause.fix)" ;;
    *"does not say the machine's OS"*"--os linux --gpu sm_86 --driver VERSION"*) ;;
    *) fail "no OS: no note: $(get root_cause.fix)" ;; esac
{ echo "OS: Ubuntu 22.04"; tail -n 3 "$explain_dir/docker-runtime-then-capability.txt"; } > "$work/linux-sm86.txt"
run explain --json "$work/linux-sm86.txt"
case "$(get root_cause.fix)" in
    *"pip install torch=="*"download.pytorch.org/whl/cu"*"needs an NVIDIA driver >="*"driver here is unknown"*) ;;
    *) fail "Linux, driver unknown: $(get root_cause.fix)" ;; esac

run explain "$work/no-such-file"
expect_eq "missing file" 4 "$rc"
expect_eq "one line" 1 "$(printf '%s\n' "$err" | wc -l)"

run explain a b
expect_eq "two inputs" 2 "$rc"
finish
