# dlenv run with real processes: what the command sees (arguments, environment), exit
# codes and deaths by signal passed back, the GPUs of a fake 2-GPU machine (the fake NVML
# from tests/fakes), a real venv and a conda env found by name, and the errors before
# anything starts.
set -eu
. "$(dirname "$0")/lib.inc"

here=$(cd "$(dirname "$0")" && pwd)
fakes=$(cd "$(dirname "$match")/fakes" && pwd)
two_gpus="$here/run-fixtures/two-gpus.scenario"
[ -f "$fakes/nvml/libnvidia-ml.so.1" ] || { echo "SKIP: no fake NVML in $fakes"; exit 77; }

# A real child that writes what it was given: one line per argument, then the variables.
show='for a; do printf "<%s>\n" "$a"; done
for v in CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER HIP_VISIBLE_DEVICES ZE_AFFINITY_MASK VIRTUAL_ENV CONDA_PREFIX CONDA_DEFAULT_ENV PYTHONHOME; do
    eval "set=\${$v+set}"; eval "val=\${$v-}"
    [ "$set" = set ] && printf "%s=[%s]\n" "$v" "$val" || printf "%s unset\n" "$v"
done'
line() { # line PATTERN: the line of $out that starts with PATTERN
    printf '%s\n' "$out" | grep -F -- "$1" | head -n 1
}

# 1. --cpu: arguments pass untouched, no shell in between; every GPU hidden.
nl='
'
ZE_AFFINITY_MASK=0 CUDA_VISIBLE_DEVICES=0 PYTHONHOME=/nowhere \
run run --cpu -- sh -c "$show" sh 'a b' "it's" 'q"uote' '100%' 'a^b' 'héllo 中文' '$HOME' \
    'back\slash\' '' "two${nl}lines" '*' '--gpu' '-- '
expect_eq "cpu: exit code" 0 "$rc"
expect_eq "cpu: arguments" "<a b>
<it's>
<q\"uote>
<100%>
<a^b>
<héllo 中文>
<\$HOME>
<back\\slash\\>
<>
<two
lines>
<*>
<--gpu>
<-- >" "$(printf '%s\n' "$out" | sed -n '1,14p')"
expect_eq "cpu: CUDA_VISIBLE_DEVICES set and empty" "CUDA_VISIBLE_DEVICES=[]" "$(line CUDA_VISIBLE_DEVICES)"
expect_eq "cpu: order" "CUDA_DEVICE_ORDER=[PCI_BUS_ID]" "$(line CUDA_DEVICE_ORDER)"
expect_eq "cpu: HIP" "HIP_VISIBLE_DEVICES=[]" "$(line HIP_VISIBLE_DEVICES)"
expect_eq "cpu: Level Zero mask removed" "ZE_AFFINITY_MASK unset" "$(line ZE_AFFINITY_MASK)"
expect_eq "cpu: PYTHONHOME untouched without --python" "PYTHONHOME=[/nowhere]" "$(line PYTHONHOME)"
expect_eq "cpu: nothing from dlenv on stderr" "" "$err"

# Without `--` the first word that is not an option starts the command; its options are its own.
run run --cpu printf '%s|' --help -x
expect_eq "no --: exit code" 0 "$rc"
expect_eq "no --: the command's options" "--help|-x|" "$out"

# 2. Exit codes and signals: the command replaces dlenv (same process), so the caller sees
#    its exit status as a shell reports it.
run run --cpu -- sh -c 'exit 42'
expect_eq "exit code passed back" 42 "$rc"
run run --cpu -- sh -c 'kill -USR1 $$'
expect_eq "death by SIGUSR1 (128+10)" 138 "$rc"
run run --cpu -- sh -c 'kill -TERM $$'
expect_eq "death by SIGTERM (128+15)" 143 "$rc"
"$dlenv" run --cpu -- sh -c 'echo $$' > "$work/pid" &
pid=$!
wait "$pid" || true
expect_eq "exec: the command has dlenv's process id" "$pid" "$(cat "$work/pid")"

