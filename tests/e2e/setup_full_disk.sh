# dlenv setup on a full disk: the target's folder is a small tmpfs (mounted in a user and
# mount namespace, `unshare -rm`, so no root is needed), holding an environment already.
# Two sizes: 3 MiB, where the new environment itself does not fit (venv's pip alone is
# larger: the step is named, exit 17), and 40 MiB, where it fits and pip runs out of space
# in the middle of installing a 30 MiB torch wheel (the full disk named, exit 21). Each
# time the staging folder is removed and the environment there is byte for byte as it was.
# No index is asked: the wheels come from a wheelhouse outside the tmpfs.
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
command -v unshare > /dev/null 2>&1 || skip_or_fail "no unshare (util-linux)"
mkdir -p "$work/disk"
if ! unshare -rm sh -c "mount -t tmpfs -o size=3m tmpfs '$work/disk'" 2> /dev/null; then
    # a kernel setting, not a missing package (Ubuntu 24.04's AppArmor restricts them):
    # a skip in CI too
    echo "SKIP: no unprivileged user namespaces here (unshare -rm); a tmpfs needs root otherwise"
    exit 77
fi
need_venv_pip

# The wheels the CPU plan names, torch padded to 30 MiB.
run plan --for cpu --json --python "$py"
expect_eq "plan: exit code" 0 "$rc"
mkdir "$work/wheels"
"$py" "$here/fake_wheel.py" "$work/wheels" torch "$(get recommended.torch)+cpu" healthy mm=right pad=31457280 > /dev/null
"$py" "$here/fake_wheel.py" "$work/wheels" torchvision "$(get recommended.torchvision)+cpu" > /dev/null

# Inside the namespace: the tmpfs, an environment on it, setup, the evidence after.
cat > "$work/inside.sh" <<'INNER'
set -eu
disk=$1 dlenv=$2 py=$3 size=$4 wheels=$5 out=$6
mount -t tmpfs -o "size=$size" tmpfs "$disk"
mkdir "$disk/env"
printf 'home = /usr/bin\n' > "$disk/env/pyvenv.cfg"
echo data > "$disk/env/keep.txt"
(cd "$disk/env" && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$out.before"
set +e
PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 "$dlenv" setup "$disk/env" --python "$py" --cpu \
    --tool venv --extra-index-url none --index-mirror http://127.0.0.1:9 --offline \
    --wheelhouse "$wheels" --yes > "$out.out" 2> "$out.err"
echo $? > "$out.rc"
set -e
(cd "$disk/env" && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$out.after"
ls -A "$disk" > "$out.left"
INNER
full_disk() { # full_disk SIZE NAME
    unshare -rm sh "$work/inside.sh" "$work/disk" "$dlenv" "$py" "$1" "$work/wheels" "$work/$2"
    expect_eq "$2: the environment" "$(cat "$work/$2.before")" "$(cat "$work/$2.after")"
    expect_eq "$2: left on the disk" "env" "$(cat "$work/$2.left")"
    expect_eq "$2: one error" 1 "$(grep -c '^dlenv: ' "$work/$2.err")"
}

full_disk 3m tiny
expect_eq "no room for the environment: exit code" 17 "$(cat "$work/tiny.rc")"
# venv hides ensurepip's ENOSPC ("returned non-zero exit status 1"): the step is named,
# not the full disk
grep -q "the environment could not be made" "$work/tiny.err" || fail "no room for the environment: the step not named: $(tail -5 "$work/tiny.err")"

full_disk 40m midway
expect_eq "full during pip install: exit code" 21 "$(cat "$work/midway.rc")"
grep -q "^\$ .*-m pip install" "$work/midway.out" || fail "full during pip install: pip did not run: $(tail -5 "$work/midway.out")"
grep -q "^dlenv: the install failed: the disk is full" "$work/midway.err" || fail "full during pip install: not said: $(tail -5 "$work/midway.err")"
finish
