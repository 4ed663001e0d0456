# dlenv fleet check --format prom through a real node_exporter (Debian's
# prometheus-node-exporter, only its textfile collector, on a loopback port): the series
# dlenv writes are the series node_exporter serves, with node_textfile_scrape_error 0, for
# a healthy node with verify's rates (--snapshot of a real `verify --json` against the fake
# libcuda), a failing node, and label values holding a quote and a backslash; `promtool
# check metrics` (Debian's prometheus) lints each file. The exporter is stopped by its PID.
set -eu
. "$(dirname "$0")/lib.inc"

here=$(cd "$(dirname "$0")/.." && pwd)
fakes=$(cd "$(dirname "$match")/fakes" && pwd)
[ -f "$fakes/nvml/libnvidia-ml.so.1" ] || { echo "SKIP: no fake NVML in $fakes"; exit 77; }
[ -f "$fakes/cuda/libcuda.so.1" ] || { echo "SKIP: no fake libcuda in $fakes"; exit 77; }
exporter=$(command -v prometheus-node-exporter || true)
[ -n "$exporter" ] || skip_or_fail "no prometheus-node-exporter (Debian package prometheus-node-exporter)"
command -v promtool >/dev/null 2>&1 || skip_or_fail "no promtool (Debian package prometheus)"
[ -x /usr/bin/python3 ] || skip_or_fail "no /usr/bin/python3"
/usr/bin/python3 -m venv --without-pip "$work/venv" >/dev/null 2>&1 ||
    skip_or_fail "python3 -m venv does not work here"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cp -R "$here/fakes/fake_torch/torch" "$site/"
series() { /usr/bin/python3 "$here/e2e/prom_series.py" "$@"; }

# The healthy RTX 4090 with the rates verify_gpu.sh knows: fp32 70 of 82.575 TFLOPS, the
# copy kernel 900 of 1008.096 GB/s.
{ cat "$here/gpu/healthy-1gpu/scenario"; printf '%s\n' "dev0.threads_per_sm = 1536" \
    "dev0.mem_free = 67108864" "dev0.alloc_max = 62914560" "dev0.fma_tflops = 70" \
    "dev0.mem_gbps = 900" "dev0.h2d_gbps = 25" "dev0.d2h_gbps = 26"; } > "$work/healthy.scenario"
cp "$here/gpu/old-driver/scenario" "$work/old-driver.scenario"

# node SCENARIO NVML ARGS...: dlenv on a node whose driver answers as the scenario says
node() {
    _scenario=$1 _nvml=$2
    shift 2
    set +e
    env -i PATH="$work/venv/bin:/usr/bin:/bin" VIRTUAL_ENV="$work/venv" LC_ALL=C.UTF-8 \
        LD_LIBRARY_PATH="$fakes/$_nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="$work/$_scenario.scenario" \
        "$dlenv" "$@" --python "$work/venv/bin/python" > "$work/out" 2> "$work/err"
    rc=$?
    set -e
}

# --- usage ----------------------------------------------------------------------------
run fleet check --format nfd --snapshot "$work/none.json"
expect_eq "--snapshot with nfd: exit code" 2 "$rc"
run fleet check --format prom --snapshot "$work/none.json"
expect_eq "--snapshot of a missing file: exit code" 4 "$rc"

# --- verify's measurements, saved -------------------------------------------------------
node healthy nvml verify --quick --json
cp "$work/out" "$work/verify.json"
expect_eq "verify --json: schema" dlenv.verify/1 "$(get schema)"
# verify writes when it measured, as a snapshot does: UTC, RFC 3339, now.
verify_at=$(get taken_at)
verify_secs=$(/usr/bin/python3 -c '
import calendar, sys, time
t = calendar.timegm(time.strptime(sys.argv[1], "%Y-%m-%dT%H:%M:%SZ"))
print("%.10g" % t if abs(t - time.time()) < 60 else "not now")' "$verify_at" 2>/dev/null || echo "not RFC 3339")
case "$verify_secs" in [0-9]*) ;; *) fail "verify --json: taken_at '$verify_at': $verify_secs" ;; esac
# The same measurements as a snapshot taken at a known time (the facts and findings of
# verify's document), and as a verify document from before verify wrote its time.
/usr/bin/python3 - "$work/verify.json" "$work/snapshot.json" "$work/verify-untimed.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
s = {"schema": "dlenv.snapshot/1", "taken_at": "2026-11-30T06:00:00Z", "host": "gpu07",
     "verdict": v["verdict"], "root_cause": v["root_cause"], "findings": v["findings"],
     "facts": v["facts"]}
json.dump(s, open(sys.argv[2], "w"))
del v["taken_at"]
json.dump(v, open(sys.argv[3], "w"))
PY

