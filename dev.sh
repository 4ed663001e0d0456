#!/bin/sh
# dev.sh: set up, build and run dlenv on a fresh Debian machine.
#   ./dev.sh doctor   install the build dependencies, build, run `dlenv doctor`
#   ./dev.sh test     install the build dependencies, build (warnings are errors) and run
#                     every test, then again under AddressSanitizer + UBSan
#   ./dev.sh build    install the build dependencies and build only
#   ./dev.sh fuzz [S] run the explain fuzzer for S seconds (default 60; part of `test`)
#   ./dev.sh windows  build dlenv.exe with MinGW-w64 (scripts/build-windows.sh) and run the
#                     Windows suite under Wine (tests/windows/run.sh; part of `test`)
set -eu
cd "$(dirname "$0")"

# Debian packages; the same libraries are cjson/cmocka in Fedora, Arch, MSYS2 and vcpkg
# (see README.md).
BUILD_DEPS="gcc make cmake pkg-config libcjson-dev libcmocka-dev pci.ids util-linux"
# The tests also use real components: Debian's CPU build of torch, venv and pip; clang
# builds the libFuzzer target.
TEST_DEPS="python3 python3-torch python3-venv python3-pip python3-setuptools clang"

missing_packages() { # missing_packages PACKAGES...
    command -v dpkg-query >/dev/null 2>&1 || return 0
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            printf '%s ' "$p"
    done
}

setup() { # setup PACKAGES...
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "dev.sh: not a Debian system: install the packages listed in README.md yourself" >&2
        return 0
    fi
    missing=$(missing_packages "$@")
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    else
        echo "dev.sh: missing build dependencies; install them with:" >&2
        echo "  sudo apt-get install -y $missing" >&2
        exit 1
    fi
}

build() { # build DIR [cmake options...]
    dir=$1
    shift
    cmake -S . -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)"
}

# fuzz SECONDS: the explain parsers under libFuzzer + ASan for a bounded time, from the
# corpus in tests/fuzz/corpus (new inputs go to a scratch directory, not the repository).
fuzz() {
    CC=clang build build-fuzz -DDLENV_FUZZ=ON -DDLENV_TESTS=OFF
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-fuzz.XXXXXX")
    status=0
    ./build-fuzz/fuzz_explain -max_total_time="$1" -max_len=16384 -timeout=10 \
        -dict=tests/fuzz/explain.dict -artifact_prefix="$scratch/" "$scratch" tests/fuzz/corpus \
        2>"$scratch/log" || status=$?
    tail -n 3 "$scratch/log"
    if [ "$status" -ne 0 ]; then
        echo "dev.sh: the fuzzer found a failure (exit $status):" >&2
        grep -A 20 "ERROR" "$scratch/log" >&2 || true
        ls "$scratch"/crash-* "$scratch"/timeout-* "$scratch"/leak-* 2>/dev/null >&2 || true
        exit 1
    fi
    rm -rf "$scratch"
}

# windows: the Windows build (dependencies from Debian's source packages, cross-compiled)
# and its tests under Wine, in a prefix of their own.
windows() {
    sh scripts/build-windows.sh build-windows/out
    sh tests/windows/run.sh build-windows
}

case "${1:-}" in
doctor)
    setup $BUILD_DEPS
    build build
    # Exit code 1 means doctor found a failure: the quick start has still done its job.
    ./build/dlenv doctor || [ $? -eq 1 ]
    ;;
test)
    setup $BUILD_DEPS $TEST_DEPS
    build build -DDLENV_WERROR=ON
    (cd build && ctest --output-on-failure -j 2)
    build build-asan -DDLENV_WERROR=ON -DDLENV_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --output-on-failure -j 2)
    fuzz "${DLENV_FUZZ_SECONDS:-60}"
    windows
    ;;
windows)
    setup $BUILD_DEPS python3
    windows
    ;;
fuzz)
    setup $BUILD_DEPS clang
    fuzz "${2:-60}"
    ;;
build)
    setup $BUILD_DEPS
    build build
    ;;
*)
    echo "usage: ./dev.sh doctor | test | build | fuzz [SECONDS] | windows" >&2
    exit 2
    ;;
esac
