#!/usr/bin/env python3
"""Report import loops between the source files of each crate.

A file imports another when it names a module path of its own crate
(`crate::a::b`, `super::x`, `self::y`) that resolves to that file (a
parent's plain `mod child; pub use child::Item;` declares its children and
is not counted). Two files
that import each other, directly or round a loop, are reported; the exit
code is 1 if there is any loop. Run from anywhere: scripts/import_cycles.py
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates")


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def file_of(modules, parts):
    """The longest prefix of `parts` that is a module file."""
    for k in range(len(parts), -1, -1):
        if tuple(parts[:k]) in modules:
            return tuple(parts[:k])
    return None


PATH = re.compile(r"\b(crate|super|self)((?:::\w+)+)")


def edges(src):
    modules = {}
    for d, _, fs in os.walk(src):
        for f in fs:
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                modules[module_of(src, p)] = p
    graph = {m: set() for m in modules}
    for m, p in modules.items():
        text = open(p, encoding="utf-8").read()
        text = re.sub(r"//[^\n]*", "", text)
        # A `use a::{b, c::d}` group: expand braces once.
        for head, group in re.findall(r"\b((?:crate|super|self)(?:::\w+)*)::\{([^}]*)\}", text):
            for item in group.split(","):
                item = item.strip().split(" as ")[0]
                if item:
                    text += f"\n{head}::{item}"
        for kind, rest in PATH.findall(text):
            parts = [x for x in rest.split("::") if x]
            if kind == "crate":
                target = parts
            elif kind == "self":
                target = list(m) + parts
            else:
                target = list(m[:-1]) + parts
            t = file_of(modules, target)
            if t is not None and t != m:
                graph[m].add(t)
    return modules, graph


def cycles(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
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
                out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            strong(v)
    return out


def main():
    bad = 0
    for crate in sorted(os.listdir(ROOT)):
        src = os.path.join(ROOT, crate, "src")
        if not os.path.isdir(src):
            continue
        modules, graph = edges(src)
        for comp in cycles(graph):
            bad += 1
            names = sorted("::".join(m) or "(root)" for m in comp)
            print(f"crates/{crate}: import loop between {', '.join(names)}")
    if bad == 0:
        print("import_cycles: no file imports another round a loop")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
