# A password in a URL reaches no output: a package's direct_url.json (PEP 610) with
# https://user:PASSWORD@host/..., read by report, doctor, snapshot and snapshot --lock
# (with --redact and without), a saved report an older dlenv wrote with it, and a pasted
# log for explain. The host and path stay: only the userinfo goes.
set -eu
. "$(dirname "$0")/lib.inc"

py=/usr/bin/python3
if ! [ -x "$py" ] || ! "$py" -m venv --without-pip "$work/venv" >/dev/null 2>&1; then
    echo "SKIP: python3 -m venv is not available"
    exit 77
fi
secret="s3cr3t-Pa55"
url="https://alice:$secret@pypi.example.com/simple/torchvision-0.18.1-cp311-linux_x86_64.whl"
clean="https://pypi.example.com/simple/torchvision-0.18.1-cp311-linux_x86_64.whl"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
for pkg in torch:2.3.1+cu121 torchvision:0.18.1; do
    n=${pkg%%:*} v=${pkg#*:}
    mkdir -p "$site/$n-$v.dist-info"
    printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$n" "$v" \
        > "$site/$n-$v.dist-info/METADATA"
    printf 'pip\n' > "$site/$n-$v.dist-info/INSTALLER"
done
printf '{"url": "%s", "archive_info": {}}\n' "$url" \
    > "$site/torchvision-0.18.1.dist-info/direct_url.json"
vpy="$work/venv/bin/python"

no_secret() { # no_secret WHAT: $out and $err hold no password
    case "$out$err" in *"$secret"*) fail "$1: the password is in the output" ;; esac
}

# The fact is read (so the checks below are not vacuous) without its userinfo.
run report --json --python "$vpy" --no-runtime
expect_eq "report: exit" 0 "$rc"
no_secret "report --json"
case "$out" in *"$clean"*) ;; *) fail "report --json: the URL without its userinfo is not there" ;; esac
printf '%s\n' "$out" > "$work/new.json"
run report --python "$vpy" --no-runtime
no_secret "report"
run report --python "$vpy" --no-runtime --redact --json
no_secret "report --redact"
run doctor --python "$vpy" --no-runtime --json
no_secret "doctor --json"
run doctor --python "$vpy" --no-runtime --markdown --redact
no_secret "doctor --markdown --redact"
run doctor --python "$vpy" --no-runtime -v
no_secret "doctor -v"
run snapshot --python "$vpy" --no-runtime -o -
expect_eq "snapshot: exit" 0 "$rc"
no_secret "snapshot"
run snapshot --python "$vpy" --no-runtime --redact -o -
no_secret "snapshot --redact"
run snapshot --lock --python "$vpy"
expect_eq "lock: exit" 0 "$rc"
no_secret "snapshot --lock"
case "$out" in *"torchvision 0.18.1 was installed from $clean"*) ;;
    *) fail "lock: the URL without its userinfo is not there: $out" ;; esac

# A report an older dlenv wrote, password and all: read back, it is gone.
sed "s|$clean|$url|" "$work/new.json" > "$work/old.json"
grep -q "$secret" "$work/old.json" || fail "old report: the fixture holds no password"
run doctor --from "$work/old.json" --json
no_secret "doctor --from an old report"
run report --from "$work/old.json"
no_secret "report --from an old report"
run diff "$work/old.json" "$work/new.json" -v
no_secret "diff of an old report"

# A pasted log line explain quotes as evidence.
printf 'ImportError: libcudnn.so.9: cannot open shared object file: No such file (%s)\n' \
    "$url" > "$work/paste.txt"
run explain "$work/paste.txt"
no_secret "explain"
case "$out" in *"($clean)"*) ;; *) fail "explain: the line is not quoted: $out" ;; esac

finish