# --- the exporter ---------------------------------------------------------------------
mkdir "$work/textfile"
exporter_pid=
stop_exporter() {
    [ -z "$exporter_pid" ] || { kill "$exporter_pid" 2>/dev/null || true; wait "$exporter_pid" 2>/dev/null || true; }
    exporter_pid=
}
trap 'stop_exporter; rm -rf "$work"' EXIT INT TERM
# A free loopback port (the kernel's pick), then node_exporter with the textfile collector
# alone; tried three times in case another process takes the port in between.
for _ in 1 2 3; do
    port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
        --collector.textfile --collector.textfile.directory="$work/textfile" \
        > "$work/exporter.log" 2>&1 &
    exporter_pid=$!
    url="http://127.0.0.1:$port/metrics"
    tries=0
    until series "$url" node_textfile > /dev/null 2>&1; do
        tries=$((tries + 1))
        if ! kill -0 "$exporter_pid" 2>/dev/null || [ "$tries" -ge 50 ]; then break; fi
        sleep 0.1
    done
    series "$url" node_textfile > /dev/null 2>&1 && break
    stop_exporter
done
[ -n "$exporter_pid" ] || { fail "node_exporter did not start: $(tail -n 5 "$work/exporter.log")"; finish; }

# scrape WHAT FILE: node_exporter serves every dlenv series of FILE as FILE has it, and read
# FILE without an error; promtool finds nothing to say about FILE. Sets $scraped.
scrape() {
    series "$2" dlenv_ > "$work/wrote" || fail "$1: dlenv's file does not parse"
    series "$url" > "$work/scraped" || fail "$1: the scrape does not parse"
    scraped=$(cat "$work/scraped")
    missing=$(grep '^dlenv_' "$work/scraped" | sort | comm -23 "$work/wrote" - | head -n 3)
    expect_eq "$1: dlenv's series missing from the scrape" "" "$missing"
    printf '%s\n' "$scraped" | grep -qx 'node_textfile_scrape_error{} 0' ||
        fail "$1: node_textfile_scrape_error is not 0: $(grep textfile "$work/scraped")"
    promtool check metrics < "$2" > "$work/promtool" 2>&1 ||
        fail "$1: promtool check metrics: $(head -n 5 "$work/promtool")"
}
has_series() { # has_series WHAT LINE
    printf '%s\n' "$scraped" | grep -qxF "$2" || fail "$1: no series $2"
}

# 1. A healthy node with verify's rates from the saved verify document.
node healthy nvml fleet check --format prom --textfile "$work/textfile" --snapshot "$work/verify.json"
expect_eq "healthy: exit code" 0 "$rc"
scrape healthy "$work/textfile/dlenv.prom"
has_series "healthy" 'dlenv_check_status{check="driver_too_old",layer="driver"} 0'
has_series "healthy" 'dlenv_status{layer="",root_cause="",status="ok"} 1'
has_series "healthy" 'dlenv_info{capability="8.9",driver="550.54.14",max_cuda="12.4",torch="2.5.1+cu124"} 1'
has_series "healthy: fp32 70 of 82.575 TFLOPS" 'dlenv_verify_peak_ratio{figure="fp32_tflops",group="gpu0"} 0.8477'
has_series "healthy: copy 900 of 1008.096 GB/s" 'dlenv_verify_peak_ratio{figure="copy_kernel_gbps",group="gpu0"} 0.8928'
cp "$work/textfile/dlenv.prom" "$work/healthy.prom"
# What DCGM's exporter has stays out: the clock under load, the memory in use.
case "$scraped" in *sm_clock*|*max_alloc*) fail "healthy: a clock or memory series: $scraped" ;; esac
has_series "healthy: verify's own time" "dlenv_verify_timestamp_seconds{} $verify_secs"
now=$(date +%s)
ran=$(printf '%s\n' "$scraped" | sed -n 's/^dlenv_last_run_timestamp_seconds{} //p')
/usr/bin/python3 -c "import sys; sys.exit(abs(float('$ran') - $now) > 60)" 2>/dev/null ||
    fail "healthy: dlenv_last_run_timestamp_seconds '$ran' is not now ($now)"
n=$(printf '%s\n' "$scraped" | grep -c '^dlenv_check_status{')
# One series per check id (power_plan_saving is two rules, one for Windows, one for Linux).
expect_eq "healthy: a series per check" \
    "$("$dlenv" doctor --list-checks | awk '{print $1}' | sort -u | grep -c .)" "$n"

# 2. The same rates from a snapshot taken at a known time: its time is served.
node healthy nvml fleet check --format prom --textfile "$work/textfile" --snapshot "$work/snapshot.json"
scrape snapshot "$work/textfile/dlenv.prom"
has_series "snapshot" "dlenv_verify_timestamp_seconds{} $(/usr/bin/python3 -c 'import calendar; print("%.10g" % calendar.timegm((2026, 11, 30, 6, 0, 0)))')"
has_series "snapshot" 'dlenv_verify_peak_ratio{figure="fp32_tflops",group="gpu0"} 0.8477'

