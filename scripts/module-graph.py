#!/usr/bin/env python3
"""Prints which top-level modules of a Rust crate import which, and fails
(exit 1) if they import each other in a circle, or if two of its files
import each other.

    python3 scripts/module-graph.py core/src

A top-level module is a file or folder directly under the source folder;
an import is a `crate::NAME` path anywhere in its files (tests included).
A file imports another when it names a path into it, `crate::a::b` or
`super::b`; a folder's `mod.rs` naming its own submodules (`mod b;`,
`pub use b::X`) declares them, and is no import. Comments are not read.
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


def file_modules(root):
    """Each file under root (its path) and its module path (a tuple of names)."""
    found = []
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), root)
            parts = tuple(rel[: -len(".rs")].split(os.sep))
            if parts[-1] in ("mod", "main", "lib"):
                parts = parts[:-1]
            found.append((rel, parts))
    return found


def file_edges(root):
    """Which files each file imports, by path."""
    files = file_modules(root)
    by_module = {module: rel for rel, module in files}

    def resolve(path):
        path = tuple(path)
        while path and path not in by_module:
            path = path[:-1]
        return by_module.get(path) if path else None

    found = {}
    for rel, module in files:
        text = open(os.path.join(root, rel), encoding="utf-8").read()
        text = re.sub(r"//[^\n]*", "", text)
        named = re.findall(r"\b(crate|super)::((?:\w+::)*\w+)", text)
        # `crate::a::{b, c::D}` names `a::b` and `a::c::D`.
        groups = re.findall(r"\b(crate|super)::((?:\w+::)*)\{([^{}]*)\}", text)
        for start, prefix, group in groups:
            items = re.findall(r"(?:^|,)\s*(\w+(?:::\w+)*)", group)
            named += [(start, prefix + item) for item in items]
        paths = [
            (list(module[:-1]) if start == "super" else []) + path.split("::")
            for start, path in named
        ]
        found[rel] = {resolve(p) for p in paths} - {None, rel}
    return found


def mutual(root):
    """The pairs of files that import each other, by path."""
    found = file_edges(root)
    return sorted((a, b) for a in found for b in found[a] if a < b and a in found.get(b, ()))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    graph = edges(sys.argv[1])
    for module in sorted(graph):
        print(f"{module} -> {', '.join(sorted(graph[module]))}")
    found = cycle(graph)
    pairs = mutual(sys.argv[1])
    for a, b in pairs:
        print(f"{a} and {b} import each other")
    if found:
        print("circle: " + " -> ".join(found))
    if found or pairs:
        sys.exit(1)
    print("no circle")


if __name__ == "__main__":
    main()
