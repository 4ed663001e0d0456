#!/bin/sh
# Test the release files of scripts/build-dist.sh as a user gets them.
#
#   tests/dist/run.sh OUTDIR     (./dev.sh dist builds OUTDIR and runs this)
#
# Targets: DLENV_DIST_TARGETS, as for build-dist.sh. For the Linux x86_64 wheel: installed with pip (--no-index, from OUTDIR) into a fresh
# venv, then `dlenv --version` and `dlenv doctor --no-runtime` from the venv's bin/; the
# same with `uv pip install`, `uvx --from WHEEL dlenv doctor` and `pipx run --spec WHEEL`; `auditwheel show`
# accepts manylinux_2_17; no glibc symbol newer than 2.17; the archive holds the same
# binary. Bad cases: a wheel whose binary was changed fails tests/dist/check_wheel.py (its
# RECORD hash) and `pip install --require-hashes` with the hash from SHA256SUMS (pip and
# uv do not check RECORD themselves); the wheel written twice from the same binary, with
# other file times, is byte-identical. aarch64 runs under qemu-user, Windows under Wine;
# macOS is only inspected (file). uv and auditwheel come from PyPI into
# build-dist/test-tools/; every cache stays under build-dist/.
set -eu
[ $# -eq 1 ] || { echo "usage: tests/dist/run.sh OUTDIR" >&2; exit 2; }
out=$(CDPATH='' cd -- "$1" && pwd)
cd "$(dirname "$0")/../.."
root=$(pwd)
dist=$root/build-dist
export PIP_CACHE_DIR="$dist/pip-cache" UV_CACHE_DIR="$dist/uv-cache" UV_PYTHON_DOWNLOADS=never
export UV_TOOL_DIR="$dist/uv-tools" UV_TOOL_BIN_DIR="$dist/uv-tools/bin"
export PIP_DISABLE_PIP_VERSION_CHECK=1

failures=0
pass() { printf 'dist: ok   %s\n' "$*"; }
fail() { printf 'dist: FAIL %s\n' "$*" >&2; failures=$((failures + 1)); }

version=$(sed -n 's/^project(dlenv VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
platform=manylinux_2_17_x86_64.manylinux2014_x86_64
# the commit --version names: this checkout's (CMakeLists.txt), when git can say
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo "unknown commit")
targets=${DLENV_DIST_TARGETS:-x86_64-linux aarch64-linux x86_64-windows aarch64-macos x86_64-macos}
wheel=$out/dlenv-$version-py3-none-$platform.whl
archive=$out/dlenv-$version-x86_64-linux.tar.gz
for f in "$wheel" "$archive" "$out/SHA256SUMS"; do
    [ -f "$f" ] || { echo "dist: no $f (run scripts/build-dist.sh $1 first)" >&2; exit 1; }
done
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-dist.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# check_installed BIN HOW: the installed program runs, says its version and diagnoses.
check_installed() {
    if [ ! -x "$1" ]; then
        fail "$2: no executable $1"
        return
    fi
    v=$("$1" --version 2>&1) || true
    if [ "$v" = "dlenv $version ($commit)" ]; then
        pass "$2: $1 --version: $v"
    else
        fail "$2: $1 --version said '$v', wants 'dlenv $version ($commit)'"
    fi
    status=0
    "$1" doctor --no-runtime >"$scratch/doctor.txt" 2>&1 || status=$?
    # 0: healthy, 1: doctor found a failure (this machine has no GPU); more is an error.
    if [ "$status" -le 1 ] && [ -s "$scratch/doctor.txt" ]; then
        pass "$2: dlenv doctor --no-runtime (exit $status, $(wc -l <"$scratch/doctor.txt" | tr -d ' ') lines)"
    else
        fail "$2: dlenv doctor --no-runtime exited $status:"
        tail -n 20 "$scratch/doctor.txt" >&2
    fi
    check_lint "$1" "$2"
}

# check_lint BIN HOW: `dlenv lint` is built in (the tree-sitter runtime and the grammar
# compiled from their sdists for this target) and finds what it must in a fixture, given
# by a relative name so that Wine reads it from its working folder too.
mkdir -p "$scratch/lint"
printf 'import torch\r\nstate = torch.load("m.pt")\r\nlog = open("C:\\data\\log.txt")\r\n' >"$scratch/lint/train.py"
check_lint() {
    status=0
    (cd "$scratch/lint" && "$1" lint --json --os windows --torch 2.6 train.py) \
        >"$scratch/lint.json" 2>"$scratch/lint.err" || status=$?
    got=$(python3 -c 'import json, sys
print(" ".join("%s:%s:%s" % (f["line"], f["column"], f["id"]) for f in json.load(open(sys.argv[1]))["findings"]))' \
        "$scratch/lint.json" 2>/dev/null) || got="no JSON"
    want="2:9:load 3:7:encoding 3:12:paths"
    if [ "$status" -eq 1 ] && [ "$got" = "$want" ]; then
        pass "$2: dlenv lint finds $want"
    else
        fail "$2: dlenv lint exited $status, found '$got', wants '$want': $(head -c 300 "$scratch/lint.err")"
    fi
}

# pip, from OUTDIR only, into a fresh venv.
python3 -m venv "$scratch/pip-venv"
if "$scratch/pip-venv/bin/python" -m pip install -q --no-index --find-links "$out" dlenv; then
    check_installed "$scratch/pip-venv/bin/dlenv" "pip install"
else
    fail "pip install --no-index --find-links $out dlenv"
fi

# The binary's glibc symbols: none newer than 2.17 (manylinux2014).
newest=$(objdump -T "$scratch/pip-venv/bin/dlenv" | grep -o 'GLIBC_[0-9][0-9.]*' |
    sed 's/GLIBC_//' | sort -t . -k 1,1n -k 2,2n -k 3,3n | tail -n 1)
case $newest in
    2.[0-9] | 2.[0-9].* | 2.1[0-7] | 2.1[0-7].*) pass "objdump -T: newest glibc symbol $newest <= 2.17" ;;
    *) fail "objdump -T: the binary needs glibc $newest, newer than 2.17" ;;
