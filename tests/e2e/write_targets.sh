# Where dlenv writes a file (snapshot -o, profile write): a regular file is replaced whole
# and keeps its mode and owner; a symbolic link stays a link and its target is replaced; a
# device, a FIFO or a link to /proc/self/fd/1 is written to, never renamed over.
set -eu
. "$(dirname "$0")/lib.inc"

no_temp_left() { # no_temp_left DIR WHAT
    ls -A "$1" | grep -q '\.tmp-' && fail "$2: a temporary file was left: $(ls -A "$1")"
    return 0
}

# 1. A link to /proc/self/fd/1 is dlenv's standard output: the snapshot goes there and the
# link stays.
if [ -e /proc/self/fd/1 ]; then
    ln -s /proc/self/fd/1 "$work/stdout.json"
    run snapshot --no-runtime -o "$work/stdout.json"
    expect_eq "/proc/self/fd/1: exit" 0 "$rc"
    [ -L "$work/stdout.json" ] || fail "/proc/self/fd/1: the link was replaced by a file"
    case "$out" in '{'*'"schema":'*'"dlenv.snapshot/1"'*) ;;
        *) fail "/proc/self/fd/1: no snapshot on stdout: $(printf '%s' "$out" | head -c 200)" ;;
    esac
    no_temp_left "$work" "/proc/self/fd/1"
fi

# 2. A FIFO is written to (a reader gets the whole snapshot) and stays a FIFO.
mkfifo "$work/fifo"
cat "$work/fifo" > "$work/from-fifo" &
reader=$!
run snapshot --no-runtime -o "$work/fifo"
# a FIFO renamed over leaves the reader waiting on a name nobody can open any more
[ -p "$work/fifo" ] || kill "$reader" 2>/dev/null || true
wait "$reader" || true
expect_eq "fifo: exit" 0 "$rc"
[ -p "$work/fifo" ] || fail "fifo: replaced by a regular file"
expect_eq "fifo: the reader got the snapshot" dlenv.snapshot/1 \
    "$("$match" --get "$work/from-fifo" schema)"
no_temp_left "$work" "fifo"

# 3. A character device (/dev/null's numbers, made here: root only) stays a device.
if [ "$(id -u)" = 0 ] && mknod "$work/null" c 1 3 2>/dev/null &&
    echo x > "$work/null" 2>/dev/null; then
    run snapshot --no-runtime -o "$work/null"
    expect_eq "device: exit" 0 "$rc"
    [ -c "$work/null" ] || fail "device: /dev/null's twin was replaced by a regular file"
    no_temp_left "$work" "device"
else
    echo "note: cannot make a device node here (not root, or a nodev mount); device check skipped"
fi

# 4. A file's mode survives its replacement, and as root its owner and group too.
printf 'old\n' > "$work/private.json"
chmod 600 "$work/private.json"
owner=$(id -u):$(id -g)
if [ "$(id -u)" = 0 ] && chown 65534:65534 "$work/private.json" 2>/dev/null; then
    owner=65534:65534
fi
run snapshot --no-runtime -o "$work/private.json"
expect_eq "mode: exit" 0 "$rc"
expect_eq "mode kept" 600 "$(stat -c %a "$work/private.json")"
expect_eq "owner kept" "$owner" "$(stat -c %u:%g "$work/private.json")"
expect_eq "replaced" dlenv.snapshot/1 "$("$match" --get "$work/private.json" schema)"
# a new file gets 0666 less the umask, not mkstemp's 0600
(umask 022 && "$dlenv" snapshot --no-runtime -o "$work/new.json" > /dev/null)
expect_eq "new file's mode" 644 "$(stat -c %a "$work/new.json")"

# 5. A symbolic link (relative, through a second link) stays a link; its target is replaced
# in its own folder, keeping its mode.
mkdir -p "$work/proj/.vscode" "$work/shared"
printf '{"version": "0.2.0", "configurations": []}\n' > "$work/shared/launch.json"
chmod 640 "$work/shared/launch.json"
ln -s ../shared/launch.json "$work/proj/hop.json"
ln -s ../hop.json "$work/proj/.vscode/launch.json"
(cd "$work/proj" && "$dlenv" profile write --cpu --format vscode -- python x.py) 2> "$work/err" ||
    fail "link: profile write failed: $(cat "$work/err")"
[ -L "$work/proj/.vscode/launch.json" ] || fail "link: .vscode/launch.json is no longer a link"
[ -L "$work/proj/hop.json" ] || fail "link: the second link is no longer a link"
expect_eq "link: target written" "dlenv: CPU only" \
    "$("$match" --get "$work/shared/launch.json" configurations.0.name)"
expect_eq "link: target's mode kept" 640 "$(stat -c %a "$work/shared/launch.json")"
no_temp_left "$work/shared" "link target"
no_temp_left "$work/proj/.vscode" "link"
# a link to a file not yet written: the file is made where the link points
ln -s shared/later.json "$work/later.json"
run snapshot --no-runtime -o "$work/later.json"
expect_eq "dangling link: exit" 0 "$rc"
[ -L "$work/later.json" ] || fail "dangling link: replaced by a file"
expect_eq "dangling link: target made" dlenv.snapshot/1 \
    "$("$match" --get "$work/shared/later.json" schema)"
# links in a loop: exit 3, one line, nothing left
ln -s loop-b "$work/loop-a"
ln -s loop-a "$work/loop-b"
run snapshot --no-runtime -o "$work/loop-a"
expect_eq "link loop: exit" 3 "$rc"
case "$err" in "dlenv: cannot write $work/loop-a: "*) ;; *) fail "link loop: $err" ;; esac
no_temp_left "$work" "link loop"

finish