# A verify document without a time (an older dlenv's): no timestamp series rather than a
# made-up one, the rates still served.
node healthy nvml fleet check --format prom --textfile "$work/textfile" --snapshot "$work/verify-untimed.json"
scrape untimed "$work/textfile/dlenv.prom"
case "$scraped" in *dlenv_verify_timestamp_seconds*) fail "untimed: a verify time from nowhere" ;; esac
has_series "untimed" 'dlenv_verify_peak_ratio{figure="fp32_tflops",group="gpu0"} 0.8477'

# 3. A failing node (the 418 driver under a torch built for CUDA 12.4), no --snapshot.
node old-driver nvml-old fleet check --format prom --textfile "$work/textfile"
expect_eq "failing: exit code" 1 "$rc"
scrape failing "$work/textfile/dlenv.prom"
has_series "failing" 'dlenv_check_status{check="driver_too_old",layer="driver"} 2'
has_series "failing" 'dlenv_status{layer="driver",root_cause="driver_too_old",status="failure"} 1'
case "$scraped" in *dlenv_verify_*) fail "failing: verify series without --snapshot" ;; esac
cp "$work/textfile/dlenv.prom" "$work/failing.prom"

# 4. Label values with a double quote and a backslash (a saved report's driver 550"q\b):
#    escaped, node_exporter reads the file and serves the same value.
node healthy nvml report --json --no-runtime
sed 's/"550\.54\.14"/"550\\"q\\\\b"/' "$work/out" > "$work/quoted.json"
run fleet check --format prom --from "$work/quoted.json" --textfile "$work/textfile"
scrape quoted "$work/textfile/dlenv.prom"
case "$scraped" in
*'dlenv_info{capability="8.9",driver="550\"q\\b",'*) ;;
*) fail "quoted: the driver label: $(grep dlenv_info "$work/scraped")" ;;
esac

# 5. The check can fail: a broken file beside dlenv's makes node_exporter report an error.
printf 'broken{ 1\n' > "$work/textfile/broken.prom"
series "$url" node_textfile_scrape_error | grep -qx 'node_textfile_scrape_error{} 1' ||
    fail "a broken textfile did not give node_textfile_scrape_error 1"
rm "$work/textfile/broken.prom"

stop_exporter

# 6. packaging/prometheus/dlenv-rules.yml: promtool checks it, then its unit tests with the
#    series dlenv wrote above (an instance label added, as Prometheus adds it): the failing
#    node alerts after 10 minutes, a timestamp 15 minutes old alerts, the GPU at 85 % of
#    its peak does not, one at 50 % does.
rules="$here/../packaging/prometheus/dlenv-rules.yml"
promtool check rules "$rules" > "$work/promtool" 2>&1 || fail "promtool check rules: $(cat "$work/promtool")"
on() { # on INSTANCE: the series (no value) of stdin with instance="INSTANCE"
    sed 's/ [^ ]*$//' | sed -e "s/{}/{instance=\"$1\"}/;t" -e "s/{/{instance=\"$1\",/"
}
status=$(series "$work/failing.prom" dlenv_status | on gpu07)
ran=$(series "$work/failing.prom" dlenv_last_run_timestamp_seconds | on gpu07)
fp32=$(series "$work/healthy.prom" dlenv_verify_peak_ratio | grep 'figure="fp32_tflops"')
cat > "$work/rules-test.yml" <<YML
rule_files: ["$rules"]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - {series: '$status', values: '1x30'}
      - {series: '$ran', values: '0x30'}
      - {series: '$(printf '%s\n' "$fp32" | on gpu07)', values: '${fp32##* }x30'}
      - {series: '$(printf '%s\n' "$fp32" | on gpu08)', values: '0.5x30'}
    alert_rule_test:
      - {eval_time: 5m, alertname: DlenvNodeFailing, exp_alerts: []}
      - eval_time: 15m
        alertname: DlenvNodeFailing
        exp_alerts:
          - exp_labels: {severity: critical, instance: gpu07, status: failure,
                         root_cause: driver_too_old, layer: driver}
            exp_annotations:
              summary: "gpu07 cannot run PyTorch: driver_too_old (driver layer)"
              description: "dlenv doctor on the node explains it and gives the fix."
      - {eval_time: 10m, alertname: DlenvCheckStale, exp_alerts: []}
      - eval_time: 20m
        alertname: DlenvCheckStale
        exp_alerts:
          - exp_labels: {severity: warning, instance: gpu07}
            exp_annotations:
              summary: "dlenv fleet check has not run on gpu07 for 15 minutes"
      - eval_time: 1m
        alertname: DlenvGpuBelowPeak
        exp_alerts:
          - exp_labels: {severity: warning, instance: gpu08, group: gpu0, figure: fp32_tflops}
            exp_annotations:
              summary: "gpu08 gpu0: fp32 at 50% of peak"
YML
promtool test rules "$work/rules-test.yml" > "$work/promtool" 2>&1 ||
    fail "promtool test rules: $(head -n 30 "$work/promtool")"
finish
