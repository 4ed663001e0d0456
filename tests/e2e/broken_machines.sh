# Broken machines, each a real venv made here with real pip and a fake torch wheel that
# fails in one real way (tests/e2e/fake_wheel.py): `doctor` must never call one of them
# healthy, must name the expected root cause, and its fix, pasted into a real shell, must
# make it healthy where the fix can run offline. Near misses beside them must stay green.
set -eu
. "$(dirname "$0")/lib.inc"

sys_py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
make_venv "$work/probe-venv"
command -v gcc >/dev/null || skip_or_fail "no gcc to build a library with an undefined symbol"
xy=$("$sys_py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
wheels="$work/wheels"
home="$work/home"
mkdir -p "$wheels" "$home"

wheel() { # wheel NAME VERSION [BEHAVIOUR]: prints the wheel's path
    "$sys_py" "$here/fake_wheel.py" "$wheels" "$@"
}

# venv NAME [VENV OPTIONS] -> $work/NAME, with pip unless --without-pip
venv() {
    name=$1
    shift
    "$sys_py" -m venv "$@" "$work/$name"
}

install() { # install VENV WHEEL: real pip, offline
    "$work/$1/bin/python" -m pip install --quiet --no-index --no-deps "$2" >/dev/null
}

# run_clean ENV=VALUE... COMMAND...: a command in an environment of exactly these variables
# (an empty home: nothing of this machine's own); sets $rc, $out, $err.
run_clean() {
    set +e
    env -i HOME="$home" LC_ALL=C.UTF-8 "$@" > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}

# doctor_in VENV [ENV=VALUE ...] COMMAND...: as a user with that venv activated runs it.
doctor_in() {
    v=$1
    shift
    run_clean PATH="$work/$v/bin:/usr/bin:/bin" VIRTUAL_ENV="$work/$v" "$@"
}

fired() { # fired ID: whether the last doctor's findings hold ID
    i=0
    while x=$(get "findings.$i.id" 2>/dev/null); do
        [ "$x" = "$1" ] && return 0
        i=$((i + 1))
    done
    return 1
}

# check NAME RC ROOT: exit code and root cause of the last run; a broken machine's text
# view must not say it works.
check() {
    expect_eq "$1: exit code ($err)" "$2" "$rc"
    expect_eq "$1: root cause" "$3" "$(get root_cause)"
    if [ "$2" != 0 ]; then
        case "$(get verdict)" in ok|info|warning) fail "$1: verdict $(get verdict) on a broken machine" ;; esac
    fi
}

has_fix() { # has_fix NAME TEXT: a fix step of the root cause contains TEXT
    case "$(get findings)" in *"$2"*) ;; *) fail "$1: no fix contains: $2" ;; esac
}

has() { # has NAME TEXT: the doctor's JSON holds TEXT
    case "$out" in *"$2"*) ;; *) fail "$1: output lacks: $2" ;; esac
}

lacks() {
    case "$out" in *"$2"*) fail "$1: output has: $2" ;; esac
}

# paste_fix NAME: runs every command line of the root cause's fix in a real POSIX shell
# (comments skipped), with pip pointed at the local wheels instead of the network: a
# healthy fake wheel for each NAME==VERSION the fix pins.
paste_fix() {
    n=0
    while id=$("$match" --get "$work/out" "findings.$n.id" 2>/dev/null); do
        [ "$id" = "$(get root_cause)" ] && break
        n=$((n + 1))
    done
    j=0
    : > "$work/fix.sh"
    while step=$("$match" --get "$work/out" "findings.$n.fix.$j" 2>/dev/null); do
        case "$step" in "#"*) ;; *) printf '%s\n' "$step" >> "$work/fix.sh" ;; esac
        j=$((j + 1))
    done
    [ -s "$work/fix.sh" ] || fail "$1: no command to paste"
    for pin in $(grep -o '[a-z]*==[^ ]*' "$work/fix.sh" | sort -u); do
        [ -f "$wheels/${pin%%==*}-${pin#*==}-py3-none-any.whl" ] ||
            wheel "${pin%%==*}" "${pin#*==}" healthy >/dev/null
    done
    sh -n "$work/fix.sh" || fail "$1: the fix does not parse"
    if ! env PIP_NO_INDEX=1 PIP_FIND_LINKS="$wheels" PIP_DISABLE_PIP_VERSION_CHECK=1 HOME="$home" \
        sh -e "$work/fix.sh" > "$work/fix.log" 2>&1; then
        fail "$1: the pasted fix failed: $(tail -n 3 "$work/fix.log")"
    fi
}

