#!/usr/bin/env python3
"""No two files of a crate import each other: within each crate, a file's `crate::X`
(and `super::X` from a module's own files) names the module X it uses; a cycle of any
length between files fails this check (issue 44: workflows in libraries, layers that
hold inside a crate as between crates)."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def module_of(src, path):
    """The module path of a source file: src/a/b.rs and src/a/b/mod.rs are a::b."""
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def uses(text, module):
    """The modules of this crate `text` names (its top two levels: a file is a::b at most
    as deep as it is named), skipping `#[cfg(test)]` modules' bodies and comments."""
    text = re.sub(r"//[^\n]*", "", text)
    cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    if cut:
        text = text[: cut.start()]
    found = set()
    for m in re.finditer(r"\bcrate((?:::\w+)+)", text):
        found.add(tuple(m.group(1).split("::")[1:]))
    for m in re.finditer(r"\bsuper((?:::\w+)+)", text):
        base = module[:-1]
        found.add(base + tuple(m.group(1).split("::")[1:]))
    for m in re.finditer(r"\buse\s+crate::\{([^}]*)\}", text):
        for part in m.group(1).split(","):
            part = part.strip().split("::")[0].strip()
            if part:
                found.add((part,))
    return found


def resolve(name, modules):
    """The longest known module that `name` begins with."""
    for k in range(len(name), 0, -1):
        if name[:k] in modules:
            return name[:k]
    return None


def crate_cycles(crate):
    src = os.path.join(crate, "src")
    files = {}
    for d, _, fs in os.walk(src):
        for f in fs:
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                files[module_of(src, p)] = p
    edges = {m: set() for m in files}
    for m, p in files.items():
        if os.path.basename(p) in ("tests.rs",) or "/tests/" in p:
            continue
        with open(p, encoding="utf-8") as fh:
            text = fh.read()
        for u in uses(text, m):
            t = resolve(u, files)
            # A module's own children and its parent (mod.rs, lib.rs declaring it) are
            # its own body, not a neighbour.
            if t is None or t == m or t == () or t[: len(m)] == m or m[: len(t)] == t:
                continue
            edges[m].add(t)
    return strongly_connected(edges)


def strongly_connected(edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def main():
    bad = 0
    crates = sorted(os.path.join(ROOT, "crates", c) for c in os.listdir(os.path.join(ROOT, "crates")))
    for crate in crates + [os.path.join(ROOT, "examples", "storage-engine")]:
        if not os.path.isdir(os.path.join(crate, "src")):
            continue
        for comp in crate_cycles(crate):
            bad += 1
            names = ", ".join("::".join(m) for m in comp)
            print(f"module cycle in {os.path.basename(crate)}: {names}")
    if bad:
        print(f"module cycles: {bad} (files of one crate that import each other)")
        return 1
    print("module cycles: none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
