"""memleak_padding: a pointer to an object that starts inside its block

Two 32-byte blocks, each pointed to only at +16 (where a 16-byte object
starts). The one annotated with memleak_padding(p, 16, 16) is referenced
by that pointer; the other is not (unless the collector counts any
interior pointer, memleak.interior), and is reported. GDB's memleak-dump
finds the padding in the collector's record of rare block parts
(mm/kmemleak/extra.c) and says where the object starts.
"""
import gdb

from kleaktest import ScenarioFailure, log


def dump(block):
    """The lines of memleak-dump for block."""
    out = gdb.execute("memleak-dump 0x%x" % block, to_string=True)
    log("(gdb) memleak-dump 0x%x\n%s" % (block, out.rstrip()))
    return out.split("\n")


def run(k):
    roots = k.roots(2)
    padded = k.kmalloc(32)
    control = k.kmalloc(32)
    k.padding(padded, 16, 16)
    roots.set(0, padded + 16)
    roots.set(1, control + 16)
    interior = bool(gdb.parse_and_eval("memleak.interior"))
    k.expect_leaks([] if interior else [control])
    if "  object starts at +16 (memleak_padding)" not in dump(padded):
        raise ScenarioFailure("memleak-dump 0x%08x does not say where its "
                              "object starts (+16)" % padded)
    if any("memleak_padding" in line for line in dump(control)):
        raise ScenarioFailure("memleak-dump 0x%08x shows padding it does "
                              "not have" % control)
