#!/usr/bin/env python3
"""Prints which top-level modules of a Rust crate import which, and fails
(exit 1) if they import each other in a circle.

    python3 scripts/module-graph.py core/src

A top-level module is a file or folder directly under the source folder;
an import is a `crate::NAME` path anywhere in its files (tests included).
"""
import collections
import os
import re
import sys


def edges(root):
    found = collections.defaultdict(lambda: collections.defaultdict(set))
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            top = rel.split(os.sep)[0].removesuffix(".rs")
            text = open(path, encoding="utf-8").read()
            targets = set(re.findall(r"crate::(\w+)", text))
            for group in re.findall(r"crate::\{([^}]*)\}", text):
                targets.update(re.findall(r"(?:^|,)\s*(\w+)", group))
            for target in targets - {top}:
                found[top][target].add(rel)
    return found


def cycle(graph):
    """One cycle as a list of modules, or None."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    graph = edges(sys.argv[1])
    for module in sorted(graph):
        print(f"{module} -> {', '.join(sorted(graph[module]))}")
    found = cycle(graph)
    if found:
        print("circle: " + " -> ".join(found))
        sys.exit(1)
    print("no circle")


if __name__ == "__main__":
    main()
