# Extension packages built for another torch (extension_mismatch), through the real binary:
# a real venv with real pip, a fake torch 2.3.1+cu121 that imports, and beside it, one at a
# time, fake wheels of each extension package (tests/e2e/fake_wheel.py) that say what they
# were built for the way the real ones do: a torch pin in METADATA, a variant tag in the
# version, the wheel's name and folder (pip's direct_url.json), the CUDA in their
# libraries' names, deepspeed's version file. Each has a twin built for this torch that
# must stay quiet.
set -eu
. "$(dirname "$0")/lib.inc"

sys_py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
make_venv "$work/venv"
wheels="$work/wheels"
home="$work/home"
mkdir -p "$wheels" "$home"
py="$work/venv/bin/python"

wheel() { # wheel DIR NAME VERSION [EXTRA...]: a fake wheel in $wheels/DIR; prints its path
    mkdir -p "$wheels/$1"
    d=$1
    shift
    n=$1 v=$2
    shift 2
    "$sys_py" "$here/fake_wheel.py" "$wheels/$d" "$n" "$v" healthy "$@"
}

pip() { "$py" -m pip --disable-pip-version-check "$@" >/dev/null; }

doctor() { # doctor: `dlenv doctor --json` as a user with the venv activated
    set +e
    env -i HOME="$home" LC_ALL=C.UTF-8 PATH="$work/venv/bin:/usr/bin:/bin" \
        VIRTUAL_ENV="$work/venv" "$dlenv" doctor --json --import-timeout 20 > "$work/out" 2> "$work/err"
    set -e
    out=$(cat "$work/out")
}

# the extension_mismatch finding's index, or nothing
finding() {
    i=0
    while x=$(get "findings.$i.id" 2>/dev/null); do
        [ "$x" = extension_mismatch ] && { echo "$i"; return 0; }
        i=$((i + 1))
    done
    return 1
}

# mismatch NAME WHEEL FIX: installing WHEEL makes extension_mismatch fire naming NAME,
# with a fix step containing FIX
mismatch() {
    pip install --quiet --no-index --no-deps "$2"
    doctor
    if n=$(finding); then
        case "$(get "findings.$n.title")" in *"$1"*) ;; *) fail "$1: title: $(get "findings.$n.title")" ;; esac
        case "$(get "findings.$n.fix")" in *"$3"*) ;; *) fail "$1: no fix contains: $3 ($(get "findings.$n.fix"))" ;; esac
    else
        fail "$1: extension_mismatch did not fire ($(get findings | head -c 400))"
    fi
    pip uninstall --quiet -y "$1"
}

# near_miss NAME WHEEL: a build for this torch stays quiet
near_miss() {
    pip install --quiet --no-index --no-deps "$2"
    doctor
    finding >/dev/null && fail "$1 (near miss): extension_mismatch fired: $(get findings | head -c 400)"
    grep -q '"name":[[:space:]]*"'"$1"'"' "$work/out" || fail "$1 (near miss): the package is not in the facts"
    pip uninstall --quiet -y "$1"
}

pip install --quiet --no-index --no-deps \
    "$("$sys_py" "$here/fake_wheel.py" "$wheels" torch 2.3.1+cu121 "healthy_cuda:NVIDIA GeForce RTX 4090:8.9" \
        "requires=triton==2.3.1; platform_system == \"Linux\"")"
doctor
finding >/dev/null && fail "torch alone: extension_mismatch fired"
expect_eq "torch's triton pin" 'triton==2.3.1; platform_system == "Linux"' \
    "$(get facts.pythons.0.site_packages.0.packages.0.requires_triton)"

# xformers: the torch its PyPI wheel pins, and the CUDA its variant tag names
mismatch xformers "$(wheel pin xformers 0.0.23.post1 requires=torch==2.1.2 file=xformers/_C.so:)" \
    "-m pip install --upgrade xformers torch==2.3.1+cu121"
