#!/bin/sh
# run.sh DLENV JSON_MATCH DIR: `dlenv explain --json` on every real user's report in DIR
# (cNN.txt; copied from ../shared/cases with the accepted diagnoses and the source of each
# in expected.tsv). The root cause must be one of the accepted ids.
set -u
dlenv=$1 match=$2 dir=$3
failed=0 count=0
tab=$(printf '\t')
while IFS="$tab" read -r case accept platform source; do
    [ "$case" = case ] && continue
    count=$((count + 1))
    got=$("$dlenv" explain --json "$dir/$case.txt" | "$match" --get /dev/stdin root_cause.id \
          2>/dev/null || echo none)
    ok=no
    for id in $(echo "$accept" | tr ',' ' '); do [ "$id" = "$got" ] && ok=yes; done
    if [ $ok = no ]; then
        echo "FAIL $case ($platform, $source): root cause $got, accepted: $accept"
        failed=$((failed + 1))
    fi
done < "$dir/expected.tsv"
echo "$count cases, $failed failures"
[ "$count" -gt 0 ] && [ "$failed" -eq 0 ]
