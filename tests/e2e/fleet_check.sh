# dlenv fleet check: a healthy and a failing node in each format (json, prom, nfd, nhc)
# through the real binary. The healthy node is the fake NVML's healthy-1gpu scenario with
# the fake CUDA torch in a venv; the failing one the same torch on a 418 driver (too old
# for CUDA 12.4); fixture trees under --root give a node that fails on its own files and
# one that cannot be judged. promtool checks the textfile where it is installed.
set -eu
. "$(dirname "$0")/lib.inc"

need_fakes
fake_torch_venv "$work/venv"

# node SCENARIO NVML ARGS...: fleet check on a node whose driver answers as the scenario
# says, with only the venv's python to find; sets $rc, $out, $err.
node() {
    _scenario=$1 _nvml=$2
    shift 2
    set +e
    env -i PATH="$work/venv/bin:/usr/bin:/bin" VIRTUAL_ENV="$work/venv" LC_ALL=C.UTF-8 \
        LD_LIBRARY_PATH="$fakes/$_nvml:$fakes/cuda" \
        DLENV_FAKE_SCENARIO="$here/gpu/$_scenario/scenario" \
        "$dlenv" fleet check --python "$work/venv/bin/python" "$@" > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    out=$(cat "$work/out")
}
healthy() { node healthy-1gpu nvml "$@"; }
failing() { node old-driver nvml-old "$@"; }

# --- usage ----------------------------------------------------------------------------
run fleet
expect_eq "no action: exit code" 2 "$rc"
run fleet check --format xml
expect_eq "unknown format: exit code" 2 "$rc"
run fleet check --format nhc --textfile "$work"
expect_eq "--textfile with nhc: exit code" 2 "$rc"

# --- json -----------------------------------------------------------------------------
healthy --format json
expect_eq "healthy json: exit code" 0 "$rc"
expect_eq "healthy json: schema" dlenv.fleet_check/1 "$(get schema)"
expect_eq "healthy json: status" ok "$(get status)"
expect_eq "healthy json: root cause" null "$(get root_cause)"
expect_eq "healthy json: failing" '[]' "$(get failing)"
expect_eq "healthy json: driver" 550.54.14 "$(get info.driver)"
expect_eq "healthy json: max CUDA" 12.4 "$(get info.max_cuda)"
expect_eq "healthy json: torch" 2.5.1+cu124 "$(get info.torch)"
expect_eq "healthy json: capability" 8.9 "$(get info.capability)"
failing --format json
expect_eq "failing json: exit code" 1 "$rc"
expect_eq "failing json: status" failure "$(get status)"
expect_eq "failing json: root cause" driver_too_old "$(get root_cause.id)"
expect_eq "failing json: root cause layer" driver "$(get root_cause.layer)"
expect_eq "failing json: first failing check" driver_too_old "$(get failing.0.id)"
expect_eq "failing json: its severity" failure "$(get failing.0.severity)"

# --- prom -----------------------------------------------------------------------------
healthy --format prom
expect_eq "healthy prom: exit code" 0 "$rc"
case "$out" in
*'# TYPE dlenv_check_status gauge'*'dlenv_check_status{check="driver_too_old",layer="driver"} 0'*) ;;
*) fail "healthy prom: no driver_too_old 0 series: $out" ;;
esac
case "$out" in
*'dlenv_info{driver="550.54.14",max_cuda="12.4",torch="2.5.1+cu124",capability="8.9"} 1'*) ;;
*) fail "healthy prom: dlenv_info: $out" ;;
esac
printf '%s\n' "$out" | grep -q '^dlenv_last_run_timestamp_seconds [1-9][0-9]*$' ||
    fail "healthy prom: no timestamp line"
if printf '%s\n' "$out" | grep -q '^dlenv_check_status.*} [12]$'; then fail "healthy prom: a check not 0"; fi
failing --format prom --textfile "$work/textfile"
expect_eq "--textfile into a missing folder: exit code" 3 "$rc"
mkdir "$work/textfile"
failing --format prom --textfile "$work/textfile"
expect_eq "failing prom: exit code" 1 "$rc"
expect_eq "failing prom --textfile: nothing on stdout" "" "$out"
expect_eq "failing prom --textfile: only dlenv.prom left" dlenv.prom "$(ls -A "$work/textfile")"
prom=$(cat "$work/textfile/dlenv.prom")
case "$prom" in
*'dlenv_check_status{check="driver_too_old",layer="driver"} 2'*) ;;
*) fail "failing prom: driver_too_old is not 2: $prom" ;;
esac
case "$prom" in
*'dlenv_status{status="failure",root_cause="driver_too_old",layer="driver"} 1'*) ;;
*) fail "failing prom: dlenv_status: $prom" ;;
esac
# Every sample line has a HELP and TYPE for its metric, and label values are quoted.
for metric in $(printf '%s\n' "$prom" | grep -v '^#' | sed 's/[{ ].*//' | sort -u); do
    printf '%s\n' "$prom" | grep -q "^# HELP $metric " || fail "prom: no HELP for $metric"
    printf '%s\n' "$prom" | grep -q "^# TYPE $metric gauge$" || fail "prom: no TYPE for $metric"
