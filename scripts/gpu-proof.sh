#!/bin/sh
# The GPU proof kit: dlenv's GPU paths (NVML, the CUDA driver API, verify's PTX kernels,
# torch's GPU products, the doctor's GPU rules) checked on a real NVIDIA machine against
# what the machine itself says, in one short run.
#
#   scripts/gpu-proof.sh OUTDIR        on a Linux machine with an NVIDIA GPU
#   scripts/gpu-proof.sh --self-test   here, against the fake driver libraries
#   scripts/gpu-proof.sh --record OUTDIR [DOCSDIR]   keep a real run's summary as data in
#                                      docs/hardware-runs/YYYY-MM-DD-GPU.json
#
# The binary to copy to a GPU machine is the one `scripts/build-portable.sh KITDIR` makes:
# it needs only glibc (the ordinary build needs libcjson.so.1, which a lent machine does
# not have), and that script copies this kit beside it. On the GPU machine nothing is
# compiled or downloaded; python3 (standard library) does the comparing and, where the
# machine has a CUDA torch, the torch references. It finishes in under 5 minutes on a
# machine with one or two GPUs (DLENV_PROOF_QUICK=1 for more).
#
# OUTDIR gets at most these 8 files (docs/hardware-runs/README.md says what each means):
#   report.json        dlenv report --json
#   doctor.json        dlenv doctor --json
#   verify.json        dlenv verify --full --json (--quick when DLENV_PROOF_QUICK=1)
#   nvidia-smi.xml     nvidia-smi -q -x, taken just before the report
#   compare.txt        each GPU fact of the report against nvidia-smi: same / differs
#   references.json    verify's figures against the machine's torch and the datasheet
#   bad-settings.json  the doctor in known-bad settings against what the fakes taught us
#   summary.txt        "gpu-proof: N checks, M passed, K failed, on GPU driver V", then
#                      one line per check
# Exit code: 0 when no check failed, 1 when one did, 2 on a usage error.
#
# Environment: DLENV=path/to/dlenv (default: beside this script, then build/dlenv);
# DLENV_PROOF_QUICK=1; DLENV_PROOF_PYTHON=the interpreter with the machine's CUDA torch
# (default: the first of python3, python, /usr/bin/python3, conda's, the active venv's in
# which torch.cuda.is_available()). When one is found dlenv gets it as --python too, so
# verify times the same torch the references do.
set -u

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
kit=$here/gpu-proof
# The checkers import proofkit.py: no __pycache__ left in the kit (or the source tree).
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE
FILES="report.json doctor.json verify.json nvidia-smi.xml compare.txt references.json
bad-settings.json summary.txt"

usage() {
    sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//'
    exit "$1"
}

case "${1:-}" in
    --self-test) exec sh "$kit/self-test.sh" "$here/gpu-proof.sh" ;;
    --record)
        if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage 2 >&2; fi
        exec python3 "$kit/record.py" "$2" "${3:-$here/../docs/hardware-runs}" ;;
    -h | --help) usage 0 ;;
    "" | -*) usage 2 >&2 ;;
esac
[ $# -eq 1 ] || usage 2 >&2
out=$1

die() { printf 'gpu-proof: %s\n' "$*" >&2; exit 2; }

dlenv=${DLENV:-}
if [ -z "$dlenv" ]; then
    for c in "$here/dlenv" "$here/../build/dlenv"; do
        if [ -x "$c" ]; then dlenv=$c; break; fi
    done
fi
[ -x "$dlenv" ] ||
    die "no dlenv binary: set DLENV=/path/to/dlenv (scripts/build-portable.sh makes one)"

mkdir -p "$out" || die "cannot make $out"
for f in $FILES; do rm -f "$out/$f"; done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-gpu-proof.XXXXXX") || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
checks=$tmp/checks
: > "$checks"
started=$(date +%s)

# check VERDICT NAME DETAIL: one line for summary.txt (pass, fail or skip).
check() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$checks"; }

# limit SECONDS CMD...: CMD, killed after SECONDS where coreutils' timeout exists.
limit() {
    _s=$1
    shift
    if command -v timeout >/dev/null 2>&1; then timeout -k 5 "$_s" "$@"; else "$@"; fi
}

# oneline FILE: the first 300 characters of FILE on one line, for a check's detail.
oneline() { tr '\n\t' '  ' < "$1" 2>/dev/null | cut -c 1-300; }

# step NAME SECONDS OUTFILE OK_CODES CMD...: runs CMD (stdout into OUTFILE) and notes
# whether it answered: an expected exit code and some output.
step() {
    _name=$1 _secs=$2 _file=$3 _ok=$4
    shift 4
    _t0=$(date +%s)
    limit "$_secs" "$@" > "$_file" 2> "$tmp/$_name.err"
    _rc=$?
    _took=$(( $(date +%s) - _t0 ))
    case " $_ok " in
        *" $_rc "*)
            if [ -s "$_file" ]; then
                check pass "step $_name" "exit $_rc in ${_took} s"
            else
                check fail "step $_name" "exit $_rc but no output: $(oneline "$tmp/$_name.err")"
            fi ;;
        *)
            if [ "$_rc" = 124 ] || [ "$_rc" = 137 ]; then
                check fail "step $_name" "did not finish within $_secs s (timeout's exit $_rc)"
            else
                check fail "step $_name" "exit $_rc in ${_took} s: $(oneline "$tmp/$_name.err")"
            fi ;;
    esac
    return 0
}

