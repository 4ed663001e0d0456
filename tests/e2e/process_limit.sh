# The process limit, met for real: Debian's torch under a user whose `ulimit -u` is lower
# than the threads libgomp starts prints "libgomp: Thread creation failed: Resource
# temporarily unavailable". explain must name process_limit_reached, and the fix it prints,
# pasted into the same shell, must make the same run pass.
set -eu
. "$(dirname "$0")/lib.inc"

[ -x /usr/bin/python3 ] || skip_or_fail "no /usr/bin/python3"
/usr/bin/python3 -c "import torch" 2>/dev/null || skip_or_fail "no python3-torch"
command -v setpriv >/dev/null || skip_or_fail "no setpriv (util-linux)"
command -v bash >/dev/null || skip_or_fail "no bash"
# RLIMIT_NPROC does not bind root: the run needs another user, which only root can become
if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root to run as nobody"; exit 77; fi

# as_nobody SHELL-LINE: run as nobody under a process limit of 12 (bash: dash has no ulimit -u)
as_nobody() {
    setpriv --reuid=65534 --regid=65534 --clear-groups bash -c "ulimit -u 12; $1"
}
# torch.equal on a large tensor runs an OpenMP loop over every thread asked for
job='/usr/bin/python3 -c "import torch; t = torch.ones(5000000); print(torch.equal(t, t))"'

set +e
as_nobody "OMP_NUM_THREADS=64 $job" > "$work/run.txt" 2>&1
job_rc=$?
set -e
[ "$job_rc" != 0 ] || fail "64 threads under ulimit -u 12 did not fail: $(cat "$work/run.txt")"
grep -q "Resource temporarily unavailable" "$work/run.txt" ||
    fail "no EAGAIN from the thread pool: $(head -c 400 "$work/run.txt")"

run explain --json "$work/run.txt"
expect_eq "explain: exit code" 1 "$rc"
expect_eq "explain: root cause" process_limit_reached "$(get root_cause.id)"

# The fix's first command, as printed (a comment line: its words up to the parenthesis)
fix=$(get root_cause.fix.0 | sed -e 's/^# //' -e 's/ (.*//')
case "$fix" in
'export OMP_NUM_THREADS='*) ;;
*) fail "the fix does not start with the thread-count export: $fix" ;;
esac
set +e
as_nobody "$fix; $job" > "$work/fixed.txt" 2>&1
fixed_rc=$?
set -e
expect_eq "the run with the printed fix: exit code" 0 "$fixed_rc"
expect_eq "the run with the printed fix: output" True "$(tail -n 1 "$work/fixed.txt")"

[ "$failures" -eq 0 ] || exit 1
echo "ok: process limit named from a real run, and its printed fix makes the run pass"
