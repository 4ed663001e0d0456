# dlenv snapshot and dlenv diff through the real binary: a snapshot of this machine read
# back and compared with itself and with the machine now; the fixture pairs of tests/diff
# (a driver update, a CPU build replacing a CUDA one, a new library on the path, the same
# machine later) and the headlines they must give; broken, older and newer files; files
# written whole or not at all; --lock against a real venv; --redact on a venv in a home.
set -eu
. "$(dirname "$0")/lib.inc"
fixtures=$(cd "$(dirname "$0")/../diff" && pwd)
case "$dlenv" in /*) ;; *) dlenv=$(pwd)/$dlenv ;; esac # step 2 runs it from elsewhere
case "$match" in /*) ;; *) match=$(pwd)/$match ;; esac

# 1. A snapshot of this machine, read back: equal to itself and to the machine now.
run snapshot --no-runtime -o "$work/a.json"
expect_eq "snapshot exit" 0 "$rc"
expect_eq "snapshot says where" "Snapshot written to $work/a.json" "$out"
expect_eq "schema" dlenv.snapshot/1 "$("$match" --get "$work/a.json" schema)"
expect_eq "facts schema" dlenv.report/1 "$("$match" --get "$work/a.json" facts.schema)"
expect_eq "host" "$(uname -n)" "$("$match" --get "$work/a.json" host)"
case "$("$match" --get "$work/a.json" taken_at)" in
    [0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z) ;;
    *) fail "taken_at is not ISO 8601 UTC: $("$match" --get "$work/a.json" taken_at)" ;;
esac
"$match" --get "$work/a.json" findings > /dev/null || fail "no findings in the snapshot"
ls "$work" | grep -q '\.tmp-' && fail "a temporary file was left behind: $(ls "$work")"
run diff "$work/a.json" "$work/a.json"
expect_eq "a snapshot against itself" 0 "$rc"
expect_eq "no changes" "No changes." "$(printf '%s\n' "$out" | tail -n 1)"
run diff "$work/a.json" - --no-runtime --json
expect_eq "the snapshot against this machine now" 0 "$rc"
[ "$rc" -eq 0 ] || printf '%s\n' "$out" | head -n 40
expect_eq "equal" true "$(get equal)"
expect_eq "B is this machine" - "$(get b.source)"
# the same machine as a plain report reads too, its findings from the rules
"$dlenv" report --json --no-runtime > "$work/report.json"
run diff "$work/report.json" "$work/a.json"
expect_eq "a report against a snapshot" 0 "$rc"

# 2. Without -o: a file named after the host and the time, here.
mkdir "$work/default"
(cd "$work/default" && run snapshot --no-runtime && echo "$rc" > "$work/default.rc" &&
    printf '%s\n' "$out" > "$work/default.out")
expect_eq "default name: exit" 0 "$(cat "$work/default.rc")"
name=$(ls "$work/default")
case "$name" in dlenv-snapshot-*-[0-9]*-[0-9]*.json) ;; *) fail "default name: $name" ;; esac
expect_eq "default name announced" "Snapshot written to $name" "$(cat "$work/default.out")"

# 3. Written whole or not at all: an existing file is replaced; a target that cannot be
# written leaves nothing (not even the temporary file) and exits 3 with one line.
printf 'old\n' > "$work/b.json"
run snapshot --no-runtime -o "$work/b.json"
expect_eq "replace: exit" 0 "$rc"
expect_eq "replaced" dlenv.snapshot/1 "$("$match" --get "$work/b.json" schema)"
mkdir "$work/dir.json"
run snapshot --no-runtime -o "$work/dir.json"
expect_eq "onto a directory: exit" 3 "$rc"
expect_eq "onto a directory: one line" 1 "$(printf '%s\n' "$err" | wc -l)"
case "$err" in "dlenv: cannot replace $work/dir.json: "*) ;; *) fail "onto a directory: $err" ;; esac
run snapshot --no-runtime -o "$work/no/such/dir/c.json"
expect_eq "missing directory: exit" 3 "$rc"
case "$err" in "dlenv: cannot write $work/no/such/dir/c.json: "*) ;; *) fail "missing dir: $err" ;; esac
ls "$work" | grep -q '\.tmp-' && fail "a temporary file was left behind: $(ls "$work")"
run snapshot --no-runtime -o -
expect_eq "to stdout: exit" 0 "$rc"
case "$out" in '{'*'"schema":'*'"dlenv.snapshot/1"'*) ;; *) fail "to stdout: $(printf '%s' "$out" | head -c 200)" ;; esac

# 4. The fixture pairs: each expect line checked against the text (--ascii; "line" is a
# whole line without its indentation) or the JSON form.
for dir in "$fixtures"/*/; do
    name=$(basename "$dir")
    set +e
    "$dlenv" diff "$dir/before.json" "$dir/after.json" --ascii --no-color > "$work/text" 2>&1
    text_rc=$?
    "$dlenv" diff "$dir/before.json" "$dir/after.json" --json > "$work/out" 2>&1
    json_rc=$?
    set -e
    while read -r verb rest; do
        case "$verb" in
        ''|'#'*) ;;
        exit)
            expect_eq "$name: exit (text)" "$rest" "$text_rc"
            expect_eq "$name: exit (json)" "$rest" "$json_rc" ;;
        json)
            expect_eq "$name: ${rest%% *}" "${rest#* }" "$(get "${rest%% *}" 2>/dev/null || echo absent)" ;;
        line)
            sed "s/^ *//" "$work/text" | grep -qxF -- "$rest" || fail "$name: no line '$rest' in: $(cat "$work/text")" ;;
        nogroup)
            i=0
            while group=$(get "facts.$i.group" 2>/dev/null); do
                [ "$group" = "$rest" ] && fail "$name: a change in group $rest: $(get "facts.$i.path")"
                i=$((i + 1))
            done ;;
        *) fail "$name: unknown expectation '$verb'" ;;
        esac
    done < "$dir/expect"