done
if command -v promtool >/dev/null 2>&1; then
    promtool check metrics < "$work/textfile/dlenv.prom" || fail "promtool check metrics"
else
    echo "note: promtool is not installed; the textfile's syntax was not checked by it"
fi

# Label values escaped as the text format says: a saved report whose driver version holds
# a double quote and a backslash (JSON: 550\"q\\b, the value 550"q\b).
env -i PATH="$work/venv/bin:/usr/bin:/bin" LC_ALL=C.UTF-8 \
    LD_LIBRARY_PATH="$fakes/nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$here/gpu/healthy-1gpu/scenario" \
    "$dlenv" report --json --no-runtime --python "$work/venv/bin/python" > "$work/report.json"
sed 's/"550\.54\.14"/"550\\"q\\\\b"/' "$work/report.json" > "$work/quoted.json"
run fleet check --format prom --from "$work/quoted.json"
case "$out" in
*'dlenv_info{driver="550\"q\\b",'*) ;;
*) fail "prom: the driver's quote and backslash not escaped: $(printf '%s\n' "$out" | grep dlenv_info)" ;;
esac

# --- nfd ------------------------------------------------------------------------------
mkdir "$work/features.d"
healthy --format nfd --textfile "$work/features.d"
expect_eq "healthy nfd: exit code" 0 "$rc"
nfd=$(cat "$work/features.d/dlenv")
head -n 1 "$work/features.d/dlenv" |
    grep -q '^# +expiry-time=[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$' ||
    fail "nfd: first line is not the expiry: $nfd"
for want in dlenv.io/torch-cuda-ok=true dlenv.io/status=ok dlenv.io/driver=550.54.14 \
        dlenv.io/driver-max-cuda=12.4 dlenv.io/torch=2.5.1_cu124 dlenv.io/gpu-capability=8.9; do
    printf '%s\n' "$nfd" | grep -qx "$want" || fail "healthy nfd: no line $want: $nfd"
done
# Kubernetes label values: at most 63 characters of [A-Za-z0-9._-], alphanumeric ends.
printf '%s\n' "$nfd" | grep -v '^#' | sed 's/^[^=]*=//' | while IFS= read -r v; do
    printf '%s' "$v" | grep -Eqx '[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?' ||
        { echo "FAIL: nfd: not a label value: $v"; exit 1; }
done || failures=$((failures + 1))
failing --format nfd
expect_eq "failing nfd: exit code" 1 "$rc"
for want in dlenv.io/torch-cuda-ok=false dlenv.io/status=failure \
        dlenv.io/root-cause=driver_too_old dlenv.io/driver-max-cuda=10.1; do
    printf '%s\n' "$out" | grep -qx "$want" || fail "failing nfd: no line $want: $out"
done

# --- nhc ------------------------------------------------------------------------------
healthy --format nhc
expect_eq "healthy nhc: exit code" 0 "$rc"
expect_eq "healthy nhc: the line" "dlenv: ok" "$out"
failing --format nhc
expect_eq "failing nhc: exit code" 1 "$rc"
case "$out" in
"dlenv: "*"(driver_too_old)") ;;
*) fail "failing nhc: $out" ;;
esac
expect_eq "failing nhc: one line" 1 "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"

# --- fixture trees under --root ---------------------------------------------------------
cp -a "$here/machines/ubuntu-nouveau/root" "$work/nouveau"
run fleet check --format nhc --root "$work/nouveau"
expect_eq "nouveau root: exit code" 1 "$rc"
case "$out" in "dlenv: "*"(nouveau_loaded)") ;; *) fail "nouveau root: $out" ;; esac
mkdir "$work/empty"
run fleet check --format json --root "$work/empty"
expect_eq "empty root: cannot judge, exit code" 5 "$rc"
expect_eq "empty root: status" cannot_judge "$(get status)"
run fleet check --format nhc --root "$work/empty"
expect_eq "empty root nhc: exit code" 5 "$rc"
case "$out" in "dlenv: cannot judge "*) ;; *) fail "empty root nhc: $out" ;; esac

# --- the NHC check file: check_dlenv calls dlenv and dies with its line -----------------
nhc_file="$here/../packaging/nhc/dlenv.nhc"
if [ -f "$nhc_file" ]; then
    cat > "$work/nhc-harness.sh" <<EOF
die() { echo "die \$1: \$2"; return 1; }
log() { echo "log: \$*"; }
syslog() { :; }
DLENV="$work/fake-dlenv"
. "$nhc_file"
check_dlenv
echo "returned \$?"
EOF
    printf '#!/bin/sh\necho "dlenv: The NVIDIA driver is too old (driver_too_old)"\nexit 1\n' \
        > "$work/fake-dlenv"
    chmod +x "$work/fake-dlenv"
    expect_eq "check_dlenv: a failure dies with the line" \
        "die 1: dlenv: The NVIDIA driver is too old (driver_too_old)
returned 1" "$(bash "$work/nhc-harness.sh" 2>&1)"
    printf '#!/bin/sh\necho "dlenv: ok"\nexit 0\n' > "$work/fake-dlenv"
    expect_eq "check_dlenv: healthy passes" "returned 0" "$(bash "$work/nhc-harness.sh" 2>&1)"
else
    fail "no $nhc_file"
fi

finish
