#!/bin/sh
# run.sh DLENV JSON_MATCH FIXTURE: runs `dlenv report --root` on a fixture machine, compares
# the JSON with the fixture's expected.json, and checks that the text view comes out in 80
# columns.
#
# A fixture is a directory with
#   root/          the machine's files (absent: an empty root)
#   expected.json  the report it must give (volatile values are ignored by json_match)
#   env            optional: the environment, one NAME=value a line (else PATH only)
#   doctor         optional: the root cause `dlenv doctor` must name ("none": no failure),
#                  then any other ids that must be among its findings, one a line ("!ID":
#                  one that must not be), and
#                  optionally "verdict V": the verdict it must give (ok, cannot_judge, ...)
#   unreadable     optional: machine paths to make unreadable (chmod 000) before the run;
#                  as root, the run then drops to the nobody user, or permissions mean nothing
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

drop=""
if [ -f "$fixture/unreadable" ]; then
    if [ "$(id -u)" = 0 ]; then
        command -v setpriv >/dev/null || { echo "SKIP: setpriv needed to drop root"; exit 77; }
        chmod -R a+rwX "$work/root" # git keeps no modes: everything open, then the list shut
        drop="setpriv --reuid=65534 --regid=65534 --clear-groups"
    fi
    while IFS= read -r path; do
        [ -n "$path" ] && chmod 000 "$work/root$path"
    done < "$fixture/unreadable"
fi

envfile="$fixture/env"
[ -f "$envfile" ] || envfile=/dev/null

# run_dlenv OUT ARGS...: env -i, so nothing of the caller's environment leaks into the
# report; the fixture's variables one a line (values may hold spaces).
run_dlenv() { # run_dlenv OUT COMMAND ARGS...
    out=$1
    cmd=$2
    shift 2
    # shellcheck disable=SC2046,SC2086
    ( IFS='
'; exec env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 $(cat "$envfile") $(echo $drop | tr ' ' '\n') \
        "$work/dlenv" "$cmd" --root "$work/root" "$@" ) > "$out"
}

run_dlenv "$work/actual.json" report --json
run_dlenv "$work/text.txt" report
long=$(awk 'length($0) > 80' "$work/text.txt" | head -n 3)
if [ -n "$long" ]; then
    echo "text view has lines over 80 columns:"
    echo "$long"
    exit 1
fi

"$match" --complete "$work/actual.json"

if [ -f "$fixture/doctor" ]; then
    set +e
    run_dlenv "$work/doctor.json" doctor --json
    set -e
    want=$(head -n 1 "$fixture/doctor")
    got=$("$match" --get "$work/doctor.json" root_cause)
    [ "$got" = null ] && got=none
    if [ "$want" != "$got" ]; then
        echo "doctor: root cause $got, expected $want"
        exit 1
    fi
    tail -n +2 "$fixture/doctor" | while IFS= read -r id; do
        [ -z "$id" ] && continue
        case "$id" in
        "verdict "*)
            verdict=$("$match" --get "$work/doctor.json" verdict)
            [ "verdict $verdict" = "$id" ] || { echo "doctor: verdict $verdict, expected ${id#verdict }"; exit 1; }
            continue ;;
        "!"*)
            if grep -q "\"id\":[[:space:]]*\"${id#!}\"" "$work/doctor.json"; then
                echo "doctor: ${id#!} among the findings, expected it quiet"; exit 1
            fi
            continue ;;
        esac
        grep -q "\"id\":[[:space:]]*\"$id\"" "$work/doctor.json" ||
            { echo "doctor: $id not among the findings"; exit 1; }
    done
fi

if [ "${DLENV_UPDATE:-}" = 1 ]; then
    "$match" --print "$work/actual.json" > "$fixture/expected.json"
    echo "updated $fixture/expected.json"
    exit 0
fi
"$match" "$fixture/expected.json" "$work/actual.json"
