#!/bin/sh
# Build dlenv's release files: binaries that need nothing but the C library, wheels whose
# only content is the binary (`pip install dlenv`, `uvx dlenv doctor`), archives and
# SHA256SUMS.
#
#   scripts/build-dist.sh OUTDIR
#   DLENV_DIST_TARGETS="x86_64-linux aarch64-linux" scripts/build-dist.sh OUTDIR
#
# Linux binaries are built with `zig cc` from PyPI's ziglang package (installed with pip
# into build-dist/tools/, a venv of its own) for glibc 2.17 (manylinux2014): zig ships
# the symbol lists of old glibc versions, so one Debian machine builds for every
# distribution since CentOS 7 and cross-builds aarch64, and the binary still links glibc
# dynamically, which dlopen of NVML and libcuda needs (a static musl binary cannot). cJSON
# comes from Debian's source package (scripts/portable-deps.sh), built with the same zig
# target and linked statically; `dlenv lint`'s parser (the tree-sitter runtime and the
# Python grammar) from their pinned PyPI sdists, compiled in by the same zig target.
# Everything, zig's cache included, stays under build-dist/ (the two sdists: build-downloads/).
#
# Targets (DLENV_DIST_TARGETS, default all but aarch64-windows): x86_64-linux,
# aarch64-linux, aarch64-macos, x86_64-macos (zig), x86_64-windows (scripts/build-windows.sh,
# MinGW-w64), aarch64-windows (zig's MinGW-w64; builds, never run: not in the default). OUTDIR gets, per target:
# dlenv-VERSION-TARGET.tar.gz, or .zip for Windows (the binary and README.md;
# scripts/make-archive.py), dlenv-VERSION-py3-none-PLATFORM.whl (scripts/make-wheel.py),
# the sdist dlenv-VERSION.tar.gz (pyproject.toml), SHA256SUMS for all, and packaging/ (the
# winget, scoop and conda-forge manifests with these hashes).
# SOURCE_DATE_EPOCH (default: the last commit's time) fixes every timestamp, so a
# second build of the same binary gives byte-identical files.
set -eu

# pinned: the toolchain is part of what a release is built with
ZIGLANG=ziglang==0.17.1
SKBUILD=scikit-build-core==1.1.2
REPO=dlenv/dlenv          # GitHub owner/name, for the URLs in the packaging/ manifests
GLIBC=2.17                # manylinux2014

say() { printf 'build-dist: %s\n' "$*"; }
die() { printf 'build-dist: error: %s\n' "$*" >&2; exit 1; }

