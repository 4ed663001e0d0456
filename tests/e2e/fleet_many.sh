# dlenv fleet report judges each of many nodes as `dlenv doctor --from` judges it alone.
# The fold shares work between nodes (several threads; per thread, a memo of what the
# tables answer for an OS, architecture and Python: rules/rule_memo.h), so 240 nodes of
# six kinds come in a mixed order, each kind next to the others on both threads: Python
# 3.16 without torch on x86_64, on arm64 and on Windows (the same failure, titled with
# each platform), 3.16 with torch (the same memo key, other facts: not failing), 3.8
# (another key) and the healthy base. Every node's state and root cause (id and title)
# must be its own kind's, as doctor says it.
set -eu
. "$(dirname "$0")/lib.inc"

here=$(cd "$(dirname "$0")/.." && pwd)
[ -x /usr/bin/python3 ] || skip_or_fail "no /usr/bin/python3"
kinds=$work/kinds
mkdir -p "$kinds" "$work/reports"

no_torch='pythons.0.version = "3.16.0"
pythons.0.site_packages.0.packages = []
pythons.0.site_packages.0.torches = []
pythons.0.runtime = {"status": "import_failed", "error": "No module named torch"}'
# kind NAME PATCH-LINES: a saved report, base.json changed as the lines say
kind() {
    printf '%s\n' "$2" > "$work/$1.patch"
    /usr/bin/python3 "$here/doctor/apply_patch.py" "$here/doctor/base.json" "$work/$1.patch" \
        "$kinds/$1.json"
}
kind base ''
kind py316 "$no_torch"
kind py316_arm "$no_torch
os.arch = \"aarch64\""
kind py316_win "base windows.json
$no_torch
pythons.0.site_packages.1.packages = []
pythons.0.site_packages.1.torches = []"
kind py316_torch 'pythons.0.version = "3.16.0"'
kind py38 'pythons.0.version = "3.8.10"'

# what doctor says of each kind alone: verdict, root cause id and title
for k in base py316 py316_arm py316_win py316_torch py38; do
    run doctor --from "$kinds/$k.json" --json
    cp "$work/out" "$kinds/$k.doctor"
done

/usr/bin/python3 - "$kinds" "$work/reports" <<'EOF'
import os, shutil, sys
kinds, reports = sys.argv[1:3]
names = ["base", "py316", "py316_arm", "py316_win", "py316_torch", "py38"]
for i in range(240):
    k = names[(i * 7 + i // 13) % len(names)]
    shutil.copy(os.path.join(kinds, k + ".json"), os.path.join(reports, "n%03d-%s.json" % (i, k)))
EOF

run fleet report --format json --from "$work/reports"
expect_eq "fold: exit code (failing nodes)" 1 "$rc"
expect_eq "fold: nodes" 240 "$(get nodes)"

/usr/bin/python3 - "$kinds" "$work/out" > "$work/judged" <<'EOF'
import json, sys
kinds, fold = sys.argv[1:3]
names = ["base", "py316", "py316_arm", "py316_win", "py316_torch", "py38"]
doc = json.load(open(fold))
state = {h: ("ok", None, None) for g in doc["groups"] for h in g["hosts"]}
for a in doc["attention"]:
    root = a["root_cause"] or {}
    state[a["host"]] = (a["state"], root.get("id"), root.get("title"))
expected = {}
for k in names:
    d = json.load(open("%s/%s.doctor" % (kinds, k)))
    if d["verdict"] == "failure":
        title = [x["title"] for x in d["findings"]
                 if x["id"] == d["root_cause"] and not x["consequence"]][0]
        expected[k] = ("failing", d["root_cause"], title)
    else:
        expected[k] = ("cannot_judge" if d["verdict"] == "cannot_judge" else "ok", None, None)
    print("kind %s: %s" % (k, " | ".join(str(v) for v in expected[k])))
bad = [h for h in sorted(state) if state[h] != expected[h.split("-", 1)[1]]]
bad += ["missing " + h for h in ("n%03d" % i for i in range(240))
        if not any(s.startswith(h + "-") for s in state)]
print("mismatches: %d %s" % (len(bad), " ".join(bad[:5])))
EOF
judged() { sed -n "s/^$1: //p" "$work/judged"; }
expect_eq "every node judged as doctor judges it alone" "0 " "$(judged mismatches)"
# the kinds differ just where a memo could mix them up
title="failing | python_unsupported | No torch release has a wheel for Python 3.16 on"
expect_eq "py316" "$title linux-x86_64" "$(judged "kind py316")"
expect_eq "py316 on arm64: its platform" "$title linux-arm64" "$(judged "kind py316_arm")"
expect_eq "py316 on Windows: its platform" "$title windows-x86_64" "$(judged "kind py316_win")"
expect_eq "py316 with torch installed (the same key, other facts): not failing" \
    "ok | None | None" "$(judged "kind py316_torch")"
finish
