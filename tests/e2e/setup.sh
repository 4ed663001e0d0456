# dlenv setup, restore and --rollback for real: real venvs and real pip against a PEP 503
# index this script builds (fake_wheel.py's small wheels: a torch that answers the runtime
# probe, torchvision, an older torch and a d2l-like package pinning it) and serves on
# 127.0.0.1 with `python3 -m http.server`. Then every fault: each exits with its own code,
# leaves no staging folder, and leaves the environment already there byte for byte as it was.
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
need_venv_pip

. "$here/local_index.inc"

env="$work/env"
common="--python $py --cpu --tool venv --extra-index-url none"

# The folder's files and links with their hashes: "exactly as it was" is this, equal.
# (One sha256sum for all the files: a venv holds thousands.)
fingerprint() {
    (cd "$1" && {
        find . -type l -exec sh -c 'for f; do echo "$f -> $(readlink "$f")"; done' sh {} +
        find . -type f -exec sha256sum {} +
    } | LC_ALL=C sort)
}
no_staging() { # no_staging WHAT
    left=$(ls -A "$work" | grep -e '\.dlenv-staging-' || true)
    expect_eq "$1: staging folders left" "" "$left"
}
unchanged() { # unchanged WHAT: $env as fingerprinted in $work/before
    fingerprint "$env" > "$work/after"
    cmp -s "$work/before" "$work/after" || fail "$1: the environment changed: $(diff "$work/before" "$work/after" | head -5)"
    no_staging "$1"
}

# 1. --dry-run prints the plan and the exact commands, and changes nothing.
# shellcheck disable=SC2086
run setup "$env" $common $mirror --dry-run
expect_eq "dry run: exit code" 0 "$rc"
case "$out" in *"-m pip install"*"torch==$torch"*) ;; *) fail "dry run: no pinned pip command: $out" ;; esac
case "$out" in *"-m venv"*) ;; *) fail "dry run: no venv command: $out" ;; esac
[ ! -e "$env" ] || fail "dry run: the environment was made"
no_staging "dry run"

# 2. Not confirmed: nothing is made.
set +e
# shellcheck disable=SC2086
echo n | "$dlenv" setup "$env" $common $mirror > "$work/out" 2> "$work/err"
rc=$?
set -e
expect_eq "declined: exit code" 10 "$rc"
[ ! -e "$env" ] || fail "declined: the environment was made"

# 3. The environment, made, proven, locked.
# shellcheck disable=SC2086
run setup "$env" $common $mirror --yes
expect_eq "setup: exit code" 0 "$rc"
[ "$rc" = 0 ] || echo "$out$err" | tail -20
expect_eq "setup: its torch" "$torch+cpu" "$("$env/bin/python" -c 'import torch; print(torch.__version__)')"
expect_eq "setup: activated" "$env" "$(. "$env/bin/activate" && python -c 'import sys; print(sys.prefix)')"
case "$(head -n 1 "$env/bin/pip")" in *staging*) fail "setup: pip still points at the staging folder" ;; esac
grep -q "^torch==$torch+cpu" "$env/dlenv.lock" || fail "setup: lock without torch==$torch+cpu: $(cat "$env/dlenv.lock")"
grep -q "^torchvision==$vision+cpu" "$env/dlenv.lock" || fail "setup: lock without torchvision"
grep -q -- "--hash=sha256:" "$env/dlenv.lock" || fail "setup: lock without hashes"
grep -q "^# python: $pyver" "$env/dlenv.lock" || fail "setup: lock without its Python"
expect_eq "setup: snapshot schema" dlenv.snapshot/1 "$("$match" --get "$env/dlenv-snapshot.json" schema)"
expect_eq "setup: snapshot's interpreter" "$env/bin/python" "$("$match" --get "$env/dlenv-snapshot.json" facts.pythons.0.path)"
! grep -q dlenv-staging "$env/dlenv-snapshot.json" || fail "setup: the snapshot names the staging folder"
case "$out" in *". $env/bin/activate"*) ;; *) fail "setup: no activation line: $out" ;; esac
case "$out" in *"matrix product on the CPU is right"*) ;; *) fail "setup: no matrix product in the proof: $out" ;; esac
case "$out" in *"torch fp32 matmul on the CPU: "*"(this CPU's fp32 peak)"*) ;; *) fail "setup: the product's rate not against this CPU's peak: $out" ;; esac
no_staging "setup"
fingerprint "$env" > "$work/before"
cp "$work/before" "$work/first"

