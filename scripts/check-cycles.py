#!/usr/bin/env python3
"""check-cycles: no circles between the project's modules (run by scripts/check-layers.sh).

A module is a .c file and the .h file of the same name (http/http.c and http/http.h are the
module http/http), with its internal header if it has one (db/store_internal.h is db/store's).
Two kinds of circle are refused:

  includes  module A includes a header of module B, and B (through any path) includes one
            of A: the sources and headers of every library, program, benchmark and test
            are read (quoted includes only).
  calls     a file of A calls a function (or uses an object) that a file of B alone
            defines, and B through any path uses one of A's: read from the symbols of the
            object files of the libraries and programs (`nm` on BUILD/obj/<folder>/*.o for
            the library folders and cmd/), so it needs a build (without one, only the
            includes are checked, and the script says so).

Each circle is printed with the path that closes it; the exit status is 1 when there is
one. Usage: scripts/check-cycles.py [BUILD]   (BUILD: the build directory, default build)
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.chdir(ROOT)
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
LIBRARIES = ["base", "engine", "codec", "db", "game", "render", "http", "deliver", "api", "cmd"]
SOURCE_FOLDERS = LIBRARIES + ["bench", "openapi", "tests"]
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def module_of(path):
    """api/http.c and api/http.h are api/http; an internal header (db/store_internal.h) is
    its module's own part (db/store)."""
    stem = os.path.splitext(path)[0]
    return stem[: -len("_internal")] if stem.endswith("_internal") else stem


def strongly_connected(graph):
    """Tarjan's components of more than one node (iterative: no recursion limit)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def a_circle(graph, component):
    """One circle through the component's first node, as a list of nodes (first again last)."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        next_frontier = []
        for node in frontier:
            for child in sorted(graph.get(node, ())):
                if child == start:
                    return paths[node] + [start]
                if child in members and child not in paths:
                    paths[child] = paths[node] + [child]
                    next_frontier.append(child)
        frontier = next_frontier
    return component + [start]


def include_graph():
    graph = {}
    for folder in SOURCE_FOLDERS:
        for path in glob.glob(folder + "/**/*.[ch]", recursive=True):
            if "node_modules" in path:
                continue
            source = module_of(path)
            for target in INCLUDE.findall(open(path, encoding="utf-8", errors="replace").read()):
                if "/" not in target:
                    target = os.path.join(os.path.dirname(path), target)
                if not os.path.exists(target):
                    continue
                destination = module_of(os.path.normpath(target))
                if destination != source:
                    graph.setdefault(source, set()).add(destination)
    return graph


def symbol_graph():
    objects = []
    for folder in LIBRARIES:
        for path in glob.glob(os.path.join(BUILD, "obj", folder, "*.o")):
            # an object left over from a source that moved or went away is not the code
            if os.path.exists(os.path.join(folder, os.path.basename(path)[:-2] + ".c")):
                objects.append(path)
    if not objects:
        return None
    output = subprocess.run(["nm", "-A", "--defined-only", "-g"] + sorted(objects), capture_output=True, text=True,
                            check=True).stdout
    definers = {}
    for line in output.splitlines():
        path, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) >= 3:
            definers.setdefault(parts[2], set()).add(path)
    output = subprocess.run(["nm", "-A", "--undefined-only"] + sorted(objects), capture_output=True, text=True,
                            check=True).stdout
    graph = {}
    prefix = os.path.join(BUILD, "obj") + os.sep

    def name(path):
        return module_of(path[len(prefix):] if path.startswith(prefix) else path)

    for line in output.splitlines():
        path, _, rest = line.partition(":")
        symbol = rest.split()[-1] if rest.split() else ""
        owners = definers.get(symbol, set())
        if len(owners) != 1:
            continue
        owner = next(iter(owners))
        if owner != path:
            graph.setdefault(name(path), set()).add(name(owner))
    return graph


def main():
    problems = []
    graph = include_graph()
    for component in strongly_connected(graph):
        problems.append("check-cycles: include circle: " + " -> ".join(a_circle(graph, component)))
    calls = symbol_graph()
    if calls is None:
        print("check-cycles: no objects under %s/obj: only the includes were checked" % BUILD)
    else:
        for component in strongly_connected(calls):
            problems.append("check-cycles: call circle between files: " + " -> ".join(a_circle(calls, component)))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