if [ $# -ne 1 ] || [ -z "$1" ]; then echo "usage: scripts/build-dist.sh OUTDIR" >&2; exit 2; fi
mkdir -p "$1"
out=$(CDPATH='' cd -- "$1" && pwd)
cd "$(dirname "$0")/.."
root=$(pwd)
dist=$root/build-dist
targets=${DLENV_DIST_TARGETS:-x86_64-linux aarch64-linux x86_64-windows aarch64-macos x86_64-macos}

version=$(sed -n 's/^project(dlenv VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || die "no project(dlenv VERSION x.y.z) in CMakeLists.txt"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 315532800)
fi
export SOURCE_DATE_EPOCH

# tools: a venv with ziglang, so that nothing is installed into the system's Python
# (Debian's refuses pip installs: PEP 668).
tools() {
    if ! "$dist/tools/bin/python" -c 'import ziglang' 2>/dev/null ||
        [ "$(cat "$dist/tools/pins" 2>/dev/null)" != "$ZIGLANG $SKBUILD" ]; then
        say "installing $ZIGLANG $SKBUILD into build-dist/tools/ (pip)"
        rm -rf "$dist/tools"
        python3 -m venv "$dist/tools" || die "python3 -m venv failed (apt-get install python3-venv)"
        PIP_CACHE_DIR="$dist/pip-cache" "$dist/tools/bin/python" -m pip install -q \
            --disable-pip-version-check "$ZIGLANG" "$SKBUILD" ||
            die "pip install $ZIGLANG $SKBUILD failed"
        printf '%s\n' "$ZIGLANG $SKBUILD" >"$dist/tools/pins"
    fi
    zig=$("$dist/tools/bin/python" -c 'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
    [ -x "$zig" ] || die "ziglang has no zig binary at $zig"
}

# toolchain ZIGTARGET SYSTEM CPU: build-dist/zig/ZIGTARGET/{cc,ar,ranlib,toolchain.cmake},
# the wrappers CMake uses as its compiler and archiver.
toolchain() {
    tc=$dist/zig/$1
    mkdir -p "$tc" "$dist/zig-cache"
    for tool in cc ar ranlib; do
        case $tool in cc) args="cc -target $1" ;; *) args=$tool ;; esac
        cat >"$tc/$tool" <<WRAP
#!/bin/sh
ZIG_GLOBAL_CACHE_DIR='$dist/zig-cache' ZIG_LOCAL_CACHE_DIR='$dist/zig-cache' exec '$zig' $args "\$@"
WRAP
        chmod +x "$tc/$tool"
    done
    cat >"$tc/toolchain.cmake" <<TC
set(CMAKE_SYSTEM_NAME $2)
set(CMAKE_SYSTEM_PROCESSOR $3)
set(CMAKE_OSX_SYSROOT "")
set(CMAKE_C_COMPILER "$tc/cc")
set(CMAKE_AR "$tc/ar" CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB "$tc/ranlib" CACHE FILEPATH "" FORCE)
TC
}

# zigbuild NAME ZIGTARGET SYSTEM CPU WHEELPLATFORM [CFLAGS]: build dlenv with zig, package it.
# `dlenv lint` is in every release binary (DLENV_LINT=ON: a build without it fails): the
# tree-sitter runtime and the Python grammar compiled by the same zig target from their
# pinned sdists (cmake/lint_grammar.cmake), downloaded once into build-downloads/, which
# scripts/build-windows.sh and build-portable.sh share.
zigbuild() {
    toolchain "$2" "$3" "$4"
    CMAKE_TOOLCHAIN_FILE=$tc/toolchain.cmake sh scripts/portable-deps.sh "$dist/deps-$1"
    bdir=$dist/$1
    say "building $2 in build-dist/$1/"
    # -O2 as the tests run it (see build-portable.sh); -s: no symbols, which halves the size.
    cmake -S . -B "$bdir" -DCMAKE_TOOLCHAIN_FILE="$tc/toolchain.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS="${6:-}" \
        -DCMAKE_EXE_LINKER_FLAGS="-s" -DDLENV_WERROR=ON -DDLENV_TESTS=OFF \
        -DDLENV_CJSON_PREFIX="$dist/deps-$1" -DDLENV_LINT=ON -DDLENV_LINT_RUNTIME=SOURCE \
        -DDLENV_LINT_DOWNLOADS="$root/build-downloads" >/dev/null
    cmake --build "$bdir" --target dlenv -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
    case $3 in
    Linux)
        sh scripts/build-portable.sh --check "$bdir/dlenv" --max-glibc "$GLIBC"
        package "$bdir/dlenv" "$1" "$5" ;;
    Windows) package "$bdir/dlenv.exe" "$1" "$5" zip ;;
    *) package "$bdir/dlenv" "$1" "$5" ;;
    esac
}

# linux CPU: for glibc 2.17, manylinux2014. macos CPU: for macOS 11, the first on arm64.
linux() {
    zigbuild "$1-linux" "$1-linux-gnu.$GLIBC" Linux "$1" "manylinux_2_17_$1.manylinux2014_$1"
}
macos() {
    zigbuild "$1-macos" "$1-macos.11.0" Darwin "$1" "macosx_11_0_$2"
}
# Windows arm64: zig's MinGW-w64 (Debian's has no arm64 target). zig defines
# _WIN32_WINNT itself (0x0a00), as CMakeLists.txt does (0x0A00): the same value.
windows_arm64() {
    zigbuild aarch64-windows aarch64-windows-gnu Windows ARM64 win_arm64 -Wno-macro-redefined
}

