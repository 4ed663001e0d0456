# dlenv fleet report through the real launchers of Debian 12: pdsh (its `exec` rcmd
# module) and clush (ClusterShell's `exec` worker) run a command locally once per host
# name, with %h the host, so six "nodes" run here: node.sh picks each one's fake driver by
# its name and runs the built dlenv `report --json` on it (node1, node2 healthy; node3 on
# a newer driver; node4 on a driver too old for the torch; node5 prints garbage; node6
# hangs). Checked: the fold names the outlier with its difference, the failing node with
# its root cause, the garbage with what it printed, and the hung node as not answering,
# whether the launcher's own per-node timeout (-u) or dlenv's --timeout ends the wait;
# and the hung command is not left running either way.
set -eu
. "$(dirname "$0")/lib.inc"

need_fakes
command -v pdsh >/dev/null 2>&1 || skip_or_fail "no pdsh (Debian package pdsh)"
command -v clush >/dev/null 2>&1 || skip_or_fail "no clush (Debian package clustershell)"
pdsh -L 2>&1 | grep -q '^Module: rcmd/exec' || skip_or_fail "pdsh has no exec rcmd module"
fake_torch_venv "$work/venv"

# node3: the healthy RTX 4090 on a newer R550 driver (same CUDA): an outlier, not failing.
sed 's/^nvml\.driver = .*/nvml.driver = 550.127.05/; s/^nvml\.nvml_version = .*/nvml.nvml_version = 12.550.127.05/' \
    "$here/gpu/healthy-1gpu/scenario" > "$work/newer.scenario"
cat > "$work/node.sh" <<EOS
#!/bin/sh
# One node of the fake cluster: \$1 is the host name the launcher substituted for %h.
case "\$1" in
node1|node2) scenario=$here/gpu/healthy-1gpu/scenario nvml=nvml ;;
node3) scenario=$work/newer.scenario nvml=nvml ;;
node4) scenario=$here/gpu/old-driver/scenario nvml=nvml-old ;;
node5) echo "dlenv: error while loading shared libraries: libcjson.so.1"; exit 127 ;;
node6) echo \$\$ > "$work/hung.\$\$"; exec sleep 300 ;;
*) echo "node.sh: unknown host \$1" >&2; exit 2 ;;
esac
exec env -i PATH="$work/venv/bin:/usr/bin:/bin" LC_ALL=C.UTF-8 \\
    LD_LIBRARY_PATH="$fakes/\$nvml:$fakes/cuda" DLENV_FAKE_SCENARIO="\$scenario" \\
    "$dlenv" report --json --no-runtime --python "$work/venv/bin/python"
EOS
# Whatever a failed check leaves hanging is stopped by its pid.
trap 'for f in "$work"/hung.*; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done; rm -rf "$work"' EXIT INT TERM

# entry HOST KEY: a member of HOST's entry in the fold's "attention" ("" when none)
entry() {
    /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = next((a for a in d["attention"] if a["host"] == sys.argv[2]), None)
for k in sys.argv[3].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("" if v is None else v)' "$work/out" "$1" "$2"
}

# hung_left WHAT: fails when node6's command is still running after the fold
hung_left() {
    for f in "$work"/hung.*; do
        [ -f "$f" ] || { fail "$1: node6 never started"; continue; }
        if kill -0 "$(cat "$f")" 2>/dev/null; then
            fail "$1: node6's hung command is left running"
            kill "$(cat "$f")" 2>/dev/null || true
        fi
        rm -f "$f"
    done
}

# check_fold WHAT WHY: the JSON fold of the six nodes; WHY: how node6's entry says it ended
check_fold() {
    expect_eq "$1: exit code (a failing node)" 1 "$rc"
    expect_eq "$1: nodes" 6 "$(get nodes)"
    expect_eq "$1: ok (node3 is an outlier, not failing)" 3 "$(get counts.ok)"
    expect_eq "$1: failing" 1 "$(get counts.failing)"
    expect_eq "$1: garbage" 1 "$(get counts.garbage)"
    expect_eq "$1: no answer" 1 "$(get counts.no_answer)"
    expect_eq "$1: reference driver" 550.54.14 "$(get reference.driver)"
    expect_eq "$1: reference torch" 2.5.1+cu124 "$(get reference.torch)"
    expect_eq "$1: reference group" 2 "$(get groups.0.count)"
    expect_eq "$1: nodes needing attention" \
        "node3 node4 node5 node6" "$(/usr/bin/python3 -c 'import json, sys
print(" ".join(sorted(a["host"] for a in json.load(open(sys.argv[1]))["attention"])))' "$work/out")"
    expect_eq "$1: node3 state" ok "$(entry node3 state)"
    expect_eq "$1: node3 difference" "driver 550.127.05 vs 550.54.14 on 2 nodes" "$(entry node3 difference)"
    expect_eq "$1: node4 state" failing "$(entry node4 state)"
    expect_eq "$1: node4 root cause" driver_too_old "$(entry node4 root_cause.id)"
    expect_eq "$1: node4 difference" "driver 418.87.01 vs 550.54.14; max_cuda 10.1 vs 12.4 on 2 nodes" \
        "$(entry node4 difference)"
    expect_eq "$1: node5 state" garbage "$(entry node5 state)"
    expect_eq "$1: node5 what it printed" \
        'not a report: "dlenv: error while loading shared libraries: libcjson.so.1"' "$(entry node5 why)"
    expect_eq "$1: node6 state" no_answer "$(entry node6 state)"
    case "$(entry node6 why)" in *"$2"*) ;; *) fail "$1: node6's why: $(entry node6 why)" ;; esac
    hung_left "$1"
}

# --- pdsh: its -u ends node6's command; its "host: " lines folded ------------------------
run fleet report --format json --timeout 60 --hosts 'node[1-6]' -- \
    pdsh -R exec -u 6 -w 'node[1-6]' sh "$work/node.sh" %h
check_fold "pdsh -u" "the launcher ended without a report from it"

# --- clush: the same through ClusterShell's exec worker (one command line, %h in it) ------
run fleet report --format json --timeout 60 --hosts 'node[1-6]' -- \
    clush -R exec -u 6 -w 'node[1-6]' "sh '$work/node.sh' %h"
check_fold "clush -u" "the launcher ended without a report from it"

# --- pdsh without -u: dlenv's --timeout kills it, and node6's command, which pdsh's exec
# module put in a session of its own; what pdsh printed before is folded, as text -------
run fleet report --timeout 3 --hosts 'node[1-6]' -- pdsh -R exec -w 'node[1-6]' sh "$work/node.sh" %h
expect_eq "pdsh killed at --timeout: exit code" 1 "$rc"
case "$out" in *"6 nodes: 3 ok, 1 failing, 1 garbage output, 1 no answer"*) ;; *) fail "text counts: $out" ;; esac
case "$out" in *"node3        driver 550.127.05 vs 550.54.14 on 2 nodes"*) ;; *) fail "text outlier: $out" ;; esac
case "$out" in *"node4        driver_too_old: "*) ;; *) fail "text failing: $out" ;; esac
case "$out" in *"node5        not a report: "*) ;; *) fail "text garbage: $out" ;; esac
case "$out" in *"node6        no answer: the launcher was killed at --timeout 3 s"*) ;;
*) fail "text no answer: $out" ;; esac
hung_left "pdsh killed at --timeout"

finish
