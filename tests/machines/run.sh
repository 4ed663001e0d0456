#!/bin/sh
# run.sh DLENV JSON_MATCH FIXTURE: runs `dlenv report --json --root` on a fixture machine
# and compares it with the fixture's expected.json.
#
# A fixture is a directory with
#   root/          the machine's files (absent: an empty root)
#   expected.json  the report it must give (volatile values are ignored by json_match)
#   env            optional: the environment, one NAME=value a line (else PATH only)
#   unreadable     optional: machine paths to make unreadable (chmod 000) before the run;
#                  as root, the run then drops to the nobody user, or permissions mean nothing
#   args           optional: extra arguments
# DLENV_UPDATE=1 writes the normalised output to expected.json instead (review it by hand).
set -eu
dlenv=$1 match=$2 fixture=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-machine.XXXXXX")
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/root"
if [ -d "$fixture/root" ]; then
    cp -a "$fixture/root/." "$work/root/"
fi
cp "$dlenv" "$work/dlenv"
chmod 755 "$work" "$work/dlenv"

set -- "$work/dlenv" report --json --root "$work/root"
if [ -f "$fixture/args" ]; then
    # shellcheck disable=SC2046
    set -- "$@" $(cat "$fixture/args")
fi

if [ -f "$fixture/unreadable" ]; then
    while IFS= read -r path; do
        [ -n "$path" ] && chmod 000 "$work/root$path"
    done < "$fixture/unreadable"
    if [ "$(id -u)" = 0 ]; then
        command -v setpriv >/dev/null || { echo "SKIP: setpriv needed to drop root"; exit 77; }
        chmod -R a+rX "$work/root" 2>/dev/null || true
        while IFS= read -r path; do
            [ -n "$path" ] && chmod 000 "$work/root$path"
        done < "$fixture/unreadable"
        set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    fi
fi

envfile="$fixture/env"
[ -f "$envfile" ] || envfile=/dev/null
# env -i: nothing of the caller's environment leaks into the report.
# shellcheck disable=SC2046
( IFS='
'; exec env -i PATH=/usr/bin:/bin $(cat "$envfile") "$@" ) > "$work/actual.json"

if [ "${DLENV_UPDATE:-}" = 1 ]; then
    "$match" --print "$work/actual.json" > "$fixture/expected.json"
    echo "updated $fixture/expected.json"
    exit 0
fi
"$match" "$fixture/expected.json" "$work/actual.json"
