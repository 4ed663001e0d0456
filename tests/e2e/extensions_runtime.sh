# Extension packages imported after torch (the runtime probe's extensions records, and
# extension_mismatch / torchvision_mismatch / extension_import_failed from them), through
# the real binary: one real venv with real pip, a fake torch 2.3.1+cu121 that imports, and
# beside it fake extension packages (tests/e2e/fake_wheel.py) whose import does what the
# real ones do when built for another torch: xFormers' "built for" warning, flash-attn's
# undefined C++ symbol, bitsandbytes' CUDA setup failure, torchvision's missing nms
# operator; one that hangs, one that aborts, one that lacks a dependency. All are imported
# in one doctor run: the hang costs its own record only. Then their matching twins, which
# import cleanly and stay quiet, and --no-ext-import / --skip-ext-import.
set -eu
. "$(dirname "$0")/lib.inc"

sys_py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
make_venv "$work/venv"
wheels="$work/wheels"
home="$work/home"
mkdir -p "$wheels" "$home"
py="$work/venv/bin/python"

wheel() { # wheel NAME VERSION [EXTRA...]: a fake wheel; prints its path
    d="$wheels/$1-$2-$(date +%s%N)"
    mkdir -p "$d"
    n=$1 v=$2
    shift 2
    "$sys_py" "$here/fake_wheel.py" "$d" "$n" "$v" healthy "$@"
}
# init NAME TEXT: the EXTRA giving package NAME its own __init__.py
init() { printf 'file=%s/__init__.py:%s' "$1" "$2"; }

pip() { "$py" -m pip --disable-pip-version-check "$@" >/dev/null; }
install() { pip install --quiet --no-index --no-deps --force-reinstall "$@"; }

doctor() { # doctor [ARGS]: `dlenv doctor --json` as a user with the venv activated
    set +e
    env -i HOME="$home" LC_ALL=C.UTF-8 PATH="$work/venv/bin:/usr/bin:/bin" \
        VIRTUAL_ENV="$work/venv" "$dlenv" doctor --json --import-timeout 12 "$@" \
        > "$work/out" 2> "$work/err"
    set -e
}

# finding ID NAME: the index of the finding ID whose title starts with NAME, or nothing
finding() {
    i=0
    while x=$(get "findings.$i.id" 2>/dev/null); do
        if [ "$x" = "$1" ]; then
            case "$(get "findings.$i.title")" in "$2"*) echo "$i"; return 0 ;; esac
        fi
        i=$((i + 1))
    done
    return 1
}

# fires ID NAME SEVERITY FIX...: the finding is there, as severe as said, and each FIX is
# in its fix steps (or its title, for a WORD: prefix)
fires() {
    id=$1 name=$2 sev=$3
    shift 3
    if ! n=$(finding "$id" "$name"); then
        fail "$id did not fire for $name: $(get findings | grep '"title"' | head -c 900)"
        return 0
    fi
    expect_eq "$id $name: severity" "$sev" "$(get "findings.$n.severity")"
    for want in "$@"; do
        case "$want" in
        title:*) case "$(get "findings.$n.title")" in *"${want#title:}"*) ;; *)
            fail "$id $name: title lacks ${want#title:}: $(get "findings.$n.title")" ;; esac ;;
        *) case "$(get "findings.$n.fix")" in *"$want"*) ;; *)
            fail "$id $name: no fix contains: $want ($(get "findings.$n.fix"))" ;; esac ;;
        esac
    done
}

quiet() { # quiet ID NAME: no finding ID names NAME
    finding "$1" "$2" >/dev/null && fail "$1 fired for $2: $(get "findings.$(finding "$1" "$2").title")"
    return 0
}

# record NAME: the index of NAME's import record
record() {
    i=0
    while x=$(get "facts.pythons.0.runtime.extensions.$i.package" 2>/dev/null); do
        [ "$x" = "$1" ] && { echo "$i"; return 0; }
        i=$((i + 1))
    done
    return 1
}

status_is() { # status_is NAME STATUS
    if n=$(record "$1"); then
        expect_eq "$1: import status" "$2" "$(get "facts.pythons.0.runtime.extensions.$n.status")"
    else
        fail "$1: no import record ($(get facts.pythons.0.runtime.extensions 2>&1 | head -c 300))"
    fi
}

install "$("$sys_py" "$here/fake_wheel.py" "$wheels" torch 2.3.1+cu121 \
    "healthy_cuda:NVIDIA GeForce RTX 4090:8.9" "requires=triton==2.3.1")"

# ---- each failing the way a build for another torch fails, or hanging, or crashing ----
xformers_says='import logging
logging.getLogger("xformers").warning("""WARNING[XFORMERS]: xFormers can'"'"'t load C++/CUDA extensions. xFormers was built for:
    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.3.1+cu121)
    Python  3.11.2 (you have 3.11.2)
  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)
  Memory-efficient attention, SwiGLU, sparse and more won'"'"'t be available.
  Set XFORMERS_MORE_DETAILS=1 for more details""")
