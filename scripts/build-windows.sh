#!/bin/sh
# Build the Windows dlenv.exe on a fresh Debian machine, dependencies included.
#
#   scripts/build-windows.sh OUTDIR
#
# Installs the MinGW-w64 cross compiler (and Wine, to run the tests) when missing, builds
# cJSON and cmocka for Windows from Debian's source packages (scripts/windows-deps.sh, kept
# in build-windows-deps/ between runs), cross-builds everything with
# cmake/mingw-w64-x86_64.cmake in build-windows/ and copies dlenv.exe to OUTDIR. The tests'
# Windows pieces (the fake nvml.dll / nvcuda.dll, the unit tests) are built alongside in
# build-windows/; tests/windows/run.sh runs them under Wine. `dlenv lint` is built in
# (-DDLENV_LINT=ON): the tree-sitter runtime and the Python grammar are compiled with MinGW
# from their pinned sdists (cmake/lint_grammar.cmake), downloaded once into
# build-downloads/ (shared with scripts/build-dist.sh and build-portable.sh).
set -eu
[ $# -eq 1 ] || { echo "usage: scripts/build-windows.sh OUTDIR" >&2; exit 2; }
out=$1
cd "$(dirname "$0")/.."
root=$(pwd)

need=""
for p in gcc-mingw-w64-x86-64 wine cmake make pkg-config dpkg-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        need="$need $p"
done
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "build-windows: installing$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
    else
        echo "build-windows: missing packages; install them with: sudo apt-get install -y$need" >&2
        exit 1
    fi
fi

sh scripts/windows-deps.sh "$root/build-windows-deps"
echo "build-windows: configuring build-windows/"
cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" \
      -DDLENV_WIN_DEPS="$root/build-windows-deps" -DDLENV_WERROR=ON \
      -DDLENV_LINT=ON -DDLENV_LINT_RUNTIME=SOURCE -DDLENV_LINT_DOWNLOADS="$root/build-downloads" >/dev/null
echo "build-windows: building"
cmake --build build-windows -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p "$out"
cp build-windows/dlenv.exe "$out/dlenv.exe.tmp"
mv "$out/dlenv.exe.tmp" "$out/dlenv.exe"
echo "build-windows: $out/dlenv.exe"
