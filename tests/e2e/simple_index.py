#!/usr/bin/env python3
"""simple_index.py [--no-hashes] ROOT: makes ROOT a PEP 503 simple index of the wheels in it. Every
ROOT/*.whl moves into ROOT/<normalised name>/, which gets an index.html linking each
file with its #sha256= (as download.pytorch.org does, so pip records the hash), and
ROOT/index.html lists the projects. Served by `python3 -m http.server`. --no-hashes: the
links carry no #sha256= (as many private mirrors serve them)."""
import hashlib
import html
import os
import re
import sys


def normalise(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def main():
    hashes = sys.argv[1] != "--no-hashes"
    root = sys.argv[-1]
    for f in sorted(os.listdir(root)):
        if f.endswith(".whl"):
            project = normalise(f.split("-")[0])
            os.makedirs(os.path.join(root, project), exist_ok=True)
            os.replace(os.path.join(root, f), os.path.join(root, project, f))
    projects = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    for project in projects:
        links = []
        for f in sorted(os.listdir(os.path.join(root, project))):
            if not f.endswith(".whl"):
                continue
            with open(os.path.join(root, project, f), "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()
            href = f.replace("+", "%2B")
            fragment = "#sha256=" + digest if hashes else ""
            links.append('<a href="%s%s">%s</a><br/>' % (href, fragment, html.escape(f)))
        with open(os.path.join(root, project, "index.html"), "w") as fh:
            fh.write("<!DOCTYPE html><html><body>\n%s\n</body></html>\n" % "\n".join(links))
    with open(os.path.join(root, "index.html"), "w") as fh:
        fh.write("<!DOCTYPE html><html><body>\n%s\n</body></html>\n" % "\n".join(
            '<a href="%s/">%s</a><br/>' % (p, p) for p in projects))


main()
