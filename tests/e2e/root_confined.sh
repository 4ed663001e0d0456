# --root reads the tree and nothing else: a link to this machine's own file (here a loop
# inside the root, once an escape to the host) is unknown, a FIFO is not waited on, and
# ".." and absolute links stay inside. Through the real binary, as a user would run it.
set -eu
. "$(dirname "$0")/lib.inc"

[ -r /etc/os-release ] || { echo "SKIP: this machine has no /etc/os-release"; exit 77; }
host_name=$(. /etc/os-release && printf '%s' "${PRETTY_NAME:-$NAME}")

# 1. The audit's case: r/etc/os-release -> /etc/os-release. Inside the root the link names
#    itself; the kernel, given the raw path, would follow it to this machine's file.
mkdir -p "$work/r/etc"
ln -s /etc/os-release "$work/r/etc/os-release"
run report --json --root "$work/r"
expect_eq "self link: exit code" 0 "$rc"
case "$out" in *"$host_name"*) fail "self link: this machine's distribution was read: $host_name" ;; esac
expect_eq "self link: distribution unknown" \
    '{"unknown":"cannot read /etc/os-release: Too many levels of symbolic links"}' \
    "$(get os.distro_name)"

# 2. A link out through a directory and through "..": resolved inside the tree.
mkdir -p "$work/d/usr/lib" "$work/d/etc"
printf 'NAME="Inside"\nPRETTY_NAME="Inside Linux 1"\nID=inside\n' > "$work/d/usr/lib/os-release"
ln -s ../../../../../../../../../../usr/lib/os-release "$work/d/etc/os-release"
run report --json --root "$work/d"
expect_eq "dot-dot link: the tree's own file" "Inside Linux 1" "$(get os.pretty_name)"

# 3. A FIFO where a file should be: refused at once, never opened (that waits forever).
mkdir -p "$work/f/etc"
mkfifo "$work/f/etc/os-release"
set +e
timeout 20 "$dlenv" report --json --root "$work/f" > "$work/out" 2> "$work/err"
rc=$?
set -e
expect_eq "FIFO: exit code (124: it hung)" 0 "$rc"
case "$(cat "$work/out")" in
*'cannot read /etc/os-release: not a regular file (a FIFO)'*) ;;
*) fail "FIFO: not named as such: $(head -c 600 "$work/out")" ;;
esac

finish
