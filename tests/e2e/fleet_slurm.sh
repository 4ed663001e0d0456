# dlenv fleet check --drain under a real Slurm (Debian 12's slurm-wlm 22.05 + munge): the
# test starts munged, slurmctld and one slurmd per node, each slurmd in its own network
# namespace (three nodes on a private bridge; one node on 127.0.0.1 where namespaces cannot
# be made), with fake GPU device files (mknod) so the gpu gres validates, and
# HealthCheckProgram = packaging/slurm/dlenv-healthcheck running the built dlenv on the
# fake NVML. Checked: `fleet report -- srun` folds every node; a node whose driver turns
# too old is drained with a "dlenv:" reason within the check interval and resumed once
# healthy; a reason a person set is neither overwritten nor cleared. Every daemon is
# stopped by its process id, the namespaces and the bridge removed (trap).
set -eu
. "$(dirname "$0")/lib.inc"

here=$(cd "$(dirname "$0")/.." && pwd)
fakes=$(cd "$(dirname "$match")/fakes" && pwd)
[ -f "$fakes/nvml/libnvidia-ml.so.1" ] || { echo "SKIP: no fake NVML in $fakes"; exit 77; }
for tool in munged slurmctld slurmd scontrol srun sinfo; do
    command -v "$tool" >/dev/null 2>&1 ||
        PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null 2>&1 ||
        skip_or_fail "no $tool (Debian: apt-get install slurm-wlm munge)"
done
PATH="$PATH:/usr/sbin:/sbin"
[ "$(id -u)" = 0 ] || skip_or_fail "slurmd, mknod and network namespaces need root"
[ -x /usr/bin/python3 ] || skip_or_fail "no /usr/bin/python3"
/usr/bin/python3 -m venv --without-pip "$work/venv" >/dev/null 2>&1 ||
    skip_or_fail "python3 -m venv does not work here"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cp -R "$here/fakes/fake_torch/torch" "$site/"

d="$work/slurm"
mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/dev"
chmod 700 "$d" "$d/munge"
# Names and numbers of this run: two runs at once (the plain and the sanitizer build) get
# their own bridge, namespaces, subnet and controller port.
tag=$$
ctl_port=$((20000 + tag % 20000))
net="10.$((tag % 200 + 20)).$((tag / 200 % 250))"
bridge="dlb$tag"
interval=2

