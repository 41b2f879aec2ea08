"""memleak-graph: the kernel's DOT graph of the suspects, from GDB

Two orphans written from GDB, A holding B at offset 8: memleak-graph
runs the kernel's 'memleak graph', whose console output must have
exactly these two nodes (A direct, B indirect, with their sizes) and
the one edge A -> B labelled +0x8.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log
from kleakgdb.commands import console_since, console_size


def run(k):
    a, b = k.kmalloc(64), k.kmalloc(32)
    k.write_ptr(a + 8, b)
    start = console_size()
    if start is None:
        raise ScenarioFailure("no console log to read the graph from")
    gdb.execute("memleak-graph", to_string=True)
    text = console_since(start)
    log("(gdb) memleak-graph\n" + text.rstrip())
    nodes = dict((n, (s, t)) for n, s, t in re.findall(
        r'^  "(0x[0-9a-f]{8})" \[label="0x[0-9a-f]{8}\\n(\d+) bytes, '
        r'(direct|indirect|possibly lost)', text, re.M))
    want = {"0x%08x" % a: ("64", "direct"), "0x%08x" % b: ("32", "indirect")}
    if not all(nodes.get(n) == v for n, v in want.items()):
        raise ScenarioFailure("memleak-graph nodes %s, wanted %s" % (nodes, want))
    edge = '"0x%08x" -> "0x%08x" [label="+0x8"];' % (a, b)
    if edge not in text:
        raise ScenarioFailure("memleak-graph has no edge %s:\n%s" % (edge, text))
    k.write_ptr(a + 8, 0)
    k.kfree(a)
    k.kfree(b)
