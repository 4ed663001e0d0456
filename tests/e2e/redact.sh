# --redact through the real binary: by structure, not by substring. The environment's
# allowlisted PYTHONPATH and NCCL_DEBUG carry the paths and tokens; the report must change
# exactly the names in them, leave enumerated values alone, and find the account in the
# password database when the environment does not name it.
set -eu
. "$(dirname "$0")/lib.inc"

report() { # report ENV...: `dlenv report --json --no-runtime --redact` under env ENV...
    set +e
    env "$@" "$dlenv" report --json --no-runtime --redact > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    [ "$rc" -eq 0 ] || fail "report --redact ($*): exit $rc: $(cat "$work/err")"
}

# 1. A host named "linux": os.family stays "linux"; the host in a UNC-style path goes.
report HOSTNAME=linux PYTHONPATH=//linux/share/site:/srv/x
expect_eq "host linux: os.family" linux "$(get os.family)"
expect_eq "host linux: path" "//<host>/share/site:/srv/x" "$(get environment.PYTHONPATH)"
# ... and with the machine's own name "linux" (uname), where a UTS namespace can be had
if unshare -u sh -c 'hostname linux' 2>/dev/null; then
    unshare -u sh -c 'hostname linux && exec "$0" report --json --no-runtime --redact' \
        "$dlenv" > "$work/out" 2> "$work/err" || fail "unshare: $(cat "$work/err")"
    expect_eq "uname linux: os.family" linux "$(get os.family)"
else
    echo "note: no UTS namespace here (not root); the uname host check is skipped"
fi

# 2. A user named "lib": /usr/lib stays, the user's own folder goes.
report USER=lib HOME=/nonexistent-home PYTHONPATH=/usr/lib/python3/dist-packages:/home/lib/src
expect_eq "user lib" "/usr/lib/python3/dist-packages:/home/<user>/src" \
    "$(get environment.PYTHONPATH)"

# 3. Names shorter than 3 characters are redacted too (in their places only).
report USER=al HOME=/nonexistent-home PYTHONPATH=/srv/al/src:/opt/alpha
expect_eq "user al" "/srv/<user>/src:/opt/alpha" "$(get environment.PYTHONPATH)"

# 4. The user name in a user= token, outside any path.
report USER=ana NCCL_DEBUG=INFO,user=ana
expect_eq "user= token" "INFO,user=<user>" "$(get environment.NCCL_DEBUG)"

# 5. USER, LOGNAME and HOME unset: the account and its home come from the password
# database.
name=$(id -un)
home=$(getent passwd "$(id -u)" | cut -d: -f6)
report -u USER -u LOGNAME -u HOME PYTHONPATH="$home/src:/srv/$name/src"
expect_eq "account from getpwuid" "~/src:/srv/<user>/src" "$(get environment.PYTHONPATH)"

# 6. HOME with a trailing slash is the same home: ~/bin, not ~bin.
report HOME="$work/home/ana/" USER=ana PYTHONPATH="$work/home/ana/bin"
expect_eq "HOME with a trailing slash" "~/bin" "$(get environment.PYTHONPATH)"

# 7. A redacted snapshot's default file name does not carry the host name.
mkdir "$work/snap"
(cd "$work/snap" && "$dlenv" snapshot --no-runtime --redact > /dev/null) ||
    fail "snapshot --redact failed"
name=$(ls "$work/snap")
case "$name" in
    dlenv-snapshot-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9].json) ;;
    *) fail "redacted snapshot's default name: $name (host $(uname -n))" ;;
esac
expect_eq "redacted snapshot's host" "<host>" "$("$match" --get "$work/snap/$name" host)"

# 8. The text report wraps long values at 80 columns: a home split over two lines must
# not survive. The home moves across the wrap point one character at a time.
mkdir -p "$work/home/anastasia"
pad=x
while [ ${#pad} -le 30 ]; do
    env HOME="$work/home/anastasia" USER=anastasia \
        PYTHONPATH="/usr/local/some/dir1:/usr/local/$pad:$work/home/anastasia/bin:/bin" \
        "$dlenv" report --no-runtime --redact > "$work/text"
    if grep -q anastasia "$work/text"; then
        fail "text report, pad ${#pad}: $(grep -A1 PYTHONPATH "$work/text")"
        break
    fi
    pad="${pad}x"
done

finish