# 3b. The same plan again: what is there already is it, so it is adopted: proven, nothing
# installed, nothing changed.
# shellcheck disable=SC2086
run setup "$env" $common $mirror --yes
expect_eq "adopt: exit code" 0 "$rc"
case "$out" in *"already is an environment with torch $torch+cpu, torchvision $vision+cpu, as planned"*) ;;
    *) fail "adopt: not said: $out$err" ;; esac
case "$out" in *"matrix product on the CPU is right"*"works as planned; nothing was changed"*) ;;
    *) fail "adopt: not proven: $out$err" ;; esac
! grep -q '^\$ ' "$work/out" || fail "adopt: a command ran: $(grep '^\$ ' "$work/out")"
unchanged "adopt"

# 3c. One made without dlenv (no pip even: the planned wheels unpacked into it by hand):
# adopted, proven, and given the lock and snapshot it lacked; nothing else in it changes.
byhand="$work/byhand"
"$py" -m venv --without-pip "$byhand"
site=$("$byhand/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
for whl in "$work/index/cpu/torch/torch-$torch+cpu-py3-none-any.whl" \
           "$work/index/cpu/torchvision/torchvision-$vision+cpu-py3-none-any.whl"; do
    "$py" -m zipfile -e "$whl" "$site"
done
fingerprint "$byhand" > "$work/byhand.before"
# shellcheck disable=SC2086
run setup "$byhand" $common $mirror --yes
expect_eq "adopt, no lock: exit code" 0 "$rc"
case "$out" in *"It has no dlenv.lock and dlenv-snapshot.json: written once it is proven"*"works as planned; nothing in it was installed or changed"*"Lock: $byhand/dlenv.lock (2 packages, no hashes"*"Snapshot: $byhand/dlenv-snapshot.json"*) ;;
    *) fail "adopt, no lock: not written or not said: $out$err" ;; esac
grep -qx "torch==$torch+cpu" "$byhand/dlenv.lock" || fail "adopt, no lock: lock without torch: $(cat "$byhand/dlenv.lock")"
grep -qx "torchvision==$vision+cpu" "$byhand/dlenv.lock" || fail "adopt, no lock: lock without torchvision"
grep -q "^# python: $pyver\$" "$byhand/dlenv.lock" || fail "adopt, no lock: lock without its Python"
grep -q "^--index-url http://127.0.0.1:$port" "$byhand/dlenv.lock" || fail "adopt, no lock: lock without the index"
expect_eq "adopt, no lock: snapshot's interpreter" "$byhand/bin/python" "$("$match" --get "$byhand/dlenv-snapshot.json" facts.pythons.0.path)"
fingerprint "$byhand" | grep -v -e ' \./dlenv\.lock$' -e ' \./dlenv-snapshot\.json$' > "$work/byhand.after"
cmp -s "$work/byhand.before" "$work/byhand.after" || fail "adopt, no lock: more changed: $(diff "$work/byhand.before" "$work/byhand.after" | head -5)"
run restore "$byhand/dlenv.lock" "$work/byhand2" --python "$py" --tool venv --dry-run
expect_eq "adopt, no lock: its lock restores" 0 "$rc"
case "$out" in *"Restore: 2 packages"*"no hashes in the lock"*) ;; *) fail "adopt, no lock: restore: $out$err" ;; esac

# 4. Faults. Each: its own exit code, the environment as it was, no staging folder.
# shellcheck disable=SC2086
run setup "$env" $common --index-mirror "http://127.0.0.1:$closed" --force --yes
expect_eq "index unreachable: exit code" 14 "$rc"
unchanged "index unreachable"

# A torch that imports but multiplies wrong: the proof's matrix product catches it
# (--force: the versions are those already there).
# shellcheck disable=SC2086
run setup "$env" $common $wrong_mirror --force --yes
expect_eq "wrong product: exit code" 18 "$rc"
case "$err" in *torch_runtime*"product is wrong"*) ;; *) fail "wrong product: layer or evidence not named: $err" ;; esac
unchanged "wrong product"

# shellcheck disable=SC2086
run setup "$env" $common $mirror --with nosuchpackage==1.0 --yes
expect_eq "no such package: exit code" 15 "$rc"
unchanged "no such package"

