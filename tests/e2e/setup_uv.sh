# dlenv setup and restore with uv (installed pinned from PyPI into this test's own venv):
# `uv venv --relocatable --seed`, `uv pip install --python`, against the local index of
# local_index.inc, from the files the environment's pip downloaded first (uv reports no
# hashes): the lock from `pip inspect` and those files' sha256; restore checks them.
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
UV_VERSION=0.9.5
make_venv "$work/tools"
"$work/tools/bin/python" -m pip install --disable-pip-version-check -q "uv==$UV_VERSION" \
    > "$work/uv-install.log" 2>&1 ||
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

finish