# 3. A fake machine with two GPUs (NVML answers from the scenario file).
gpu_run() {
    LD_LIBRARY_PATH="$fakes/nvml" DLENV_FAKE_SCENARIO="$two_gpus" run run "$@"
}
gpu_run --gpu 1 -- sh -c "$show" sh
expect_eq "gpu 1: exit code" 0 "$rc"
expect_eq "gpu 1: CUDA" "CUDA_VISIBLE_DEVICES=[1]" "$(line CUDA_VISIBLE_DEVICES)"
expect_eq "gpu 1: order" "CUDA_DEVICE_ORDER=[PCI_BUS_ID]" "$(line CUDA_DEVICE_ORDER)"
expect_eq "gpu 1: HIP" "HIP_VISIBLE_DEVICES=[1]" "$(line HIP_VISIBLE_DEVICES)"
expect_eq "gpu 1: Level Zero" "ZE_AFFINITY_MASK=[1]" "$(line ZE_AFFINITY_MASK)"
gpu_run --gpu GPU-5c2b9 -- sh -c 'printf %s "$CUDA_VISIBLE_DEVICES"'
expect_eq "UUID prefix" "1" "$out"
gpu_run --gpu GPU-5C2B6A8E-1F2D-3C4B-8A9E-0F1E2D3C4B5A -- sh -c 'printf %s "$CUDA_VISIBLE_DEVICES"'
expect_eq "whole UUID, any case" "0" "$out"
gpu_run --gpu 41:00.0,0 -- sh -c 'printf %s "$CUDA_VISIBLE_DEVICES"'
expect_eq "PCI bus id and index, in the order given" "1,0" "$out"
gpu_run --gpu 1 --gpu 0 -- sh -c 'printf %s "$CUDA_VISIBLE_DEVICES"'
expect_eq "--gpu repeated" "1,0" "$out"

# Errors before anything runs: one line, nothing on stdout, the command never started.
rm -f "$work/ran"
gpu_run --gpu 2 -- touch "$work/ran"
expect_eq "no GPU 2: exit code" 4 "$rc"
expect_eq "no GPU 2: message" "dlenv: --gpu 2: no such GPU; this machine has 0 NVIDIA GeForce RTX 4090 (GPU-5c2b6a8e), 1 NVIDIA GeForce RTX 3060 (GPU-5c2b9f00)" "$err"
expect_eq "no GPU 2: stdout" "" "$out"
[ ! -e "$work/ran" ] || fail "no GPU 2: the command ran"
gpu_run --gpu GPU-5c2b -- touch "$work/ran"
expect_eq "ambiguous UUID prefix: exit code" 4 "$rc"
case "$err" in *"matches 2 GPUs"*) ;; *) fail "ambiguous UUID prefix: $err" ;; esac
gpu_run --gpu GPU-ffff -- touch "$work/ran"
expect_eq "unknown UUID: exit code" 4 "$rc"
gpu_run --gpu one -- touch "$work/ran"
expect_eq "malformed --gpu: exit code" 2 "$rc"
expect_eq "malformed --gpu: message" "dlenv: --gpu 'one': not a GPU index, UUID (GPU-...) or PCI bus id (--cpu for no GPU)" "$err"
gpu_run --gpu 0,,1 -- touch "$work/ran"
expect_eq "empty entry: exit code" 2 "$rc"
gpu_run --gpu 1,GPU-5c2b9 -- touch "$work/ran"
expect_eq "one GPU twice: exit code" 2 "$rc"
gpu_run --gpu 0 --cpu -- touch "$work/ran"
expect_eq "--cpu with --gpu: exit code" 2 "$rc"
[ ! -e "$work/ran" ] || fail "a command ran after an error"

# No NVIDIA driver at all: --gpu is an error that says so; --cpu still works.
mkdir -p "$work/nolib"
LD_LIBRARY_PATH="$work/nolib" run run --gpu 0 -- touch "$work/ran"
expect_eq "no driver: exit code" 4 "$rc"
case "$err" in "dlenv: --gpu 0: no NVIDIA driver answers (NVML: "*"--cpu runs without a GPU") ;;
    *) fail "no driver: $err" ;; esac
[ ! -e "$work/ran" ] || fail "no driver: the command ran"
LD_LIBRARY_PATH="$work/nolib" run run --cpu -- true
expect_eq "no driver: --cpu works" 0 "$rc"
# A driver whose nvmlInit hangs: the probe's timeout, then the same error.
printf 'nvml.init_hang = 1\n' > "$work/hang.scenario"
LD_LIBRARY_PATH="$fakes/nvml" DLENV_FAKE_SCENARIO="$work/hang.scenario" \
    run run --gpu 0 --probe-timeout 1 -- touch "$work/ran"
expect_eq "hanging driver: exit code" 4 "$rc"
case "$err" in *"no NVIDIA driver answers (NVML: libnvidia-ml.so.1 did not answer within 1.0 s"*) ;;
    *) fail "hanging driver: $err" ;; esac
[ ! -e "$work/ran" ] || fail "hanging driver: the command ran"

