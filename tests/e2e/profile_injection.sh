# profile write with hostile names: an env folder, --name and the command's arguments
# holding a line break, quotes, $(), backticks, %VAR%, !, ^, & and non-ASCII text. The
# shell launcher runs for real: it must run no command of theirs and hand every value on
# byte for byte. The other formats either keep the value as it is or refuse it (exit 2,
# nothing written). The .bat runs under Wine (tests/windows/scenarios/profile-hostile).
set -eu
. "$(dirname "$0")/lib.inc"

dlenv=$(cd "$(dirname "$dlenv")" && pwd)/$(basename "$dlenv")
cwd="$work/cwd"
mkdir -p "$cwd"

# No '/' (a folder name): the injected commands touch files in the script's folder.
nl='
'
hostile="e${nl}touch PWNED1${nl}'\"\$(touch PWNED2)\`touch PWNED3\`;touch PWNED4 %PATH% !x! ^ & é中 \${HOME}"
plain_hostile="q'\"\$(touch PWNED5)\`touch PWNED6\`;touch PWNED7 %PATH% !x! ^ & é中 \$HOME"

# fake_venv DIR: a venv dlenv recognises (pyvenv.cfg above bin/python)
fake_venv() {
    mkdir -p "$1/bin"
    printf 'home = /usr/bin\n' > "$1/pyvenv.cfg"
    ln -s "$(command -v python3 || echo /usr/bin/python3)" "$1/bin/python"
}
no_pwned() { # no_pwned WHAT
    for f in "$cwd"/PWNED* "$work"/PWNED*; do
        [ -e "$f" ] && fail "$1: an injected command ran ($(basename "$f"))"
    done
    return 0
}

env_dir="$work/envs/$hostile"
fake_venv "$env_dir"
show='printf "[%s]\n" "$VIRTUAL_ENV" "$1" "${PATH%%:*}"'

# 1. sh: the env folder reaches the comment (the default label), PATH and VIRTUAL_ENV; the
#    argument reaches the exec line.
run profile write --python "$env_dir/bin/python" --format sh -o "$work/h.sh" -- \
    sh -c "$show" sh "$hostile"
expect_eq "sh: exit code" 0 "$rc"
set +e
out=$(cd "$cwd" && sh "$work/h.sh" 2>&1)
rc=$?
set -e
expect_eq "sh: runs" 0 "$rc"
no_pwned "sh"
expect_eq "sh: every value byte for byte" "[$env_dir]
[$hostile]
[$env_dir/bin]" "$out"
line2=$(sed -n 2p "$work/h.sh")
case "$line2" in "# dlenv: env e?touch PWNED1?'"*": written by"*) ;;
    *) fail "sh: the label's comment line: $line2" ;; esac

# 2. --name (no control characters there: refused) and the command itself, in sh.
run profile write --cpu --name "$plain_hostile" --format sh -o "$work/n.sh" -- \
    sh -c 'printf "[%s]\n" "$0" "$1"' "$plain_hostile" "$hostile"
expect_eq "--name sh: exit code" 0 "$rc"
out=$(cd "$cwd" && sh "$work/n.sh")
no_pwned "--name sh"
expect_eq "--name sh: arguments" "[$plain_hostile]
[$hostile]" "$out"
run profile write --cpu --name "$hostile" --format sh -o "$work/bad.sh"
expect_eq "--name with a line break: exit code" 2 "$rc"
[ ! -e "$work/bad.sh" ] || fail "--name with a line break: a file was written"

# 3. dotenv: a line break cannot be kept (refused, nothing written); the rest is quoted.
run profile write --python "$env_dir/bin/python" --format env -o "$work/h.env"
expect_eq "dotenv, line break: exit code" 2 "$rc"
[ ! -e "$work/h.env" ] || fail "dotenv, line break: a file was written"
plain_env="$work/envs/$plain_hostile"
fake_venv "$plain_env"
run profile write --python "$plain_env/bin/python" --format env -o "$work/q.env"
expect_eq "dotenv, quotes and \$ in PATH (it is prepended unquoted): exit code" 2 "$rc"
[ ! -e "$work/q.env" ] || fail "dotenv, quotes: a file was written"
mild_env="$work/envs/m %PATH% !x! ^ & é中"
fake_venv "$mild_env"
run profile write --python "$mild_env/bin/python" --format env
expect_eq "dotenv: exit code" 0 "$rc"
expect_eq "dotenv: VIRTUAL_ENV" "VIRTUAL_ENV=$mild_env" \
    "$(printf '%s\n' "$out" | grep '^VIRTUAL_ENV=')"
expect_eq "dotenv: one comment line, then variables only" "" \
    "$(printf '%s\n' "$out" | grep -v '^#' | grep -v '^[A-Z_]*=')"

# 4. PowerShell: the comment stays one line; the values are single-quoted strings.
run profile write --python "$env_dir/bin/python" --format ps1
expect_eq "ps1: exit code" 0 "$rc"
case "$(printf '%s\n' "$out" | sed -n 2p)" in '$saved = @{}'*) ;;
    *) fail "ps1: the comment spilled onto line 2: $(printf '%s\n' "$out" | sed -n 2p)" ;; esac
case "$out" in "$(printf '\357\273\277')# dlenv: env e?touch PWNED1?"*) ;;
    *) fail "ps1: no byte order mark or a broken comment" ;; esac

# 5. VS Code substitutes ${...} everywhere (${command:...} runs one): refused, not written;
#    a line break is JSON-escaped and comes back whole.
mkdir -p "$work/proj"
(cd "$work/proj" && "$dlenv" profile write --python "$env_dir/bin/python" --format vscode \
    -- python train.py) > "$work/out" 2> "$work/err" && rc=0 || rc=$?
expect_eq "vscode, \${: exit code" 2 "$rc"
[ ! -e "$work/proj/.vscode/launch.json" ] || fail "vscode, \${: a file was written"
(cd "$work/proj" && "$dlenv" profile write --cpu --name "$plain_hostile" --format vscode \
    -- python train.py "$plain_hostile$nl") > "$work/out" 2> "$work/err" && rc=0 || rc=$?
expect_eq "vscode: exit code" 0 "$rc"
lj="$work/proj/.vscode/launch.json"
expect_eq "vscode: name" "$plain_hostile" "$("$match" --get "$lj" configurations.0.name)"
expect_eq "vscode: argument" "$plain_hostile" "$("$match" --get "$lj" configurations.0.args.0)"
no_pwned "all formats"

finish
