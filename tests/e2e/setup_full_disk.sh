# dlenv setup on a full disk: the target's folder is a 3 MiB tmpfs (mounted in a user and
# mount namespace, `unshare -rm`, so no root is needed), holding an environment already.
# The new one does not fit (venv's pip alone is larger): setup fails with the installer's
# exit code (17), removes its staging folder, and the environment there is byte for byte
# as it was. No index is asked: the disk fills before any install.
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
command -v unshare > /dev/null 2>&1 || skip_or_fail "no unshare (util-linux)"
mkdir -p "$work/disk"
if ! unshare -rm sh -c "mount -t tmpfs -o size=3m tmpfs '$work/disk'" 2> /dev/null; then
    # a kernel setting, not a missing package (Ubuntu 24.04's AppArmor restricts them):
    # a skip in CI too
    echo "SKIP: no unprivileged user namespaces here (unshare -rm); a tmpfs needs root otherwise"
    exit 77
fi
make_venv "$work/can-venv"
rm -rf "$work/can-venv"

# Inside the namespace: the tmpfs, an environment on it, setup, the evidence after.
cat > "$work/inside.sh" <<'INNER'
set -eu
disk=$1 dlenv=$2 py=$3
mount -t tmpfs -o size=3m tmpfs "$disk"
mkdir "$disk/env"
printf 'home = /usr/bin\n' > "$disk/env/pyvenv.cfg"
echo data > "$disk/env/keep.txt"
(cd "$disk/env" && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$disk/../before"
set +e
"$dlenv" setup "$disk/env" --python "$py" --cpu --tool venv --extra-index-url none \
    --index-mirror http://127.0.0.1:9 --wheelhouse "$disk/.." --yes > "$disk/../out" 2>&1
echo $? > "$disk/../rc"
set -e
(cd "$disk/env" && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$disk/../after"
ls -A "$disk" > "$disk/../left"
INNER
unshare -rm sh "$work/inside.sh" "$work/disk" "$dlenv" "$py"
expect_eq "full disk: exit code" 17 "$(cat "$work/rc")"
# venv hides ensurepip's ENOSPC ("returned non-zero exit status 1"): the step is named,
# not the full disk
grep -q "the environment could not be made" "$work/out" || fail "full disk: the step not named: $(tail -5 "$work/out")"
expect_eq "full disk: the environment" "$(cat "$work/before")" "$(cat "$work/after")"
expect_eq "full disk: left on the disk" "env" "$(cat "$work/left")"
finish
