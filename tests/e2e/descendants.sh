# No process dlenv starts outlives it: a hung `import torch` whose python started a
# grandchild in a session of its own (setsid), at the timeout, on SIGTERM and on Ctrl-C
# (SIGINT) to dlenv alone; a hung `dlenv __probe nvml` child on SIGTERM; and a daemon left
# by a child that exited. Each process is checked by its pid.
set -eu
. "$(dirname "$0")/lib.inc"
fakes=$(cd "$(dirname "$match")/fakes" && pwd)

# A python that starts a grandchild in its own session, writes both pids, then hangs (or,
# with FAKE_PY_EXIT set, exits at once and leaves the grandchild behind).
cat > "$work/python" <<EOF
#!/bin/sh
setsid sh -c 'echo \$\$ > "$work/grandchild.pid"; exec sleep 300' </dev/null >/dev/null 2>&1 &
echo \$\$ > "$work/child.pid"
if [ -n "\${FAKE_PY_EXIT:-}" ]; then
    while [ ! -s "$work/grandchild.pid" ]; do sleep 0.05; done
    exit 0
fi
exec sleep 300
EOF
chmod +x "$work/python"

wait_for_file() { # wait_for_file FILE: up to 20 s
    i=0
    while [ ! -s "$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    [ -s "$1" ]
}

# gone WHAT PID...: each pid is no longer a process (a zombie would still answer kill -0,
# and dlenv reaps what it adopts)
gone() {
    what=$1
    shift
    for pid in "$@"; do
        if kill -0 "$pid" 2>/dev/null; then
            fail "$what: process $pid ($(ps -o args= -p "$pid" 2>/dev/null)) outlived dlenv"
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
}

pids() { cat "$work/child.pid" "$work/grandchild.pid" 2>/dev/null; }

# 1. The import times out: the python and its setsid grandchild are gone when dlenv is.
rm -f "$work"/*.pid
run report --json --python "$work/python" --import-timeout 1
expect_eq "timeout: exit" 0 "$rc"
expect_eq "timeout: status" timed_out "$(get pythons.0.runtime.status)"
wait_for_file "$work/grandchild.pid" || fail "timeout: the grandchild never started"
# shellcheck disable=SC2046
gone "timeout" $(pids)

# 2. SIGTERM (and 3. SIGINT, Ctrl-C) to dlenv alone while the import hangs: dlenv dies of
# that signal and takes the python and the grandchild with it.
signal_case() { # signal_case SIGNAL STATUS PREFIX...
    sig=$1 want=$2
    shift 2
    rm -f "$work"/*.pid
    "$@" "$dlenv" report --json --python "$work/python" --import-timeout 60 \
        > /dev/null 2>&1 &
    d=$!
    if wait_for_file "$work/grandchild.pid" && wait_for_file "$work/child.pid"; then
        kill -s "$sig" "$d"
    else
        fail "$sig: the fake python never started"
        kill -9 "$d"
    fi
    set +e
    wait "$d"
    code=$?
    set -e
    expect_eq "$sig: dlenv ends by the signal" "$want" "$code"
    # shellcheck disable=SC2046
    gone "$sig" $(pids)
}
signal_case TERM 143
# A shell without job control starts background commands with SIGINT ignored, and an
# ignored signal stays ignored: env --default-signal gives dlenv a default one.
if env --default-signal=INT true 2>/dev/null; then
    signal_case INT 130 env --default-signal=INT
else
    echo "note: env --default-signal is not available; SIGINT check skipped"
fi

# 4. A hung `dlenv __probe nvml` child (the fake NVML never returns from nvmlInit): SIGTERM
# to dlenv ends the child too.
printf 'nvml.init_hang = 1\n' > "$work/hang.scenario"
LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$work/hang.scenario" \
    "$dlenv" report --json --no-runtime --probe-timeout 60 > /dev/null 2>&1 &
d=$!
probe=""
i=0
while [ -z "$probe" ] && [ $i -lt 200 ]; do
    probe=$(ps -o pid= --ppid "$d" 2>/dev/null | tr -d ' ' || true)
    [ -n "$probe" ] || sleep 0.1
    i=$((i + 1))
done
[ -n "$probe" ] || fail "probe child: none seen"
kill -s TERM "$d"
set +e
wait "$d"
code=$?
set -e
expect_eq "probe child: dlenv ends by SIGTERM" 143 "$code"
# shellcheck disable=SC2086
gone "probe child" $probe

# 5. A child that exits normally but leaves a daemon in its own session: the daemon goes.
rm -f "$work"/*.pid
FAKE_PY_EXIT=1 run report --json --python "$work/python" --import-timeout 10
expect_eq "daemon: exit" 0 "$rc"
wait_for_file "$work/grandchild.pid" || fail "daemon: it never started"
# shellcheck disable=SC2046
gone "daemon" $(pids)

finish