esac

# The archive holds the same binary as the wheel.
tar -xzf "$archive" -C "$scratch"
if cmp -s "$scratch/dlenv-$version-x86_64-linux/dlenv" "$scratch/pip-venv/bin/dlenv"; then
    pass "the .tar.gz and the wheel hold the same binary"
else
    fail "the .tar.gz's dlenv differs from the wheel's"
fi
if (cd "$out" && sha256sum -c --quiet SHA256SUMS); then
    pass "SHA256SUMS matches every file"
else
    fail "SHA256SUMS does not match OUTDIR"
fi

# The wheel itself, and a tampered copy (one bit of the binary changed, RECORD kept).
if python3 tests/dist/check_wheel.py "$wheel"; then pass "check_wheel.py"; else fail "check_wheel.py $wheel"; fi
mkdir -p "$scratch/tampered"
python3 - "$wheel" "$scratch/tampered/$(basename "$wheel")" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as a, zipfile.ZipFile(sys.argv[2], "w") as b:
    for i in a.infolist():
        d = a.read(i)
        if "/scripts/" in i.filename:
            d = d[:-1] + bytes([d[-1] ^ 1])
        b.writestr(i, d)
PY
if python3 tests/dist/check_wheel.py "$scratch/tampered/$(basename "$wheel")" 2>"$scratch/check.err"; then
    fail "check_wheel.py accepted a wheel whose binary does not match RECORD"
elif grep -q 'hash mismatch' "$scratch/check.err"; then
    pass "tampered wheel: check_wheel.py says hash mismatch"
else
    fail "tampered wheel: check_wheel.py failed for another reason: $(cat "$scratch/check.err")"
fi
hash=$(sed -n "s/^\([0-9a-f]*\)  $(basename "$wheel")\$/\1/p" "$out/SHA256SUMS")
printf 'dlenv==%s --hash=sha256:%s\n' "$version" "$hash" >"$scratch/requirements.txt"
python3 -m venv "$scratch/hash-venv"
if "$scratch/hash-venv/bin/python" -m pip install -q --no-index --find-links "$scratch/tampered" \
    --require-hashes -r "$scratch/requirements.txt" >"$scratch/pip.err" 2>&1; then
    fail "pip install --require-hashes installed the tampered wheel"
elif grep -q 'DO NOT MATCH THE HASHES' "$scratch/pip.err"; then
    pass "tampered wheel: pip install --require-hashes (SHA256SUMS) refuses it, hash mismatch"