'
flash_says='raise ImportError("/home/u/.venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi")
'
bnb_says='raise RuntimeError("""
        CUDA Setup failed despite GPU being available. Please run the following command to get more information:

        python -m bitsandbytes

        Inspect the output of the command and see if you can locate CUDA libraries.""")
'
install \
    "$(wheel xformers 0.0.27+cu121 requires=torch==2.3.1 "$(init xformers "$xformers_says")")" \
    "$(wheel flash_attn 2.5.8 "$(init flash_attn "$flash_says")")" \
    "$(wheel bitsandbytes 0.43.1 file=bitsandbytes/libbitsandbytes_cuda121.so: "$(init bitsandbytes "$bnb_says")")" \
    "$(wheel torchvision 0.18.1 requires=torch==2.3.1 \
        "$(init torchvision 'raise RuntimeError("operator torchvision::nms does not exist")')")" \
    "$(wheel triton 2.3.1 "$(init triton 'import os
os.abort()')")" \
    "$(wheel apex 0.1 "$(init apex 'import time
time.sleep(600)')")" \
    "$(wheel deepspeed 0.14.0 "$(init deepspeed 'import einops')")" \
    "$(wheel vllm 0.4.0 requires=torch==2.1.2)" \
    "$(wheel mmcv 2.2.0 "$(init mmcv 'raise ModuleNotFoundError("No module named '"'"'mmcv._ext'"'"'")')")" \
    "$(wheel torchaudio 2.3.1 requires=torch==2.3.1)"

start=$(date +%s)
doctor
took=$(( $(date +%s) - start ))
[ "$took" -le 60 ] || fail "doctor took $took s with one import hanging (timeout 12 s)"
fires extension_mismatch xformers failure "title:built for torch 2.1.0+cu121 with CUDA 12.1" \
    "-m pip install --upgrade xformers torch==2.3.1+cu121"
fires extension_mismatch flash_attn failure "title:fails to import" \
    "--no-build-isolation --no-cache-dir flash_attn"
fires extension_mismatch mmcv failure "title:fails to import" \
    "-f https://download.openmmlab.com/mmcv/dist/cu121/torch2.3/index.html"
quiet extension_import_failed mmcv
fires extension_mismatch bitsandbytes failure "-m pip install --upgrade bitsandbytes torch==2.3.1+cu121"
fires torchvision_mismatch torchvision failure "title:fails to import" "torchvision"
fires extension_import_failed triton failure "title:crashes the interpreter (signal 6)" \
    "--force-reinstall triton==2.3.1"
fires extension_import_failed apex failure "title:hangs" "-X importtime -c"
fires extension_import_failed deepspeed failure "-m pip install einops"
# a metadata mismatch whose import went cleanly stays a warning
fires extension_mismatch vllm warning "title:imports without an error" \
    "-m pip install --upgrade vllm torch==2.3.1+cu121"
quiet extension_import_failed xformers
quiet extension_import_failed torchaudio
status_is xformers imported
status_is flash_attn import_failed
status_is triton crashed
status_is apex timed_out
status_is torchaudio imported
n=$(record triton) && expect_eq "triton: signal" 6 "$(get "facts.pythons.0.runtime.extensions.$n.signal")"
n=$(record xformers) && case "$(get "facts.pythons.0.runtime.extensions.$n.output")" in
    *"xFormers was built for"*) ;; *) fail "xformers: its warning was not kept" ;; esac
expect_eq "torch itself" imported "$(get facts.pythons.0.runtime.status)"

# ---- --skip-ext-import: those are not imported (no hang), the others are ----
doctor --skip-ext-import apex,flash-attn
status_is apex skipped
status_is flash_attn skipped
quiet extension_mismatch flash_attn
quiet extension_import_failed apex
fires extension_mismatch xformers failure

# ---- --no-ext-import: none is; the metadata alone speaks (vllm's pin: a failure) ----
doctor --no-ext-import
status_is xformers skipped
quiet extension_mismatch xformers
quiet extension_import_failed triton
fires extension_mismatch vllm failure

# ---- the matching twins: each imports cleanly and stays quiet ----
install \
    "$(wheel xformers 0.0.27+cu121 requires=torch==2.3.1 "$(init xformers 'import logging')")" \
    "$(wheel flash_attn 2.5.8+cu122torch2.3cxx11abiFALSE)" \
    "$(wheel bitsandbytes 0.43.1 file=bitsandbytes/libbitsandbytes_cuda121.so:)" \
    "$(wheel torchvision 0.18.1 requires=torch==2.3.1)" \
    "$(wheel triton 2.3.1)" "$(wheel apex 0.1+pt23cu121)" "$(wheel deepspeed 0.14.0)" \
    "$(wheel vllm 0.5.1 requires=torch==2.3.1)" "$(wheel mmcv 2.2.0)"
doctor
for p in xformers flash_attn bitsandbytes torchvision torchaudio triton apex deepspeed vllm mmcv; do
    status_is "$p" imported
    quiet extension_mismatch "$p"
    quiet extension_import_failed "$p"
done
quiet torchvision_mismatch torchvision

[ "$failures" -eq 0 ] || exit 1
echo "extension imports: all checks passed"
