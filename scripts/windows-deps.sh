#!/bin/sh
# Build dlenv's Windows (MinGW-w64, x86_64) dependencies from Debian's source packages.
#
#   scripts/windows-deps.sh PREFIX
#
# Fetches the Debian 12 source packages cjson and cmocka (with a private apt state, so the
# system's apt configuration and lists are left alone), unpacks them with dpkg-source
# (Debian's patches applied), cross-builds static libraries with
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
# The system's apt sources; overridable for testing only.
APT_DEB822=${DLENV_APT_DEB822:-/etc/apt/sources.list.d/debian.sources}
APT_LIST=${DLENV_APT_LIST:-/etc/apt/sources.list}

say() { printf 'windows-deps: %s\n' "$*"; }
die() { printf 'windows-deps: error: %s\n' "$*" >&2; exit 1; }

# quiet LOG CMD...: run CMD with its output in LOG; on failure show the end of LOG.
quiet() {
  _log=$1
  shift
  if ! "$@" >"$_log" 2>&1; then
    tail -n 40 "$_log" >&2
    die "failed: $*"
  fi
}

# edit FILE SED-SCRIPT: rewrite FILE in place.
edit() {
  sed "$2" "$1" >"$1.tmp"
  mv "$1.tmp" "$1"
}

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 PREFIX" >&2
  exit 2
fi

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
toolchain=$(CDPATH='' cd -- "$here/../cmake" && pwd)/mingw-w64-x86_64.cmake
[ -f "$toolchain" ] || die "no toolchain file $toolchain"

prefix=$1
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
while :; do
  case $prefix in /) break ;; */) prefix=${prefix%/} ;; *) break ;; esac
done
[ "$prefix" != / ] || die "PREFIX must not be /"
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
if [ -e "$prefix" ]; then
  [ -d "$prefix" ] || die "$prefix exists and is not a directory"
  if [ ! -f "$stamp" ] && [ -n "$(ls -A "$prefix")" ]; then
    die "$prefix is not empty and was not made by this script; refusing to replace it"
  fi
fi

# --- Tools ---------------------------------------------------------------------------
command -v apt-get >/dev/null 2>&1 || die "needs apt-get (Debian)"
missing=
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need dpkg-source dpkg-dev
need cmake cmake
need make make
need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
if [ -n "$missing" ]; then
  [ "$(id -u)" = 0 ] || die "missing packages:$missing (apt-get install$missing)"
  say "installing$missing"
  # A fresh machine may have no package lists yet. $missing is a list of words.
  # shellcheck disable=SC2086
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; then
    quiet /dev/null apt-get update
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing \
      >/dev/null || die "apt-get install$missing failed"
  fi
fi

# --- Work area -----------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-windows-deps.XXXXXX")
newdir=
olddir=
cleanup() {
  rm -rf "$work"
  [ -z "$newdir" ] || rm -rf "$newdir"
  [ -z "$olddir" ] || rm -rf "$olddir"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
mkdir "$work/lists" "$work/apt-cache" "$work/dl" "$work/src" "$work/build" "$work/stage"
# As root apt downloads as the user _apt, who must be able to reach these directories.
if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then
  chmod 755 "$work"
  chown _apt "$work/lists" "$work/dl"
fi

# --- Source list: the system's, with deb-src instead of deb --------------------------
if [ -f "$APT_DEB822" ]; then
  srclist=$work/src.sources
  sed 's/^Types: deb$/Types: deb-src/' "$APT_DEB822" >"$srclist"
elif [ -f "$APT_LIST" ] && grep -q '^[[:space:]]*deb[[:space:]]' "$APT_LIST"; then
  srclist=$work/src.list
  sed -n 's/^[[:space:]]*deb[[:space:]][[:space:]]*/deb-src /p' "$APT_LIST" >"$srclist"
else
  die "no Debian apt sources found ($APT_DEB822 or $APT_LIST)"
fi

apt_src() {
  apt-get -o Dir::Etc::SourceList="$srclist" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/apt-cache" "$@"
}

say "fetching source indexes (private apt lists)"
quiet "$work/apt-update.log" apt_src update
say "downloading source packages: $PACKAGES"
# shellcheck disable=SC2086
(cd "$work/dl" && quiet "$work/apt-source.log" apt_src source --download-only $PACKAGES)

versions=
for pkg in $PACKAGES; do
  set -- "$work/dl/${pkg}"_*.dsc
  if [ $# -ne 1 ] || [ ! -f "$1" ]; then die "expected one ${pkg}_*.dsc, got: $*"; fi
  ver=$(sed -n 's/^Version: //p' "$1")
  [ -n "$ver" ] || die "no Version in $1"
  say "unpacking $pkg $ver"
  # dpkg-source warns that it cannot check the .dsc's signature (no debian-keyring); the
  # files were already checked by apt against the signed Sources index.
  quiet "$work/unpack-$pkg.log" dpkg-source -x "$1" "$work/src/$pkg"
  versions="$versions$pkg $ver
"
done

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

say "installing into $prefix"
parent=$(dirname -- "$prefix")
mkdir -p "$parent"
newdir=$(mktemp -d "$parent/.$(basename -- "$prefix").new.XXXXXX")
cp -R "$out/." "$newdir/"
chmod 755 "$newdir"
if [ -e "$prefix" ]; then
  olddir=$(mktemp -d "$parent/.$(basename -- "$prefix").old.XXXXXX")
  mv "$prefix" "$olddir/"
fi
mv "$newdir" "$prefix"
newdir=
say "done: $(printf '%s' "$versions" | tr '\n' ' ' | sed 's/ $//')"
