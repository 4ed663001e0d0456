#!/bin/sh
# dev.sh: set up, build and run dlenv on a fresh Debian machine.
#   ./dev.sh doctor   install the build dependencies, build, run `dlenv doctor`
#   ./dev.sh test     install the build dependencies, build (warnings are errors) and run
#                     every test, then again under AddressSanitizer + UBSan
#   ./dev.sh build    install the build dependencies and build only
#   ./dev.sh fuzz [S] run each fuzzer (explain, report, snapshot, csv) for S seconds
#                     (default 60; part of `test`, 28 s each there)
#   ./dev.sh windows  build dlenv.exe with MinGW-w64 (scripts/build-windows.sh) and run the
#                     Windows suite under Wine (tests/windows/run.sh; part of `test`)
#   ./dev.sh dist     build the release files (scripts/build-dist.sh: glibc-2.17 binary with
#                     zig from PyPI, wheel, archive, SHA256SUMS) in build-dist/out and test
#                     them as pip, uv and uvx install them (tests/dist/run.sh; part of `test`)
set -eu
cd "$(dirname "$0")"

# Debian packages; the same libraries are cjson/cmocka in Fedora, Arch, MSYS2 and vcpkg
# (see README.md).
BUILD_DEPS="gcc make cmake pkg-config libcjson-dev libcmocka-dev pci.ids util-linux libtree-sitter-dev"
# The tests also use real components: Debian's CPU build of torch, venv and pip; clang
# builds the libFuzzer target; node_exporter serves fleet check's textfile and promtool
# lints it (promtool is only in the whole prometheus package: 19 MB, 96 MB installed);
# Slurm and munge (with iproute2's network namespaces) run a small cluster for fleet check
# --drain (tests/e2e/fleet_slurm.sh); pdsh and clustershell (clush) are fleet report's
# launchers (tests/e2e/fleet_launchers.sh).
TEST_DEPS="python3 python3-torch python3-venv python3-pip python3-setuptools clang prometheus-node-exporter prometheus slurm-wlm munge iproute2 pdsh clustershell"
# The release files' tests (./dev.sh dist): the aarch64 binary runs under qemu-user with
# Debian's aarch64 glibc; the Windows one under Wine (scripts/build-windows.sh installs it).
DIST_DEPS="qemu-user libc6-arm64-cross file"

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

# build DIR [cmake options...]: lint's two pinned sdists (cmake/lint_grammar.cmake) are
# downloaded once into build-downloads/, which every build and the release scripts share.
build() {
    dir=$1
    shift
    cmake -S . -B "$dir" -DDLENV_LINT_DOWNLOADS="$(pwd)/build-downloads" "$@" >/dev/null
    cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)"
}

# fuzz SECONDS: each libFuzzer target (ASan + UBSan) for SECONDS: the paste reader
# (explain), the report reader (doctor --from), the snapshot reader (diff) and the CSV
# reader. Each starts from its seeds (the fixtures, copied to a scratch directory) and its
# regression inputs (tests/fuzz/regress/TARGET); new inputs go to the scratch directory,
# not the repository, and a crash's input is named there.
FUZZ_TARGETS="explain report snapshot csv"

