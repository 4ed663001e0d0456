# dlenv fleet report through the real binary: a fake launcher that prints pdsh-style
# "host: " lines for five hosts (one healthy, one on an older driver, one failing, one
# from a newer dlenv with keys this one does not know, one that prints garbage) and a
# sixth that hangs past --timeout; --from a folder of saved reports; srun --label and
# plain concatenated output; each format; the exit codes.
set -eu
. "$(dirname "$0")/lib.inc"

here=$(cd "$(dirname "$0")/.." && pwd)
[ -x /usr/bin/python3 ] || skip_or_fail "no /usr/bin/python3"
base=$here/doctor/base.json
reports=$work/reports
mkdir -p "$reports"

# report NAME PATCH-LINES: a saved report, base.json changed as the lines say
report() {
    printf '%s\n' "$2" > "$work/$1.patch"
    /usr/bin/python3 "$here/doctor/apply_patch.py" "$base" "$work/$1.patch" "$reports/$1.json"
}
report gpu01 ''
report gpu02 ''
report gpu03 'nvml.driver_version = "535.104.05"
nvidia_kernel.driver_version = "535.104.05"
nvml.cuda_driver_version = 12020
cuda_driver.driver_version = 12020'
report gpu04 'nvml.driver_version = "470.82.01"
nvml.cuda_driver_version = 11040
cuda_driver.driver_version = 11040
nvidia_kernel.driver_version = "470.82.01"'
report gpu05 'os.from_a_newer_dlenv = {"anything": [1, 2]}
nvml.gpus.0.new_counter = 7'
printf 'bash: dlenv: command not found\n' > "$work/gpu06.txt"

# The fake launcher: every report's lines prefixed with its host, as pdsh prints them;
# gpu07 never answers (the launcher waits for it).
cat > "$work/pdsh" <<EOS
#!/bin/sh
for h in gpu01 gpu02 gpu03 gpu04 gpu05; do
    { cat "$reports/\$h.json"; echo; } | sed "s/^/\$h: /"
done
sed 's/^/gpu06: /' "$work/gpu06.txt"
[ "\${1:-}" = hang ] && sleep 30
exit 0
EOS
chmod +x "$work/pdsh"

# --- usage ------------------------------------------------------------------------------
run fleet report
expect_eq "no launcher, no --from: exit code" 2 "$rc"
run fleet report --format prom --from "$reports"
expect_eq "report --format prom: exit code" 2 "$rc"
run fleet check --timeout 3
expect_eq "check --timeout: exit code" 2 "$rc"

# --- the launcher, json -----------------------------------------------------------------
run fleet report --format json --timeout 2 --hosts 'gpu[01-07]' -- "$work/pdsh" hang
expect_eq "launcher json: exit code (a failing node)" 1 "$rc"
expect_eq "launcher json: schema" dlenv.fleet_report/1 "$(get schema)"
expect_eq "launcher json: nodes" 7 "$(get nodes)"
expect_eq "launcher json: ok (gpu03 is an outlier, not failing)" 4 "$(get counts.ok)"
expect_eq "launcher json: failing" 1 "$(get counts.failing)"
expect_eq "launcher json: garbage" 1 "$(get counts.garbage)"
expect_eq "launcher json: no answer" 1 "$(get counts.no_answer)"
expect_eq "launcher json: reference driver" 550.54.14 "$(get reference.driver)"
expect_eq "launcher json: reference GPUs" "1 x NVIDIA GeForce RTX 4090" "$(get reference.gpus)"
expect_eq "launcher json: reference group (gpu05's unknown keys folded)" 3 "$(get groups.0.count)"
expect_eq "launcher json: reference hosts" '["gpu01","gpu02","gpu05"]' "$(get groups.0.hosts)"
expect_eq "launcher json: outlier" gpu03 "$(get attention.0.host)"
expect_eq "launcher json: outlier's difference" \
    "driver 535.104.05 vs 550.54.14; max_cuda 12.2 vs 12.4 on 3 nodes" "$(get attention.0.difference)"
expect_eq "launcher json: failing node" gpu04 "$(get attention.1.host)"
expect_eq "launcher json: its root cause" driver_too_old "$(get attention.1.root_cause.id)"
expect_eq "launcher json: garbage node" gpu06 "$(get attention.2.host)"
expect_eq "launcher json: garbage state" garbage "$(get attention.2.state)"
expect_eq "launcher json: silent node" gpu07 "$(get attention.3.host)"
expect_eq "launcher json: silent state" no_answer "$(get attention.3.state)"
case "$(get attention.3.why)" in *"--timeout 2 s"*) ;; *) fail "silent node's why: $(get attention.3.why)" ;; esac

