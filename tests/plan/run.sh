#!/bin/sh
# run.sh DLENV JSON_MATCH TABLE: `dlenv plan --json` for every machine of TABLE (see its
# header) and the recommended build, the after-driver-update build and the extra checks
# compared with the answers written there. Prints every mismatch; exit 1 if any.
set -u
dlenv=$1 match=$2 table=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-plan.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failed=0 count=0
tab=$(printf '\t')

check() { # name what expected actual
    if [ "$3" != "$4" ]; then
        echo "FAIL $1: $2: expected '$3', got '$4'"
        failed=$((failed + 1))
    fi
}

while IFS="$tab" read -r name args torch variant after extra _why; do
    case "$name" in ''|'#'*) continue ;; esac
    count=$((count + 1))
    eval "set -- $args"
    "$dlenv" plan --json "$@" > "$work/out.json" 2> "$work/err"
    rc=$?
    if [ "$torch" = usage ]; then
        # a usage error: exit 2, one line on stderr, nothing on stdout; the line holds $variant
        check "$name" "exit code" 2 "$rc"
        check "$name" "stderr lines" 1 "$(wc -l < "$work/err" | tr -d ' ')"
        want=$(printf '%s' "$variant" | sed 's/%20/ /g')
        case "$(cat "$work/err")" in *"$want"*) ;; *) check "$name" stderr "...$want..." "$(cat "$work/err")" ;; esac
        continue
    fi
    if [ "$torch" = - ]; then
        check "$name" "exit code" 1 "$rc"
        check "$name" recommended null "$("$match" --get "$work/out.json" recommended)"
    else
        check "$name" "exit code" 0 "$rc"
        check "$name" torch "$torch" "$("$match" --get "$work/out.json" recommended.torch)"
        check "$name" variant "$variant" "$("$match" --get "$work/out.json" recommended.variant)"
    fi
    if [ "$after" = - ]; then
        check "$name" after_driver_update null \
            "$("$match" --get "$work/out.json" after_driver_update)"
    else
        got="$("$match" --get "$work/out.json" after_driver_update.torch) $("$match" \
            --get "$work/out.json" after_driver_update.variant)"
        check "$name" after_driver_update "$after" "$got"
    fi
    [ "$extra" = - ] && extra=
    # a value may hold spaces written as %20; "path~text" checks that the value holds text
    for kv in $extra; do
        case "$kv" in
        *~*)
            want=$(printf '%s' "${kv#*~}" | sed 's/%20/ /g')
            got=$("$match" --get "$work/out.json" "${kv%%~*}")
            case "$got" in *"$want"*) ;; *) check "$name" "${kv%%~*}" "...$want..." "$got" ;; esac
            ;;
        *)
            want=$(printf '%s' "${kv#*=}" | sed 's/%20/ /g')
            check "$name" "${kv%%=*}" "$want" "$("$match" --get "$work/out.json" "${kv%%=*}")"
            ;;
        esac
    done
done < "$table"
echo "$count machines, $failed mismatches"
[ "$count" -ge 40 ] || { echo "FAIL: fewer than 40 machines"; exit 1; }
[ "$failed" -eq 0 ]