# shellcheck disable=SC2086
run setup "$env" $common $mirror --with d2l==1.0.3 --yes
expect_eq "--with pins another torch: exit code" 13 "$rc"
case "$err" in *refused*) ;; *) fail "--with pins another torch: not refused: $err" ;; esac
! grep -q '^\$ .*report\.json' "$work/out" || fail "--with pins another torch: the install ran"
grep -q "^\$ .*--dry-run" "$work/out" || fail "--with pins another torch: no dry-run resolution"

unchanged "--with pins another torch"

mkdir "$work/notenv"
echo keep > "$work/notenv/data.txt"
# shellcheck disable=SC2086
run setup "$work/notenv" $common $mirror --yes
expect_eq "target not an environment: exit code" 12 "$rc"
expect_eq "target not an environment: its file" keep "$(cat "$work/notenv/data.txt")"
# shellcheck disable=SC2086
run setup "$env/lib/inner" $common $mirror --yes
expect_eq "target inside an environment: exit code" 12 "$rc"
unchanged "target inside an environment"

# The versions looked for on a PATH of the system's folders only (pyenv's shims and the
# like have them all).
missing_py=
for v in 3.13 3.12 3.10 3.9; do
    PATH=/usr/bin:/bin command -v "python$v" > /dev/null 2>&1 || { missing_py=$v; break; }
done
if [ -n "$missing_py" ]; then
    saved_path=$PATH
    PATH=/usr/bin:/bin
    # shellcheck disable=SC2086
    run setup "$env" --python "$missing_py" --cpu --tool venv --extra-index-url none $mirror --yes
    PATH=$saved_path
    expect_eq "no Python $missing_py: exit code" 11 "$rc"
    case "$err" in *"Python $missing_py"*) ;; *) fail "no Python $missing_py: not named: $err" ;; esac
    unchanged "no Python $missing_py"
else
    missing "every Python from 3.9 to 3.13 is in /usr/bin: no missing one to ask for"
fi

# --python X.Y with no pythonX.Y on PATH, only a `py` launcher (as python.org's Windows
# installs leave it): the interpreter `py -X.Y` runs. A PATH holding only a fake py that
# knows $pyver alone.
mkdir "$work/launcher"
printf '#!/bin/sh\n[ "$1" = "-%s" ] || exit 103\nshift\nexec %s "$@"\n' "$pyver" "$py" > "$work/launcher/py"
chmod +x "$work/launcher/py"
set +e
# shellcheck disable=SC2086
PATH="$work/launcher" "$dlenv" setup "$work/bylauncher" --python "$pyver" --cpu --tool venv --extra-index-url none $mirror --dry-run > "$work/out" 2>&1
rc=$?
set -e
expect_eq "py launcher: exit code" 0 "$rc"
grep -q "made from $py\$" "$work/out" || fail "py launcher: not made from what py -$pyver runs: $(cat "$work/out")"

# (A hash that does not match, exit 16 with the environment unchanged: setup_lock.sh.)

# Killed (SIGKILL), then interrupted (SIGINT, a Ctrl-C) while pip installs: each leaves
# its staging folder (SIGINT: dlenv kills pip's group and ends by the signal), the
# environment as it was; the next setup removes both and says so. dlenv starts with SIGINT
# at its default (a background job of a script has it ignored, which dlenv keeps).
interrupt_install() { # interrupt_install SIGNAL: sets victim
    set +e
    # shellcheck disable=SC2086
    "$py" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        "$dlenv" setup "$env" $common $mirror --force --yes > "$work/killed.out" 2>&1 &
    victim=$!
    set -e
    killed=
    for _ in $(seq 1 400); do
        if ps -o args= --ppid "$victim" 2>/dev/null | grep -q "pip install"; then
            kill "-$1" "$victim"
            killed=yes
            break
        fi
        sleep 0.05
    done
    set +e
    wait "$victim" 2>/dev/null
    status=$?
    set -e
    expect_eq "$1 during install: it was interrupted there" yes "$killed"
    for _ in $(seq 1 50); do # pip dies with it (PR_SET_PDEATHSIG, or dlenv kills its group)
        ps -eo args= | grep -q "[.]env.dlenv-staging-$victim/bin/python -m pip" || break
        sleep 0.1
    done
    ! ps -eo args= | grep -q "[.]env.dlenv-staging-$victim/bin/python -m pip" || fail "$1 during install: pip still runs"
    unchanged_but_staging=$(fingerprint "$env")
    [ "$unchanged_but_staging" = "$(cat "$work/before")" ] || fail "$1 during install: the environment changed"
}
interrupt_install KILL
killed_pid=$victim
[ -d "$work/.env.dlenv-staging-$victim" ] || fail "killed during install: no staging folder left to clean"
interrupt_install INT
int_pid=$victim
int_left=no
[ ! -d "$work/.env.dlenv-staging-$int_pid" ] || int_left=yes
expect_eq "SIGINT during install: dlenv ends by SIGINT" 130 "$status"
# the interrupted setup began by removing the killed one's folder
grep -q "Removed $work/.env.dlenv-staging-$killed_pid" "$work/killed.out" || fail "after the kill: the stale folder not named: $(cat "$work/killed.out")"