fuzz_seeds() { # fuzz_seeds DIR: DIR/TARGET for each target, from the fixtures
    mkdir -p "$1/explain" "$1/report" "$1/snapshot" "$1/csv"
    cp tests/fuzz/corpus/* "$1/explain/"
    cp tests/doctor/base.json tests/doctor/windows.json "$1/report/"
    for d in tests/machines/*/; do
        [ -f "$d/expected.json" ] && cp "$d/expected.json" "$1/report/machine-$(basename "$d").json"
    done
    cp tests/diff/*.json tests/doctor/base.json "$1/snapshot/"
    for d in tests/diff/*/; do
        for side in before after; do
            cp "$d/$side.json" "$1/snapshot/$(basename "$d")-$side.json"
        done
    done
    cp data/*.csv "$1/csv/"
}

fuzz() {
    CC=clang build build-fuzz -DDLENV_FUZZ=ON -DDLENV_TESTS=OFF
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-fuzz.XXXXXX")
    fuzz_seeds "$scratch/seeds"
    failed=""
    for target in $FUZZ_TARGETS; do
        mkdir -p "$scratch/new/$target" "$scratch/found/$target"
        # the paste reader's inputs are logs, cut to 16 KiB; the others take their seeds' size
        case "$target" in
        explain) extra="-max_len=16384 -dict=tests/fuzz/explain.dict" ;;
        report | snapshot) extra="-dict=tests/fuzz/json.dict" ;;
        *) extra="" ;;
        esac
        status=0
        # shellcheck disable=SC2086
        ./build-fuzz/fuzz_$target -max_total_time="$1" -timeout=10 $extra \
            -artifact_prefix="$scratch/found/$target/" "$scratch/new/$target" \
            "$scratch/seeds/$target" "tests/fuzz/regress/$target" \
            2>"$scratch/$target.log" || status=$?
        echo "fuzz_$target: $(grep -E '^Done [0-9]+ runs' "$scratch/$target.log" | tail -n 1)"
        if [ "$status" -ne 0 ]; then
            echo "dev.sh: fuzz_$target found a failure (exit $status):" >&2
            grep -A 20 "ERROR" "$scratch/$target.log" >&2 || tail -n 20 "$scratch/$target.log" >&2
            ls "$scratch/found/$target/"* >&2 2>/dev/null || true
            failed="$failed $target"
        fi
    done
    if [ -n "$failed" ]; then
        echo "dev.sh: fuzzing failed for:$failed (inputs kept in $scratch/found; add each to" \
            "tests/fuzz/regress/TARGET once understood)" >&2
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

# dist: the release files (wheel, archive, SHA256SUMS) and their tests.
# macOS (two more zig builds, two minutes) only in the release workflow: CI stays short.
dist() {
    DLENV_DIST_TARGETS=${DLENV_DIST_TARGETS:-x86_64-linux aarch64-linux x86_64-windows}
    export DLENV_DIST_TARGETS
    sh scripts/build-dist.sh build-dist/out
    sh tests/dist/run.sh build-dist/out
}

# suite DIR: the whole CTest suite of a build, two at a time (CI's machines have two cores)
suite() {
    (cd "$1" && ctest --output-on-failure -j 2)
}

# timed LABEL COMMAND ARGS...: run a step and say how long it took: CI has a 30-minute
# budget, and its log then shows where the time goes.
timed() {
    label=$1
    shift
    t0=$(date +%s)
    "$@"
    echo "dev.sh: $label took $(($(date +%s) - t0)) s"
}

case "${1:-}" in
doctor)
    setup $BUILD_DEPS
    build build
    # Exit code 1 means doctor found a failure: the quick start has still done its job.
    ./build/dlenv doctor || [ $? -eq 1 ]
    ;;
test)
    timed setup setup $BUILD_DEPS $TEST_DEPS $DIST_DEPS
    timed "build" build build -DDLENV_WERROR=ON
    timed "tests" suite build
    # the sanitizer build lints with the tree-sitter runtime the release binaries ship
    # (compiled from its sdist), the first build with Debian's: the lint tests run on both
    timed "sanitizer build" build build-asan -DDLENV_WERROR=ON -DDLENV_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
        -DDLENV_LINT_RUNTIME=SOURCE
    (
        export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
        timed "sanitizer tests" suite build-asan
    )
    # four targets: under two minutes in all
    timed fuzzing fuzz "${DLENV_FUZZ_SECONDS:-28}"
    timed "Windows build and tests" windows
    timed "release files" dist
    ;;
dist)
    setup $BUILD_DEPS python3 python3-venv $DIST_DEPS
    dist
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
    echo "usage: ./dev.sh doctor | test | build | fuzz [SECONDS] | windows | dist" >&2
    exit 2
    ;;
esac
