"""Checks for packaging/k8s/ and for the node-feature-discovery file dlenv writes.

  k8s_check.py unpack WHEEL SITE      kubernetes-validate's wheel into SITE (a venv's
      site-packages) with the schemas of KUBE_VERSIONS only: the wheel holds every
      release's (12,000 files, most of a minute to install on a loaded 2-core machine).
  k8s_check.py manifests DIR VERSION  every document of DIR/*.yaml (@VERSION@ filled in as
      scripts/build-dist.sh fills it) parsed with PyYAML and validated, strictly (no key
      the API does not have), against the Kubernetes API's own OpenAPI schemas for each
      KUBE_VERSIONS (PyPI's kubernetes-validate, which carries them: no cluster, no
      network); then what the schemas cannot say: the DaemonSet's wiring (selector,
      volumes, the features.d hostPath nfd-worker reads, dlenv reaching the container).
      Prints the arguments the DaemonSet gives dlenv, one a line, for the test to run.
  k8s_check.py nfd FILE NOW           FILE as nfd-worker's local source reads it: the
      expiry directive first (RFC 3339, an hour after NOW), then NAME=VALUE lines whose
      names and values are valid Kubernetes labels in the dlenv.io namespace.
Prints what is wrong and exits 1."""
import datetime
import glob
import os
import re
import sys

KUBE_VERSIONS = ["1.34.0", "1.29.0"]
FEATURES_D = "/etc/kubernetes/node-feature-discovery/features.d"  # nfd-worker's default
NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
problems = []


def check(ok, what):
    if not ok:
        problems.append(what)


def label_ok(key, value):
    """Kubernetes' label syntax: [prefix/]name, prefix a DNS subdomain of at most 253
    characters, name and value at most 63 of [A-Za-z0-9._-] with alphanumeric ends (an
    empty value is allowed)."""
    prefix, _, name = key.rpartition("/")
    if prefix and (len(prefix) > 253 or not all(DNS_LABEL.match(p) for p in prefix.split("."))):
        return False
    return bool(NAME.match(name)) and (value == "" or bool(NAME.match(value)))


def manifests(folder, version):
    import kubernetes_validate
    import yaml

    docs = []
    files = sorted(glob.glob(os.path.join(folder, "*.yaml")))
    check(files, "no *.yaml in %s" % folder)
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read().replace("@VERSION@", version)
        check(not re.search(r"@[A-Z0-9_]+@", text), "%s: a placeholder build-dist does not fill" % path)
        for doc in yaml.safe_load_all(text):
            if doc is None:
                continue
            docs.append(doc)
            for kube in KUBE_VERSIONS:
                try:
                    kubernetes_validate.validate(doc, kube, strict=True)
                except Exception as e:  # ValidationError, SchemaNotFoundError: both failures
                    first = str(e).splitlines()[0]
                    problems.append("%s: %s %s against Kubernetes %s: %s" % (
                        os.path.basename(path), doc.get("kind"),
                        doc.get("metadata", {}).get("name"), kube, first))
            for key, value in doc.get("metadata", {}).get("labels", {}).items():
                check(label_ok(key, str(value)), "metadata label %s=%s" % (key, value))
    sets = [d for d in docs if d.get("kind") == "DaemonSet"]
    check(len(sets) == 1, "wants one DaemonSet, has %d" % len(sets))
    namespaces = {d["metadata"]["name"] for d in docs if d.get("kind") == "Namespace"}
    if not sets:
        return []
    ds = sets[0]
    check(ds["metadata"].get("namespace") in namespaces,
          "the DaemonSet's namespace is not created here")
    return daemonset(ds)


def mounts_of(container, volumes):
    """mountPath -> (volume, readOnly) for a container; every mount names a volume."""
    out = {}
    for m in container.get("volumeMounts", []):
        check(m["name"] in volumes, "%s mounts %s: no such volume" % (container["name"], m["name"]))
        check(m["mountPath"] not in out, "%s mounts %s twice" % (container["name"], m["mountPath"]))
        out[m["mountPath"]] = (volumes.get(m["name"], {}), m.get("readOnly", False))
    return out


