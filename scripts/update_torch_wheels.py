#!/usr/bin/env python3
"""Writes data/torch_wheels.csv: which Python tags have a torch wheel, per release and
platform, read from PyPI's file list (https://pypi.org/pypi/torch/json).

This is the "wheels exist" fact, kept apart from torch_releases.csv's "officially
supported" range: wheels for a new Python often come a release before support is declared.
PyPI holds the default build of each platform (Linux: CUDA; Windows and macOS: CPU); the
download.pytorch.org variant indexes are built from the same Python matrix.

Usage: scripts/update_torch_wheels.py [PYPI_JSON] > data/torch_wheels.csv
(without PYPI_JSON the file is fetched). Maintenance tool: dlenv itself never runs it.
"""
import csv
import datetime
import json
import re
import sys
import urllib.request

URL = "https://pypi.org/pypi/torch/json"
FIRST = (1, 12)  # the oldest release torch_releases.csv describes

# Platform tags -> our platform names (os-arch as dlenv's probes report them).
PLATFORMS = [
    (re.compile(r"^(many)?linux.*_x86_64$"), "linux-x86_64"),
    (re.compile(r"^(many)?linux.*_aarch64$"), "linux-arm64"),
    (re.compile(r"^win_amd64$"), "windows-x86_64"),
    (re.compile(r"^win_arm64$"), "windows-arm64"),
    (re.compile(r"^macosx_.*_arm64$"), "macos-arm64"),
    (re.compile(r"^macosx_.*_x86_64$"), "macos-x86_64"),
]
WHEEL = re.compile(r"^torch-([^-]+)-(cp\d+)-(cp\d+[mt]?|abi3|none)-(.+)\.whl$")


def version_key(v):
    return tuple(int(p) for p in re.findall(r"\d+", v)[:3])


def tag_key(tag):
    m = re.match(r"cp(\d)(\d+)(t?)", tag)
    return (int(m.group(1)), int(m.group(2)), m.group(3))


def platform_name(tag):
    for pattern, name in PLATFORMS:
        if pattern.match(tag):
            return name
    return None


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as f:
            data = json.load(f)
    else:
        with urllib.request.urlopen(URL, timeout=60) as f:
            data = json.load(f)
    today = datetime.date.today().isoformat()
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["torch_version", "platform", "python_tags", "platform_tags",
                  "requires_python", "source"])
    for version in sorted(data["releases"], key=version_key):
        if not re.fullmatch(r"\d+\.\d+\.\d+", version) or version_key(version)[:2] < FIRST:
            continue
        by_platform = {}
        requires = ""
        for f in data["releases"][version]:
            m = WHEEL.match(f["filename"])
            if not m or f.get("yanked"):
                continue
            requires = f.get("requires_python") or requires
            abi = m.group(3)
            for tag in m.group(4).split("."):
                name = platform_name(tag)
                if name:
                    tags, plats = by_platform.setdefault(name, (set(), set()))
                    tags.add(abi.rstrip("m") if abi.startswith("cp") else m.group(2))
                    plats.add(tag)
        for name in sorted(by_platform):
            tags, plats = by_platform[name]
            out.writerow([version, name, ";".join(sorted(tags, key=tag_key)),
                          ";".join(sorted(plats)), requires,
                          "%s (the wheel file names of each release, read %s)"
                          % (URL, today)])


if __name__ == "__main__":
    main()
