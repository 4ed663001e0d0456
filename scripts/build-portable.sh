#!/bin/sh
# Build a dlenv for Linux that needs only glibc, with the GPU proof kit beside it.
#
#   scripts/build-portable.sh OUTDIR        build, check, and fill OUTDIR
#   scripts/build-portable.sh --check FILE [--max-glibc X.Y]
#                                           only check that FILE needs only glibc (and
#                                           no symbol version newer than X.Y)
#
# The ordinary build links the system's libcjson.so.1, which a machine lent for a few
# minutes (no network, nothing to install) does not have. This builds cJSON as a static
# library from Debian's source package (scripts/portable-deps.sh, kept in
# build-portable-deps/ between runs), links dlenv against it (-DDLENV_CJSON_PREFIX) in
# build-portable/, and checks the ELF file's needed libraries (objdump -p, else readelf
# -d): only glibc's (libc, libm, libdl, libpthread, librt, ld-linux) may remain. `dlenv
# lint` is built in, its tree-sitter runtime compiled from the pinned sdist (not the
# system's libtree-sitter; cmake/lint_grammar.cmake). The newest
# glibc symbol version it uses is printed: the GPU machine's glibc must be at least that.
#
# OUTDIR gets dlenv, scripts/gpu-proof.sh and scripts/gpu-proof/: copy the folder to the
# GPU machine and run `./gpu-proof.sh RESULTS` there (docs/hardware-runs/README.md).
set -eu

say() { printf 'build-portable: %s\n' "$*"; }
die() { printf 'build-portable: error: %s\n' "$*" >&2; exit 1; }

# needed FILE: the DT_NEEDED entries of an ELF file, one a line. readelf first: it reads
# every machine's ELF files (aarch64 ones on x86-64), where objdump knows only its own.
needed() {
    if command -v readelf >/dev/null 2>&1; then
        readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
    elif command -v objdump >/dev/null 2>&1; then
        objdump -p "$1" | sed -n 's/^ *NEEDED *\([^ ]*\)$/\1/p'
    else
        die "needs objdump or readelf (binutils)"
    fi
}

# check FILE: fails, naming them, when FILE needs a library that is not glibc's.
check() {
    [ -f "$1" ] || die "no file $1"
    head -c 4 "$1" | grep -q 'ELF' || die "$1 is not an ELF file"
    libs=$(needed "$1")
    [ -n "$libs" ] || die "$1 needs no shared library at all (static?), or it could not be read"
    foreign=$(printf '%s\n' "$libs" | grep -v -E \
        '^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9]+)$' || true)
    if [ -n "$foreign" ]; then
        die "$1 needs more than glibc: $(printf '%s' "$foreign" | tr '\n' ' ')"
    fi
    glibc=$( (readelf --dyn-syms -W "$1" 2>/dev/null || objdump -T "$1" 2>/dev/null) |
        grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -t . -k 1,1n -k 2,2n -k 3,3n |
        tail -n 1)
    if [ -n "${2:-}" ] && [ -n "$glibc" ] &&
        [ "$(printf '%s\n%s\n' "$2" "$glibc" | sort -t . -k 1,1n -k 2,2n -k 3,3n | tail -n 1)" != "$2" ]; then
        die "$1 needs glibc $glibc, newer than $2"
    fi
    say "$1 needs only glibc ($(printf '%s' "$libs" | tr '\n' ' ' | sed 's/ $//'))${glibc:+; glibc >= $glibc}"
}

case "${1:-}" in
    --check)
        if [ $# -eq 2 ]; then
            check "$2"
        elif [ $# -eq 4 ] && [ "$3" = --max-glibc ]; then
            check "$2" "$4"
        else
            die "usage: scripts/build-portable.sh --check FILE [--max-glibc X.Y]"
        fi
        exit 0 ;;
    "" | -*) echo "usage: scripts/build-portable.sh OUTDIR | --check FILE" >&2; exit 2 ;;
esac
[ $# -eq 1 ] || { echo "usage: scripts/build-portable.sh OUTDIR | --check FILE" >&2; exit 2; }
out=$1
cd "$(dirname "$0")/.."
root=$(pwd)

sh scripts/portable-deps.sh "$root/build-portable-deps"
say "configuring build-portable/"
# The build type the tests run (-O2): -O3 would ship code nobody tested, and GCC 12 warns
# at -O3 where it does not at -O2 (-Wdangling-pointer in src/probe/gpu/cuda_toolkits.c).
cmake -S . -B build-portable -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLENV_WERROR=ON -DDLENV_TESTS=OFF \
      -DDLENV_CJSON_PREFIX="$root/build-portable-deps" \
      -DDLENV_LINT=ON -DDLENV_LINT_RUNTIME=SOURCE -DDLENV_LINT_DOWNLOADS="$root/build-downloads" >/dev/null
say "building"
cmake --build build-portable --target dlenv -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
check build-portable/dlenv

mkdir -p "$out/gpu-proof"
cp build-portable/dlenv "$out/dlenv.tmp"
mv "$out/dlenv.tmp" "$out/dlenv"
cp scripts/gpu-proof.sh "$out/"
cp scripts/gpu-proof/*.py scripts/gpu-proof/*.csv "$out/gpu-proof/"
say "$out: dlenv $(build-portable/dlenv --version | sed 's/^dlenv //'), gpu-proof.sh, gpu-proof/"
