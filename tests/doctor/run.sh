#!/bin/sh
# run.sh DLENV JSON_MATCH DIR: every DIR/*.patch applied to DIR/base.json (a healthy
# machine's saved report: an RTX 4090, driver 550, a venv with torch 2.3.1+cu121 that
# works), then `dlenv doctor --from` through the real binary, checked against the patch's
# `expect` (root cause), `fires`, `quiet`, `fix ID TEXT` and `says ID TEXT` lines. Each rule has a patch where it fires
# and a near miss where it must stay quiet.
set -u
dlenv=$1 match=$2 dir=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-doctor.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failed=0 count=0

for patch in "$dir"/*.patch; do
    name=$(basename "$patch" .patch)
    count=$((count + 1))
    if ! python3 "$dir/apply_patch.py" "$dir/base.json" "$patch" "$work/facts.json"; then
        failed=$((failed + 1))
        continue
    fi
    "$dlenv" doctor --json --from "$work/facts.json" > "$work/out.json" 2> "$work/err"
    rc=$?
    if [ "$rc" -gt 1 ] && [ "$rc" -ne 5 ]; then
        echo "FAIL $name: exit $rc: $(cat "$work/err")"
        failed=$((failed + 1))
        continue
    fi
    ids= i=0
    while id=$("$match" --get "$work/out.json" "findings.$i.id" 2>/dev/null); do
        ids="$ids $id"
        i=$((i + 1))
    done
    while read -r verb id text; do
        case "$verb" in
        fix)
            # fix ID TEXT: one of ID's fix steps contains TEXT
            i=0 n=0 hit=no
            for x in $ids; do [ "$x" = "$id" ] && n=$i; i=$((i + 1)); done
            j=0
            while step=$("$match" --get "$work/out.json" "findings.$n.fix.$j" 2>/dev/null); do
                case "$step" in *"$text"*) hit=yes ;; esac
                j=$((j + 1))
            done
            if [ $hit = no ]; then
                echo "FAIL $name: no fix of $id contains: $text"
                failed=$((failed + 1))
            fi ;;
        nofix)
            # nofix ID TEXT: none of ID's fix steps contains TEXT
            i=0 n=-1
            for x in $ids; do [ "$x" = "$id" ] && n=$i; i=$((i + 1)); done
            j=0
            while [ $n -ge 0 ] && step=$("$match" --get "$work/out.json" "findings.$n.fix.$j" 2>/dev/null); do
                case "$step" in *"$text"*)
                    echo "FAIL $name: a fix of $id contains: $text"
                    failed=$((failed + 1)) ;;
                esac
                j=$((j + 1))
            done ;;
        says)
            # says ID TEXT: ID's title or one of its evidence values contains TEXT
            i=0 n=-1
            for x in $ids; do [ "$x" = "$id" ] && n=$i; i=$((i + 1)); done
            said=
            [ $n -ge 0 ] && said="$("$match" --get "$work/out.json" "findings.$n.title") $("$match" --get "$work/out.json" "findings.$n.evidence")"
            case "$said" in
            *"$text"*) ;;
            *) echo "FAIL $name: $id does not say: $text"
               failed=$((failed + 1)) ;;
            esac ;;
        verdict)
            got=$("$match" --get "$work/out.json" verdict)
            if [ "$got" != "$id" ]; then
                echo "FAIL $name: verdict $got, expected $id"
                failed=$((failed + 1))
            fi ;;
        expect)
            got=$("$match" --get "$work/out.json" root_cause)
            [ "$id" = none ] && id=null
            if [ "$got" != "$id" ]; then
                echo "FAIL $name: root cause $got, expected $id"
                failed=$((failed + 1))
            fi ;;
        fires|quiet)
            found=no
            for x in $ids; do [ "$x" = "$id" ] && found=yes; done
            if { [ "$verb" = fires ] && [ $found = no ]; } ||
               { [ "$verb" = quiet ] && [ $found = yes ]; }; then
                echo "FAIL $name: $id should $( [ "$verb" = fires ] && echo fire || echo stay quiet)"
                failed=$((failed + 1))
            fi ;;
        esac
    done < "$patch"
done
echo "$count patched machines, $failed failures"
[ "$count" -gt 0 ] && [ "$failed" -eq 0 ]
