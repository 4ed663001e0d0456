# dlenv.lock carries every file's sha256 even where the index publishes none (a mirror that
# serves bare links: simple_index.py --no-hashes): pip's report hashes what it downloaded.
# restore then checks them: the same package set again, and a wheel changed on the index
# since (same name, other bytes) is refused with exit 16, the environment there unchanged.
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
need_venv_pip

. "$here/local_index.inc"

bare="$work/index/bare/cpu"
mkdir -p "$bare"
"$py" "$here/fake_wheel.py" "$bare" torch "$torch+cpu" healthy mm=right > /dev/null
"$py" "$here/fake_wheel.py" "$bare" torchvision "$vision+cpu" > /dev/null
"$py" "$here/simple_index.py" --no-hashes "$bare"
grep -q "sha256" "$bare/torch/index.html" && fail "the bare index publishes hashes"
whl="$bare/torch/torch-$torch+cpu-py3-none-any.whl"

# 1. setup from the bare index: the lock holds each file's own sha256.
# shellcheck disable=SC2086
run setup "$work/env" --python "$py" --cpu --tool venv --extra-index-url none --yes \
    --index-mirror "http://127.0.0.1:$port/bare"
expect_eq "bare index: exit code" 0 "$rc"
[ "$rc" = 0 ] || echo "$out$err" | tail -20
for f in "$whl" "$bare/torchvision/torchvision-$vision+cpu-py3-none-any.whl"; do
    sum=$(sha256sum "$f" | cut -d' ' -f1)
    grep -q -- "--hash=sha256:$sum" "$work/env/dlenv.lock" ||
        fail "bare index: the lock lacks $(basename "$f")'s sha256: $(cat "$work/env/dlenv.lock")"
done
grep -q "^# hashes: the sha256 of every file installed" "$work/env/dlenv.lock" || fail "bare index: the header does not say so"

# 2. restore checks them and makes the same package set.
run restore "$work/env/dlenv.lock" "$work/again" --python "$py" --tool venv --yes
expect_eq "restore: exit code" 0 "$rc"
case "$out" in *"--require-hashes"*) ;; *) fail "restore: hashes not checked: $out" ;; esac
freeze() { "$1/bin/python" -m pip list --format freeze --exclude pip --exclude setuptools 2> /dev/null | LC_ALL=C sort; }
expect_eq "restore: the same packages" "$(freeze "$work/env")" "$(freeze "$work/again")"

# 3. The wheel edited on the index (other bytes, same name): refused over the environment
# restored above, which stays byte for byte as it was (setup.sh's faults check the same).
fingerprint() {
    (cd "$1" && {
        find . -type l -exec sh -c 'for f; do echo "$f -> $(readlink "$f")"; done' sh {} +
        find . -type f -exec sha256sum {} +
    } | LC_ALL=C sort)
}
fingerprint "$work/again" > "$work/before"
"$py" "$here/fake_wheel.py" "$work" torch "$torch+cpu" healthy mm=wrong > /dev/null
mv "$work/torch-$torch+cpu-py3-none-any.whl" "$whl"
run restore "$work/env/dlenv.lock" "$work/again" --python "$py" --tool venv --yes
expect_eq "edited wheel: exit code" 16 "$rc"
case "$err" in *"sha256 is not the one the lock holds"*) ;; *) fail "edited wheel: not said: $err" ;; esac
fingerprint "$work/again" > "$work/after"
cmp -s "$work/before" "$work/after" || fail "edited wheel: the environment changed: $(diff "$work/before" "$work/after" | head -5)"
left=$(ls -A "$work" | grep -e '\.dlenv-staging-' || true)
expect_eq "edited wheel: staging folders left" "" "$left"

finish
