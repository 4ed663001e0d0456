# dlenv profile write: the launchers run for real (the shell script with sh), the others'
# text where this machine cannot run them (.bat and .ps1 run under Wine in
# tests/windows), and VS Code's launch.json merged into an existing file with comments.
set -eu
. "$(dirname "$0")/lib.inc"

here=$(cd "$(dirname "$0")" && pwd)
fakes=$(cd "$(dirname "$match")/fakes" && pwd)
two_gpus="$here/run-fixtures/two-gpus.scenario"
[ -f "$fakes/nvml/libnvidia-ml.so.1" ] || { echo "SKIP: no fake NVML in $fakes"; exit 77; }
dlenv=$(cd "$(dirname "$dlenv")" && pwd)/$(basename "$dlenv")
gpu_run() {
    LD_LIBRARY_PATH="$fakes/nvml" DLENV_FAKE_SCENARIO="$two_gpus" run "$@"
}
run_in() { # run_in DIR ARGS...: run, in DIR
    dir=$1
    shift
    set +e
    (cd "$dir" && exec "$dlenv" "$@") > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}
show='for a; do printf "<%s>\n" "$a"; done; printf "CUDA=[%s] ORDER=[%s] ZE=%s\n" \
    "${CUDA_VISIBLE_DEVICES-unset}" "${CUDA_DEVICE_ORDER-unset}" "${ZE_AFFINITY_MASK-unset}"'

# 1. A shell script with a command: executable, sets the variables, passes its own
#    arguments on after the command's, and the command's exit code back.
gpu_run profile write --gpu 1 --format sh -o "$work/gpu1.sh" -- sh -c "$show; exit 7" sh 'a b' "it's"
expect_eq "sh: exit code" 0 "$rc"
expect_eq "sh: nothing on stdout with -o" "" "$out"
[ -x "$work/gpu1.sh" ] || fail "sh: the script is not executable"
set +e
out=$(ZE_AFFINITY_MASK=7 "$work/gpu1.sh" '100%' '$x' 'héllo 中文')
rc=$?
set -e
expect_eq "sh: the command's exit code" 7 "$rc"
expect_eq "sh: arguments and variables" "<a b>
<it's>
<100%>
<\$x>
<héllo 中文>
CUDA=[1] ORDER=[PCI_BUS_ID] ZE=1" "$out"

# 2. Without a command it runs the one it is given; --cpu keeps CUDA_VISIBLE_DEVICES empty.
run profile write --cpu --format sh -o "$work/cpu.sh"
expect_eq "sh without command: exit code" 0 "$rc"
set +e
out=$(ZE_AFFINITY_MASK=7 sh "$work/cpu.sh" sh -c "$show" sh 'x y')
rc=$?
set -e
expect_eq "sh without command: result" "0 <x y>
CUDA=[] ORDER=[PCI_BUS_ID] ZE=unset" "$rc $out"
set +e
sh "$work/cpu.sh" > /dev/null 2>&1
rc=$?
set -e
expect_eq "sh without command and without arguments: usage" 2 "$rc"

# 3. A venv: the script prepends its bin/ to the PATH it finds when it runs.
if /usr/bin/python3 -m venv --without-pip "$work/venv" 2>/dev/null; then
    run profile write --python "$work/venv/bin/python" --format sh -o "$work/venv.sh" -- \
        python -c 'import os, sys; print(sys.prefix, os.environ["VIRTUAL_ENV"])'
    expect_eq "venv sh: exit code" 0 "$rc"
    out=$(PATH=/usr/bin:/bin sh "$work/venv.sh")
    expect_eq "venv sh: the venv's python, activated" "$work/venv $work/venv" "$out"
    out=$(grep '^PATH=' "$work/venv.sh")
    expect_eq "venv sh: PATH prepended when the script runs" \
        "PATH=$work/venv/bin\"\${PATH:+:\$PATH}\"" "$out"
fi

# 4. Nothing is written when the GPU does not exist or the options are wrong.
gpu_run profile write --gpu 5 --format sh -o "$work/none.sh"
expect_eq "no GPU 5: exit code" 4 "$rc"
[ ! -e "$work/none.sh" ] || fail "no GPU 5: a file was written"
run profile write --cpu --format zsh
expect_eq "bad --format: exit code" 2 "$rc"
expect_eq "bad --format: message" "dlenv: --format takes sh, bat, ps1, env or vscode, not 'zsh'" "$err"
run profile write --cpu
expect_eq "no --format: exit code" 2 "$rc"
run profile --cpu --format sh
expect_eq "no action: exit code" 2 "$rc"
run profile write --cpu --format env -- python x.py
expect_eq "dotenv with a command: exit code" 2 "$rc"