# 4. The command itself.
run run --cpu -- dlenv-no-such-command
expect_eq "not found: exit code" 127 "$rc"
expect_eq "not found: message" "dlenv: dlenv-no-such-command: command not found" "$err"
printf 'echo hi\n' > "$work/not-executable"
chmod 644 "$work/not-executable"
run run --cpu -- "$work/not-executable"
expect_eq "not executable: exit code" 126 "$rc"
# As POSIX shells: a path that does not exist is 127; a text file without "#!" runs with
# sh (its arguments and exit code passed); a binary no exec knows is 126.
run run --cpu -- "$work/no/such/program" a
expect_eq "no such path: exit code" 127 "$rc"
printf 'printf "%%s|" "$0" "$@" "$CUDA_VISIBLE_DEVICES"; exit 9\n' > "$work/no-shebang"
chmod 755 "$work/no-shebang"
run run --cpu -- "$work/no-shebang" 'a b' c
expect_eq "no #!: exit code" 9 "$rc"
expect_eq "no #!: run by sh with its arguments" "$work/no-shebang|a b|c||" "$out"
printf '\177ELF\001\000\000not a program' > "$work/not-a-binary"
chmod 755 "$work/not-a-binary"
run run --cpu -- "$work/not-a-binary"
expect_eq "binary no exec knows: exit code" 126 "$rc"
expect_eq "binary no exec knows: message" "dlenv: cannot run $work/not-a-binary: cannot execute binary file" "$err"
run run --cpu
expect_eq "no command: exit code" 2 "$rc"
run run -- true
expect_eq "nothing to set: exit code" 2 "$rc"
run run --help
case "$out" in *"Usage: dlenv run [options] [--] COMMAND"*"--gpu LIST"*"--cpu"*"--env NAME"*"127"*) ;;
    *) fail "run --help: $out" ;; esac

# 5. A real venv: --python activates it, `python` is its interpreter, its pip comes first.
if /usr/bin/python3 -m venv --without-pip "$work/venv" 2>/dev/null; then
    printf '#!/bin/sh\necho venv-pip\n' > "$work/venv/bin/pip"
    chmod +x "$work/venv/bin/pip"
    VIRTUAL_ENV=/elsewhere run run --python "$work/venv/bin/python" -- python -c \
        'import os, sys; print(sys.prefix); print(os.environ["VIRTUAL_ENV"]); print(sys.argv[1:])' 'x y'
    expect_eq "venv: exit code" 0 "$rc"
    expect_eq "venv: what python ran, VIRTUAL_ENV, arguments" "$work/venv
$work/venv
['x y']" "$out"
    run run --python "$work/venv/bin/python" -- pip
    expect_eq "venv: its pip first on PATH" "venv-pip" "$out"
    run run --env "$work/venv" -- python -c 'import sys; print(sys.prefix)'
    expect_eq "venv by folder" "$work/venv" "$out"
    mkdir -p "$work/workon"
    ln -s "$work/venv" "$work/workon/proj"
    WORKON_HOME="$work/workon" run run --env proj -- sh -c 'printf %s "$VIRTUAL_ENV"'
    expect_eq "venv by name under WORKON_HOME" "$work/workon/proj" "$out"
else
    echo "note: python3 -m venv is not available: the venv checks are skipped"
fi
run run --python "$work/no/python3" -- true
expect_eq "missing --python: exit code" 4 "$rc"
expect_eq "missing --python: message" "dlenv: --python $work/no/python3: no such interpreter" "$err"

# 6. A conda env found by name through ~/.conda/environments.txt.
env_dir="$work/miniconda3/envs/torch-env"
mkdir -p "$env_dir/bin" "$env_dir/conda-meta" "$work/home/.conda"
printf '#!/bin/sh\necho "$0"\n%s\n' "$show" > "$env_dir/bin/python"
chmod +x "$env_dir/bin/python"
printf '%s\n' "$env_dir" > "$work/home/.conda/environments.txt"
HOME="$work/home" VIRTUAL_ENV=/some/venv run run --cpu --env torch-env -- python arg
expect_eq "conda: exit code" 0 "$rc"
expect_eq "conda: python is the env's" "$env_dir/bin/python" "$(printf '%s\n' "$out" | head -n 1)"
expect_eq "conda: CONDA_PREFIX" "CONDA_PREFIX=[$env_dir]" "$(line CONDA_PREFIX)"
expect_eq "conda: CONDA_DEFAULT_ENV" "CONDA_DEFAULT_ENV=[torch-env]" "$(line CONDA_DEFAULT_ENV)"
expect_eq "conda: VIRTUAL_ENV removed" "VIRTUAL_ENV unset" "$(line VIRTUAL_ENV)"
expect_eq "conda: GPUs hidden too" "CUDA_VISIBLE_DEVICES=[]" "$(line CUDA_VISIBLE_DEVICES)"
HOME="$work/home" run run --env torch-env -- sh -c 'printf %s "$PATH"'
case "$out" in "$env_dir/bin:"*) ;; *) fail "conda: PATH $out" ;; esac
HOME="$work/home" run run --env nope -- true
expect_eq "unknown env: exit code" 4 "$rc"
case "$err" in "dlenv: --env nope: no conda env or venv of that name (found: "*"torch-env"*) ;;
    *) fail "unknown env: $err" ;; esac

finish
