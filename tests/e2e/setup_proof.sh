# setup's proof (step 4) beyond "it imports": the GPUs the plan targets matched against
# those torch sees, and torch's CPU product against this CPU's measured peak. A fake 2-GPU
# machine (the fake NVML of tests/fakes answering two-gpus.scenario) makes the plan a CUDA
# one; the local index of local_index.inc serves fake_wheel.py's CUDA torch that sees one
# GPU (/cu126), both (/two/cu126), and a CPU torch whose product is right but slow
# (/slow/cpu). Every failure: exit 18, its layer and evidence, nothing left behind.
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
fakes=$(cd "$(dirname "$match")/fakes" && pwd)
[ -f "$fakes/nvml/libnvidia-ml.so.1" ] || { echo "SKIP: no fake NVML in $fakes"; exit 77; }
need_venv_pip

. "$here/local_index.inc"

two_gpus="$here/run-fixtures/two-gpus.scenario"
gpu() { LD_LIBRARY_PATH="$fakes/nvml" DLENV_FAKE_SCENARIO="$two_gpus" "$@"; }
no_staging() { # no_staging WHAT
    left=$(ls -A "$work" | grep -e '\.dlenv-staging-' || true)
    expect_eq "$1: staging folders left" "" "$left"
}

# What dlenv plans on the 2-GPU machine: the CUDA wheels get those versions.
gpu run plan --json --python "$py"
gtorch=$(get recommended.torch)
gvision=$(get recommended.torchvision)
variant=$(get recommended.variant)
case "$variant" in cu*) ;; *) fail "the 2-GPU machine: not a CUDA plan: $variant"; finish ;; esac
one="NVIDIA GeForce RTX 4090:8.9"
both="NVIDIA GeForce RTX 3060:8.6;NVIDIA GeForce RTX 4090:8.9"
for spec in "$variant:$one" "two/$variant:$both"; do
    dir="$work/index/${spec%%:*}"
    mkdir -p "$dir"
    "$py" "$here/fake_wheel.py" "$dir" torch "$gtorch+$variant" "healthy_cuda:${spec#*:}" mm=right > /dev/null
    "$py" "$here/fake_wheel.py" "$dir" torchvision "$gvision+$variant" > /dev/null
    "$py" "$here/simple_index.py" "$dir"
done
mkdir -p "$work/index/slow/cpu"
"$py" "$here/fake_wheel.py" "$work/index/slow/cpu" torch "$torch+cpu" healthy mm=slow > /dev/null
"$py" "$here/fake_wheel.py" "$work/index/slow/cpu" torchvision "$vision+cpu" > /dev/null
"$py" "$here/simple_index.py" "$work/index/slow/cpu"

common="--python $py --tool venv --extra-index-url none --yes"

# 1. The plan targets both GPUs, torch sees one: the devices, named, fail the proof.
# shellcheck disable=SC2086
gpu run setup "$work/env" $common $mirror
expect_eq "torch sees 1 of 2 GPUs: exit code" 18 "$rc"
case "$err" in *"torch_runtime layer: the plan targets 2 GPUs, torch in the new environment sees 1"*) ;;
    *) fail "torch sees 1 of 2 GPUs: not said: $err" ;; esac
case "$err" in *"planned GPU 1: NVIDIA GeForce RTX 3060 (compute capability 8.6)"*"devices[0]: NVIDIA GeForce RTX 4090 (compute capability 8.9)"*) ;;
    *) fail "torch sees 1 of 2 GPUs: no evidence: $err" ;; esac
[ ! -e "$work/env" ] || fail "torch sees 1 of 2 GPUs: the environment was made"
no_staging "torch sees 1 of 2 GPUs"

# 2. torch sees both (in another order): the devices pass; the fake has no GPU products,
# and the proof says that next. The same proof as after an install, run on an environment
# that already holds the plan (adopted: a pip-less venv with the wheels unpacked into it;
# case 1 runs it after a real install), so no venv with pip is made for it.
unpacked() { # unpacked DIR INDEX: a venv without pip holding INDEX's torch and torchvision
    "$py" -m venv --without-pip "$1"
    for whl in "$2"/torch/*.whl "$2"/torchvision/*.whl; do
        "$py" -m zipfile -e "$whl" "$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    done
}
unpacked "$work/both" "$work/index/two/$variant"
# shellcheck disable=SC2086
gpu run setup "$work/both" $common --index-mirror "http://127.0.0.1:$port/two"
expect_eq "torch sees both GPUs: exit code" 18 "$rc"
case "$out" in *"already is an environment with torch $gtorch+$variant"*"torch sees the 2 planned GPUs"*) ;; *) fail "torch sees both GPUs: not matched: $out$err" ;; esac
case "$err" in *"ran no matrix product on a GPU"*) ;; *) fail "torch sees both GPUs: not the products next: $err" ;; esac
[ ! -e "$work/both/dlenv.lock" ] || fail "torch sees both GPUs: a lock written for an environment that failed"
# CUDA_VISIBLE_DEVICES of the person's hides one: torch's one GPU is a planned one, passes.
unpacked "$work/one" "$work/index/$variant"
# shellcheck disable=SC2086
CUDA_VISIBLE_DEVICES=0 gpu run setup "$work/one" $common $mirror
case "$out" in *"torch sees 1 planned GPU: NVIDIA GeForce RTX 4090 (8.9) (CUDA_VISIBLE_DEVICES"*) ;;
    *) fail "CUDA_VISIBLE_DEVICES=0: not matched as chosen: $out$err" ;; esac
no_staging "torch sees both GPUs"

# 3. A right but slow CPU product, far below this CPU's measured peak: the performance layer.
# shellcheck disable=SC2086
run setup "$work/env" $common --cpu --index-mirror "http://127.0.0.1:$port/slow"
expect_eq "slow product: exit code" 18 "$rc"
case "$err" in *"failed at the performance layer: torch fp32 matmul on the CPU runs at"*"GFLOPS"*"cpu_measure.fp32_gflops_all"*) ;;
    *) fail "slow product: the layer or the peak not named: $err" ;; esac
[ ! -e "$work/env" ] || fail "slow product: the environment was made"
no_staging "slow product"

finish
