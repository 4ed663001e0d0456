#!/bin/sh
# Build a static cJSON for this Linux machine from Debian's source package.
#
#   scripts/portable-deps.sh PREFIX
#
# The ordinary Linux build links the system's libcjson.so.1, which a GPU machine lent for a
# few minutes does not have. This fetches the Debian 12 source package cjson with a
# private apt state and unpacks it with dpkg-source (Debian's patches applied), exactly as
# scripts/windows-deps.sh does for MinGW (both through scripts/debian-source.sh), builds
# it as a static, position-independent library and installs
#
#   PREFIX/include/cjson/cJSON.h  PREFIX/lib/libcjson.a
#   PREFIX/dlenv-portable-deps.stamp  (the Debian source version)
#
# Then: cmake -DDLENV_CJSON_PREFIX=PREFIX (scripts/build-portable.sh does all of it).
#
# If PREFIX already holds a complete result, nothing is done. Otherwise everything is built
# in a temporary directory and PREFIX is replaced only at the end. PREFIX must be new,
# empty, or an earlier result of this script.
#
# Needs apt-get, dpkg-source (dpkg-dev), cmake, make and cc; missing ones are installed
# with apt-get when run as root.
set -eu

# Bump when the build below changes, so that older results are rebuilt.
RECIPE=1

# shellcheck disable=SC2034 # used by debian-source.sh
DEB_TAG=portable-deps
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=scripts/debian-source.sh
. "$here/debian-source.sh"

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi
deb_prefix "$1"
stamp=$prefix/dlenv-portable-deps.stamp

have_result() {
  [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "recipe $RECIPE" ] &&
    grep -q '^cjson ' "$stamp" && [ -f "$prefix/lib/libcjson.a" ] &&
    [ -f "$prefix/include/cjson/cJSON.h" ]
}
if have_result; then
  say "$prefix is up to date ($(sed -n 's/^cjson //p' "$stamp"))"
  exit 0
fi
deb_check_prefix "$stamp"

deb_need cmake cmake
deb_need make make
deb_need cc gcc
deb_install_missing
deb_work
deb_fetch cjson

# Static only, position-independent (Debian's compilers make PIE executables by default),
# into lib/ whatever GNUInstallDirs would pick for this distribution. Its "custom compiler
# flags" (-Werror among them) are left out: a newer compiler's new warning must not stop a
# dependency we do not edit.
say "building cjson"
quiet "$work/configure.log" cmake -S "$work/src/cjson" -B "$work/build/cjson" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_SHARED_LIBS=OFF \
  -DBUILD_SHARED_AND_STATIC_LIBS=OFF -DENABLE_CJSON_TEST=OFF -DENABLE_CJSON_UTILS=OFF \
  -DENABLE_CUSTOM_COMPILER_FLAGS=OFF
quiet "$work/build.log" cmake --build "$work/build/cjson" --parallel "$(nproc 2>/dev/null || echo 2)"
quiet "$work/install.log" env DESTDIR="$work/stage" cmake --install "$work/build/cjson"

out=$work/stage$prefix
[ -f "$out/lib/libcjson.a" ] || die "cJSON installed no lib/libcjson.a"
[ -f "$out/include/cjson/cJSON.h" ] || die "cJSON installed no include/cjson/cJSON.h"
if find "$out" -name '*.so*' | grep -q .; then
  die "shared libraries left in the result: $(find "$out" -name '*.so*')"
fi
printf 'recipe %s\n%s' "$RECIPE" "$versions" >"$out/dlenv-portable-deps.stamp"

deb_replace_prefix "$out"
say "done: $(printf '%s' "$versions" | tr '\n' ' ' | sed 's/ $//')"
