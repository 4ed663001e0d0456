# scripts/build-portable.sh --check, the check that the binary copied to a lent GPU machine
# needs nothing but glibc, on files whose answer is known: this build's dlenv (refused,
# naming libcjson.so.1, when it links the system's cJSON; accepted when built with
# -DDLENV_CJSON_PREFIX), the fakes' self-test program (glibc only: accepted) and a shell
# script (not ELF: refused). Skipped without the fakes or without readelf.
set -eu
. "$(dirname "$0")/lib.inc"

check=$(dirname "$0")/../../scripts/build-portable.sh
glibc_only=$(dirname "$dlenv")/tests/fakes/fake_selftest
[ -f "$glibc_only" ] || { echo "SKIP: no $glibc_only"; exit 77; }
command -v readelf >/dev/null 2>&1 || { echo "SKIP: no readelf"; exit 77; }
# A sanitizer build links its runtime into everything: no glibc-only file to check there.
if LC_ALL=C readelf -d "$glibc_only" 2>/dev/null | grep -q 'NEEDED.*lib[a-z]*san'; then
    echo "SKIP: a sanitizer build (libasan/libubsan in every binary)"
    exit 77
fi

portable_check() { # portable_check FILE: sets $rc, $out (stdout and stderr)
    set +e
    out=$(sh "$check" --check "$1" 2>&1)
    rc=$?
    set -e
}

portable_check "$glibc_only"
expect_eq "glibc only: exit" 0 "$rc"
case "$out" in *"needs only glibc (libc.so.6"*) ;; *) fail "glibc only: said '$out'" ;; esac

portable_check "$dlenv"
if LC_ALL=C readelf -d "$dlenv" 2>/dev/null | grep -q 'NEEDED.*libcjson'; then
    expect_eq "system cJSON: exit" 1 "$rc"
    case "$out" in *"needs more than glibc: libcjson.so.1"*) ;;
        *) fail "system cJSON: said '$out'" ;; esac
else
    expect_eq "static cJSON: exit" 0 "$rc"
fi

portable_check "$check"
expect_eq "not ELF: exit" 1 "$rc"
case "$out" in *"is not an ELF file"*) ;; *) fail "not ELF: said '$out'" ;; esac

finish