mismatch xformers "$(wheel cuda xformers 0.0.27+cu118 requires=torch==2.3.1)" "torch==2.3.1+cu121"
near_miss xformers "$(wheel ok xformers 0.0.27+cu121 requires=torch==2.3.1 file=xformers/_C.so:)"

# flash-attn: its release wheels name the torch (torch2.1) and CUDA major (cu122)
mismatch flash_attn "$(wheel flash flash_attn 2.5.8+cu122torch2.1cxx11abiFALSE)" \
    "--no-build-isolation --no-cache-dir flash_attn"
near_miss flash_attn "$(wheel flash flash_attn 2.5.8+cu122torch2.3cxx11abiFALSE)"

# bitsandbytes: no library for torch's CUDA 12.1
mismatch bitsandbytes "$(wheel bnb bitsandbytes 0.41.0 file=bitsandbytes/libbitsandbytes_cpu.so: \
    file=bitsandbytes/libbitsandbytes_cuda117.so: file=bitsandbytes/libbitsandbytes_cuda118.so:)" \
    "-m pip install --upgrade bitsandbytes torch==2.3.1+cu121"
expect_eq "bitsandbytes' libraries" bitsandbytes/libbitsandbytes_cpu.so \
    "$(get facts.pythons.0.site_packages.0.packages.0.libraries.0 2>/dev/null ||
       "$match" --get "$work/out" facts.pythons.0.site_packages.0.packages.1.libraries.0)"
near_miss bitsandbytes "$(wheel bnb bitsandbytes 0.43.1 file=bitsandbytes/libbitsandbytes_cpu.so: \
    file=bitsandbytes/libbitsandbytes_cuda118.so: file=bitsandbytes/libbitsandbytes_cuda121.so:)"

# triton: torch pins the triton it was built with
mismatch triton "$(wheel triton triton 3.0.0)" "-m pip install triton==2.3.1"
near_miss triton "$(wheel triton triton 2.3.1)"

# apex: a local tag with the torch and CUDA it was compiled against
mismatch apex "$(wheel apex apex 0.1+pt21cu118 file=apex/amp_C.so:)" "--no-build-isolation"
near_miss apex "$(wheel apex apex 0.1+pt23cu121 file=apex/amp_C.so:)"

# deepspeed: ops prebuilt for torch 2.1 / CUDA 11.8 (its git_version_info_installed.py)
ds_info() { printf "file=deepspeed/git_version_info_installed.py:version='0.14.0'\ninstalled_ops = {'async_io': False, 'fused_adam': %s}\ntorch_info = {'version': '%s', 'bf16_support': True, 'cuda_version': '%s', 'nccl_version': '2.18', 'hip_version': '0.0'}\n" "$@"; }
mismatch deepspeed "$(wheel ds1 deepspeed 0.14.0 "$(ds_info True 2.1 11.8)")" "--no-build-isolation --no-cache-dir deepspeed"
near_miss deepspeed "$(wheel ds2 deepspeed 0.14.0 "$(ds_info True 2.3 12.1)")"
# ops built at run time (no op prebuilt) fit whichever torch runs
near_miss deepspeed "$(wheel ds3 deepspeed 0.14.0 "$(ds_info False 2.1 11.8)")"

# vllm: its exact torch pin
mismatch vllm "$(wheel vllm1 vllm 0.4.0 requires=torch==2.1.2 file=vllm/_C.abi3.so:)" \
    "-m pip install --upgrade vllm torch==2.3.1+cu121"
near_miss vllm "$(wheel vllm2 vllm 0.5.1 requires=torch==2.3.1 file=vllm/_C.abi3.so:)"

# mmcv: a wheel from OpenMMLab's index folder for cu118 / torch 2.1.0
mismatch mmcv "$(wheel mmcv/dist/cu118/torch2.1.0 mmcv 2.1.0)" \
    "-f https://download.openmmlab.com/mmcv/dist/cu121/torch2.3/index.html"
near_miss mmcv "$(wheel mmcv/dist/cu121/torch2.3.0 mmcv 2.2.0)"

[ "$failures" -eq 0 ] || exit 1
echo "extension packages: all checks passed"
