"""memleak-refs: exactly who points at a block

A known graph: a .bss word of the kernel (mm/leaktest.c's lt_words[1])
holds block A, A holds B at offset 8, C holds a pointer 12 bytes into
B, lt_words[2] holds an alias of E (its container_of() offset), and
nothing points at D. After a scan (C and D reported), memleak-refs
lists for A the .bss root with its symbol, for B the word of A (its
start) and the word of C (interior +12), for E the alias, each with
its address and the colours of the last scan; for D it says 0
references and lists nothing. The words of lt_words are put back to 0.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log
from kleakgdb.util import symbol_value, ulong

NEEDS = ("memleak", "leaktest")     # lt_words is mm/leaktest.c's


def refs(addr):
    """memleak-refs ADDR: (header, [reference lines])."""
    out = gdb.execute("memleak-refs 0x%x" % addr, to_string=True)
    log("(gdb) memleak-refs 0x%x\n%s" % (addr, out.rstrip()))
    lines = out.rstrip("\n").split("\n")
    return lines[0], lines[1:]


def expect(addr, header, lines):
    got_header, got = refs(addr)
    if got_header != header or got != lines:
        raise ScenarioFailure("memleak-refs 0x%08x:\n%s\nwanted:\n%s" % (
            addr, "\n".join([got_header] + got),
            "\n".join([header] + lines)))


def run(k):
    words = ulong(symbol_value("lt_words").address)
    if any(k.read_ptr(words + i * k.word) for i in range(4)):
        raise ScenarioFailure("lt_words is in use: a leaktest scenario runs")
    size, alias = k.alias_pair()
    a, b, c, d = (k.kmalloc(64), k.kmalloc(64), k.kmalloc(64),
                  k.kmalloc(48))
    e = k.kmalloc(size)
    root_a, root_e = words + k.word, words + 2 * k.word
    try:
        k.write_ptr(root_a, a)
        k.write_ptr(a + 8, b)
        k.write_ptr(c + 16, b + 12)
        k.write_ptr(root_e, e + alias)
        k.expect_leaks([c, d])
        sym = lambda addr: "lt_words+0x%x" % (addr - words)  # noqa: E731
        expect(a, "block 0x%08x (size 64, gray): 1 reference" % a, [
            "  0x%08x  start    in bss  <%s>" % (root_a, sym(root_a))])
        # The blocks' words in address order.
        expect(b + 30, "block 0x%08x (size 64, gray): 2 references" % b,
               [line for _, line in sorted([
                   (a, "  0x%08x  start    in block 0x%08x (size 64, gray)"
                    % (a + 8, a)),
                   (c, "  0x%08x  interior +12 in block 0x%08x (size 64, "
                    "white)" % (c + 16, c))])])
        expect(e, "block 0x%08x (size %d, gray): 1 reference" % (e, size), [
            "  0x%08x  alias +%d in bss  <%s>" % (root_e, alias,
                                                  sym(root_e))])
        expect(d, "block 0x%08x (size 48, white): 0 references" % d, [])
        try:
            gdb.execute("memleak-refs 0x10", to_string=True)
            raise ScenarioFailure("memleak-refs of an address outside "
                                  "every block did not fail")
        except gdb.error as err:
            if not re.search(r"is not inside any tracked block", str(err)):
                raise ScenarioFailure("memleak-refs 0x10: %s" % err)
    finally:
        k.write_ptr(root_a, 0)
        k.write_ptr(root_e, 0)
    for block in (a, b, c, d, e):
        k.kfree(block)
