#!/usr/bin/env python3
"""Checks the layer order of nssim's sources (ORDER below; sim/CMakeLists.txt names it): each
#include "..." names only its own layer or a lower one; reports/ knows no SimGrid and no sim/; only
sim/world/ and cli/ know SimGrid, the rest of sim/ being nssim_model, built and tested without it,
which includes nothing of sim/world/ either; and no units (a header and its source: the path
without .h/.cpp) include each other in a circle.
usage: check_include_layers.py SOURCE_DIR"""
import os
import re
import sys

# Lowest first; a layer may include the layers before it. serve/ and reports/ stand beside sim/,
# each with the layers it may include, and only cli/ includes them: reports/ renders a run's JSON
# and knows no sim/.
ORDER = [
    "common",
    "nameserver_core",
    "nameserver_codec",
    "sim/network",
    "sim/broker",
    "sim/scenario",
    "sim/record",
    "sim/nameserver",
    "sim/client",
    "sim/consumer",
    "sim/world",
    "sim/analysis",
    "reports",
    "cli",
]
BESIDE = {
    "serve": {"common", "nameserver_core", "nameserver_codec", "serve"},
    "reports": {"common", "reports"},
}
# nameserver_core/ has its own purity check; the codec builds on it alone.
SCANNED = ["common", "nameserver_core", "nameserver_codec", "serve", "sim", "reports", "cli"]
# Programs built on the layers, which may include any of them; only checked to name real files
# (the Clang build alone compiles the fuzz targets, so a moved header would go unseen until then).
USERS = ["fuzz", "bench"]
# Public headers of the libraries are included as "<library>/x.h" from <folder>/include/.
PUBLIC = {
    "nameserver_core": "nameserver_core/include/nameserver_core",
    "nameserver_codec": "nameserver_codec/include/nameserver_codec",
    "nssim_serve": "serve/include/nssim_serve",
}
SIMGRID_KNOWN = {"sim/world", "cli"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SIMGRID = re.compile(r"^(simgrid|xbt)/")


def layer_of(path):
    """The layer of a repository-relative path: sim/<folder>, or the top folder for the rest."""
    parts = path.split("/")
    if parts[0] == "sim":
        return "/".join(parts[:2]) if len(parts) > 2 else None
    return parts[0]


def refusal(source, target):
    """Why layer `source` may not include layer `target`, or None when it may."""
    if source in BESIDE:
        if target in BESIDE[source]:
            return None
        return f"{source} may include only {', '.join(sorted(BESIDE[source]))}"
    if target in BESIDE:
        return None if source == "cli" else f"only cli includes {target}"
    if ORDER.index(target) > ORDER.index(source):
        return f"{target} lies above {source}"
    if source.startswith("sim/") and source != "sim/world" and target == "sim/world":
        return "nssim_model (sim/ but world/) knows no SimGrid world"
    return None


# A library's public header (lib/include/lib/x.h) and its source (lib/src/x.cpp) are one unit.
LIBRARY_HALF = re.compile(r"^(nameserver_core|nameserver_codec|serve)/(?:include/[^/]+|src)/")


def unit_of(path):
    """A header and its source are one unit; so is x_impl.h, the private half (pimpl) of x."""
    stem = LIBRARY_HALF.sub(r"\1/", os.path.splitext(path)[0])
    return stem[: -len("_impl")] if stem.endswith("_impl") else stem


def resolve(root, including, name):
    """Root-relative ("sim/client/x.h", "reports/html/x.h"), a library's public header, or a
    bare name: the including file's own folder. None when no such file exists."""
    first = name.split("/")[0]
    if first in PUBLIC:
        candidates = [PUBLIC[first] + name[len(first) :]]
    elif first in SCANNED and "/" in name:
        candidates = [name]
    else:
        own = os.path.normpath(os.path.join(os.path.dirname(including), name))
        candidates = [own]
    return next((c for c in candidates if os.path.isfile(os.path.join(root, c))), None)


def sources(root):
    for top in SCANNED + USERS:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for file in sorted(files):
                if file.endswith((".h", ".hpp", ".cpp")):
                    yield os.path.relpath(os.path.join(folder, file), root)


def find_circle(graph, members):
    """One circle through the units of a strongly connected set, as a list that ends where it
    starts."""
    start = min(members)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for unit in frontier:
            for target in sorted(graph[unit]):
                if target == start:
                    return paths[unit] + [start]
                if target in members and target not in paths:
                    paths[target] = paths[unit] + [target]
                    following.append(target)
        frontier = following
    raise AssertionError("not a strongly connected set")


def strongly_connected(graph):
    """Tarjan's algorithm, iterative: the sets of units that reach each other."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root_unit in sorted(graph):
        if root_unit in index:
            continue
        work = [(root_unit, iter(sorted(graph[root_unit])))]
        index[root_unit] = low[root_unit] = len(index)
        stack.append(root_unit)
        on_stack.add(root_unit)
        while work:
            unit, targets = work[-1]
            target = next(targets, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[unit])
                if low[unit] == index[unit]:
                    members = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.add(member)
                        if member == unit:
                            break
                    if len(members) > 1:
                        found.append(members)
            elif target not in index:
                index[target] = low[target] = len(index)
                stack.append(target)
                on_stack.add(target)
                work.append((target, iter(sorted(graph.get(target, ())))))
            elif target in on_stack:
                low[unit] = min(low[unit], index[target])
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    passed, failures = 0, []
    graph = {}
    for path in sources(root):
        source = layer_of(path)
        unit = unit_of(path)
        graph.setdefault(unit, set())
        with open(os.path.join(root, path), encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                where = f"{path}:{number}"
                bracket, name = match.groups()
                if SIMGRID.match(name):
                    if source in SIMGRID_KNOWN:
                        passed += 1
                    else:
                        known = " and ".join(sorted(SIMGRID_KNOWN))
                        failures.append(f"{where}: {source} includes SimGrid ({name}): "
                                        f"only {known} may")
                    continue
                if bracket == "<":
                    continue
                target_path = resolve(root, path, name)
                if target_path is None:
                    failures.append(f'{where}: "{name}" names no file of the tree')
                    continue
                if path.split("/")[0] in USERS:
                    passed += 1
                    continue
                target = layer_of(target_path)
                if source is None or target not in ORDER + list(BESIDE):
                    failures.append(f'{where}: "{name}" lies outside the layers')
                    continue
                why = refusal(source, target)
                if why:
                    failures.append(f"{where}: {source} includes {target} ({name}): {why}")
                    continue
                passed += 1
                if unit_of(target_path) != unit:
                    graph[unit].add(unit_of(target_path))
    circles = strongly_connected(graph)
    for members in circles:
        circle = " -> ".join(find_circle(graph, members))
        failures.append(f"units include each other in a circle: {circle}")
    passed += 0 if circles else 1
    for failure in failures:
        print(failure)
    print(f"include layers: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
