# dlenv setup and restore with uv (installed pinned from PyPI into this test's own venv):
# `uv venv --relocatable --seed`, `uv pip install --python`, against the local index of
# local_index.inc, from the files the environment's pip downloaded first (uv reports no
# hashes): the lock from `pip inspect` and those files' sha256; restore checks them. Then a
# planned Python that is not here: refused with what to install, unless
# --allow-python-download lets uv fetch it (`uv python install X.Y`, which cannot download
# here: its mirror is a closed port, so the refusal after the attempt is what runs for real).
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
UV_VERSION=0.9.5
# uv goes into a venv without pip, by the system's pip (--python, pip 22.3 and newer):
# a venv's own pip costs seconds of ensurepip; an older pip gets one
[ -x /usr/bin/python3 ] || skip_or_fail "no /usr/bin/python3"
/usr/bin/python3 -m venv --without-pip "$work/tools" > /dev/null 2>&1 ||
    skip_or_fail "python3 -m venv does not work here"
if /usr/bin/python3 -m pip --python "$work/tools/bin/python" --version > /dev/null 2>&1; then
    set -- /usr/bin/python3 -m pip --python "$work/tools/bin/python"
else
    rm -rf "$work/tools"
    make_venv "$work/tools"
    set -- "$work/tools/bin/python" -m pip
fi
"$@" install --disable-pip-version-check -q "uv==$UV_VERSION" > "$work/uv-install.log" 2>&1 ||
    skip_or_fail "uv==$UV_VERSION cannot be installed from PyPI: $(tail -n 1 "$work/uv-install.log")"

. "$here/local_index.inc"
export UV_CACHE_DIR="$work/uv-cache" UV_NO_CONFIG=1 UV_PYTHON_DOWNLOADS=never
PATH="$work/tools/bin:$PATH"

env="$work/env"
# shellcheck disable=SC2086
run setup "$env" --python "$py" --cpu --extra-index-url none $mirror --yes
expect_eq "uv: exit code" 0 "$rc"
[ "$rc" = 0 ] || echo "$out$err" | tail -20
case "$out" in *"uv venv --relocatable"*"-m pip download"*"uv pip install --python"*"--no-index --find-links"*) ;;
    *) fail "uv: not made with uv: $out" ;; esac
expect_eq "uv: its torch" "$torch+cpu" "$("$env/bin/python" -c 'import torch; print(torch.__version__)')"
# a relocatable activate finds itself through bash's BASH_SOURCE
expect_eq "uv: activated" "$env" "$(bash -c '. "$1/bin/activate" && python -c "import sys; print(sys.prefix)"' sh "$env")"
grep -q "^torch==$torch+cpu" "$env/dlenv.lock" || fail "uv: lock without torch: $(cat "$env/dlenv.lock")"
grep -q "^# tool: uv" "$env/dlenv.lock" || fail "uv: lock without its tool"
grep -q "^pip==" "$env/dlenv.lock" && fail "uv: the venv's own pip locked"
# each file's own sha256, the very bytes the index serves
for whl in "$work/index/cpu/torch/torch-$torch+cpu-py3-none-any.whl" "$work/index/cpu/torchvision/torchvision-$vision+cpu-py3-none-any.whl"; do
    sum=$(sha256sum "$whl" | cut -d' ' -f1)
    grep -q -- "--hash=sha256:$sum" "$env/dlenv.lock" || fail "uv: the lock lacks $(basename "$whl")'s sha256 $sum: $(cat "$env/dlenv.lock")"
done
[ ! -e "$env/dlenv-wheels" ] || fail "uv: the downloaded files moved into place"

run restore "$env/dlenv.lock" "$work/restored" --python "$py" --yes
expect_eq "uv restore: exit code" 0 "$rc"
case "$out" in *"--require-hashes"*) ;; *) fail "uv restore: hashes not checked: $out" ;; esac
[ "$rc" = 0 ] || echo "$out$err" | tail -20
freeze() { "$1/bin/python" -m pip list --format freeze --exclude pip --exclude setuptools --exclude wheel 2> /dev/null | LC_ALL=C sort; }
expect_eq "uv restore: the same packages" "$(freeze "$env")" "$(freeze "$work/restored")"

