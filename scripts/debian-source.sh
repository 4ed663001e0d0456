# Shared by scripts/windows-deps.sh and scripts/portable-deps.sh (sourced, not run): build
# static libraries from Debian's source packages into a prefix that is replaced whole.
#
#   DEB_TAG=name; . "$here/debian-source.sh"
#   deb_prefix ARG          sets $prefix: ARG made absolute, without trailing slashes
#   deb_check_prefix STAMP  refuses a prefix that this script family did not make
#   deb_need CMD PACKAGE    notes PACKAGE when CMD is missing; deb_install_missing installs
#                           them (as root) or stops with the apt-get line
#   deb_work                makes $work (lists, apt-cache, dl, src, build, stage), removed
#                           at exit
#   deb_fetch PACKAGES...   Debian's source packages, downloaded with a private apt state
#                           (the system's lists and configuration are left alone) and
#                           unpacked with dpkg-source into $work/src/PACKAGE (Debian's
#                           patches applied); $versions lists "PACKAGE VERSION" lines
#   deb_replace_prefix DIR  copies DIR to $prefix, replacing an earlier result only at the end
#
# One copy of this logic keeps both builds on the same sources and the same rules.
# DLENV_APT_DEB822 / DLENV_APT_LIST override the system's apt sources, for testing only.

DEB_APT_DEB822=${DLENV_APT_DEB822:-/etc/apt/sources.list.d/debian.sources}
DEB_APT_LIST=${DLENV_APT_LIST:-/etc/apt/sources.list}

say() { printf '%s: %s\n' "$DEB_TAG" "$*"; }
die() { printf '%s: error: %s\n' "$DEB_TAG" "$*" >&2; exit 1; }

# quiet LOG CMD...: run CMD with its output in LOG; on failure show the end of LOG.
quiet() {
  _log=$1
  shift
  if ! "$@" >"$_log" 2>&1; then
    tail -n 40 "$_log" >&2
    die "failed: $*"
  fi
}

# edit FILE SED-SCRIPT: rewrite FILE in place (sed -i is not portable).
edit() {
  sed "$2" "$1" >"$1.tmp"
  mv "$1.tmp" "$1"
}

deb_prefix() {
  prefix=$1
  case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
  while :; do
    case $prefix in /) break ;; */) prefix=${prefix%/} ;; *) break ;; esac
  done
  [ "$prefix" != / ] || die "PREFIX must not be /"
}

deb_check_prefix() {
  if [ -e "$prefix" ]; then
    [ -d "$prefix" ] || die "$prefix exists and is not a directory"
    if [ ! -f "$1" ] && [ -n "$(ls -A "$prefix")" ]; then
      die "$prefix is not empty and was not made by this script; refusing to replace it"
    fi
  fi
}

deb_missing=
deb_need() { command -v "$1" >/dev/null 2>&1 || deb_missing="$deb_missing $2"; }

deb_install_missing() {
  command -v apt-get >/dev/null 2>&1 || die "needs apt-get (Debian)"
  deb_need dpkg-source dpkg-dev
  [ -n "$deb_missing" ] || return 0
  [ "$(id -u)" = 0 ] || die "missing packages:$deb_missing (apt-get install$deb_missing)"
  say "installing$deb_missing"
  # A fresh machine may have no package lists yet. $deb_missing is a list of words.
  # shellcheck disable=SC2086
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $deb_missing >/dev/null 2>&1; then
    quiet /dev/null apt-get update
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $deb_missing \
      >/dev/null || die "apt-get install$deb_missing failed"
  fi
}

deb_work() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/dlenv-$DEB_TAG.XXXXXX")
  deb_newdir=
  deb_olddir=
  trap deb_cleanup EXIT
  trap 'exit 1' HUP INT TERM
  mkdir "$work/lists" "$work/apt-cache" "$work/dl" "$work/src" "$work/build" "$work/stage"
  # As root apt downloads as the user _apt, who must be able to reach these directories.
  if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then
    chmod 755 "$work"
    chown _apt "$work/lists" "$work/dl"
  fi
}

deb_cleanup() {
  rm -rf "$work"
  [ -z "$deb_newdir" ] || rm -rf "$deb_newdir"
  [ -z "$deb_olddir" ] || rm -rf "$deb_olddir"
}

# The system's source list, with deb-src instead of deb.
deb_source_list() {
  if [ -f "$DEB_APT_DEB822" ]; then
    deb_srclist=$work/src.sources
    sed 's/^Types: deb$/Types: deb-src/' "$DEB_APT_DEB822" >"$deb_srclist"
  elif [ -f "$DEB_APT_LIST" ] && grep -q '^[[:space:]]*deb[[:space:]]' "$DEB_APT_LIST"; then
    deb_srclist=$work/src.list
    sed -n 's/^[[:space:]]*deb[[:space:]][[:space:]]*/deb-src /p' "$DEB_APT_LIST" >"$deb_srclist"
  else
    die "no Debian apt sources found ($DEB_APT_DEB822 or $DEB_APT_LIST)"
  fi
}

deb_apt() {
  apt-get -o Dir::Etc::SourceList="$deb_srclist" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/apt-cache" "$@"
}

deb_fetch() {
  deb_source_list
  say "fetching source indexes (private apt lists)"
  quiet "$work/apt-update.log" deb_apt update
  say "downloading source packages: $*"
  (cd "$work/dl" && quiet "$work/apt-source.log" deb_apt source --download-only "$@")
  versions=
  for _pkg in "$@"; do
    set -- "$work/dl/${_pkg}"_*.dsc
    if [ $# -ne 1 ] || [ ! -f "$1" ]; then die "expected one ${_pkg}_*.dsc, got: $*"; fi
    _ver=$(sed -n 's/^Version: //p' "$1")
    [ -n "$_ver" ] || die "no Version in $1"
    say "unpacking $_pkg $_ver"
    # dpkg-source warns that it cannot check the .dsc's signature (no debian-keyring); the
    # files were already checked by apt against the signed Sources index.
    quiet "$work/unpack-$_pkg.log" dpkg-source -x "$1" "$work/src/$_pkg"
    versions="$versions$_pkg $_ver
"
  done
}

deb_replace_prefix() {
  say "installing into $prefix"
  _parent=$(dirname -- "$prefix")
  mkdir -p "$_parent"
  deb_newdir=$(mktemp -d "$_parent/.$(basename -- "$prefix").new.XXXXXX")
  cp -R "$1/." "$deb_newdir/"
  chmod 755 "$deb_newdir"
  if [ -e "$prefix" ]; then
    deb_olddir=$(mktemp -d "$_parent/.$(basename -- "$prefix").old.XXXXXX")
    mv "$prefix" "$deb_olddir/"
  fi
  mv "$deb_newdir" "$prefix"
  deb_newdir=
}