level=--full
[ "${DLENV_PROOF_QUICK:-}" = 1 ] && level=--quick

# --- The interpreter with the machine's CUDA torch ----------------------------------
torch_py=${DLENV_PROOF_PYTHON:-}
if [ -z "$torch_py" ]; then
    for c in python3 python /usr/bin/python3 /opt/conda/bin/python \
             ${CONDA_PREFIX:+"$CONDA_PREFIX/bin/python"} ${VIRTUAL_ENV:+"$VIRTUAL_ENV/bin/python"}; do
        command -v "$c" >/dev/null 2>&1 || continue
        if limit 120 "$c" -c 'import sys, torch; sys.exit(not torch.cuda.is_available())' \
                >/dev/null 2>&1; then
            torch_py=$(command -v "$c")
            break
        fi
    done
fi
if [ -n "${DLENV_PROOF_PYTHON:-}" ]; then
    check pass "step find torch" "$torch_py, as DLENV_PROOF_PYTHON says; dlenv is given it as --python"
elif [ -n "$torch_py" ]; then
    check pass "step find torch" "$torch_py has a CUDA torch; dlenv is given it as --python"
else
    check skip "step find torch" "no python3 here has a torch that sees the GPU: the torch references are not measured"
fi

# --- The facts, with nvidia-smi just before and after ------------------------------
have_smi=0
command -v nvidia-smi >/dev/null 2>&1 && have_smi=1
if [ "$have_smi" = 1 ]; then
    step nvidia-smi 60 "$out/nvidia-smi.xml" 0 nvidia-smi -q -x
else
    check fail "step nvidia-smi" "nvidia-smi is not on PATH: nothing to compare dlenv's facts with"
fi
step report 120 "$out/report.json" 0 "$dlenv" report --json ${torch_py:+--python "$torch_py"}
if [ "$have_smi" = 1 ]; then
    limit 60 nvidia-smi -q -x > "$tmp/nvidia-smi-after.xml" 2>/dev/null
    limit 60 nvidia-smi --query-gpu=uuid,compute_cap --format=csv,noheader \
        > "$tmp/compute-cap.csv" 2>&1
fi

# --- The doctor, verify and the torch references -----------------------------------
step doctor 120 "$out/doctor.json" "0 1 5" "$dlenv" doctor --json ${torch_py:+--python "$torch_py"}
step verify 270 "$out/verify.json" "0 1 5" "$dlenv" verify "$level" --json \
    ${torch_py:+--python "$torch_py"}
if [ -n "$torch_py" ]; then
    step torch-reference 180 "$tmp/torch.json" 0 "$torch_py" "$kit/torch_reference.py"
else
    printf '{"error": "no python with a CUDA torch on this machine"}\n' > "$tmp/torch.json"
fi

# --- The doctor in known-bad settings ----------------------------------------------
bad=$tmp/bad
mkdir "$bad"
bad_args=
# bad_case NAME SETTING CMD...: the doctor as above, under CMD (env VAR=...) and with
# $bad_args (words) added.
bad_case() {
    _case=$1
    printf '%s\n' "$2" > "$bad/$_case.setting"
    shift 2
    # shellcheck disable=SC2086
    limit 120 "$@" "$dlenv" doctor --json $bad_args ${torch_py:+--python "$torch_py"} \
        > "$bad/$_case.json" 2> "$bad/$_case.err"
    echo $? > "$bad/$_case.rc"
}
bad_case cvd_empty 'CUDA_VISIBLE_DEVICES=""' env CUDA_VISIBLE_DEVICES=
bad_case cvd_too_many 'CUDA_VISIBLE_DEVICES=5' env CUDA_VISIBLE_DEVICES=5
bad_case cvd_bad_uuid 'CUDA_VISIBLE_DEVICES=GPU-00000000-0000-0000-0000-000000000000' \
    env CUDA_VISIBLE_DEVICES=GPU-00000000-0000-0000-0000-000000000000