# --- the launcher without --hosts: the kill itself is listed ----------------------------
run fleet report --format json --timeout 1 -- "$work/pdsh" hang
expect_eq "timeout without --hosts: launcher listed" "(launcher)" "$(get attention.3.host)"

# --- text and markdown ------------------------------------------------------------------
cp "$work/gpu06.txt" "$reports/gpu06.json"
run fleet report --from "$reports"
expect_eq "--from text: exit code" 1 "$rc"
case "$out" in *"6 nodes: 4 ok, 1 failing, 1 garbage output"*) ;; *) fail "text counts: $out" ;; esac
case "$out" in *"gpu03        driver 535.104.05 vs 550.54.14"*) ;; *) fail "text outlier: $out" ;; esac
case "$out" in *"gpu04        driver_too_old: "*) ;; *) fail "text failing: $out" ;; esac
run fleet report --from "$reports" --format markdown
case "$out" in *"### Garbage output (1)"*'`gpu06`: '*) ;; *) fail "markdown garbage: $out" ;; esac
case "$out" in *'**Reference** (3 of 5 reports)'*) ;; *) fail "markdown reference: $out" ;; esac

# --- exit codes: healthy, silent ------------------------------------------------------
run fleet report --from "$reports/gpu01.json" "$reports/gpu02.json"
expect_eq "two healthy files: exit code" 0 "$rc"
run fleet report --from "$reports/gpu01.json" "$reports/gpu06.json"
expect_eq "healthy + garbage: exit code" 7 "$rc"

# --- srun --label and plain concatenated output -------------------------------------------
cat > "$work/srun" <<EOS
#!/bin/sh
{ cat "$reports/gpu01.json"; echo; } | sed 's/^/0: /'
{ cat "$reports/gpu03.json"; echo; } | sed 's/^/1: /'
EOS
cat > "$work/plain" <<EOS
#!/bin/sh
cat "$reports/gpu01.json"; echo; cat "$reports/gpu01.json"; echo; echo 'Segmentation fault'; echo
EOS
chmod +x "$work/srun" "$work/plain"
run fleet report --format json -- "$work/srun"
expect_eq "srun --label: hosts" '["0"]' "$(get groups.0.hosts)"
expect_eq "srun --label: outlier" 1 "$(get attention.0.host)"
run fleet report --format json -- "$work/plain"
expect_eq "plain: exit code" 7 "$rc"
expect_eq "plain: two reports" 2 "$(get groups.0.count)"
expect_eq "plain: the crash message is garbage" garbage "$(get attention.0.state)"
expect_eq "plain: what it printed" \
    'not a report: "Segmentation fault"' "$(get attention.0.why)"

# --- a launcher that cuts long lines ---------------------------------------------------------
# srun --label cuts a line longer than its buffer into labelled pieces (a report's list of
# bundled libraries is one line of 2 KB): here every line is cut at 37 bytes (inside
# strings, escapes, numbers and literals) and a one-line report at 1000 bytes. Each host
# must read as the same report as uncut.
/usr/bin/python3 - "$reports/gpu01.json" "$work/long.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
libs = ["torch/lib/libcudnn_engines_precompiled.so.%d\\\"q" % i for i in range(60)]
doc["pythons"][0]["site_packages"][0]["torches"][0]["bundled_libraries"] = libs
open(sys.argv[2], "w").write(json.dumps(doc) + "\n")
PY
cat > "$work/srun-cut" <<EOS
#!/bin/sh
{ fold -b -w 37 "$reports/gpu01.json"; echo; } | sed 's/^/0: /'
{ fold -b -w 37 "$reports/gpu03.json"; echo; } | sed 's/^/1: /'
fold -b -w 1000 "$work/long.json" | sed 's/^/2: /'
EOS
chmod +x "$work/srun-cut"
long_line=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$work/long.json")
[ "$long_line" -gt 4000 ] || fail "the long report's line is only $long_line bytes"
run fleet report --format json -- "$work/srun-cut"
expect_eq "cut lines: exit code" 0 "$rc"
expect_eq "cut lines: nothing garbage" 0 "$(get counts.garbage)"
expect_eq "cut lines: hosts" '["0","2"]' "$(get groups.0.hosts)"
expect_eq "cut lines: outlier" 1 "$(get attention.0.host)"
expect_eq "cut lines: the outlier's driver" \
    "driver 535.104.05 vs 550.54.14" "$(get attention.0.difference | cut -c1-30)"

finish
