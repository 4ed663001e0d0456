#!/bin/sh
# Build dlenv's Windows (MinGW-w64, x86_64) dependencies from Debian's source packages.
#
#   scripts/windows-deps.sh PREFIX
#
# Fetches the Debian 12 source packages cjson and cmocka (with a private apt state, so the
# system's apt configuration and lists are left alone), unpacks them with dpkg-source
# (Debian's patches applied; scripts/debian-source.sh, shared with the portable Linux
# build's scripts/portable-deps.sh), cross-builds static libraries with
# cmake/mingw-w64-x86_64.cmake and installs them into PREFIX:
#
#   PREFIX/include/cjson/cJSON.h  PREFIX/lib/libcjson.a   PREFIX/lib/pkgconfig/libcjson.pc
#   PREFIX/include/cmocka*.h      PREFIX/lib/libcmocka.a  PREFIX/lib/pkgconfig/cmocka.pc
#   PREFIX/dlenv-windows-deps.stamp  (the Debian source versions)
#
# Then: cmake -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake -DDLENV_WIN_DEPS=PREFIX
#
# If PREFIX already holds a complete result, nothing is done. Otherwise everything is built
# in a temporary directory and PREFIX is replaced only at the end. PREFIX must be new,
# empty, or an earlier result of this script.
#
# Needs apt-get, dpkg-source (dpkg-dev), cmake, make and x86_64-w64-mingw32-gcc; missing
# ones are installed with apt-get when run as root.
set -eu

# Bump when the build below changes, so that older results are rebuilt.
RECIPE=1
PACKAGES="cjson cmocka"

# shellcheck disable=SC2034 # used by debian-source.sh
DEB_TAG=windows-deps
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=scripts/debian-source.sh
. "$here/debian-source.sh"

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi

toolchain=$(CDPATH='' cd -- "$here/../cmake" && pwd)/mingw-w64-x86_64.cmake
[ -f "$toolchain" ] || die "no toolchain file $toolchain"

deb_prefix "$1"
stamp=$prefix/dlenv-windows-deps.stamp

# --- Already done? -------------------------------------------------------------------
have_result() {
  [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "recipe $RECIPE" ] &&
    grep -q '^cjson ' "$stamp" && grep -q '^cmocka ' "$stamp" &&
    [ -f "$prefix/lib/pkgconfig/libcjson.pc" ] && [ -f "$prefix/lib/libcjson.a" ] &&
    [ -f "$prefix/lib/pkgconfig/cmocka.pc" ] && [ -f "$prefix/lib/libcmocka.a" ]
}
if have_result; then
  say "$prefix is up to date ($(sed 1d "$stamp" | tr '\n' ' ' | sed 's/ $//'))"
  exit 0
fi
deb_check_prefix "$stamp"

# --- Tools, sources ------------------------------------------------------------------
deb_need cmake cmake
deb_need make make
deb_need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
deb_install_missing
deb_work
# $PACKAGES is a list of words.
# shellcheck disable=SC2086
deb_fetch $PACKAGES

jobs=$(nproc 2>/dev/null || echo 2)
# build NAME CMAKE-ARGS...: configure, build and install (into the stage) one package.
build() {
  _pkg=$1
  shift
  say "building $_pkg"
  quiet "$work/configure-$_pkg.log" cmake -S "$work/src/$_pkg" -B "$work/build/$_pkg" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DDLENV_WIN_DEPS= \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" "$@"
  quiet "$work/build-$_pkg.log" cmake --build "$work/build/$_pkg" --parallel "$jobs"
  quiet "$work/install-$_pkg.log" env DESTDIR="$work/stage" cmake --install "$work/build/$_pkg"
}

# cJSON: static only. Its "custom compiler flags" (-Werror, -fstack-protector-strong: the
# latter would need MinGW's libssp at every link) are left out; the symbols are built
# without __declspec(dllexport), and the .pc tells users the same.
build cjson -DBUILD_SHARED_LIBS=OFF -DBUILD_SHARED_AND_STATIC_LIBS=OFF \
  -DENABLE_CJSON_TEST=OFF -DENABLE_CJSON_UTILS=OFF -DENABLE_CUSTOM_COMPILER_FLAGS=OFF \
  -DENABLE_PUBLIC_SYMBOLS=OFF -DENABLE_HIDDEN_SYMBOLS=ON
# cmocka 1.1.5 always builds the DLL; WITH_STATIC_LIB adds libcmocka-static.a.
build cmocka -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF \
  -DWITH_CMOCKERY_SUPPORT=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Doxygen=ON

say "making the results static-only"
out=$work/stage$prefix
[ -f "$out/lib/libcjson.a" ] || die "cJSON installed no lib/libcjson.a"
[ -f "$out/lib/libcmocka-static.a" ] || die "cmocka installed no lib/libcmocka-static.a"
# cmocka: keep only the static library, under the name its .pc (-lcmocka) links.
rm -f "$out/bin/cmocka.dll" "$out/bin/libcmocka.dll" "$out/lib/libcmocka.dll.a"
rmdir "$out/bin" 2>/dev/null || true
mv "$out/lib/libcmocka-static.a" "$out/lib/libcmocka.a"
# (Its config names the import library cmocka.dll.a, which is not even what is installed.)
edit "$out/lib/cmake/cmocka/cmocka-config.cmake" 's/[[:alnum:]_]*cmocka\.dll\.a/libcmocka.a/g'
edit "$out/lib/pkgconfig/libcjson.pc" 's/^Cflags: .*/& -DCJSON_HIDE_SYMBOLS/'
for pc in libcjson cmocka; do
  [ -f "$out/lib/pkgconfig/$pc.pc" ] || die "no lib/pkgconfig/$pc.pc"
done
if find "$out" -name '*.dll' -o -name '*.dll.a' | grep -q .; then
  die "DLLs left in the result: $(find "$out" -name '*.dll' -o -name '*.dll.a')"
fi
printf 'recipe %s\n%s' "$RECIPE" "$versions" >"$out/dlenv-windows-deps.stamp"

deb_replace_prefix "$out"
say "done: $(printf '%s' "$versions" | tr '\n' ' ' | sed 's/ $//')"
