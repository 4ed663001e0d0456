# fleet check --format slurm --drain against a stand-in scontrol, and fleet gres-conf on the
# fake NVML: what e2e.fleet_slurm (a real Slurm) cannot show on a machine without Slurm,
# and the paths a real cluster does not take on purpose (scontrol missing or refusing, a
# node unknown to Slurm, minor numbers that are not the NVML index, NVLink, MIG, no NVML).
set -eu
. "$(dirname "$0")/lib.inc"

need_fakes
fake_torch_venv "$work/venv"

# The stand-in: `-o show node N` prints $work/node (or "not found"); `update` records its
# arguments one per line (so a Reason with spaces shows as one argument) and fails when
# $work/update-fails exists.
mkdir "$work/bin" "$work/nobin"
cat > "$work/bin/scontrol" <<EOF
#!/bin/sh
printf '%s\n' "\$@" > "$work/scontrol.\$1"
case "\$1" in
-o) [ -f "$work/node" ] && exec cat "$work/node"
    echo "Node \$4 not found" >&2; exit 1 ;;
update) [ -f "$work/update-fails" ] && { echo "slurm_update error: Invalid node state specified" >&2; exit 1; }
    exit 0 ;;
esac
exit 2
EOF
chmod +x "$work/bin/scontrol"

# check SCENARIO NVML ARGS...: fleet check on that fake driver with the stand-in
# first on PATH ($path instead when set); sets $rc, $out, $err. SLURMD_NODENAME is gpu07,
# as slurmd would set it.
check() {
    _scenario=$1 _nvml=$2
    shift 2
    rm -f "$work/scontrol.-o" "$work/scontrol.update"
    set +e
    env -i PATH="${path:-$work/bin:$work/venv/bin:/usr/bin:/bin}" LC_ALL=C.UTF-8 \
        SLURMD_NODENAME=gpu07 LD_LIBRARY_PATH="$fakes/$_nvml:$fakes/cuda" \
        DLENV_FAKE_SCENARIO="$here/gpu/$_scenario/scenario" \
        "$dlenv" fleet check --format slurm --python "$work/venv/bin/python" "$@" \
        > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}
healthy() { check healthy-1gpu nvml "$@"; }
failing() { check old-driver nvml-old "$@"; }
updated() { cat "$work/scontrol.update" 2>/dev/null | tr '\n' '|'; }
node_line() { # node_line STATE [REASON]: what the stand-in shows for the node
    printf 'NodeName=gpu07 Arch=x86_64 State=%s ThreadsPerCore=1 ExtSensorsTemp=n/s%s\n' \
        "$1" "${2:+ Reason=$2 [root@2026-12-01T18:05:42]}" > "$work/node"
}
reason="dlenv: The driver runs CUDA up to 10.1, but torch was built with CUDA 12.4 (driver_too_old)"

# --- the lines -----------------------------------------------------------------------------
healthy
expect_eq "healthy: exit code" 0 "$rc"
expect_eq "healthy: no line" "" "$out"
failing
expect_eq "failing: exit code" 1 "$rc"
expect_eq "failing: the root cause's line first" "$reason" "$(printf '%s\n' "$out" | head -n 1)"
expect_eq "failing: no scontrol without --drain" "" "$(updated)"

# --- --drain -------------------------------------------------------------------------------
node_line IDLE
failing --drain
expect_eq "drain: exit code" 1 "$rc"
expect_eq "drain: asks for SLURMD_NODENAME's node" "-o|show|node|gpu07|" \
    "$(tr '\n' '|' < "$work/scontrol.-o")"
expect_eq "drain: the update, the reason one argument" \
    "update|NodeName=gpu07|State=DRAIN|Reason=$reason|" "$(updated)"
case "$err" in *"node gpu07 drained"*) ;; *) fail "drain: stderr: $err" ;; esac
failing --drain --node gpu08
expect_eq "--node wins over SLURMD_NODENAME" "-o|show|node|gpu08|" \
    "$(tr '\n' '|' < "$work/scontrol.-o")"

node_line IDLE+DRAIN "$reason"
failing --drain
expect_eq "already drained by dlenv for this reason: no update" "" "$(updated)"
healthy --drain
expect_eq "healthy again: exit code" 0 "$rc"
expect_eq "healthy again: resumed" "update|NodeName=gpu07|State=RESUME|" "$(updated)"

node_line MIXED+DRAIN "disk swap, ask alice"
failing --drain
expect_eq "a person's drain, failing: exit code" 1 "$rc"
expect_eq "a person's drain, failing: no update" "" "$(updated)"
case "$err" in *"disk swap, ask alice"*"did not set"*) ;; *) fail "a person's drain: stderr: $err" ;; esac
healthy --drain
expect_eq "a person's drain, healthy: not resumed" "" "$(updated)"
node_line DOWN+NOT_RESPONDING "Not responding"
failing --drain
expect_eq "down with Slurm's own reason: no update" "" "$(updated)"

mkdir "$work/empty"
node_line IDLE+DRAIN "$reason"
rm -f "$work/scontrol.update"
set +e
env -i PATH="$work/bin:/usr/bin:/bin" SLURMD_NODENAME=gpu07 "$dlenv" fleet check --format slurm \
    --drain --root "$work/empty" > "$work/out" 2> "$work/err"
rc=$?
set -e
out=$(cat "$work/out")
expect_eq "cannot judge: exit code" 5 "$rc"
expect_eq "cannot judge: neither drained nor resumed" "" "$(updated)"
case "$out" in "dlenv: cannot judge "*) ;; *) fail "cannot judge: the line: $out" ;; esac