done
# the ASCII text puts the line format to the test too: "  ~ Label: old -> new"
"$dlenv" diff "$fixtures/driver-update/before.json" "$fixtures/driver-update/after.json" \
    --ascii --no-color > "$work/text" || true
first_group=$(sed -n '/^[A-Z]/p' "$work/text" | sed -n 4p)
expect_eq "driver changes come first" Driver "$first_group"

# 5. Files that cannot be used: exit 4, one line naming the file, nothing on stdout.
bad() { # bad FILE MESSAGE
    run diff "$1" "$fixtures/same-machine/after.json"
    expect_eq "$(basename "$1"): exit" 4 "$rc"
    expect_eq "$(basename "$1"): stdout" "" "$out"
    expect_eq "$(basename "$1"): the one line" "dlenv: $1: $2" "$err"
}
bad "$fixtures/corrupt.json" "not valid JSON (line 113, column 6): a string is not closed"
bad "$fixtures/future.json" \
    '$.schema: "dlenv.snapshot/2" is newer than this dlenv reads (dlenv.snapshot/1): update dlenv'
bad "$fixtures/wrong-type.json" '$.facts.nvml.cuda_driver_version: expected an integer'
bad "$fixtures/not-a-snapshot.json" 'not a dlenv snapshot (no "schema": "dlenv.snapshot/N")'
bad "$work/missing.json" "cannot open: No such file or directory"
: > "$work/empty.json"
bad "$work/empty.json" "empty, not JSON"
# an older snapshot (major version 0, no host, no findings, fewer keys) still reads
run diff "$fixtures/old-schema.json" "$fixtures/driver-update/after.json" --json
expect_eq "old schema: exit" 1 "$rc"
expect_eq "old schema: headline" driver "$(get headline.group)"
expect_eq "old schema: as written" dlenv.snapshot/0 "$(get a.schema)"

# 6. Usage.
run diff "$work/a.json"
expect_eq "diff with one file" 2 "$rc"
run diff "$work/a.json" "$work/a.json" "$work/a.json"
expect_eq "diff with three files" 2 "$rc"
run snapshot --json
expect_eq "snapshot --json" 2 "$rc"