stub=
for s in /usr/local/cuda*/lib64/stubs/libcuda.so /usr/local/cuda*/targets/*/lib/stubs/libcuda.so \
         /usr/local/cuda*/lib/stubs/libcuda.so; do
    if [ -f "$s" ]; then stub=$s; break; fi
done
if [ -n "$stub" ]; then
    mkdir "$tmp/stub"
    ln -s "$stub" "$tmp/stub/libcuda.so.1"
    bad_case stub_libcuda "libcuda.so.1 -> $stub first on LD_LIBRARY_PATH" \
        env LD_LIBRARY_PATH="$tmp/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
    printf 'the stub libcuda.so of a CUDA toolkit\n' > "$bad/stub_libcuda.setting"
    printf 'no /usr/local/cuda*/.../stubs/libcuda.so on this machine\n' > "$bad/stub_libcuda.skip"
fi
bad_args="--probe-timeout 0.5"
bad_case probe_timeout "$bad_args" env

# --- The checkers --------------------------------------------------------------------
py=$(command -v python3 || true)
# checker NAME ARGS...: one of the kit's Python checkers; its check lines go to the summary.
checker() {
    _c=$1
    shift
    if ! "$py" "$kit/$_c.py" "$@" >> "$checks" 2> "$tmp/$_c.err"; then
        check fail "checker $_c" "$(oneline "$tmp/$_c.err")"
    fi
}
if [ -n "$py" ]; then
    checker compare "$out/report.json" "$out/nvidia-smi.xml" "$tmp/nvidia-smi-after.xml" \
        "$tmp/compute-cap.csv" "$out/compare.txt"
    checker references "$out/verify.json" "$tmp/torch.json" "$out/references.json"
    checker bad_settings "$bad" "$out/bad-settings.json"
else
    check skip "checkers" "no python3 on this machine: compare.txt, references.json and bad-settings.json are not written; the raw outputs are kept"
    # The doctor's answers in the bad settings would be lost with the temporary directory:
    # their root causes go into the summary, unjudged (dlenv's own JSON layout, one key a line).
    for f in "$bad"/*.setting; do
        _case=$(basename "$f" .setting)
        [ -f "$bad/$_case.json" ] || continue
        _cause=$(sed -n 's/^[[:space:]]*"root_cause":[[:space:]]*\(.*\),$/\1/p' "$bad/$_case.json" | head -n 1)
        check skip "bad-settings $_case" "$(cat "$f"): exit $(cat "$bad/$_case.rc"), root cause ${_cause:-none} (not judged without python3)"
    done
fi

# --- summary.txt ---------------------------------------------------------------------
gpu="an unknown GPU" driver=unknown
if [ "$have_smi" = 1 ] &&
        limit 60 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
            > "$tmp/gpus.csv" 2>/dev/null && [ -s "$tmp/gpus.csv" ]; then
    n=$(wc -l < "$tmp/gpus.csv" | tr -d ' ')
    gpu=$(sed -n '1s/, [^,]*$//p' "$tmp/gpus.csv")
    driver=$(sed -n '1s/.*, //p' "$tmp/gpus.csv")
    [ "$n" -gt 1 ] && gpu="$n x $gpu"
fi
passed=$(grep -c '^pass' "$checks")
failed=$(grep -c '^fail' "$checks")
{
    printf 'gpu-proof: %s checks, %s passed, %s failed, on %s driver %s\n' \
        $((passed + failed)) "$passed" "$failed" "$gpu" "$driver"
    awk -F '\t' '{ printf "%s %s: %s\n", toupper($1), $2, $3 }' "$checks"
    printf '# %s (%s), verify %s, torch: %s, %s UTC, %s s\n' "$("$dlenv" --version)" "$dlenv" \
        "$level" "${torch_py:-none}" "$(date -u +%Y-%m-%dT%H:%M:%S)" $(( $(date +%s) - started ))
} > "$out/summary.txt"
head -n 1 "$out/summary.txt"
grep '^FAIL' "$out/summary.txt"
[ "$failed" = 0 ]
