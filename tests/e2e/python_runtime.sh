# The Python layer against real interpreters: Debian's python3-torch (a real CPU build),
# a real venv, a user-site torch that shadows the system one (installed with real pip),
# a torch whose import fails, and one whose import hangs.
set -eu
. "$(dirname "$0")/lib.inc"

py=/usr/bin/python3
[ -x "$py" ] || skip_or_fail "no /usr/bin/python3"
"$py" -c "import torch" 2>/dev/null || skip_or_fail "Debian's python3-torch is not installed"

# 1. Debian's torch, both ways.
run report --json --python "$py"
expect_eq "exit code" 0 "$rc"
expect_eq "first interpreter" "$py" "$(get pythons.0.path)"
expect_eq "runtime status" imported "$(get pythons.0.runtime.status)"
case "$(get pythons.0.runtime.version)" in 1.13*) ;; *) fail "runtime version $(get pythons.0.runtime.version)" ;; esac
expect_eq "built for CUDA" none "$(get pythons.0.runtime.cuda)"
expect_eq "CUDA available" false "$(get pythons.0.runtime.cuda_available)"
expect_eq "BLAS" "$("$py" -c 'import torch,re; print(re.search(r"BLAS_INFO=(\w+)", torch.__config__.show()).group(1))')" \
    "$(get pythons.0.runtime.blas)"
expect_eq "python version" "$("$py" -c 'import platform; print(platform.python_version())')" \
    "$(get pythons.0.version)"
case "$(get pythons.0.runtime.file)" in /usr/lib/python3/dist-packages/torch/*) ;;
    *) fail "imported from $(get pythons.0.runtime.file)" ;; esac
case "$(get pythons.0.site_packages)" in *'"torches":[{"location":"/usr/lib/python3/dist-packages/torch"'*) ;;
    *) fail "static torch not found: $(get pythons.0.site_packages)" ;; esac
"$match" --complete "$work/out" || fail "a value is unknown without a reason"

# 2. A torch whose import fails: the exception text is the fact.
mkdir -p "$work/broken/torch"
printf 'raise ImportError("libtorch_cuda.so: cannot open shared object file: No such file or directory")\n' \
    > "$work/broken/torch/__init__.py"
PYTHONPATH="$work/broken" run report --json --python "$py"
expect_eq "broken: status" import_failed "$(get pythons.0.runtime.status)"
expect_eq "broken: error" "ImportError: libtorch_cuda.so: cannot open shared object file: No such file or directory" \
    "$(get pythons.0.runtime.error)"

# 3. A torch whose import hangs: the probe times out and the report still comes out.
mkdir -p "$work/hang/torch"
printf 'import time\ntime.sleep(120)\n' > "$work/hang/torch/__init__.py"
start=$(date +%s)
PYTHONPATH="$work/hang" run report --json --python "$py" --import-timeout 1
expect_eq "hang: exit code" 0 "$rc"
expect_eq "hang: status" timed_out "$(get pythons.0.runtime.status)"
[ $(($(date +%s) - start)) -lt 30 ] || fail "the hanging import was not stopped in time"

# 3b. An import that leaves a process behind holding stdout (a torch that starts a
#     helper): the interpreter's answer counts when it exits, not "did not finish" at the
#     deadline.
mkdir -p "$work/daemon/torch"
printf 'import subprocess\nsubprocess.Popen(["sleep", "60"])\n__version__ = "0.0.1"\n' \
    > "$work/daemon/torch/__init__.py"
start=$(date +%s)
PYTHONPATH="$work/daemon" run report --json --python "$py" --import-timeout 30
expect_eq "helper left behind: exit code" 0 "$rc"
case "$(get pythons.0.runtime.status)" in timed_out) fail "helper left behind: did not finish" ;; esac
expect_eq "helper left behind: the version it answered" 0.0.1 "$(get pythons.0.runtime.version)"
[ $(($(date +%s) - start)) -lt 20 ] || fail "helper left behind: waited for the helper"

# 4. --no-runtime reads files only.
run report --json --python "$py" --no-runtime
expect_eq "no-runtime: status" skipped "$(get pythons.0.runtime.status)"

# 5. A real venv, found through VIRTUAL_ENV.
if "$py" -m venv "$work/venv" >/dev/null 2>&1; then
    VIRTUAL_ENV="$work/venv" PATH="$work/venv/bin:$PATH" run report --json --no-runtime
    squeezed=$(printf '%s' "$out" | tr -d ' \t\n')
    case "$squeezed" in *"\"path\":\"$work/venv/bin/python"*) ;; *) fail "venv not listed" ;; esac
    case "$squeezed" in *'"kind":"venv"'*) ;; *) fail "no interpreter of kind venv" ;; esac
else
    echo "note: python3 -m venv is not available; venv check skipped"
fi

# 6. A user-site package named torch, installed with real pip --user, shadows Debian's.
mkdir -p "$work/pkg/torch" "$work/home"
printf '__version__ = "9.9.9+shadow"\n' > "$work/pkg/torch/__init__.py"
printf '__version__ = "9.9.9+shadow"\ncuda = None\nhip = None\n' > "$work/pkg/torch/version.py"
printf '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "torch"\nversion = "9.9.9+shadow"\n[tool.setuptools]\npackages = ["torch"]\n' \
    > "$work/pkg/pyproject.toml"
if HOME="$work/home" "$py" -m pip install --user --no-build-isolation --no-deps --no-index \
    --break-system-packages "$work/pkg" >"$work/pip.log" 2>&1; then
    HOME="$work/home" run report --json --python "$py"
    case "$(get pythons.0.runtime.file)" in "$work/home/.local/lib/"*) ;;
        *) fail "user site did not shadow: imported $(get pythons.0.runtime.file)" ;; esac
    sites=$(get pythons.0.site_packages)
    case "$sites" in *'"scope":"user"'*'"version":"9.9.9+shadow"'*'"scope":"system"'*'"version":"1.13'*) ;;
        *) fail "both torches, user first, not reported: $sites" ;; esac
else
    echo "note: pip install --user failed here (see below); shadowing check skipped"
    tail -n 3 "$work/pip.log"
fi

finish