else
    fail "tampered wheel: pip failed for another reason: $(tail -n 5 "$scratch/pip.err")"
fi
if "$scratch/hash-venv/bin/python" -m pip install -q --no-index --find-links "$out" \
    --require-hashes -r "$scratch/requirements.txt"; then
    pass "pip install --require-hashes with SHA256SUMS's hash accepts the real wheel"
else
    fail "pip install --require-hashes refused the real wheel"
fi

# Reproducible: the same binary, other file times and another directory: the same bytes.
mkdir -p "$scratch/again" "$scratch/bin"
cp "$scratch/pip-venv/bin/dlenv" "$scratch/bin/dlenv"
touch -d '2001-02-03 04:05:06' "$scratch/bin/dlenv"
(SOURCE_DATE_EPOCH=$(python3 -c 'import calendar, sys, zipfile
print(calendar.timegm(zipfile.ZipFile(sys.argv[1]).infolist()[0].date_time + (0, 0, 0)))' "$wheel") \
    python3 scripts/make-wheel.py --binary "$scratch/bin/dlenv" --version "$version" \
    --platform "$platform" --readme README.md --out "$scratch/again" >/dev/null)
if cmp "$wheel" "$scratch/again/$(basename "$wheel")"; then
    pass "the wheel written again is byte-identical"
else
    fail "the wheel written again differs: not reproducible"
fi

# uv, auditwheel: from PyPI into a venv of their own (skipped with a note when PyPI
# cannot be reached, as for a developer offline; CI has it).
tools=$dist/test-tools
if [ ! -x "$tools/bin/uv" ] || [ ! -x "$tools/bin/auditwheel" ] || [ ! -x "$tools/bin/pipx" ] ||
    ! "$tools/bin/python" -c 'import yaml' 2>/dev/null; then
    rm -rf "$tools"
    python3 -m venv "$tools"
    "$tools/bin/python" -m pip install -q uv auditwheel pyyaml pipx || rm -rf "$tools"
fi
if [ -x "$tools/bin/uv" ]; then
    "$tools/bin/uv" venv -q --python "$(command -v python3)" "$scratch/uv-venv"
    # --no-cache: uv would take an earlier build of this same version from its cache
    if "$tools/bin/uv" pip install -q --no-cache --python "$scratch/uv-venv/bin/python" --offline \
        --no-index --find-links "$out" dlenv; then
        check_installed "$scratch/uv-venv/bin/dlenv" "uv pip install"
    else
        fail "uv pip install --no-index --find-links $out dlenv"
    fi
    status=0
    "$tools/bin/uvx" --no-cache --offline --python "$(command -v python3)" --from "$wheel" dlenv doctor \
        --no-runtime >"$scratch/uvx.txt" 2>&1 || status=$?
    if [ "$status" -le 1 ] && grep -q . "$scratch/uvx.txt"; then
        pass "uvx --from $(basename "$wheel") dlenv doctor --no-runtime (exit $status)"
    else
        fail "uvx --from WHEEL dlenv doctor exited $status: $(tail -n 5 "$scratch/uvx.txt")"
    fi
    status=0
    PIPX_HOME="$scratch/pipx" PIPX_BIN_DIR="$scratch/pipx/bin" PIPX_MAN_DIR="$scratch/pipx/man" \
        "$tools/bin/pipx" run \
        --spec "$wheel" dlenv doctor --no-runtime >"$scratch/pipx.txt" 2>&1 || status=$?
    if [ "$status" -le 1 ] && grep -q 'dlenv doctor' "$scratch/pipx.txt"; then
        pass "pipx run --spec $(basename "$wheel") dlenv doctor --no-runtime (exit $status)"
    else
        fail "pipx run dlenv doctor exited $status: $(tail -n 5 "$scratch/pipx.txt")"
    fi
    "$tools/bin/auditwheel" show "$wheel" >"$scratch/auditwheel.txt" 2>&1 || true
    if grep -q 'platform tag: "manylinux_2_17_x86_64"' "$scratch/auditwheel.txt"; then
        pass "auditwheel show: manylinux_2_17_x86_64"
    else
        fail "auditwheel show does not accept manylinux_2_17_x86_64: $(cat "$scratch/auditwheel.txt")"
    fi
    # The manifests, parsed by real parsers, with the hashes SHA256SUMS has.
    if "$tools/bin/python" tests/dist/check_manifests.py "$out" "$version"; then
        pass "packaging/ manifests and .github/workflows/release.yml parse; hashes match SHA256SUMS"
    else
        fail "tests/dist/check_manifests.py"
    fi
elif [ -n "${DLENV_CI:-}${CI:-}" ]; then
    fail "uv, auditwheel, PyYAML and pipx could not be installed from PyPI (CI must reach it)"
else
    echo "dist: note: uv, auditwheel, PyYAML, pipx not installed (no PyPI?): their checks skipped"
fi

# unpack WHEEL DIR: the wheel's files into DIR, with the modes its entries carry.
unpack() {
    python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for i in z.infolist():
        path = z.extract(i, sys.argv[2])
        os.chmod(path, (i.external_attr >> 16) & 0o777)
PY
}

# aarch64: the wheel is sound, `file` says ARM aarch64, and it runs under qemu-user with
# Debian's aarch64 glibc (qemu-user, libc6-arm64-cross: dev.sh installs them).
case " $targets " in *" aarch64-linux "*)
    a64=$out/dlenv-$version-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.whl
    if [ ! -f "$a64" ]; then
        fail "no $(basename "$a64")"
    else
        python3 tests/dist/check_wheel.py "$a64" >/dev/null || fail "check_wheel.py $(basename "$a64")"
        unpack "$a64" "$scratch/a64"
        bin=$scratch/a64/dlenv-$version.data/scripts/dlenv
        if file "$bin" | grep -q 'ARM aarch64'; then
            pass "aarch64 wheel: file says $(file -b "$bin" | cut -d, -f1-2)"
        else
            fail "aarch64 wheel: file says $(file -b "$bin")"
        fi
        if command -v qemu-aarch64 >/dev/null 2>&1 && [ -d /usr/aarch64-linux-gnu/lib ]; then
            printf '#!/bin/sh\nexec qemu-aarch64 -L /usr/aarch64-linux-gnu "%s" "$@"\n' "$bin" \
                >"$scratch/dlenv-aarch64"
            chmod +x "$scratch/dlenv-aarch64"
            check_installed "$scratch/dlenv-aarch64" "aarch64 under qemu-user"
        elif [ -n "${DLENV_CI:-}${CI:-}" ]; then
            fail "aarch64: no qemu-aarch64 or /usr/aarch64-linux-gnu (apt-get install qemu-user libc6-arm64-cross)"
        else
            echo "dist: note: no qemu-aarch64 + libc6-arm64-cross: the aarch64 binary was not run"
        fi
    fi ;;
esac

# Windows: the wheel is sound and its dlenv.exe runs under Wine, in a prefix of its own.
case " $targets " in *" x86_64-windows "*)
    win=$out/dlenv-$version-py3-none-win_amd64.whl
    if [ ! -f "$win" ] || [ ! -f "$out/dlenv-$version-x86_64-windows.zip" ]; then
        fail "no $(basename "$win") or dlenv-$version-x86_64-windows.zip"
    else
        python3 tests/dist/check_wheel.py "$win" >/dev/null || fail "check_wheel.py $(basename "$win")"
        unpack "$win" "$scratch/win"
        exe=$scratch/win/dlenv-$version.data/scripts/dlenv.exe
        if command -v wine >/dev/null 2>&1; then
            # Wine with a clean environment; its \r\n line ends taken out, its status kept,
            # its own messages (creating the prefix) apart
            cat >"$scratch/dlenv-win" <<WINE