pids=""
namespaces=""
cleanup() {
    set +e
    for p in $pids; do kill "$p" 2>/dev/null; done
    sleep 1
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    for ns in $namespaces; do ip netns delete "$ns" 2>/dev/null; done
    ip link delete "$bridge" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# pid_of FILE: the pid a daemon wrote, waiting for it; added to those the trap stops.
pid_of() {
    _i=0
    while [ ! -s "$1" ] && [ "$_i" -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
    [ -s "$1" ] || { echo "FAIL: no pid file $1"; cat "$d"/*.log 2>/dev/null | tail -20; exit 1; }
    pids="$pids $(cat "$1")"
}

# --- the nodes: three in network namespaces when they can be made, else one -------------
nodes="node1 node2 node3"
# DLENV_SLURM_ONE_NODE=1: the one-node layout even where namespaces work (to test it).
if [ "${DLENV_SLURM_ONE_NODE:-0}" != 1 ] && command -v ip >/dev/null 2>&1 && command -v nsenter >/dev/null 2>&1 &&
    ip link add "$bridge" type bridge 2>/dev/null; then
    ip addr add "$net.1/24" dev "$bridge"
    ip link set "$bridge" up
    i=0
    for n in $nodes; do
        i=$((i + 1))
        ns="dl$tag-$n"
        ip netns add "$ns"
        namespaces="$namespaces $ns"
        ip link add "dl$tag-$i" type veth peer name eth0 netns "$ns"
        ip link set "dl$tag-$i" master "$bridge" up
        ip netns exec "$ns" ip addr add "$net.$((10 + i))/24" dev eth0
        ip netns exec "$ns" ip link set eth0 up
        ip netns exec "$ns" ip link set lo up
    done
    ctl_addr="$net.1"
else
    ip link delete "$bridge" 2>/dev/null || true
    echo "note: no network namespaces here (ip netns): one node on 127.0.0.1"
    nodes="node1"
    ctl_addr=127.0.0.1
fi
n_nodes=$(echo "$nodes" | wc -w | tr -d " ")
last=${nodes##* }

# --- munge --------------------------------------------------------------------------------
dd if=/dev/urandom of="$d/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$d/munge/key"
munged --force --key-file="$d/munge/key" --socket="$d/munge/socket" \
    --pid-file="$d/munge/pid" --log-file="$d/munge/log" --seed-file="$d/munge/seed"
pid_of "$d/munge/pid"

# --- slurm.conf (its node lines come with gres.conf below) ----------------------------------
cat > "$d/slurm.conf" <<EOF
ClusterName=dlenvtest
SlurmctldHost=localhost($ctl_addr)
SlurmctldPort=$ctl_port
SlurmdPort=$((ctl_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge/socket
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd-%n.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
GresTypes=gpu
HealthCheckProgram=$d/healthcheck
HealthCheckInterval=$interval
EOF
export SLURM_CONF="$d/slurm.conf"

# scenario NODE healthy|failing: what that node's fake driver answers from its next check on.
scenario() {
    case $2 in
    healthy) _s=healthy-1gpu _lib=nvml ;;
    failing) _s=old-driver _lib=nvml-old ;;
    esac
    cat > "$d/defaults.$1.tmp" <<EOF
DLENV="$dlenv"
DLENV_HEALTHCHECK_ARGS="--python $work/venv/bin/python"
SLURM_CONF="$d/slurm.conf"
PATH="$work/venv/bin:/usr/bin:/bin:/usr/sbin:/sbin"
LD_LIBRARY_PATH="$fakes/$_lib:$fakes/cuda"
DLENV_FAKE_SCENARIO="$here/gpu/$_s/scenario"
export LD_LIBRARY_PATH DLENV_FAKE_SCENARIO
EOF
    mv "$d/defaults.$1.tmp" "$d/defaults.$1"
}
for n in $nodes; do scenario "$n" healthy; done

# gres.conf and each node's Gres= as `dlenv fleet gres-conf` writes them from the fake
# NVML, with /dev/ moved to the fake device files: slurmd refuses a node whose gres does
# not validate, so every node turning idle below checks them too.
: > "$d/gres.conf"
i=0
for n in $nodes; do
    i=$((i + 1))
    addr=$ctl_addr
    [ "$n_nodes" -gt 1 ] && addr="$net.$((10 + i))"
    set +e
    env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" \
        DLENV_FAKE_SCENARIO="$here/gpu/healthy-1gpu/scenario" \
        "$dlenv" fleet gres-conf --node "$n" > "$work/gres" 2> "$work/err"
    rc=$?
    set -e
    expect_eq "gres-conf $n: exit code" 0 "$rc"
    gres=$(sed -n 's/^# slurm.conf: GresTypes=gpu, and Gres=\([^ ]*\) on .*/\1/p' "$work/gres")
    expect_eq "gres-conf $n: the slurm.conf Gres=" gpu:geforce_rtx_4090:1 "$gres"
    grep -v '^#' "$work/gres" | sed "s|File=/dev/|File=$d/dev/|" >> "$d/gres.conf"
    echo "NodeName=$n NodeHostname=$n NodeAddr=$addr CPUs=1 RealMemory=100 Gres=$gres State=UNKNOWN" \
        >> "$d/slurm.conf"
done
echo "PartitionName=debug Nodes=ALL Default=YES State=UP" >> "$d/slurm.conf"
expect_eq "gres.conf: one GPU line per node" "$n_nodes" "$(grep -c "^NodeName=node[0-9] Name=gpu Type=geforce_rtx_4090 File=$d/dev/nvidia0\$" "$d/gres.conf")"
mknod "$d/dev/nvidia0" c 195 0

# slurmd gives its HealthCheckProgram no arguments and only SLURMD_NODENAME: this one
# points the packaged wrapper at the node's defaults and counts the runs.
cat > "$d/healthcheck" <<EOF
#!/bin/sh
DLENV_HEALTHCHECK_DEFAULTS="$d/defaults.\$SLURMD_NODENAME"
export DLENV_HEALTHCHECK_DEFAULTS
"$here/../packaging/slurm/dlenv-healthcheck" > "$d/hc-\$SLURMD_NODENAME.out" 2> "$d/hc-\$SLURMD_NODENAME.err"
rc=\$?
echo "\$rc" >> "$d/hc-\$SLURMD_NODENAME.runs"
exit \$rc
EOF
chmod 755 "$d/healthcheck"

# --- the daemons ----------------------------------------------------------------------------
slurmctld -f "$d/slurm.conf"
pid_of "$d/slurmctld.pid"
i=0
for n in $nodes; do
    i=$((i + 1))
    if [ "$n_nodes" -gt 1 ]; then
        # nsenter, not `ip netns exec`: that remounts /sys and slurmd loses the cgroup tree
        nsenter --net="/run/netns/dl$tag-$n" slurmd -f "$d/slurm.conf" -N "$n"
    else
        slurmd -f "$d/slurm.conf" -N "$n"
    fi
    pid_of "$d/slurmd-$n.pid"
done

# node_field NODE State|Reason: as scontrol shows it (the Reason without its [user@time]).
node_field() {
    _line=$(scontrol -o show node "$1" 2>/dev/null || true)
    case $2 in
    State) printf '%s\n' "$_line" | sed -n 's/.* State=\([^ ]*\).*/\1/p' ;;
    Reason) printf '%s\n' "$_line" | sed -n 's/.* Reason=\(.*\) \[[^]]*@[^]]*\]$/\1/p' ;;
    esac
}
# wait_for SECONDS WHAT COMMAND...: until COMMAND succeeds; false at the limit.
wait_for() {
    _limit=$(($1 * 10)) _what=$2 _i=0
    shift 2
    while ! "$@"; do
        _i=$((_i + 1))
        if [ "$_i" -ge "$_limit" ]; then
            fail "$_what: not within the limit"
            return 1
        fi
        sleep 0.1
    done
}
runs() { cat "$d/hc-$1.runs" 2>/dev/null | wc -l | tr -d ' '; }
# wait_runs NODE N: until NODE's health check has run N more times than now.
wait_runs() {
    _target=$(($(runs "$1") + $2))
    wait_for 20 "$1: $2 more health checks" sh -c "[ \$(cat '$d/hc-$1.runs' 2>/dev/null | wc -l) -ge $_target ]"
}
is_idle() { [ "$(node_field "$1" State)" = IDLE ]; }
is_drained_by_dlenv() {
    case "$(node_field "$1" State)" in *DRAIN*) ;; *) return 1 ;; esac
    case "$(node_field "$1" Reason)" in "dlenv: "*) return 0 ;; esac
    return 1
}
last_run_failed() { _rc=$(tail -n 1 "$d/hc-$1.runs" 2>/dev/null); [ -n "$_rc" ] && [ "$_rc" != 0 ]; }
all_idle() { for _n in $nodes; do is_idle "$_n" || return 1; done; }