dlenv_json() { echo "$dlenv doctor --json --import-timeout 20"; }

# ---- near misses: healthy, and healthy without the runtime ---------------------------------

venv healthy
install healthy "$(wheel torch 2.5.1+cpu healthy)"
doctor_in healthy $(dlenv_json)
check healthy 0 null
case "$(get verdict)" in ok|info) ;; *) fail "healthy: verdict $(get verdict)" ;; esac
doctor_in healthy "$dlenv" doctor
case "$out" in *"Everything PyTorch needs on this machine works."*) ;; *) fail "healthy: text: $out" ;; esac
doctor_in healthy "$dlenv" doctor --no-runtime
expect_eq "no-runtime: exit code" 0 "$rc"
case "$out" in *"No problem found in what was checked."*"Not checked: torch runtime"*) ;;
    *) fail "no-runtime: text: $out" ;; esac
lacks "no-runtime" "works."

# ---- import torch fails ----------------------------------------------------------------

# 1. cuDNN, which the nvidia-cudnn-cu11 wheel brings, is missing: the loader's own error.
#    (cuDNN 8: this machine may have a CUDA toolkit with cuDNN 9 in the loader's cache.)
"$sys_py" -c 'import ctypes; ctypes.CDLL("libcudnn.so.8")' 2>/dev/null &&
    { echo "SKIP: this machine has a libcudnn.so.8 for every program"; exit 77; }
venv cudnn
install cudnn "$(wheel torch 2.0.1+cu118 cdll:libcudnn.so.8)"
doctor_in cudnn $(dlenv_json)
check cudnn 1 torch_import_failed
has cudnn "libcudnn.so.8: cannot open shared object file"
has cudnn "nvidia-cudnn-cu11 wheel, which is not installed"
has_fix cudnn "-m pip install --force-reinstall torch==2.0.1+cu118 --index-url https://download.pytorch.org/whl/cu118"
rm -f "$wheels"/torch-2.0.1+cu118-*.whl
wheel torch 2.0.1+cu118 healthy >/dev/null
paste_fix cudnn
doctor_in cudnn $(dlenv_json)
check "cudnn, fixed" 0 null

# 2. An undefined nvJitLink symbol from a CUDA library of another version: the library path
#    is the root cause (as `explain` says for the same text).
mkdir -p "$work/cuda-lib"
printf 'extern int __nvJitLinkComplete_12_4(void);\nint probe(void) { return __nvJitLinkComplete_12_4(); }\n' > "$work/u.c"
gcc -shared -fPIC -o "$work/cuda-lib/libcusparse.so.12" "$work/u.c"
venv nvjitlink
install nvjitlink "$(wheel torch 2.5.2+cu124 "cdll:$work/cuda-lib/libcusparse.so.12")"
doctor_in nvjitlink $(dlenv_json)
check nvjitlink 1 ld_library_path_conflict
fired torch_import_failed || fail "nvjitlink: torch_import_failed did not fire"
has nvjitlink "undefined symbol: __nvJitLinkComplete_12_4"

# 3. Any other undefined symbol: torch's own import failure, with the reinstall.
printf 'extern int _ZN3c106detail19maybe_wrap_dim_slowEllb(void);\nint probe(void) { return _ZN3c106detail19maybe_wrap_dim_slowEllb(); }\n' > "$work/s.c"
gcc -shared -fPIC -o "$work/cuda-lib/libtorch_python.so" "$work/s.c"
venv symbol
install symbol "$(wheel torch 2.4.1+cpu "cdll:$work/cuda-lib/libtorch_python.so")"
doctor_in symbol $(dlenv_json)
check symbol 1 torch_import_failed
has_fix symbol "--force-reinstall torch==2.4.1+cpu --index-url https://download.pytorch.org/whl/cpu"

