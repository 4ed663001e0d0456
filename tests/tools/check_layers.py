#!/usr/bin/env python3
"""The folders of src/ form layers: a file may include headers of its own folder and of
folders below it, never of one above. This reads every `#include "dir/..."` in src/ and
fails (exit 1, one line per wrong arrow) when a lower layer includes a higher one, when a
folder is not in the order below, or when the folders' includes form a loop.

Usage: check_layers.py SRC_DIR | --self-test
"""
import os
import re
import sys
import tempfile

# Bottom first. Folders on one line are peers: they may not include each other.
LAYERS = [
    ["base"],                       # strings, buffers, quoting: no knowledge of anything
    ["os"],                         # the only door to the operating system
    ["facts"],                      # the data model, its schema, JSON, and queries on it
    ["know"],                       # the knowledge tables (data/*.csv)
    ["probe", "run"],               # probes fill facts; run/ builds launch environments
    ["measure", "parse", "plan", "lint"],  # measuring, pasted text, the planner, lint
    ["rules"],                      # facts + knowledge -> findings and verdicts
    ["explain", "diff", "setup"],   # pasted text through the rules; snapshots compared;
                                    # setup's transaction (stage, install, lock)
    ["render"],                     # findings and facts -> text, JSON, Markdown
    ["cli"],                        # one file per command; the only place that prints
    ["main.c"],
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)


def rank_of():
    ranks = {}
    for i, peers in enumerate(LAYERS):
        for name in peers:
            ranks[name] = i
    return ranks


def folder_of(src, path):
    # The first part of the path: src/probe/** is one folder, whatever subfolders it has;
    # src/main.c is its own.
    return os.path.relpath(path, src).split(os.sep)[0]


def edges(src):
    found = {}
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            here = folder_of(src, path)
            with open(path, encoding="utf-8", errors="replace") as fh:
                for target in INCLUDE.findall(fh.read()):
                    if target != here:
                        found.setdefault((here, target), os.path.relpath(path, src))
    return found


def find_loop(arrows):
    graph = {}
    for a, b in arrows:
        graph.setdefault(a, set()).add(b)
    state = {}

    def visit(node, trail):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
            if not state.get(nxt):
                loop = visit(nxt, trail + [nxt])
                if loop:
                    return loop
        state[node] = 2
        return None

    for node in sorted(graph):
        if not state.get(node):
            loop = visit(node, [node])
            if loop:
                return loop
    return None


def check(src):
    ranks = rank_of()
    arrows = edges(src)
    problems = []
    for (a, b), where in sorted(arrows.items()):
        for name in (a, b):
            if name not in ranks:
                problems.append("%s: folder %s/ has no place in the layer order" % (where, name))
        if a in ranks and b in ranks and ranks[b] >= ranks[a]:
            kind = "a peer" if ranks[b] == ranks[a] else "a higher layer"
            problems.append("%s: %s/ includes %s/, %s" % (where, a, b, kind))
    loop = find_loop(arrows)
    if loop:
        problems.append("folders include each other in a loop: " + " -> ".join(loop))
    for line in sorted(set(problems)):
        print(line)
    if not problems:
        print("layers ok: " + " < ".join("/".join(p) for p in LAYERS))
    return 1 if problems else 0


def self_test():
    """A tree that keeps the order passes; an upward include, a peer include and a loop
    each fail."""
    cases = [
        ({"rules/a.c": "facts/q.h", "probe/gpu/b.c": "os/os.h"}, 0),
        ({"plan/a.c": "rules/rules.h"}, 1),
        ({"probe/gpu/b.c": "cli/options.h"}, 1),
        ({"parse/a.c": "plan/p.h"}, 1),
        ({"newdir/a.c": "base/str.h"}, 1),
    ]
    for files, want in cases:
        with tempfile.TemporaryDirectory() as src:
            for path, target in files.items():
                os.makedirs(os.path.join(src, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(src, path), "w") as fh:
                    fh.write('#include "%s"\n' % target)
            got = check(src)
        if got != want:
            print("self-test: %s gave %d, want %d" % (files, got, want))
            return 1
    print("self-test ok")
    return 0


def main():
    if len(sys.argv) != 2:
        print("usage: check_layers.py SRC_DIR | --self-test", file=sys.stderr)
        return 2
    return self_test() if sys.argv[1] == "--self-test" else check(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