def daemonset(ds):
    spec = ds["spec"]
    pod = spec["template"]["spec"]
    selector = spec["selector"].get("matchLabels", {})
    labels = spec["template"]["metadata"].get("labels", {})
    check(selector and all(labels.get(k) == v for k, v in selector.items()),
          "the selector does not select the pod template's labels")
    volumes = {v["name"]: v for v in pod["volumes"]}
    check(len(volumes) == len(pod["volumes"]), "two volumes of one name")
    check(pod.get("runtimeClassName") == "nvidia",
          "no runtimeClassName nvidia: nothing mounts the host's driver")
    containers = pod["containers"]
    check(len(containers) == 1, "wants one container, has %d" % len(containers))
    check_c = containers[0]
    env = {e["name"]: e.get("value") for e in check_c.get("env", [])}
    check(env.get("NVIDIA_VISIBLE_DEVICES") == "all", "NVIDIA_VISIBLE_DEVICES is not all")
    check("utility" in (env.get("NVIDIA_DRIVER_CAPABILITIES") or ""),
          "NVIDIA_DRIVER_CAPABILITIES lacks utility (NVML)")
    for c in containers + pod.get("initContainers", []):
        res = c.get("resources", {})
        taken = [r for part in res.values() for r in part if r.startswith("nvidia.com/")]
        check(not taken, "%s requests %s: a GPU taken from the workloads" % (c["name"], taken))
    mounts = mounts_of(check_c, volumes)
    # The host's paths: only features.d is writable.
    features_at = None
    for path, (vol, read_only) in mounts.items():
        host = vol.get("hostPath", {}).get("path")
        if host == FEATURES_D:
            features_at = path
        elif host:
            check(read_only, "the host's %s is mounted writable" % host)
    check(features_at is not None, "no mount of the host's %s (nfd-worker's)" % FEATURES_D)
    # The command: dlenv from the init container's volume, writing nfd into features.d.
    script = " ".join(check_c.get("command", []) + check_c.get("args", []))
    m = re.search(r"(\S*dlenv) (fleet check [^\n;&|]*)", script)
    check(m, "the container does not run dlenv fleet check: %s" % script)
    if not m:
        return []
    binary, args = m.group(1), m.group(2).split()
    check(args[:4] == ["fleet", "check", "--format", "nfd"], "not --format nfd: %s" % args)
    check("--textfile" in args and args[args.index("--textfile") + 1] == features_at,
          "--textfile is not the features.d mount %s: %s" % (features_at, args))
    bin_dir = os.path.dirname(binary)
    check(bin_dir in mounts and "emptyDir" in mounts[bin_dir][0],
          "%s is not on an emptyDir the init container fills" % binary)
    inits = pod.get("initContainers", [])
    filled = [c for c in inits if binary in c.get("command", []) + c.get("args", [])
              and bin_dir in mounts_of(c, volumes)]
    check(filled, "no init container puts dlenv at %s" % binary)
    return args


def nfd(path, now):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines()
    check(len(text.encode()) < 64 * 1024, "over nfd-worker's 64 KiB limit")
    check(lines and lines[0].startswith("# +expiry-time="), "the expiry is not the first line")
    if lines and lines[0].startswith("# +expiry-time="):
        value = lines[0].split("=", 1)[1].strip()
        try:
            at = datetime.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
            left = at.replace(tzinfo=datetime.timezone.utc).timestamp() - now
            check(3500 <= left <= 3700, "expiry %s is not an hour after the run" % value)
        except ValueError:
            problems.append("expiry %s is not RFC 3339 UTC" % value)
    seen = set()
    for line in lines[1:]:
        if line.startswith("#"):
            check(not line.startswith("# +"), "another directive: %s" % line)
            continue
        key, eq, value = line.partition("=")
        check(eq, "not NAME=VALUE: %s" % line)
        check(key.startswith("dlenv.io/"), "not in the dlenv.io namespace: %s" % line)
        check(label_ok(key, value), "not a Kubernetes label: %s" % line)
        check(key not in seen, "twice: %s" % key)
        seen.add(key)
    check("dlenv.io/torch-cuda-ok" in seen, "no dlenv.io/torch-cuda-ok")


def unpack(wheel, site):
    import zipfile

    keep = ["v%s-local-strict/" % v for v in KUBE_VERSIONS]
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            _, schemas, rest = name.partition("/kubernetes-json-schema/")
            if not schemas or any(rest.startswith(k) for k in keep):
                z.extract(name, site)


def main():
    if sys.argv[1] == "unpack":
        unpack(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "manifests":
        for a in manifests(sys.argv[2], sys.argv[3]):
            print(a)
    else:
        nfd(sys.argv[2], float(sys.argv[3]))
    for p in problems:
        print("FAIL: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


main()