# 4. Windows' DLL errors, as the exception says them: the libraries layer.
venv winerror
install winerror "$(wheel torch 2.5.1+cu121 'raise:OSError:[WinError 126] The specified module could not be found. Error loading "C:\Users\ana\venv\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.')"
doctor_in winerror $(dlenv_json)
check winerror 1 win_dll_dependency_missing
venv c10dll
install c10dll "$(wheel torch 2.3.0+cu121 "raise:FileNotFoundError:Could not find module 'C:\\Users\\ana\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll' (or one of its dependencies). Try using the full path with constructor syntax.")"
doctor_in c10dll $(dlenv_json)
check c10dll 1 vc_redist_missing

# 5. A crash inside native code during the import.
venv segv
install segv "$(wheel torch 2.2.2 segv)"
doctor_in segv $(dlenv_json)
check segv 1 torch_import_failed
expect_eq "segv: status" crashed "$(get facts.pythons.0.runtime.status)"
has segv "SIGSEGV"
has segv "torch/__init__.py"

# 6. A hang past --import-timeout: stopped, and said.
venv hang
install hang "$(wheel torch 2.1.0 hang)"
start=$(date +%s)
doctor_in hang "$dlenv" doctor --json --import-timeout 2
check hang 1 torch_import_failed
expect_eq "hang: status" timed_out "$(get facts.pythons.0.runtime.status)"
has_fix hang "-X importtime -c"
[ $(($(date +%s) - start)) -lt 30 ] || fail "hang: the import was not stopped in time"

# 7. A dependency of torch is missing: not "torch is not installed".
venv dependency
install dependency "$(wheel torch 2.6.0+cpu needs:typing_extensions_missing)"
doctor_in dependency $(dlenv_json)
check dependency 1 torch_import_failed
has dependency "No module named 'typing_extensions_missing'"
fired torch_not_installed && fail "dependency: torch_not_installed fired"

# 8. A module inside torch is missing (torch._C: a source checkout, a broken build).
venv torch_c
install torch_c "$(wheel torch 2.6.0+cpu "raise:ModuleNotFoundError:No module named 'torch._C'")"
doctor_in torch_c $(dlenv_json)
check torch_c 1 torch_import_failed
fired torch_not_installed && fail "torch._C: torch_not_installed fired"

# ---- torch is not what it seems --------------------------------------------------------

# 9. A package named torch that is not PyTorch.
venv notpytorch
install notpytorch "$(wheel torch 0.1.2 not_pytorch)"
doctor_in notpytorch $(dlenv_json)
check notpytorch 1 torch_not_pytorch
expect_eq "not pytorch: status" incomplete "$(get facts.pythons.0.runtime.status)"

# 10. pip records torch, its folder is gone: a broken install, reinstalled by the fix.
venv gone
install gone "$(wheel torch 2.5.1+cpu healthy)"
rm -rf "$work/gone/lib/python$xy/site-packages/torch"
doctor_in gone $(dlenv_json)
check gone 1 torch_not_pytorch
fired torch_not_installed && fail "gone: torch_not_installed fired"
has_fix gone "--force-reinstall --no-deps torch==2.5.1+cpu --index-url https://download.pytorch.org/whl/cpu"
paste_fix gone
doctor_in gone $(dlenv_json)
check "gone, fixed" 0 null

# 10b. torchvision left at an older release (it pins torch 2.4.0) beside torch 2.5.1+cpu: the
#      fix installs the torchvision made for this torch from torch's own index, with --no-deps
#      so that torch stays; pasted, the machine is healthy.
venv vision
install vision "$(wheel torch 2.5.1+cpu healthy)"
install vision "$(wheel torchvision 0.19.0+cpu healthy requires=torch==2.4.0)"
doctor_in vision $(dlenv_json)
check vision 1 torchvision_mismatch
has_fix vision "-m pip install --force-reinstall --no-deps torchvision==0.20.1+cpu --index-url https://download.pytorch.org/whl/cpu"
paste_fix vision
doctor_in vision $(dlenv_json)
check "vision, fixed" 0 null
expect_eq "vision, fixed: torch stays" "2.5.1+cpu" "$(get facts.pythons.0.runtime.version)"

