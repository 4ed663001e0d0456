# dlenv setup --tool conda against a fake conda (no real conda here: Debian has none, and
# anaconda.org is not reachable): a script on PATH that writes its arguments to a log and
# makes a venv-like prefix (a copy of a real venv, with conda-meta/) for `create`, moves it for
# `rename`, removes it for `env remove`. Checked: the exact conda commands (the new env made
# beside the target, the old one renamed aside only once the new one is proven, and back
# when the last rename fails), pip of the new prefix installing the plan pinned, the proof.
# (A failed proof never reaches the swap: setup.sh tests that, the same code.)
set -eu
. "$(dirname "$0")/lib.inc"
py=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
need_venv_pip
. "$here/local_index.inc"

mkdir -p "$work/bin"
# one venv made here, copied for each `create` (venv's ensurepip is the slow part)
"$py" -m venv "$work/template"
cat > "$work/bin/conda" <<FAKE
#!/bin/sh
echo "\$*" >> "$work/conda.log"
case "\$1" in
create) cp -a "$work/template" "\$5" && mkdir "\$5/conda-meta" ;;
rename) case "\$4" in *.dlenv-staging-*)
            [ ! -e "$work/rename-fails" ] || { echo "conda: rename failed" >&2; exit 1; } ;; esac
        [ ! -e "\$5" ] || { echo "conda: \$5 exists" >&2; exit 1; }
        mv "\$4" "\$5" ;;
env)    rm -rf "\$5" ;;
info)   echo '{"envs_dirs": ["$work/envs", "/elsewhere"], "conda_version": "25.1.1"}' ;;
*)      echo "fake conda: \$*?" >&2; exit 2 ;;
esac
FAKE
chmod +x "$work/bin/conda"
export PATH="$work/bin:$PATH"
unset CONDA_EXE 2> /dev/null || true
env="$work/cenv"
common="--python $py --cpu --tool conda --extra-index-url none $mirror --yes"
staging="$work/\\.cenv\\.dlenv-staging-[0-9]*"

# A new environment: made with conda create as a staging prefix, pip-installed, proven,
# renamed into place.
# shellcheck disable=SC2086
run setup "$env" $common
expect_eq "conda: exit code" 0 "$rc"
[ "$rc" = 0 ] || echo "$out$err" | tail -20
grep -qx "create --yes --quiet --prefix $staging python=$pyver pip" "$work/conda.log" ||
    fail "conda: not created as planned: $(cat "$work/conda.log")"
grep -qx "rename --yes --prefix $staging $env" "$work/conda.log" ||
    fail "conda: not renamed into place: $(cat "$work/conda.log")"
expect_eq "conda: commands" 2 "$(wc -l < "$work/conda.log")"
case "$out" in *"$work/.cenv.dlenv-staging-"*"/bin/python -m pip install"*"torch==$torch"*) ;;
    *) fail "conda: not installed with the prefix's pip: $out" ;; esac
expect_eq "conda: its torch" "$torch+cpu" "$("$env/bin/python" -c 'import torch; print(torch.__version__)')"
case "$out" in *"conda activate $env"*) ;; *) fail "conda: no activation line: $out" ;; esac
grep -q "^# tool: conda" "$env/dlenv.lock" || fail "conda: lock without its tool"
grep -q "^torch==$torch+cpu" "$env/dlenv.lock" || fail "conda: lock without torch"

# Over it: the old one renamed aside only after the new one is proven.
: > "$work/conda.log"
# shellcheck disable=SC2086
run setup "$env" $common --force  # the same plan again: --force, else it is adopted
expect_eq "conda again: exit code" 0 "$rc"
sed -n 2p "$work/conda.log" | grep -qx "rename --yes --prefix $env $work/.cenv.dlenv-previous" ||
    fail "conda again: the old one not kept aside: $(cat "$work/conda.log")"
sed -n 3p "$work/conda.log" | grep -qx "rename --yes --prefix $staging $env" ||
    fail "conda again: the new one not renamed into place: $(cat "$work/conda.log")"
[ -d "$work/.cenv.dlenv-previous/conda-meta" ] || fail "conda again: no previous kept"

# restore with conda: the lock's Python, from conda.
run restore "$env/dlenv.lock" "$work/crestored" --tool conda --dry-run
expect_eq "conda restore: exit code" 0 "$rc"
printf '%s\n' "$out" | grep -qx "       $work/bin/conda create --yes --quiet --prefix $work/\.crestored\.dlenv-staging-[0-9]* python=$pyver pip" ||
    fail "conda restore: not made by conda with Python $pyver: $out"

# --rollback: the three renames with conda, the first environment back in place.
: > "$work/conda.log"
second=$(cat "$env/dlenv.lock")
run setup --rollback "$env"
expect_eq "conda rollback: exit code" 0 "$rc"
expect_eq "conda rollback: commands" "rename --yes --prefix $env $work/.cenv.dlenv-staging-N|rename --yes --prefix $work/.cenv.dlenv-previous $env|rename --yes --prefix $work/.cenv.dlenv-staging-N $work/.cenv.dlenv-previous" \
    "$(sed 's/dlenv-staging-[0-9]*/dlenv-staging-N/g' "$work/conda.log" | paste -sd '|')"
expect_eq "conda rollback: the replaced one kept" "$second" "$(cat "$work/.cenv.dlenv-previous/dlenv.lock")"
[ "$(cat "$env/dlenv.lock")" != "$second" ] || fail "conda rollback: the same environment in place"

# The last rename fails: the previous one is renamed back, the older previous was removed.
: > "$work/conda.log"
: > "$work/rename-fails"
before=$(cat "$env/dlenv.lock")
# shellcheck disable=SC2086
run setup "$env" $common --force
rm "$work/rename-fails"
expect_eq "rename fails: exit code" 19 "$rc"
expect_eq "rename fails: commands" "env remove --yes --prefix $work/.cenv.dlenv-previous|rename --yes --prefix $env $work/.cenv.dlenv-previous|rename --yes --prefix $work/.cenv.dlenv-previous $env" \
    "$(sed 1d "$work/conda.log" | grep -v "^rename --yes --prefix $work/\.cenv\.dlenv-staging" | paste -sd '|')"
expect_eq "rename fails: the environment as it was" "$before" "$(cat "$env/dlenv.lock")"
left=$(ls -A "$work" | grep -e '\.dlenv-staging-' || true)
expect_eq "rename fails: staging folders left" "" "$left"

# --name NAME: conda's environment NAME, in the first of its envs_dirs.
mkdir "$work/envs"
: > "$work/conda.log"
# shellcheck disable=SC2086
run setup --name tname --python "$py" --cpu --tool conda --extra-index-url none $mirror --dry-run
expect_eq "conda --name: exit code" 0 "$rc"
expect_eq "conda --name: asked conda" "info --json" "$(cat "$work/conda.log")"
printf '%s\n' "$out" | grep -qx "       $work/bin/conda create --yes --quiet --prefix $work/envs/\.tname\.dlenv-staging-[0-9]* python=$pyver pip" ||
    fail "conda --name: not made in conda's envs folder: $out"
printf '%s\n' "$out" | grep -qx "  conda activate tname" || fail "conda --name: no activation by name: $out"

# No conda: a usage error.
PATH=/usr/bin:/bin run setup "$work/other" --tool conda --cpu --dry-run
expect_eq "no conda: exit code" 2 "$rc"
finish