if ! wait_for 30 "every node idle" all_idle; then
    sinfo 2>&1
    tail -5 "$d/slurmctld.log" "$d"/slurmd-*.log "$d"/hc-*.err 2>/dev/null
    finish
fi
for n in $nodes; do
    wait_runs "$n" 1 || true
    expect_eq "$n: healthy check exit code" 0 "$(tail -n 1 "$d/hc-$n.runs")"
    expect_eq "$n: healthy check prints nothing" "" "$(cat "$d/hc-$n.out")"
done

# fleet_through_srun PYTHON: fleet report of every node's report (with PYTHON's torch) through
# srun --label, into $work/out and $work/err; $rc its exit code.
fleet_through_srun() {
    set +e
    LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$here/gpu/healthy-1gpu/scenario" \
        "$dlenv" fleet report --format json --timeout 40 -- \
        srun -N "$n_nodes" --ntasks-per-node=1 --label \
        "$dlenv" report --json --no-runtime --python "$1" > "$work/out" 2> "$work/err"
    rc=$?
    set -e
}

# --- fleet report through srun: every node answers -------------------------------------------
fleet_through_srun "$work/venv/bin/python"
expect_eq "fleet report -- srun: exit code" 0 "$rc"
expect_eq "fleet report -- srun: nodes" "$n_nodes" "$(get nodes)"
expect_eq "fleet report -- srun: all ok" "$n_nodes" "$(get counts.ok)"
expect_eq "fleet report -- srun: one group" "$n_nodes" "$(get groups.0.count)"
expect_eq "fleet report -- srun: the driver" 550.54.14 "$(get reference.driver)"
[ "$rc" = 0 ] || cat "$work/err"

