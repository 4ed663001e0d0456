# Saved reports read back through the real binary (doctor --from, report --from, plan
# --from, diff): a member missing where rules and renderers once took it for granted is
# unknown, never a crash; what is not one whole report of a version this dlenv reads is
# one line and exit 4 (tests/unit/test_saved_report_holes.c makes every other hole).
set -eu
. "$(dirname "$0")/lib.inc"

here=$(cd "$(dirname "$0")/.." && pwd)
py=$(command -v python3 || true)
[ -n "$py" ] || skip_or_fail "no python3 to edit the fixtures"
edit() { # edit IN OUT PYTHON: d is the document
    "$py" -c "import json, sys
d = json.load(open(sys.argv[1]))
$3
json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}

# 1. The audit's crashes (SIGSEGV): a missing DLL without "name", a device node without
#    "path"; each through doctor --from, report --from, plan --from and diff.
edit "$here/doctor/windows.json" "$work/no-name.json" \
    'd["pythons"][0]["site_packages"][1]["torches"][0]["missing_dlls"] = [{"needed_by": "x.dll"}]'
edit "$here/doctor/base.json" "$work/no-path.json" \
    'd["nvidia_kernel"]["device_nodes"] = [{"accessible": False}]'
for f in no-name no-path; do
    for cmd in "doctor --from" "doctor --markdown --from" "doctor --json --from" \
        "report --from" "plan --from"; do
        # shellcheck disable=SC2086
        run $cmd "$work/$f.json"
        case "$rc" in 0 | 1) ;; *) fail "$cmd $f: exit $rc: $err" ;; esac
        case "$out" in *"(null)"*) fail "$cmd $f: prints (null)" ;; esac
    done
    run diff "$work/$f.json" "$work/$f.json"
    expect_eq "diff $f with itself: exit" 0 "$rc"
    run diff "$here/doctor/base.json" "$work/$f.json" -v
    case "$rc" in 0 | 1) ;; *) fail "diff base $f: exit $rc: $err" ;; esac
done
run doctor --from "$work/no-name.json" --json
expect_eq "no name: the finding still fires" win_dll_dependency_missing "$(get root_cause)"
run doctor --from "$work/no-path.json" --json
expect_eq "no path: the finding still fires" device_permission_denied "$(get findings.0.id)"

# 2. What is not a whole report of a version this dlenv reads: one line, exit 4, nothing
#    on stdout, for doctor --from and for diff alike.
base="$here/doctor/base.json"
printf '{"schema":"dlenv.report/1"}\n' > "$work/schema-only.json"
sed 's#dlenv.report/1#dlenv.report/99#' "$base" > "$work/v99.json"
{ cat "$base"; echo garbage; } > "$work/trailing.json"
cat "$base" "$base" > "$work/two.json"
sed 's#"os": {#"os\\u0000x": {}, "os": {#' "$base" > "$work/nul-key.json"
sed 's#"distro_name": "Ubuntu"#"distro_name": "Ubu\\uZZZZntu"#' "$base" > "$work/bad-escape.json"
grep -q 'u0000x' "$work/nul-key.json" || fail "fixture: no NUL in a key"
grep -q 'uZZZZ' "$work/bad-escape.json" || fail "fixture: no bad escape"
for f in schema-only v99 trailing two nul-key bad-escape; do
    for cmd in "doctor --from" "report --from" "plan --from"; do
        # shellcheck disable=SC2086
        run $cmd "$work/$f.json"
        expect_eq "$cmd $f: exit" 4 "$rc"
        expect_eq "$cmd $f: stdout" "" "$out"
        expect_eq "$cmd $f: one line" 1 "$(printf '%s\n' "$err" | wc -l)"
        case "$err" in "dlenv: $work/$f.json: "*) ;; *) fail "$cmd $f: $err" ;; esac
    done
    [ "$f" = schema-only ] && continue # diff reads older, smaller snapshots
    run diff "$work/$f.json" "$base"
    expect_eq "diff $f: exit" 4 "$rc"
done
run doctor --from "$work/schema-only.json"
expect_eq "no facts: not judged" "dlenv: $work/schema-only.json: \$.os: missing: not a whole \`dlenv report --json\` (it has os, cpu, memory, gpus, nvidia_kernel, nvml, cuda_driver, libraries and pythons)" "$err"
run doctor --from "$work/v99.json"
expect_eq "newer major" "dlenv: $work/v99.json: \$.schema: \"dlenv.report/99\" is newer than this dlenv reads (dlenv.report/1): update dlenv" "$err"

finish