# windows: dlenv.exe from scripts/build-windows.sh (MinGW-w64, its own cJSON from Debian's
# source package), built in build-windows/ as ./dev.sh windows does, so CI builds it once.
windows() {
    sh scripts/build-windows.sh "$dist/windows-x86_64"
    # build-windows/ keeps its debug information (for the Wine suite's reports); the
    # release does not need it: a fifth of the size.
    mkdir -p "$dist/windows-x86_64/release"
    x86_64-w64-mingw32-strip -o "$dist/windows-x86_64/release/dlenv.exe" "$dist/windows-x86_64/dlenv.exe"
    package "$dist/windows-x86_64/release/dlenv.exe" x86_64-windows win_amd64 zip
}

# package BINARY NAME WHEELPLATFORM [zip]: the archive (.tar.gz, or .zip) and the wheel.
package() {
    python=$dist/tools/bin/python
    "$python" scripts/make-archive.py --binary "$1" --readme README.md \
        --out "$out/dlenv-$version-$2.${4:-tar.gz}"
    "$python" scripts/make-wheel.py --binary "$1" --version "$version" \
        --platform "$3" --readme README.md --out "$out" >/dev/null
    say "$2: $(wc -c <"$1" | tr -d ' ') bytes; dlenv-$version-$2.${4:-tar.gz}, dlenv-$version-py3-none-$3.whl"
}

# sdist: dlenv-VERSION.tar.gz, what `pip install dlenv` compiles where no wheel fits
# (pyproject.toml), and what the conda-forge recipe builds.
sdist() {
    rm -f "$out/dlenv-$version.tar.gz"
    "$dist/tools/bin/python" -c 'import sys
from scikit_build_core.build import build_sdist
build_sdist(sys.argv[1])' "$out" >/dev/null
    [ -f "$out/dlenv-$version.tar.gz" ] || die "scikit-build-core wrote no dlenv-$version.tar.gz"
    say "sdist: dlenv-$version.tar.gz"
}

# manifests: packaging/'s templates with this version and these hashes, in OUTDIR/packaging/.
manifests() {
    zip_sum=$(sed -n "s/^\([0-9a-f]*\)  dlenv-$version-x86_64-windows.zip\$/\1/p" "$out/SHA256SUMS")
    sdist_sum=$(sed -n "s/^\([0-9a-f]*\)  dlenv-$version.tar.gz\$/\1/p" "$out/SHA256SUMS")
    rm -rf "$out/packaging"
    (cd packaging && find . -type f ! -name README.md) | LC_ALL=C sort | while read -r f; do
        mkdir -p "$(dirname "$out/packaging/$f")"
        sed -e "s|@VERSION@|$version|g" -e "s|@REPO@|$REPO|g" \
            -e "s|@SHA256_X86_64_WINDOWS_ZIP@|${zip_sum:-no-windows-zip-built}|g" \
            -e "s|@SHA256_SDIST@|${sdist_sum:-no-sdist-built}|g" "packaging/$f" >"$out/packaging/$f"
    done
    say "packaging/: winget, scoop, conda-forge manifests"
}

tools
sdist
for t in $targets; do
    case $t in
    x86_64-linux) linux x86_64 ;;
    aarch64-linux) linux aarch64 ;;
    aarch64-macos) macos aarch64 arm64 ;;
    x86_64-macos) macos x86_64 x86_64 ;;
    aarch64-windows) windows_arm64 ;;
    x86_64-windows) windows ;;
    *) die "unknown target $t (x86_64-linux, aarch64-linux, x86_64-windows, aarch64-macos, x86_64-macos, aarch64-windows)" ;;
    esac
done
(cd "$out" && find . -maxdepth 1 -type f \( -name '*.whl' -o -name '*.tar.gz' -o -name '*.zip' \) |
    sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
say "$out: $(wc -l <"$out/SHA256SUMS" | tr -d ' ') files, SHA256SUMS"
manifests