# 5. The next setup cleans up and replaces the environment, keeping the previous one.
# shellcheck disable=SC2086
run setup "$env" $common $mirror --with tinyextra==1.0 --yes
expect_eq "after the kill: exit code" 0 "$rc"
if [ "$int_left" = yes ]; then # SIGINT left its folder: this setup removed it and said so
    case "$out" in *"Removed $work/.env.dlenv-staging-$int_pid"*) ;; *) fail "after SIGINT: the stale folder not named: $out" ;; esac
fi
no_staging "after the kill"
[ -d "$work/.env.dlenv-previous" ] || fail "after the kill: the previous environment was not kept"
"$env/bin/python" -c 'import tinyextra' || fail "after the kill: --with package missing"
grep -q "^tinyextra==1.0" "$env/dlenv.lock" || fail "after the kill: lock without tinyextra"

# 6. restore: the same package set, rebuilt elsewhere from the lock of 5 (--with's
# tinyextra in it) with the wheels from a folder; from an index, with its hashes checked:
# setup_lock.sh. Then --offline --wheelhouse setup: the same wheels from that folder, the
# index's address a closed port (so any use of an index fails).
freeze() { "$1/bin/python" -m pip list --format freeze --exclude pip --exclude setuptools 2> /dev/null | LC_ALL=C sort; }
mkdir "$work/wheelhouse"
cp "$work/index/cpu/"*/*.whl "$work/wheelhouse/"
# shellcheck disable=SC2086
run setup "$work/offline" $common --index-mirror "http://127.0.0.1:$closed" --offline --wheelhouse "$work/wheelhouse" --yes
expect_eq "wheelhouse: exit code" 0 "$rc"
[ "$rc" = 0 ] || echo "$out$err" | tail -20
grep -q "^\$ .*pip install .*--no-index --find-links $work/wheelhouse" "$work/out" || fail "wheelhouse: no --no-index --find-links install: $out"
expect_eq "wheelhouse: its torch" "$torch+cpu" "$("$work/offline/bin/python" -c 'import torch; print(torch.__version__)')"
grep -q "^torch==$torch+cpu" "$work/offline/dlenv.lock" || fail "wheelhouse: lock without torch"
run restore "$env/dlenv.lock" "$work/restored" --python "$py" --tool venv --wheelhouse "$work/wheelhouse" --yes
expect_eq "wheelhouse restore: exit code" 0 "$rc"
[ "$rc" = 0 ] || echo "$out$err" | tail -20
expect_eq "wheelhouse restore: the same packages" "$(freeze "$env")" "$(freeze "$work/restored")"
case "$(freeze "$work/restored")" in *tinyextra==1.0*) ;; *) fail "wheelhouse restore: no tinyextra" ;; esac
# shellcheck disable=SC2086
run setup "$work/offline3" $common --offline --yes
expect_eq "--offline without --wheelhouse: exit code" 2 "$rc"

# 7. --rollback: the first environment back, byte for byte.
run setup --rollback "$env"
expect_eq "rollback: exit code" 0 "$rc"
fingerprint "$env" > "$work/after"
cmp -s "$work/first" "$work/after" || fail "rollback: not the first environment: $(diff "$work/first" "$work/after" | head -5)"
"$env/bin/python" -c 'import tinyextra' 2> /dev/null && fail "rollback: still the second environment"

finish
