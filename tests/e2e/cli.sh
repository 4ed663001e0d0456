# The command line: usage errors, help, version, output styles, bad --root.
set -eu
. "$(dirname "$0")/lib.inc"

run frobnicate
expect_eq "unknown command exit code" 2 "$rc"
expect_eq "unknown command message" "dlenv: unknown command 'frobnicate' (see 'dlenv --help')" "$err"

run report --frobnicate
expect_eq "unknown option exit code" 2 "$rc"
expect_eq "unknown option message" "dlenv: unknown option '--frobnicate' (see 'dlenv report --help')" "$err"

run report --root
expect_eq "missing value exit code" 2 "$rc"
expect_eq "missing value message" "dlenv: --root needs a value (DIR)" "$err"

run report --color=sometimes
expect_eq "bad --color exit code" 2 "$rc"

run report --json=yes
expect_eq "flag with value exit code" 2 "$rc"

run report --root /nonexistent/dlenv-machine
expect_eq "missing root exit code" 4 "$rc"
expect_eq "missing root message" "dlenv: --root /nonexistent/dlenv-machine: No such file or directory" "$err"
expect_eq "missing root writes nothing" "" "$out"

: > "$work/file"
run report --root "$work/file"
expect_eq "root is a file exit code" 4 "$rc"
case "$err" in *"not a directory"*) ;; *) fail "root is a file message: $err" ;; esac

run report --python /nonexistent/python3
expect_eq "missing --python exit code" 4 "$rc"
expect_eq "missing --python message" "dlenv: --python /nonexistent/python3: no such interpreter" "$err"

run report --import-timeout 0
expect_eq "bad --import-timeout exit code" 2 "$rc"

run --help
expect_eq "help exit code" 0 "$rc"
for word in report --root --json --ascii --color --version "Exit codes"; do
    case "$out" in *"$word"*) ;; *) fail "--help does not mention $word" ;; esac
done

# No command: the usage on stderr, exit 2 (nothing was done).
run
expect_eq "no command: exit code" 2 "$rc"
expect_eq "no command: stdout" "" "$out"
case "$err" in *"Usage: dlenv <command>"*) ;; *) fail "no command: no usage on stderr: $err" ;; esac

# What an argument holds is shown, not acted on: a line break or a terminal escape in it
# stays in the one line as \xNN.
run report "$(printf 'a\nb\033[31mc')"
expect_eq "escaped argument: exit code" 2 "$rc"
expect_eq "escaped argument: message" "dlenv: unexpected argument 'a\\x0Ab\\x1B[31mc'" "$err"
run report --root "$(printf '/nonexistent\033]0;title\007')"
expect_eq "escaped --root: exit code" 4 "$rc"
expect_eq "escaped --root: message" \
    "dlenv: --root /nonexistent\\x1B]0;title\\x07: No such file or directory" "$err"

# --from reads a saved report, --root a machine's files: together, one would be ignored.
for cmd in report doctor plan; do
    run $cmd --root / --from "$work/none.json"
    expect_eq "$cmd --root with --from: exit code" 2 "$rc"
    expect_eq "$cmd --root with --from: message" \
        "dlenv: --root and --from exclude each other: --from reads a saved report, --root a machine's files" "$err"
done

run report --help
case "$out" in *"Usage: dlenv report"*"--root DIR"*) ;; *) fail "report --help: $out" ;; esac

run --version
case "$out" in "dlenv "[0-9]*.[0-9]*.[0-9]*) ;; *) fail "--version printed '$out'" ;; esac

# Options may come before the command.
run --json report --root "$work"
expect_eq "options before command" 0 "$rc"
expect_eq "schema" "dlenv.report/1" "$(get schema)"

# Text output: no colour when piped or with NO_COLOR, colour only when asked.
mkdir -p "$work/m/etc"
printf 'PRETTY_NAME="Test Linux \344\270\255\346\226\207"\n' > "$work/m/etc/os-release"
run report --root "$work/m"
case "$out" in *"$(printf '\033')"*) fail "colour escape in piped output" ;; esac
case "$out" in *"Test Linux"*) ;; *) fail "text report misses the distribution" ;; esac
NO_COLOR=1 run report --root "$work/m" --color always
case "$out" in *"$(printf '\033[')"*) ;; *) fail "--color always gave no colour" ;; esac

# ASCII: with --ascii, or when the locale is not UTF-8, every byte is ASCII.
LANG=C.UTF-8 LC_ALL= run report --root "$work/m" --ascii
if printf '%s' "$out" | LC_ALL=C grep -q '[^ -~	]'; then fail "--ascii output has non-ASCII bytes"; fi
LC_ALL=C run report --root "$work/m"
if printf '%s' "$out" | LC_ALL=C grep -q '[^ -~	]'; then fail "C locale output has non-ASCII bytes"; fi
LC_ALL=C.UTF-8 run report --root "$work/m"
case "$out" in *"$(printf '\342\234\223')"*) ;; *) fail "UTF-8 locale shows no check marks" ;; esac
case "$out" in *"Test Linux $(printf '\344\270\255\346\226\207')"*) ;; *) fail "UTF-8 name not shown" ;; esac
LC_ALL=C run report --root "$work/m"
case "$out" in *"Test Linux ??"*) ;; *) fail "ASCII view does not replace a UTF-8 name" ;; esac

# 80 columns.
long=$(printf '%s\n' "$out" | awk 'length($0) > 80' | head -n 3)
expect_eq "lines over 80 columns" "" "$long"
trailing=$(printf '%s\n' "$out" | grep -c ' $' || true)
expect_eq "lines with trailing blanks" 0 "$trailing"

# Timeouts: from 1 ms to an hour, plain numbers only; below 1 ms a value once became the
# default (--import-timeout 0.0004 waited 60 s). Each refused with exit 2 and one line.
for opt in --probe-timeout --import-timeout; do
    for bad in 0.0004 0 -1 nan NaN inf 1e300 3600.5 abc ' 5' 0x10 '' 1s; do
        run report --root "$work/m" "$opt" "$bad"
        expect_eq "$opt '$bad': exit" 2 "$rc"
        expect_eq "$opt '$bad': message" \
            "dlenv: $opt takes seconds from 0.001 to 3600, not '$bad'" "$err"
    done
    for good in 0.001 1.5 3600 60; do
        run report --root "$work/m" --json "$opt" "$good"
        expect_eq "$opt $good: exit" 0 "$rc"
    done
done

finish
