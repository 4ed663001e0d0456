# dlenv plan on this machine (no GPU: a CPU plan for the interpreter `python` means) and
# its command line: a described machine, constraints, errors and their exit codes.
set -eu
. "$(dirname "$0")/lib.inc"

run plan --json
expect_eq "plan exit code" 0 "$rc"
expect_eq "plan schema" "dlenv.plan/1" "$(get schema)"
expect_eq "this machine" "this machine" "$(get machine.source)"
expect_eq "this machine's plan is a CPU one" cpu "$(get recommended.variant)"
case "$(get recommended.index_url)" in
    https://download.pytorch.org/whl/cpu) ;; *) fail "index: $(get recommended.index_url)" ;; esac
pip=$(get recommended.commands.pip)
py=$(get machine.python_path)
case "$pip" in
    *" -m pip install torch=="*" --index-url https://download.pytorch.org/whl/cpu") ;;
    *) fail "pip command: $pip" ;;
esac
# The commands name this machine's interpreter (or a venv made from a system Python).
case "$pip" in "$py -m pip"*|"~/.venvs/torch/bin/python -m pip"*) ;; *) fail "pip for $py: $pip" ;; esac

run plan
expect_eq "text exit code" 0 "$rc"
case "$out" in *"Recommended: torch "*", CPU only (cpu)"*) ;; *) fail "text: $out" ;; esac

# Debian's interpreter: a system Python, so the plan makes a venv first.
if [ -x /usr/bin/python3 ]; then
    run plan --python /usr/bin/python3 --json
    expect_eq "--python PATH exit code" 0 "$rc"
    expect_eq "--python PATH is planned for" /usr/bin/python3 "$(get machine.python_path)"
fi

# Adjusting this machine: another Python version, same OS.
run plan --python 3.7 --json
expect_eq "--python 3.7" 1.13.1 "$(get recommended.torch)"

run plan --os windows --python 3.12 --gpu "GeForce RTX 4090" --driver 31.0.15.8180 --offline \
    --index-mirror https://mirror.example/whl/
expect_eq "described exit code" 0 "$rc"
case "$out" in *"py -3.12 -m pip install torch=="*"--index-url https://mirror.example/whl/cu130"*) ;;
    *) fail "mirror and Windows launcher: $out" ;; esac
case "$out" in *"torch-"*"+cu130-cp312-cp312-win_amd64.whl"*) ;; *) fail "offline wheel: $out" ;; esac
case "$out" in *"pip download torch=="*"--python-version 3.12 --platform win_amd64 -d wheels"*) ;;
    *) fail "offline download: $out" ;; esac
case "$out" in *"--no-index --find-links wheels"*) ;; *) fail "offline install: $out" ;; esac

run plan --os linux --python 3.12 --gpu sm_61 --driver 580.65.06 --why
case "$out" in *"gpu_arch_dropped: torch 2.15.0 cu130 has no kernels for sm_61"*) ;;
    *) fail "--why names the dropped architecture: $out" ;; esac

run plan --os linux --python 2.7
expect_eq "nothing fits exit code" 1 "$rc"
case "$out" in *"Nothing fits"*"no_wheel_for_python"*) ;; *) fail "nothing fits: $out" ;; esac

for bad in "--os beos" "--for tpu" "--torch banana" "--driver 12" "--gpu ,"; do
    # shellcheck disable=SC2086
    run plan $bad
    expect_eq "plan $bad exit code" 2 "$rc"
    lines=$(printf '%s\n' "$err" | wc -l)
    expect_eq "plan $bad: one-line error" 1 "$lines"
done
run plan --data /nonexistent-dir
expect_eq "--data missing" 4 "$rc"
# An empty table (no bytes, or its header only) is unusable input, like a broken one.
mkdir -p "$work/data-empty" "$work/data-header"
: > "$work/data-empty/torch_releases.csv"
head -n 1 "$(dirname "$0")/../../data/torch_releases.csv" > "$work/data-header/torch_releases.csv"
for d in data-empty data-header; do
    run plan --data "$work/$d" --os linux --python 3.12
    expect_eq "$d: exit" 4 "$rc"
    case "$err" in "dlenv: $work/$d/torch_releases.csv:"*) ;; *) fail "$d: $err" ;; esac
done

# Nothing is cut silently (plan.h): a table version longer than the planner holds is
# refused naming it; a GPU name longer than its field ends in an ellipsis.
mkdir -p "$work/data-long"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "torchvision") c = i }
    NR == 2 { $c = "0.13.0+a-local-tag-far-too-long" } { print }' \
    "$(dirname "$0")/../../data/torch_releases.csv" > "$work/data-long/torch_releases.csv"
run plan --data "$work/data-long" --os linux --python 3.12
expect_eq "long torchvision: exit" 2 "$rc"
expect_eq "long torchvision: message" "dlenv: torch_releases: torchvision '0.13.0+a-local-tag-far-too-long' is longer than the 23 bytes the planner holds" "$err"
long=$(printf 'x%.0s' $(seq 1 120))
run plan --os linux --python 3.12 --gpu "RTX 4090 $long"
case "$out" in *"RTX 4090 xxxx"*"… (sm_89)"*) ;; *) fail "long GPU name not marked as cut: $out" ;; esac

# What cannot describe a GPU, an architecture or a Python is refused before anything runs:
# exit 2, one line, nothing on stdout, with --os or adjusting this machine.
usage_error() { # usage_error WHAT ARGS...: exit 2, one line, nothing on stdout
    what=$1
    shift
    run plan "$@"
    expect_eq "$what: exit" 2 "$rc"
    expect_eq "$what: stdout" "" "$out"
    expect_eq "$what: one line" 1 "$(printf '%s\n' "$err" | wc -l)"
}
for gpu in zzz sm_-1 99.99 sm_999 compute_x 8.6.1 0.5 '---'; do
    usage_error "--gpu '$gpu'" --os linux --python 3.12 --gpu "$gpu"
    usage_error "--gpu '$gpu' on this machine" --gpu "$gpu"
done
run plan --os linux --python 3.12 --gpu sm_-1
expect_eq "--gpu sm_-1: message" "dlenv: --gpu 'sm_-1': expected a GPU's name as nvidia-smi prints it, a compute capability (8.6, sm_86) or a PCI id (10de:2504)" "$err"
for arch in '' sparc AARCH64 'x86 64'; do
    usage_error "--arch '$arch'" --os linux --python 3.12 --arch "$arch"
done
for py in 3.x 3 3.12.1.5 '' /usr/bin/python3; do
    usage_error "--os with --python '$py'" --os linux --python "$py"
done
usage_error "--python 3.x on this machine" --python 3.x
# Real names, capabilities and ids keep working, known to the tables or not.
for gpu in "RTX 4090" "NVIDIA GeForce GTX 1080" "Tesla V100-SXM2-16GB" "TITAN Xp" "Radeon VII" \
    "Apple M3" "RTX 9090" 8.6 12.0 sm_86 sm_90a compute_86 10de:2504; do
    run plan --os linux --python 3.12 --gpu "$gpu"
    case "$rc" in 0 | 1) ;; *) fail "--gpu '$gpu': exit $rc: $err" ;; esac
done
for arch in x86_64 arm64 aarch64 x86; do
    run plan --os linux --python 3.12 --arch "$arch"
    case "$rc" in 0 | 1) ;; *) fail "--arch '$arch': exit $rc: $err" ;; esac
done
finish