#!/bin/sh
status=0
env -i HOME="$HOME" PATH=/usr/bin:/bin LANG=C.UTF-8 WINEPREFIX="$scratch/wine" WINEDEBUG=-all \\
    WINEDLLOVERRIDES="mscoree,mshtml=" wine "$exe" "\$@" >"$scratch/wine.out" 2>"$scratch/wine.err" || status=\$?
tr -d '\\r' <"$scratch/wine.out"
exit \$status
WINE
            chmod +x "$scratch/dlenv-win"
            check_installed "$scratch/dlenv-win" "Windows wheel under Wine"
            WINEPREFIX="$scratch/wine" wineserver -k 2>/dev/null || true
        elif [ -n "${DLENV_CI:-}${CI:-}" ]; then
            fail "Windows: wine is not installed"
        else
            echo "dist: note: no wine: the Windows binary was not run"
        fi
    fi ;;
esac

# The sdist (what pip compiles where no wheel fits): the project, without build outputs.
sdist=$out/dlenv-$version.tar.gz
if [ -f "$sdist" ]; then
    tar -tzf "$sdist" >"$scratch/sdist.txt"
    missing=""
    for f in pyproject.toml CMakeLists.txt src/main.c README.md PKG-INFO; do
        grep -qx "dlenv-$version/$f" "$scratch/sdist.txt" || missing="$missing $f"
    done
    if [ -n "$missing" ]; then
        fail "sdist lacks$missing"
    elif grep -q "^dlenv-$version/build" "$scratch/sdist.txt"; then
        fail "sdist holds build outputs: $(grep "^dlenv-$version/build" "$scratch/sdist.txt" | head -n 3)"
    else
        pass "sdist: $(wc -l <"$scratch/sdist.txt" | tr -d ' ') files, pyproject.toml and the sources, no build outputs"
    fi