# ---- which Python, which torch ---------------------------------------------------------

# 11. No Python at all.
run_clean PATH=/nonexistent "$dlenv" doctor --json --no-runtime
check no-python 1 no_python
has_fix no-python "apt-get install -y python3"

# 12. `python` is venv A (made without pip, no torch); `pip` is venv B's, which has torch.
venv pip_a --without-pip
venv pip_b
install pip_b "$(wheel torch 2.5.1+cpu healthy)"
run_clean PATH="$work/pip_a/bin:$work/pip_b/bin:/usr/bin:/bin" "$dlenv" doctor --json
check pip-other-venv 1 pip_python_mismatch
has pip-other-venv "\`pip\` installs into $work/pip_b"
has pip-other-venv "\`python\` runs $work/pip_a/bin/python3"

# 13. An activated venv without torch while the system's Python has one (Debian's): this
#     venv has no torch, and the command installs it here.
venv notorch
doctor_in notorch $(dlenv_json)
check notorch 1 torch_not_installed
has_fix notorch "$work/notorch/bin/python3 -m pip install torch=="

# 14. torch leaks into a venv through PYTHONPATH, 15. a .pth file, 16. the user site, 17. a
#     folder named torch in the current directory: named, and never an uninstall pip refuses.
mkdir -p "$work/leak"
(cd "$work/leak" && "$sys_py" -m zipfile -e "$(wheel torch 2.5.1+cpu healthy)" .)
venv leak_path
doctor_in leak_path PYTHONPATH="$work/leak" $(dlenv_json)
check pythonpath 1 torch_shadowed
has_fix pythonpath "unset PYTHONPATH"
lacks pythonpath "uninstall"

venv leak_pth
printf '%s\n' "$work/leak" > "$work/leak_pth/lib/python$xy/site-packages/old-torch.pth"
doctor_in leak_pth $(dlenv_json)
check pth 1 torch_shadowed
has_fix pth "rm -- $work/leak_pth/lib/python$xy/site-packages/old-torch.pth"
lacks pth "uninstall"
paste_fix pth
doctor_in leak_pth $(dlenv_json)
check "pth, fixed" 0 null

venv leak_user --system-site-packages
env HOME="$home" PIP_BREAK_SYSTEM_PACKAGES=1 "$sys_py" -m pip install --quiet --user --no-index \
    --no-deps "$(wheel torch 2.5.0+cpu healthy)" >/dev/null 2>&1
doctor_in leak_user $(dlenv_json)
check user-site 1 torch_shadowed
has_fix user-site "export PYTHONNOUSERSITE=1"
lacks user-site "uninstall"
rm -rf "$home/.local"

venv cwd
install cwd "$(wheel torch 2.5.1+cpu healthy)"
mkdir -p "$work/project/torch"
: > "$work/project/torch/__init__.py"
cd "$work/project"
doctor_in cwd $(dlenv_json)
cd - >/dev/null
check cwd 1 torch_shadowed
has cwd "current directory ($work/project)"

# Near miss: a venv made with --system-site-packages runs the system's torch on purpose.
venv shared --system-site-packages
doctor_in shared $(dlenv_json)
fired torch_shadowed && fail "system-site venv: torch_shadowed fired"
fired torch_not_installed && fail "system-site venv: torch_not_installed fired"

# ---- verify never disagrees with doctor --------------------------------------------------

venv verify_broken
install verify_broken "$(wheel torch 2.0.0+cu118 cdll:libcudnn.so.8)"
doctor_in verify_broken "$dlenv" verify --quick --json
case "$rc" in 0) fail "verify: exit 0 on a broken torch" ;; esac
case "$(get verdict)" in ok|info|warning) fail "verify: verdict $(get verdict) on a broken torch" ;; esac

finish
