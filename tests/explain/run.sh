#!/bin/sh
# run.sh DLENV JSON_MATCH DIR: dlenv's own explain cases (DIR/cases.tsv): the root cause
# each file must give ("none" for no failure) and ids that must stay out (near misses);
# optionally ids that must be among the alternatives (the candidates the text cannot rule
# out; "-id": must not be, the text decides it), a text one of the "ask" lines holds and a
# text one of the root cause's fix lines holds ("-" for none); with no root cause, a text
# one of the notes holds.
set -u
dlenv=$1 match=$2 dir=$3
failed=0 count=0
tab=$(printf '\t')

# list_holds JSON LIST TEXT: one line of the report's list LIST ("ask", "root_cause.fix")
# holds TEXT.
list_holds() {
    j=0
    while item=$(printf '%s' "$1" | "$match" --get /dev/stdin "$2.$j" 2>/dev/null); do
        case "$item" in *"$3"*) return 0 ;; esac
        j=$((j + 1))
    done
    return 1
}
while IFS="$tab" read -r file want bad alts ask fix; do
    case "$file" in ''|'#'*) continue ;; esac
    count=$((count + 1))
    out=$("$dlenv" explain --json "$dir/$file")
    rc=$?
    if [ $rc -gt 1 ]; then
        echo "FAIL $file: exit $rc"
        failed=$((failed + 1))
        continue
    fi
    # Only a readable explain report counts: empty or broken output is a failure, never
    # "no root cause". A null root_cause is "none"; one without an id is broken too.
    schema=$(printf '%s' "$out" | "$match" --get /dev/stdin schema 2>/dev/null)
    if [ "$schema" != dlenv.explain/1 ]; then
        echo "FAIL $file: no explain report (exit $rc, ${#out} bytes of output)"
        failed=$((failed + 1))
        continue
    fi
    got=$(printf '%s' "$out" | "$match" --get /dev/stdin root_cause 2>/dev/null)
    if [ "$got" = null ]; then
        got=none
    else
        got=$(printf '%s' "$out" | "$match" --get /dev/stdin root_cause.id 2>/dev/null ||
              echo "'a root cause without an id'")
    fi
    if [ "$got" != "$want" ]; then
        echo "FAIL $file: root cause $got, expected $want"
        failed=$((failed + 1))
    fi
    i=0
    while id=$(printf '%s' "$out" | "$match" --get /dev/stdin "findings.$i.id" 2>/dev/null); do
        for b in $(echo "$bad" | tr ',' ' '); do
            if [ "$b" = "$id" ]; then
                echo "FAIL $file: $id found on a near miss"
                failed=$((failed + 1))
            fi
        done
        i=$((i + 1))
    done
    for a in $(echo "${alts:--}" | tr ',' ' '); do
        [ "$a" = - ] && continue
        want_seen=yes
        case "$a" in -*) want_seen=no a=${a#-} ;; esac
        i=0 seen=no
        while alt=$(printf '%s' "$out" | "$match" --get /dev/stdin "alternatives.$i" 2>/dev/null); do
            [ "$alt" = "$a" ] && seen=yes
            i=$((i + 1))
        done
        if [ $seen != $want_seen ]; then
            [ $want_seen = yes ] && echo "FAIL $file: $a is not among the alternatives" ||
                echo "FAIL $file: $a is among the alternatives (the text decides it)"
            failed=$((failed + 1))
        fi
    done
    fixes=root_cause.fix
    [ "$want" = none ] && fixes=notes
    for check in "ask:$ask" "$fixes:$fix"; do
        list=${check%%:*} text=${check#*:}
        [ -z "$text" ] || [ "$text" = - ] && continue
        if ! list_holds "$out" "$list" "$text"; then
            echo "FAIL $file: no $list line holds '$text'"
            failed=$((failed + 1))
        fi
    done
    # A finding that a GPU is there (a CPU build beside it, a driver too old for the build):
    # its fix must never install the CPU build.
    if [ "$got" = cpu_only_build ] || [ "$got" = conda_cpu_build_selected ] ||
       [ "$got" = driver_too_old ]; then
        i=0
        while line=$(printf '%s' "$out" | "$match" --get /dev/stdin "root_cause.fix.$i" 2>/dev/null); do
            case "$line" in *whl/cpu*)
                echo "FAIL $file: the fix for $got installs the CPU build: $line"
                failed=$((failed + 1)) ;;
            esac
            i=$((i + 1))
        done
    fi
    # Exit code: 1 exactly when a root cause was named.
    [ "$want" = none ] && expect_rc=0 || expect_rc=1
    if [ "$rc" != "$expect_rc" ]; then
        echo "FAIL $file: exit $rc, expected $expect_rc"
        failed=$((failed + 1))
    fi
done < "$dir/cases.tsv"
echo "$count cases, $failed failures"
[ "$count" -gt 0 ] && [ "$failed" -eq 0 ]
