#!/usr/bin/env python3
"""'memleak graph' and tools/leak-graph, on both arches: for leaktest's
cycle (three orphans pointing at each other), list-orphaned (ten list
elements linked at offset 100, their head cleared), inside-orphan (an
orphan holding another) and interior-only (a block only a .bss word
points inside: possibly lost, and no reachable block drawn for it), the
DOT between the markers has exactly the scenario's blocks as nodes, each
with its size and tier, and exactly their pointers as edges, with
offsets; tools/leak-graph draws the captured output as a PNG and prints
the DOT back, which dot parses; a log without a
graph, a PATH without Graphviz's dot, or neither -o nor --dot gets exit
status 2 and a message. Five insmod/rmmod rounds of the seed's test
module leave 80 suspects: the graph keeps 64 and says 16 were left
out, in a DOT comment and in the closing line."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap, session  # noqa: E402
from memleak_report import EXPECT  # noqa: E402

NODE = re.compile(r'^  "(0x[0-9a-f]{8})" \[label="0x[0-9a-f]{8}\\n(\d+) bytes, '
                  r'(direct|indirect|possibly lost)\\n([^"]+)", fillcolor="#[0-9a-f]{6}"\];$', re.M)
EDGE = re.compile(r'^  "(0x[0-9a-f]{8})" -> "(0x[0-9a-f]{8})" \[label="\+0x([0-9a-f]+)"\];$', re.M)
TOOL = os.path.join(ROOT, "tools", "leak-graph")
LOGS = {}


def graph_of(out):
    m = re.search(r"^memleak: graph begin\n(.*?)^memleak: graph end$", out, re.M | re.S)
    return m.group(1) if m else ""


def check_scenario(tap, arch, k, name, tiers, edges_of):
    setup = k.command("leaktest " + name)
    blocks = [a for a, _ in EXPECT.findall(setup)]
    sizes = dict(EXPECT.findall(setup))
    out = k.command("memleak graph")
    LOGS.setdefault(arch, []).append(out)
    dot = graph_of(out)
    nodes = {a: (s, t) for a, s, t, _ in NODE.findall(dot)}
    # a block missing from the graph: who points at it, for the diagnostics
    for a in sorted(set(blocks) - set(nodes))[:1]:
        out += k.command("memleak refs " + a[2:])
    tap.ok(set(nodes) == set(blocks) and
           all(nodes[a][0] == sizes[a] for a in blocks) and
           sorted(t for _, t in nodes.values()) == sorted(tiers) and
           all(re.match(r"(lt_kmalloc|setup_%s)\+0x[0-9a-f]+/0x[0-9a-f]+$" %
                        name.replace("-", "_"), site)
               for _, _, _, site in NODE.findall(dot)),
           "%s: %s: the nodes are its %d blocks, with sizes, tiers %s and "
           "sites" % (arch, name, len(blocks), tiers), out)
    edges = sorted((a, b, int(off, 16)) for a, b, off in EDGE.findall(dot))
    tap.ok(edges == sorted(edges_of(blocks)) and "style=dashed" not in dot and
           len(re.findall(r"^  \S.*;$", dot, re.M)) == len(nodes) + len(edges) + 2,
           "%s: %s: the edges are exactly its pointers, nothing else drawn" %
           (arch, name), out)
    tap.ok(re.search(r"^memleak: graph of %d suspects and %d pointers; "
                     r"tools/leak-graph draws it$" % (len(blocks), len(edges)), out, re.M),
           "%s: %s: the closing line counts them" % (arch, name), out)
    k.command("leaktest clean")


def check_graph(tap, arch, k):
    k.command("memleak age=0")
    # cycle: block i holds block i+1 (mod 3) in its first word
    check_scenario(tap, arch, k, "cycle", ["direct", "indirect", "indirect"],
                   lambda b: [(b[i], b[(i + 1) % 3], 0) for i in range(3)])
    # inside-orphan: the first (64 bytes) holds the second in its first word
    check_scenario(tap, arch, k, "inside-orphan", ["direct", "indirect"],
                   lambda b: [(b[0], b[1], 0)])
    # list-orphaned: next (+100) holds the next element's list_head (an
    # alias), prev (+104) the previous one's; the ends hold the old head
    check_scenario(tap, arch, k, "list-orphaned", ["direct"] + ["indirect"] * 9,
                   lambda b: [(b[i], b[i + 1], 100) for i in range(9)] +
                   [(b[i], b[i - 1], 104) for i in range(1, 10)])
    # interior-only: the pointer inside is in .bss, a root: no holder node
    check_scenario(tap, arch, k, "interior-only", ["possibly lost"],
                   lambda b: [])


def check_bounds(tap, arch, k):
    # each round leaves the module's 16 leaks (no pointers between them)
    for _ in range(5):
        k.command("insmod memleak_test")
        k.command("rmmod memleak_test")
    out = k.command("memleak graph", timeout=60)
    dot = graph_of(out)
    tap.ok(len(NODE.findall(dot)) == 64 and not EDGE.findall(dot) and
           re.search(r"^  // left out: 16 suspects, 0 pointers$", dot, re.M) and
           re.search(r"^memleak: graph of 64 suspects and 0 pointers \(16 suspects "
                     r"and 0 pointers left out: at most 64 and 256\); "
                     r"tools/leak-graph draws it$", out, re.M),
           "%s: 80 suspects: 64 nodes, and the 16 left out are said" % arch, out)


def check_tool(tap, arch):
    log_text = "\r\n".join(LOGS.get(arch, []))
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "console.log")
        png = os.path.join(tmp, "leaks.png")
        with open(log, "w") as f:
            f.write(log_text)
        run = subprocess.run([TOOL, log, "-o", png], capture_output=True, text=True)
        data = open(png, "rb").read() if os.path.exists(png) else b""
        tap.ok(run.returncode == 0 and data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000,
               "%s: tools/leak-graph draws the last graph as a PNG" % arch, run.stderr)
        run = subprocess.run([TOOL, "--dot", log], capture_output=True, text=True)
        last = graph_of(LOGS[arch][-1]) if LOGS.get(arch) else None
        tap.ok(run.returncode == 0 and run.stdout == last,
               "%s: --dot prints the last graph (interior-only's) unchanged" % arch,
               run.stdout + run.stderr)
        canon = subprocess.run(["dot", "-Tcanon"], input=run.stdout,
                               capture_output=True, text=True)
        tap.ok(canon.returncode == 0 and "digraph leaks" in canon.stdout,
               "%s: dot parses the --dot output" % arch, canon.stderr)
        run = subprocess.run([TOOL, "--dot"], input="no graph here\n",
                             capture_output=True, text=True)
        tap.ok(run.returncode == 2 and "no leak graph in the log" in run.stderr and
               "Traceback" not in run.stderr,
               "%s: a log without a graph: exit 2 and a message" % arch, run.stderr)
        # a PATH with no dot on it (the tool run by this python directly)
        run = subprocess.run([sys.executable, TOOL, log, "-o", png + "2"],
                             capture_output=True, text=True, env={"PATH": tmp})
        tap.ok(run.returncode == 2 and "dot is not installed" in run.stderr and
               not os.path.exists(png + "2") and "Traceback" not in run.stderr,
               "%s: no dot on PATH: exit 2 and a message" % arch, run.stderr)
        run = subprocess.run([TOOL, log], capture_output=True, text=True)
        tap.ok(run.returncode == 2 and "-o/--output" in run.stderr,
               "%s: neither -o nor --dot: exit 2 and usage" % arch, run.stderr)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        session(tap, arch, [check_graph, check_bounds], "graph session")
        check_tool(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
