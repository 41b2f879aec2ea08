"""memleak-why: the path from a root to a block, as the kernel finds it

A chain from a .bss word of the kernel (mm/leaktest.c's lt_words[1]):
root -> A, A+8 -> B, B+16 -> C; D is an orphan. memleak-why C runs the
kernel's 'memleak why' and its console output must show exactly that
path (the root with its symbol, the two hops with their offsets, the
target); for D it must say there is no path. Bad arguments fail in GDB.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log
from kleakgdb.commands import console_since, console_size
from kleakgdb.util import symbol_value, ulong

NEEDS = ("memleak", "leaktest")     # lt_words is mm/leaktest.c's


def why(addr):
    start = console_size()
    if start is None:
        raise ScenarioFailure("no console log to read the answer from")
    gdb.execute("memleak-why 0x%x" % addr, to_string=True)
    text = console_since(start)
    log("(gdb) memleak-why 0x%x\n%s" % (addr, text.rstrip()))
    return text


def run(k):
    words = ulong(symbol_value("lt_words").address)
    if any(k.read_ptr(words + i * k.word) for i in range(4)):
        raise ScenarioFailure("lt_words is in use: a leaktest scenario runs")
    a, b, c, d = (k.kmalloc(64), k.kmalloc(64), k.kmalloc(32),
                  k.kmalloc(48))
    root = words + k.word
    try:
        k.write_ptr(root, a)
        k.write_ptr(a + 8, b)
        k.write_ptr(b + 16, c)
        want = ("memleak why: a path of 3 pointers from a root to 0x%08x:\n"
                "  root .bss: lt_words+0x%x\n"
                "  -> block 0x%08x (size 64)+0x8\n"
                "  -> block 0x%08x (size 64)+0x10\n"
                "  -> 0x%08x\n" % (c, root - words, a, b, c))
        text = why(c)
        if want not in text:
            raise ScenarioFailure("memleak-why 0x%08x:\n%s\nwanted:\n%s"
                                  % (c, text, want))
        text = why(d)
        if not re.search(r"memleak why: no path from a root", text):
            raise ScenarioFailure("memleak-why of an orphan:\n%s" % text)
        for bad in ("", "1 2"):
            try:
                gdb.execute("memleak-why %s" % bad, to_string=True)
                raise ScenarioFailure("memleak-why '%s' did not fail" % bad)
            except gdb.error as err:
                if "usage: memleak-why ADDR" not in str(err):
                    raise ScenarioFailure("memleak-why '%s': %s" % (bad, err))
    finally:
        k.write_ptr(root, 0)
        k.write_ptr(a + 8, 0)
        k.write_ptr(b + 16, 0)
    for block in (a, b, c, d):
        k.kfree(block)
