# Kubernetes: packaging/k8s/'s manifests parsed with PyYAML and validated against the
# Kubernetes API's own schemas (kubernetes-validate, pinned, in a venv of the test's; no
# cluster here), and their wiring checked (tests/e2e/k8s_check.py); then the exact dlenv
# arguments the DaemonSet runs, run on a healthy and a failing node (the fake NVML), and
# the feature file written checked as nfd-worker reads it: the expiry first, valid label
# names and values. The checker is shown to catch a bad manifest and a bad label.
set -eu
. "$(dirname "$0")/lib.inc"

need_fakes
[ -x /usr/bin/python3 ] || skip_or_fail "no /usr/bin/python3"
/usr/bin/python3 -m venv --without-pip "$work/kv" >/dev/null 2>&1 ||
    skip_or_fail "python3 -m venv does not work here"
# The workload image's python with its CUDA torch (the fake one), found on PATH as dlenv
# finds /opt/conda/bin/python in the pytorch image: the DaemonSet names no --python.
fake_torch_venv "$work/image"
# kubernetes-validate (it carries the API's OpenAPI schemas of each Kubernetes release) and
# its dependencies, pinned, from PyPI into the test's venv by Debian's pip; the wheel
# unpacked with the schemas of the releases checked only (k8s_check.py unpack).
pip_in() { /usr/bin/python3 -m pip --python "$work/kv/bin/python" --disable-pip-version-check "$@"; }
{ pip_in install -q --no-compile jsonschema==4.26.0 referencing==0.37.0 PyYAML==6.0.2 \
    importlib_resources==7.1.0 packaging==26.4 &&
    pip_in download -q --no-deps -d "$work/wheel" kubernetes-validate==1.34.1; } > "$work/pip.log" 2>&1 ||
    skip_or_fail "cannot install kubernetes-validate==1.34.1 from PyPI: $(tail -n 1 "$work/pip.log")"
kv_site=$("$work/kv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
"$work/kv/bin/python" "$here/e2e/k8s_check.py" unpack "$work/wheel"/kubernetes_validate-1.34.1-*.whl "$kv_site"
check() { "$work/kv/bin/python" "$here/e2e/k8s_check.py" "$@"; }
version=$("$dlenv" --version | sed -n 's/^dlenv \([^ ]*\).*/\1/p')

# --- the manifests --------------------------------------------------------------------
check manifests "$here/../packaging/k8s" "$version" > "$work/args" 2> "$work/problems" ||
    fail "packaging/k8s: $(cat "$work/problems")"
# A misspelt field and a features.d nfd-worker does not read are caught (the check can fail).
mkdir "$work/bad"
sed -e 's/automountServiceAccountToken:/automountServiceAcountToken:/' \
    "$here/../packaging/k8s/daemonset.yaml" > "$work/bad/daemonset.yaml"
if check manifests "$work/bad" "$version" > /dev/null 2> "$work/problems"; then
    fail "a misspelt pod field passed"
fi
grep -q "automountServiceAcountToken" "$work/problems" || fail "the typo not named: $(cat "$work/problems")"
sed -e 's|/etc/kubernetes/node-feature-discovery/features.d$|/var/lib/dlenv|' \
    "$here/../packaging/k8s/daemonset.yaml" > "$work/bad/daemonset.yaml"
if check manifests "$work/bad" "$version" > /dev/null 2>&1; then
    fail "a features.d nfd-worker does not read passed"
fi

# --- the DaemonSet's command on a node ----------------------------------------------------
# shellcheck disable=SC2046 # one argument a line, none with a space
set -- $(cat "$work/args")
[ "$#" -gt 0 ] || fail "no dlenv arguments from the DaemonSet"
# The same arguments, --textfile pointed at a folder here
args=""
prev=""
for a in "$@"; do
    [ "$prev" = --textfile ] && a="$work/features.d"
    args="$args $a"
    prev=$a
done
mkdir "$work/features.d"
node() { # node SCENARIO NVML: the DaemonSet's dlenv arguments on that node; sets $rc
    set +e
    # shellcheck disable=SC2086
    env -i PATH="$work/image/bin:/usr/bin:/bin" LC_ALL=C.UTF-8 LD_LIBRARY_PATH="$fakes/$2:$fakes/cuda" \
        DLENV_FAKE_SCENARIO="$here/gpu/$1/scenario" "$dlenv" $args > "$work/out" 2> "$work/err"
    rc=$?
    set -e
}
node healthy-1gpu nvml
expect_eq "healthy node: exit code" 0 "$rc"
expect_eq "healthy node: nothing on stdout" "" "$(cat "$work/out")"
expect_eq "healthy node: only the file nfd-worker reads is left" dlenv "$(ls -A "$work/features.d")"
check nfd "$work/features.d/dlenv" "$(date +%s)" 2> "$work/problems" ||
    fail "healthy node's feature file: $(cat "$work/problems")"
for want in dlenv.io/torch-cuda-ok=true dlenv.io/driver=550.54.14 dlenv.io/driver-max-cuda=12.4 \
    dlenv.io/torch=2.5.1_cu124 dlenv.io/gpu-capability=8.9; do
    grep -qx "$want" "$work/features.d/dlenv" || fail "healthy node: no $want: $(cat "$work/features.d/dlenv")"
done
node old-driver nvml-old
expect_eq "failing node: exit code" 1 "$rc"
check nfd "$work/features.d/dlenv" "$(date +%s)" 2> "$work/problems" ||
    fail "failing node's feature file: $(cat "$work/problems")"
for want in dlenv.io/torch-cuda-ok=false dlenv.io/root-cause=driver_too_old dlenv.io/driver-max-cuda=10.1; do
    grep -qx "$want" "$work/features.d/dlenv" || fail "failing node: no $want: $(cat "$work/features.d/dlenv")"
done
# A value Kubernetes refuses (a '+') is caught.
sed 's/^dlenv.io\/driver-max-cuda=.*/dlenv.io\/torch=2.5.1+cu124/' "$work/features.d/dlenv" > "$work/bad.nfd"
if check nfd "$work/bad.nfd" "$(date +%s)" 2> /dev/null; then fail "a '+' in a label value passed"; fi

finish
