# The command table seen from outside: per-command help, `dlenv help`, did-you-mean for
# commands and options, values without regard to case, --python told from a version once,
# and `run --env` finding an env in the current folder.
set -eu
. "$(dirname "$0")/lib.inc"

one_line_usage_error() { # WHAT: exit 2, one line on stderr, nothing on stdout
    expect_eq "$1: exit" 2 "$rc"
    expect_eq "$1: stdout" "" "$out"
    expect_eq "$1: one line" 1 "$(printf '%s\n' "$err" | wc -l)"
}

# 1. Each command's help shows its own options, not the others'.
run doctor --help
expect_eq "doctor --help: exit" 0 "$rc"
case "$out" in "Usage: dlenv doctor"*"--markdown"*"--list-checks"*) ;; *) fail "doctor --help: $out" ;; esac
for other in --format --lock --why --cpu --env --quick --os; do
    case "$out" in *" $other "*|*" $other") fail "doctor --help lists $other" ;; esac
done
run run --help
case "$out" in *"--cpu"*"--env NAME"*) ;; *) fail "run --help: $out" ;; esac
for other in --markdown --json --why --lock --format; do
    case "$out" in *" $other "*) fail "run --help lists $other" ;; esac
done
run_help=$out
run help run
expect_eq "help run: exit" 0 "$rc"
expect_eq "help run is run --help" "$run_help" "$out"
run help
expect_eq "help: exit" 0 "$rc"
top=$out
run --help
expect_eq "help is --help" "$top" "$out"
# The top level: one line per command, not every command's options.
for cmd in report doctor plan explain verify data snapshot diff run profile lint help; do
    expect_eq "--help: one line for $cmd" 1 "$(printf '%s\n' "$out" | grep -c "^  $cmd ")"
done
case "$out" in *"--markdown"*|*"--lock"*) fail "--help lists a command's own options" ;; esac

# Every help within 80 columns.
for cmd in "" report doctor plan explain verify data snapshot diff run profile help; do
    run help $cmd
    long=$(printf '%s\n' "$out" | awk 'length($0) > 80' | head -n 2)
    expect_eq "help $cmd: lines over 80 columns" "" "$long"
done

# 2. Did you mean: one line, exit 2.
run doctr
one_line_usage_error "doctr"
expect_eq "doctr: message" "dlenv: unknown command 'doctr'; did you mean 'doctor'? (see 'dlenv --help')" "$err"
run help doctr
one_line_usage_error "help doctr"
run report --jsn
one_line_usage_error "--jsn"
expect_eq "--jsn: message" "dlenv: unknown option '--jsn'; did you mean '--json'? (see 'dlenv report --help')" "$err"
run plan --gpus sm_86
one_line_usage_error "--gpus"
case "$err" in *"did you mean '--gpu'?"*) ;; *) fail "--gpus: $err" ;; esac
run plan --drvier 550.54
one_line_usage_error "--drvier"
case "$err" in *"did you mean '--driver'?"*) ;; *) fail "--drvier: $err" ;; esac
run doctor --drvier 550.54
one_line_usage_error "doctor --drvier"
case "$err" in *"'--driver' is an option of 'plan'"*) ;; *) fail "doctor --drvier: $err" ;; esac
run --gpus 1 run sh
one_line_usage_error "--gpus before the command"
case "$err" in "dlenv: unknown option '--gpus'"*) ;; *) fail "--gpus before run: $err" ;; esac
run report --markdown
one_line_usage_error "report --markdown"
expect_eq "report --markdown: message" "dlenv: --markdown does not apply to 'report' (see 'dlenv report --help')" "$err"

# 3. Values without regard to case where case means nothing; the rest checked, one line.
run plan --os Windows --python 3.12 --json
case "$rc" in 0 | 1) ;; *) fail "--os Windows: exit $rc: $err" ;; esac
expect_eq "--os Windows" windows "$(get machine.os)"
run plan --os LINUX --for CPU --python 3.12 --json
expect_eq "--for CPU: exit" 0 "$rc"
expect_eq "--for CPU: the build" cpu "$(get recommended.variant)"
run report --root "$work" --color NEVER
expect_eq "--color NEVER: exit" 0 "$rc"
run plan --python abc
one_line_usage_error "--python abc"
expect_eq "--python abc: message" "dlenv: --python 'abc': expected a version X.Y (3.12, 3.13t) or an interpreter's path (./abc if it is here)" "$err"
run plan --os linux --python 3.99
one_line_usage_error "--python 3.99"
run report --python 3.12
one_line_usage_error "report --python 3.12"
# A Windows path is a path, backslashes and all: looked for, not refused as a version.
run plan --python 'C:\nowhere\python.exe'
expect_eq "Windows --python path: exit" 4 "$rc"
expect_eq "Windows --python path: message" "dlenv: --python C:\\nowhere\\python.exe: no such interpreter" "$err"

# 4. run --env NAME: ./NAME and ./.venv in the current folder (a venv's layout: pyvenv.cfg
#    and bin/python3).
for env in .venv proj; do
    mkdir -p "$work/here/$env/bin"
    : > "$work/here/$env/pyvenv.cfg"
    printf '#!/bin/sh\nexit 0\n' > "$work/here/$env/bin/python3"
    chmod +x "$work/here/$env/bin/python3"
done
for env in .venv proj; do
    out=$(cd "$work/here" && WORKON_HOME="$work/none" "$dlenv" run --env "$env" -- sh -c 'printf %s "$VIRTUAL_ENV"' 2>&1) ||
        fail "run --env $env: exit $?: $out"
    expect_eq "run --env $env finds ./$env" "$work/here/$env" "$out"
done
rc=0
out=$(cd "$work" && WORKON_HOME="$work/none" "$dlenv" run --env .venv -- true 2>&1) || rc=$?
expect_eq "run --env .venv where there is none: exit" 4 "$rc"

finish