# scontrol's failures are dlenv's exit 3, with scontrol's last words
rm -f "$work/node"
failing --drain
expect_eq "node unknown to Slurm: exit code" 3 "$rc"
case "$err" in *"scontrol -o show node gpu07 failed: Node gpu07 not found"*) ;; *) fail "unknown node: $err" ;; esac
node_line IDLE
touch "$work/update-fails"
failing --drain
expect_eq "update refused: exit code" 3 "$rc"
case "$err" in *"Invalid node state specified"*) ;; *) fail "update refused: $err" ;; esac
rm -f "$work/update-fails"
path="$work/nobin:$work/venv/bin" # a PATH without scontrol (Slurm puts it in /usr/bin)
failing --drain
path=
expect_eq "no scontrol: exit code" 3 "$rc"
case "$err" in *"scontrol is not on PATH"*) ;; *) fail "no scontrol: $err" ;; esac

# usage
run fleet check --format json --drain
expect_eq "--drain with json: exit code" 2 "$rc"
run fleet check --format slurm --node x
expect_eq "--node without --drain: exit code" 2 "$rc"
run fleet report --drain --from "$work/empty"
expect_eq "--drain with fleet report: exit code" 2 "$rc"
run fleet gres-conf --format json
expect_eq "gres-conf --format: exit code" 2 "$rc"

# --- gres-conf -----------------------------------------------------------------------------
# gres SCENARIO_FILE ARGS...: gres-conf on the fake NVML; sets $rc, $out.
gres() {
    _file=$1
    shift
    set +e
    env -i PATH=/usr/bin:/bin SLURMD_NODENAME=gpu07 LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" \
        DLENV_FAKE_SCENARIO="$_file" "$dlenv" fleet gres-conf "$@" > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    out=$(cat "$work/out")
}
lines() { printf '%s\n' "$out" | grep -v '^#' || true; }
gres "$here/gpu/healthy-1gpu/scenario"
expect_eq "gres-conf: exit code" 0 "$rc"
expect_eq "gres-conf: the line" "NodeName=gpu07 Name=gpu Type=geforce_rtx_4090 File=/dev/nvidia0" "$(lines)"
printf '%s\n' "$out" | grep -qx "# slurm.conf: GresTypes=gpu, and Gres=gpu:geforce_rtx_4090:1 on NodeName=gpu07's line" ||
    fail "gres-conf: no slurm.conf comment: $out"
printf '%s\n' "$out" | grep -qx "# NodeName=gpu07 AutoDetect=nvml" || fail "gres-conf: no AutoDetect comment: $out"
gres "$here/gpu/healthy-1gpu/scenario" --node n1
expect_eq "gres-conf --node" "NodeName=n1 Name=gpu Type=geforce_rtx_4090 File=/dev/nvidia0" "$(lines)"

# Eight V100s joined by NVLink, two of them with minor numbers swapped against the index.
cp "$here/gpu/eight-gpu-nvlink/scenario" "$work/eight"
printf 'gpu0.minor = 1\ngpu1.minor = 0\n' >> "$work/eight"
gres "$work/eight"
expect_eq "eight GPUs: exit code" 0 "$rc"
expect_eq "eight GPUs: eight lines" 8 "$(lines | grep -c .)"
expect_eq "eight GPUs: NVML's first GPU is /dev/nvidia1, with its NVLinks" \
    "NodeName=gpu07 Name=gpu Type=tesla_v100-sxm2-32gb File=/dev/nvidia1 Links=-1,1,1,2,2,0,0,0" \
    "$(lines | head -n 1)"
expect_eq "eight GPUs: the second is /dev/nvidia0" "File=/dev/nvidia0 Links=1,-1,2,1,0,2,0,0" \
    "$(lines | sed -n 2p | sed 's/.* File=/File=/')"
printf '%s\n' "$out" | grep -q "Gres=gpu:tesla_v100-sxm2-32gb:8 " || fail "eight GPUs: Gres=: $out"

gres "$here/gpu/mig-enabled/scenario"
printf '%s\n' "$out" | grep -q "^# GPU 0 has MIG enabled" || fail "MIG: no note: $out"
expect_eq "MIG: still its line" 1 "$(lines | grep -c '^NodeName=gpu07 Name=gpu Type=a100-sxm4-40gb File=/dev/nvidia0$')"

cp "$here/gpu/healthy-1gpu/scenario" "$work/nominor"
echo "gpu0.minor = error:999" >> "$work/nominor"
gres "$work/nominor"
expect_eq "minor number unknown: exit code" 5 "$rc"
expect_eq "minor number unknown: no line" "" "$(lines)"
printf '%s\n' "$out" | grep -q "^# GPU 0 (NVIDIA GeForce RTX 4090): no line, its device file is unknown, because nvmlDeviceGetMinorNumber: " ||
    fail "minor number unknown: $out"

# No NVML at all (only where the machine has no driver of its own for dlenv to find).
if ! /sbin/ldconfig -p 2>/dev/null | grep -q libnvidia-ml.so.1; then
    set +e
    env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$work/empty" "$dlenv" fleet gres-conf --node n1 \
        > "$work/out" 2>&1
    rc=$?
    set -e
    out=$(cat "$work/out")
    expect_eq "no NVML: exit code" 5 "$rc"
    printf '%s\n' "$out" | grep -q "^# no lines: NVML gave no GPU list, because " || fail "no NVML: $out"
fi

finish
