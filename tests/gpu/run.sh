#!/bin/sh
# run.sh DLENV JSON_MATCH FAKES_DIR SCENARIO_DIR: runs `dlenv report --json` on this machine
# with the fake driver libraries first on the loader path, answering as SCENARIO_DIR/scenario
# says, and compares the sections SCENARIO_DIR/expected.json names (json_match --partial).
#   scenario       the fakes' answers (see tests/fakes/fake_scenario.h)
#   expected.json  {"nvml": ..., "cuda_driver": ..., "probe_status": {"nvml": "ok", ...}}
#   nvml           optional: "old" to load the NVML fake without the newer functions
#   args           optional: extra dlenv arguments (e.g. --probe-timeout 1)
#   doctor         optional: the root cause `dlenv doctor` must name on this machine then
#                  ("any": not checked), then "fires ID" / "quiet ID" lines: a finding ID
#                  with evidence from NVML (nvml.*) must be there / must not (this machine's
#                  own CPU settings do not count)
#   runtime        optional: present when the scenario needs `import torch` (the runtime
#                  probe); without it dlenv runs with --no-runtime, since the compared
#                  sections are the driver's and the import costs seconds per scenario
# DLENV_UPDATE=1 writes the current sections to expected.json instead (review by hand).
set -eu
dlenv=$1 match=$2 fakes=$3 dir=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

nvml_dir="$fakes/nvml"
[ "$(cat "$dir/nvml" 2>/dev/null)" = old ] && nvml_dir="$fakes/nvml-old"
args=$(cat "$dir/args" 2>/dev/null || true)
[ -f "$dir/runtime" ] || args="--no-runtime $args"

# shellcheck disable=SC2086
LD_LIBRARY_PATH="$nvml_dir:$fakes/cuda" DLENV_FAKE_SCENARIO="$dir/scenario" \
    "$dlenv" report --json $args > "$work/raw.json"
# The fakes' own paths depend on the build directory: name them FAKES.
fakes_real=$(cd "$fakes" && pwd -P)
sed -e "s|$fakes_real|FAKES|g" -e "s|$fakes|FAKES|g" "$work/raw.json" > "$work/actual.json"
"$match" --complete "$work/actual.json"

if [ -f "$dir/doctor" ]; then
    # shellcheck disable=SC2086
    LD_LIBRARY_PATH="$nvml_dir:$fakes/cuda" DLENV_FAKE_SCENARIO="$dir/scenario" \
        "$dlenv" doctor --json $args > "$work/doctor.json" || true
    want=$(head -n 1 "$dir/doctor")
    got=$("$match" --get "$work/doctor.json" root_cause)
    if [ "$want" != any ] && [ "$want" != "$got" ]; then
        echo "doctor: root cause $got, expected $want"
        exit 1
    fi
    nvml_ids= i=0
    while id=$("$match" --get "$work/doctor.json" "findings.$i.id" 2>/dev/null); do
        case $("$match" --get "$work/doctor.json" "findings.$i.evidence") in
        *'"nvml.'*) nvml_ids="$nvml_ids $id" ;;
        esac
        i=$((i + 1))
    done
    tail -n +2 "$dir/doctor" | while read -r verb id; do
        case " $nvml_ids " in *" $id "*) found=yes ;; *) found=no ;; esac
        if { [ "$verb" = fires ] && [ $found = no ]; } || { [ "$verb" = quiet ] && [ $found = yes ]; }; then
            echo "doctor: $id should $( [ "$verb" = fires ] && echo fire || echo stay quiet) (NVML findings:$nvml_ids)"
            exit 1
        fi
    done
fi

if [ "${DLENV_UPDATE:-}" = 1 ]; then
    {
        printf '{\n"nvml": '
        "$match" --get "$work/actual.json" nvml
        printf ',\n"cuda_driver": '
        "$match" --get "$work/actual.json" cuda_driver
        i=0 nvml_status=? cuda_status=?
        while name=$("$match" --get "$work/actual.json" "tool.probes.$i.name"); do
            status=$("$match" --get "$work/actual.json" "tool.probes.$i.status")
            [ "$name" = nvml ] && nvml_status=$status
            [ "$name" = cuda_driver ] && cuda_status=$status
            i=$((i + 1))
        done
        printf ',\n"probe_status": {"nvml": "%s", "cuda_driver": "%s"}\n}\n' \
            "$nvml_status" "$cuda_status"
    } > "$work/new.json"
    python3 -m json.tool "$work/new.json" > "$dir/expected.json" 2>/dev/null ||
        cp "$work/new.json" "$dir/expected.json"
    echo "updated $dir/expected.json"
    exit 0
fi
"$match" --partial "$dir/expected.json" "$work/actual.json"