# A Python that is not here (none on PATH, none uv installed): which to install, exit 11.
missing=3.12
[ "$pyver" != 3.12 ] || missing=3.10
export UV_PYTHON_INSTALL_DIR="$work/uv-pythons" UV_PYTHON_INSTALL_MIRROR="http://127.0.0.1:$closed"
# shellcheck disable=SC2086
PATH="$work/tools/bin:/usr/bin:/bin" run setup "$work/fetched" --python "$missing" --cpu --tool uv $mirror --dry-run
expect_eq "no Python $missing: exit code" 11 "$rc"
case "$err" in *"no Python $missing"*"sudo apt install python$missing python$missing-venv"*"add --allow-python-download"*) ;;
    *) fail "no Python $missing: no hint: $err" ;; esac
# Allowed: the dry run shows uv fetching it, and the environment made for that version.
# shellcheck disable=SC2086
PATH="$work/tools/bin:/usr/bin:/bin" run setup "$work/fetched" --python "$missing" --cpu --tool uv $mirror --dry-run --allow-python-download
expect_eq "fetch, dry run: exit code" 0 "$rc"
printf '%s\n' "$out" | grep -qxF "       $work/tools/bin/uv python install $missing" ||
    fail "fetch, dry run: no uv python install line: $out"
printf '%s\n' "$out" | grep -q "^       $work/tools/bin/uv venv --relocatable --seed --python $missing $work/\.fetched\.dlenv-staging-[0-9]*\$" ||
    fail "fetch, dry run: no uv venv for $missing: $out"
# For real: uv cannot fetch it (its mirror does not answer): exit 11, nothing made.
# shellcheck disable=SC2086
PATH="$work/tools/bin:/usr/bin:/bin" run setup "$work/fetched" --python "$missing" --cpu --tool uv $mirror --yes --allow-python-download
expect_eq "fetch fails: exit code" 11 "$rc"
case "$out" in *"$ $work/tools/bin/uv python install $missing"*) ;; *) fail "fetch fails: not run: $out" ;; esac
case "$err" in *"uv could not fetch Python $missing: it exited with"*) ;; *) fail "fetch fails: $err" ;; esac
[ ! -e "$work/fetched" ] || fail "fetch fails: an environment was made"
left=$(ls -A "$work" | grep -e '\.dlenv-staging-' || true)
expect_eq "fetch fails: staging folders left" "" "$left"

# restore the same way: a lock made for Python $missing is refused with what to install,
# shown fetched in a dry run with --allow-python-download, and for real fails as above.
sed "s/^# python: .*/# python: $missing/" "$env/dlenv.lock" > "$work/other-python.lock"
PATH="$work/tools/bin:/usr/bin:/bin" run restore "$work/other-python.lock" "$work/rfetched" --tool uv --dry-run
expect_eq "restore, no Python $missing: exit code" 11 "$rc"
case "$err" in *"no Python $missing"*"add --allow-python-download"*) ;; *) fail "restore, no Python $missing: no hint: $err" ;; esac
PATH="$work/tools/bin:/usr/bin:/bin" run restore "$work/other-python.lock" "$work/rfetched" --tool uv --dry-run --allow-python-download
expect_eq "restore fetch, dry run: exit code" 0 "$rc"
printf '%s\n' "$out" | grep -qxF "       $work/tools/bin/uv python install $missing" ||
    fail "restore fetch, dry run: no uv python install line: $out"
PATH="$work/tools/bin:/usr/bin:/bin" run restore "$work/other-python.lock" "$work/rfetched" --tool uv --yes --allow-python-download
expect_eq "restore fetch fails: exit code" 11 "$rc"
case "$out" in *"$ $work/tools/bin/uv python install $missing"*) ;; *) fail "restore fetch fails: not run: $out" ;; esac
case "$err" in *"uv could not fetch Python $missing: it exited with"*) ;; *) fail "restore fetch fails: $err" ;; esac
[ ! -e "$work/rfetched" ] || fail "restore fetch fails: an environment was made"
left=$(ls -A "$work" | grep -e '\.dlenv-staging-' || true)
expect_eq "restore fetch fails: staging folders left" "" "$left"

finish