# 7. --lock against a real venv whose torch stack is a CUDA build (the dist-info as pip
# writes it) and a package that only PyPI serves.
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -m venv --without-pip "$work/venv" >/dev/null 2>&1; then
    site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    for pkg in torch:2.3.1+cu121 torchvision:0.18.1+cu121 nvidia_cudnn_cu12:8.9.2.26; do
        n=${pkg%%:*} v=${pkg#*:}
        mkdir -p "$site/$n-$v.dist-info"
        printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$(echo "$n" | tr _ -)" "$v" \
            > "$site/$n-$v.dist-info/METADATA"
        printf 'pip\n' > "$site/$n-$v.dist-info/INSTALLER"
    done
    run snapshot --lock --python "$work/venv/bin/python"
    expect_eq "lock: exit" 0 "$rc"
    printf '%s\n' "$out" | grep -qxF "$work/venv/bin/python -m pip install torch==2.3.1+cu121 torchvision==0.18.1+cu121 --index-url https://download.pytorch.org/whl/cu121" \
        || fail "lock: no torch line: $out"
    printf '%s\n' "$out" | grep -qxF "$work/venv/bin/python -m pip install nvidia-cudnn-cu12==8.9.2.26" \
        || fail "lock: no PyPI line: $out"
    # a mirror's password stays out of the lock, a file to keep and share
    run snapshot --lock --python "$work/venv/bin/python" --index-mirror "https://ci:s3cret@mirror.example/whl/"
    printf '%s\n' "$out" | grep -qF -- "--index-url https://mirror.example/whl/cu121" \
        || fail "lock with a mirror: $out"
    case "$out" in *s3cret*) fail "lock keeps the mirror's password: $out" ;; esac
    run snapshot --lock --python "$work/venv/bin/python" -o "$work/torch.lock"
    expect_eq "lock -o: exit" 0 "$rc"
    grep -q "^$work/venv/bin/python -m pip install torch==2.3.1+cu121" "$work/torch.lock" \
        || fail "lock -o: $(cat "$work/torch.lock")"
    # pip itself reads every requirement of the lock (no index: it stops at finding none)
    if "$py" -m pip --version >/dev/null 2>&1; then
        grep -v '^#' "$work/torch.lock" | sed 's/.* install //; s/ --index-url.*//' | tr ' ' '\n' \
            > "$work/requirements.txt"
        "$py" -m pip install --dry-run --no-index --break-system-packages -r "$work/requirements.txt" \
            > "$work/pip.log" 2>&1 || true
        grep -qi "invalid requirement" "$work/pip.log" && fail "pip: $(cat "$work/pip.log")"
        grep -q "No matching distribution found for" "$work/pip.log" \
            || echo "note: pip did not get as far as looking: $(tail -n 2 "$work/pip.log")"
    fi
else
    echo "note: python3 -m venv is not available; --lock venv check skipped"
fi
# Debian's python3-torch has no INSTALLER record: named for the system's package manager
if [ -x "$py" ] && "$py" -c "import torch" 2>/dev/null; then
    run snapshot --lock --python "$py"
    expect_eq "lock of a distribution's torch: exit" 0 "$rc"
    case "$out" in *"package manager:"*"torch "*) ;; *) fail "distribution torch: $out" ;; esac
    case "$out" in *"pip install"*"torch=="*) fail "a distribution's torch pinned for pip: $out" ;; esac
fi


# --redact: a venv in the user's home, as a snapshot shared in a bug report. The home, the
# user's name in a path and the host go; the document keeps its keys and reads back.
home="$work/home/root"
mkdir -p "$home"
if /usr/bin/python3 -m venv --without-pip "$home/.venv" 2>/dev/null; then
    HOME=$home USER=root run snapshot --no-runtime --redact --python "$home/.venv/bin/python" \
        -o "$work/redacted.json"
    expect_eq "redacted snapshot: exit" 0 "$rc"
    grep -q "$home" "$work/redacted.json" && fail "the home is in the redacted snapshot"
    grep -q '"~/.venv/bin/python"' "$work/redacted.json" ||
        fail "the venv is not named from ~: $(grep -o '"[^"]*\.venv/bin/python"' "$work/redacted.json" | head -n 3)"
    "$match" --get "$work/redacted.json" root_cause > /dev/null 2>&1 ||
        "$match" --get "$work/redacted.json" verdict > /dev/null || fail "keys changed by --redact"
    expect_eq "host" "<host>" "$("$match" --get "$work/redacted.json" host)"
    run diff "$work/redacted.json" "$work/redacted.json"
    expect_eq "a redacted snapshot reads back" 0 "$rc"
    HOME=$home USER=root run snapshot --no-runtime --python "$home/.venv/bin/python" -o "$work/plain.json"
    grep -q "$home/.venv" "$work/plain.json" || fail "without --redact the venv's path is missing"
else
    echo "note: python3 -m venv is not available; --redact check skipped"
fi

finish
