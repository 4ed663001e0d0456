#!/usr/bin/env python3
"""Parse the filled manifests (OUTDIR/packaging/) and the release workflow with real parsers.

    check_manifests.py OUTDIR VERSION      (needs PyYAML; tests/dist/run.sh installs it)

Each must parse, name VERSION, keep no @PLACEHOLDER@, and give the same sha256 for the
Windows zip / the sdist as OUTDIR/SHA256SUMS. The conda-forge recipe is Jinja on YAML:
its {% set %} lines and {{ }} expressions are replaced by plain values before parsing.
The workflow must trigger on tags, test with ./dev.sh dist, and publish to PyPI with
trusted publishing (id-token: write), never with a stored token.
"""
import json
import os
import re
import sys

import yaml

errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main(out, version):
    sums = {}
    for line in read(os.path.join(out, "SHA256SUMS")).splitlines():
        digest, name = line.split("  ", 1)
        sums[name] = digest
    zip_sum = sums.get("dlenv-%s-x86_64-windows.zip" % version)
    sdist_sum = sums.get("dlenv-%s.tar.gz" % version)
    pk = os.path.join(out, "packaging")
    for root, _, files in os.walk(pk):
        for f in files:
            text = read(os.path.join(root, f))
            check(not re.search(r"@[A-Z0-9_]+@", text), "%s keeps a @PLACEHOLDER@" % f)

    w = os.path.join(pk, "winget")
    docs = {f: yaml.safe_load(read(os.path.join(w, f))) for f in sorted(os.listdir(w))}
    check(len(docs) == 3, "winget: wants 3 files, has %s" % sorted(docs))
    types = sorted(d["ManifestType"] for d in docs.values())
    check(types == ["defaultLocale", "installer", "version"], "winget manifest types %s" % types)
    for f, d in docs.items():
        check(d["PackageIdentifier"] == "dlenv.dlenv", "%s: PackageIdentifier" % f)
        check(str(d["PackageVersion"]) == version, "%s: PackageVersion %s" % (f, d["PackageVersion"]))
        if d["ManifestType"] == "installer":
            inst = d["Installers"][0]
            check(inst["InstallerSha256"].lower() == zip_sum, "winget: InstallerSha256 differs")
            check(inst["InstallerUrl"].endswith("dlenv-%s-x86_64-windows.zip" % version),
                  "winget: InstallerUrl %s" % inst["InstallerUrl"])

    scoop = json.loads(read(os.path.join(pk, "scoop", "dlenv.json")))
    check(scoop["version"] == version, "scoop: version")
    check(scoop["architecture"]["64bit"]["hash"] == zip_sum, "scoop: hash differs")
    check(scoop["bin"] == "dlenv.exe", "scoop: bin")

    meta = read(os.path.join(pk, "conda-forge", "meta.yaml"))
    meta = re.sub(r"\{%.*?%\}", "", meta)
    meta = re.sub(r"\{\{\s*version\s*\}\}", version, meta)
    meta = re.sub(r"\{\{.*?\}\}", "jinja", meta)
    recipe = yaml.safe_load(meta)
    check(recipe["package"]["name"] == "dlenv", "conda: package name")
    check(recipe["source"]["sha256"] == sdist_sum, "conda: source sha256 is not the sdist's")
    check(recipe["source"]["url"].endswith("dlenv-%s.tar.gz" % version), "conda: source url")
    check("cjson" in recipe["requirements"]["host"], "conda: host needs cjson")

    here = os.path.dirname(os.path.abspath(__file__))
    wf = yaml.safe_load(read(os.path.join(here, "..", "..", ".github", "workflows", "release.yml")))
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    check(on == {"push": {"tags": ["v*"]}}, "release.yml: on %s" % on)
    steps = [s.get("run", "") + s.get("uses", "") for j in wf["jobs"].values() for s in j["steps"]]
    check(any("./dev.sh dist" in s for s in steps), "release.yml: does not run ./dev.sh dist")
    check(any(s.startswith("pypa/gh-action-pypi-publish") for s in steps),
          "release.yml: no pypa/gh-action-pypi-publish")
    check(wf["jobs"]["publish"]["permissions"].get("id-token") == "write",
          "release.yml: publish lacks id-token: write (trusted publishing)")
    check("password" not in read(os.path.join(here, "..", "..", ".github", "workflows",
                                              "release.yml")),
          "release.yml: a stored PyPI password/token")
    for e in errors:
        print("check_manifests: %s" % e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: check_manifests.py OUTDIR VERSION", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