else
    fail "no sdist $(basename "$sdist")"
fi

# `pip install dlenv` where no wheel fits: pip builds the sdist (scikit-build-core from
# PyPI, this machine's compiler and cJSON) and installs the program. About 40 s. Only
# where the tools above came from PyPI: its build dependencies come from there too.
if [ -f "$sdist" ] && [ -x "$tools/bin/uv" ]; then
    python3 -m venv "$scratch/sdist-venv"
    if "$scratch/sdist-venv/bin/python" -m pip install -q "$sdist" >"$scratch/sdist.log" 2>&1; then
        v=$("$scratch/sdist-venv/bin/dlenv" --version 2>&1) || true
        # built outside the checkout: no git, so no commit to name
        if [ "$v" = "dlenv $version (unknown commit)" ]; then
            pass "pip install of the sdist compiles and installs dlenv ($v)"
        else
            fail "the sdist's dlenv --version said '$v'"
        fi
    else
        fail "pip install $(basename "$sdist") failed: $(tail -n 10 "$scratch/sdist.log")"
    fi
fi

# macOS: cannot run here; the wheel is sound and `file` names the right Mach-O machine.
for cpu in aarch64 x86_64; do
    case " $targets " in *" $cpu-macos "*) ;; *) continue ;; esac
    case $cpu in aarch64) tag=arm64 ;; *) tag=x86_64 ;; esac
    mac=$out/dlenv-$version-py3-none-macosx_11_0_$tag.whl
    if [ ! -f "$mac" ]; then
        fail "no $(basename "$mac")"
        continue
    fi
    python3 tests/dist/check_wheel.py "$mac" >/dev/null || fail "check_wheel.py $(basename "$mac")"
    unpack "$mac" "$scratch/mac-$cpu"
    bin=$scratch/mac-$cpu/dlenv-$version.data/scripts/dlenv
    if file -b "$bin" | grep -q "^Mach-O 64-bit $tag executable"; then
        pass "macOS $tag wheel: file says $(file -b "$bin" | cut -d, -f1)"
    else
        fail "macOS $tag wheel: file says $(file -b "$bin")"
    fi
done

# Windows arm64 (zig): cannot run here (Wine runs x86-64 only); the wheel is sound and
# `file` says an arm64 Windows program.
case " $targets " in *" aarch64-windows "*)
    wa=$out/dlenv-$version-py3-none-win_arm64.whl
    if [ ! -f "$wa" ]; then
        fail "no $(basename "$wa")"
    else
        python3 tests/dist/check_wheel.py "$wa" >/dev/null || fail "check_wheel.py $(basename "$wa")"
        unpack "$wa" "$scratch/wa"
        if file -b "$scratch/wa/dlenv-$version.data/scripts/dlenv.exe" | grep -q 'Aarch64, for MS Windows'; then
            pass "Windows arm64 wheel: file says PE32+ Aarch64"
        else
            fail "Windows arm64 wheel: file says $(file -b "$scratch/wa/dlenv-$version.data/scripts/dlenv.exe")"
        fi
    fi ;;
esac

if [ "$failures" -ne 0 ]; then
    echo "dist: $failures check(s) failed" >&2
    exit 1
fi
echo "dist: all checks passed"