# 5. The other formats' text.
gpu_run profile write --gpu 0,1 --format env
expect_eq "dotenv: exit code" 0 "$rc"
expect_eq "dotenv" "# dlenv: GPUs 0,1: written by \`dlenv profile write\`
CUDA_VISIBLE_DEVICES=0,1
CUDA_DEVICE_ORDER=PCI_BUS_ID
HIP_VISIBLE_DEVICES=0,1
ZE_AFFINITY_MASK=0,1" "$out"
run profile write --cpu --format bat -- python 'a b' '100%' 'x&y'
expect_eq "bat: exit code" 0 "$rc"
case "$out" in *'set "CUDA_VISIBLE_DEVICES=-1"'*'"python" "a b" "100%%" "x&y" %*'*) ;;
    *) fail "bat: $out" ;; esac
printf '%s' "$out" | grep -q "$(printf '\r')\$" || fail "bat: lines do not end in CRLF"
run profile write --cpu --format ps1 -- python "it's"
case "$out" in *"& 'python' 'it''s' @args"*"exit \$code"*) ;; *) fail "ps1: $out" ;; esac

# 6. VS Code: .vscode/launch.json made in the current folder, then merged.
mkdir -p "$work/proj"
LD_LIBRARY_PATH="$fakes/nvml" DLENV_FAKE_SCENARIO="$two_gpus" \
    run_in "$work/proj" profile write --gpu 1 --format vscode -- python -u train.py --lr '1e-3'
expect_eq "vscode: exit code" 0 "$rc"
expect_eq "vscode: stderr" "dlenv: wrote the configuration \"dlenv: GPU 1\" to .vscode/launch.json" "$err"
lj="$work/proj/.vscode/launch.json"
expect_eq "vscode: name" "dlenv: GPU 1" "$("$match" --get "$lj" configurations.0.name)"
expect_eq "vscode: program" "train.py" "$("$match" --get "$lj" configurations.0.program)"
expect_eq "vscode: args" '["--lr","1e-3"]' "$("$match" --get "$lj" configurations.0.args)"
expect_eq "vscode: pythonArgs" '["-u"]' "$("$match" --get "$lj" configurations.0.pythonArgs)"
expect_eq "vscode: env" '{"CUDA_VISIBLE_DEVICES":"1","CUDA_DEVICE_ORDER":"PCI_BUS_ID","HIP_VISIBLE_DEVICES":"1","ZE_AFFINITY_MASK":"1"}' \
    "$("$match" --get "$lj" configurations.0.env)"

# An existing launch.json with comments, a trailing comma and a configuration of its own.
cat > "$lj" <<'EOF'
{
    // Use IntelliSense to learn about possible attributes.
    "version": "0.2.0",
    "configurations": [
        {
            "name": "Mine: attach", /* keep me */
            "type": "debugpy",
            "request": "attach",
            "connect": {"host": "localhost", "port": 5678},
        },
    ]
}
EOF
run_in "$work/proj" profile write --cpu --format vscode --name "CPU run" -- python -m pkg.train 'a b'
expect_eq "merge: exit code" 0 "$rc"
case "$err" in *"(its comments are not kept)") ;; *) fail "merge: stderr $err" ;; esac
expect_eq "merge: theirs kept" "Mine: attach" "$("$match" --get "$lj" configurations.0.name)"
expect_eq "merge: theirs intact" '{"host":"localhost","port":5678}' "$("$match" --get "$lj" configurations.0.connect)"
expect_eq "merge: ours added" "CPU run" "$("$match" --get "$lj" configurations.1.name)"
expect_eq "merge: module" "pkg.train" "$("$match" --get "$lj" configurations.1.module)"
expect_eq "merge: CUDA_VISIBLE_DEVICES empty" "" "$("$match" --get "$lj" configurations.1.env.CUDA_VISIBLE_DEVICES)"
LD_LIBRARY_PATH="$fakes/nvml" DLENV_FAKE_SCENARIO="$two_gpus" \
    run_in "$work/proj" profile write --gpu 0 --format vscode --name "CPU run" -- python x.py
expect_eq "same name replaced: exit code" 0 "$rc"
expect_eq "same name replaced: GPU" "0" "$("$match" --get "$lj" configurations.1.env.CUDA_VISIBLE_DEVICES)"
"$match" --get "$lj" configurations.2 > /dev/null 2>&1 && fail "same name: a third configuration"

# A broken launch.json is left as it was.
printf '{"configurations": [\n  {"name": "x",\n' > "$lj"
cp "$lj" "$work/broken.json"
run_in "$work/proj" profile write --cpu --format vscode -- python x.py
expect_eq "broken launch.json: exit code" 4 "$rc"
case "$err" in "dlenv: .vscode/launch.json: not JSON at line "*"(left as it was)") ;; *) fail "broken: $err" ;; esac
cmp -s "$lj" "$work/broken.json" || fail "broken launch.json was changed"
run profile write --cpu --format vscode -o "$work/other.json" -- torchrun x.py
expect_eq "vscode, not python: exit code" 2 "$rc"
[ ! -e "$work/other.json" ] || fail "vscode, not python: a file was written"

finish