# --- the same with a report line longer than srun's buffer ----------------------------------
# A pip CUDA torch lists its bundled libraries on one line of 2 KB or more; srun --label cuts
# such a line into labelled pieces, which fleet report must join again. A venv of its own,
# so the health checks below keep theirs.
/usr/bin/python3 -m venv --without-pip "$work/venv-long" >/dev/null 2>&1
site_long=$("$work/venv-long/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cp -R "$here/fakes/fake_torch/torch" "$site_long/"
mkdir -p "$site_long/torch/lib"
i=0
while [ "$i" -lt 80 ]; do
    : > "$site_long/torch/lib/libcudnn_engines_runtime_compiled.so.9.$i"
    i=$((i + 1))
done
LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$here/gpu/healthy-1gpu/scenario" \
    "$dlenv" report --json --no-runtime --python "$work/venv-long/bin/python" > "$work/one.json" || true
long_line=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$work/one.json")
[ "$long_line" -gt 2048 ] || fail "the report's longest line is $long_line bytes: not long enough to be cut"
fleet_through_srun "$work/venv-long/bin/python"
expect_eq "fleet report -- srun, a $long_line-byte line: exit code" 0 "$rc"
expect_eq "fleet report -- srun, a long line: all ok" "$n_nodes" "$(get counts.ok)"
expect_eq "fleet report -- srun, a long line: nothing garbage" 0 "$(get counts.garbage)"
[ "$rc" = 0 ] || cat "$work/out" "$work/err"

# --- a node fails: drained by dlenv within the check interval, then resumed -------------------
sick=node1
[ "$n_nodes" -gt 1 ] && sick=node2
scenario "$sick" failing
start=$(date +%s)
if wait_for 15 "$sick drained by dlenv" is_drained_by_dlenv "$sick"; then
    took=$(($(date +%s) - start))
    [ "$took" -le $((interval * 3 + 2)) ] ||
        fail "$sick: drained after ${took}s, HealthCheckInterval is ${interval}s"
    reason=$(node_field "$sick" Reason)
    case "$reason" in
    "dlenv: "*"(driver_too_old)") ;;
    *) fail "$sick: drain reason: $reason" ;;
    esac
    # dlenv drains the node before it exits, and the wrapper counts the run after: under
    # a sanitizer the state changes before the exit code is written
    wait_for 10 "$sick: a failing check counted" last_run_failed "$sick" || true
    expect_eq "$sick: failing check exit code" 1 "$(tail -n 1 "$d/hc-$sick.runs")"
    case "$(cat "$d/hc-$sick.out")" in
    "dlenv: "*"(driver_too_old)"*) ;;
    *) fail "$sick: the check's lines: $(cat "$d/hc-$sick.out")" ;;
    esac
fi
if [ "$n_nodes" -gt 1 ]; then
    expect_eq "node1 stays up while $sick fails" IDLE "$(node_field node1 State)"
fi
# Still failing: later checks keep dlenv's drain as it is.
wait_runs "$sick" 2 || true
case "$(node_field "$sick" State)" in *DRAIN*) ;; *) fail "$sick: no longer drained while failing" ;; esac
scenario "$sick" healthy
wait_for 15 "$sick resumed once healthy" is_idle "$sick" || true
expect_eq "$sick: no reason left" "" "$(node_field "$sick" Reason)"

# --- a person's drain: neither overwritten while failing nor cleared once healthy ------------
human=$last
scontrol update NodeName="$human" State=DRAIN Reason="disk swap, ask alice"
scenario "$human" failing
wait_runs "$human" 2 || true
expect_eq "$human: failing, a person's reason kept" "disk swap, ask alice" "$(node_field "$human" Reason)"
expect_eq "$human: the check still says why it fails" 1 "$(tail -n 1 "$d/hc-$human.runs")"
grep -q "did not set" "$d/hc-$human.err" || fail "$human: dlenv did not say it left the reason: $(cat "$d/hc-$human.err")"
scenario "$human" healthy
wait_runs "$human" 2 || true
expect_eq "$human: healthy, a person's drain not resumed" "disk swap, ask alice" "$(node_field "$human" Reason)"
case "$(node_field "$human" State)" in *DRAIN*) ;; *) fail "$human: resumed by dlenv" ;; esac

if [ "$failures" -ne 0 ]; then
    tail -5 "$d/slurmctld.log" "$d"/hc-*.err 2>/dev/null
fi
finish
