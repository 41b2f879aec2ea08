"""memleak_scan_area: only the area is scanned

A rooted 64-byte block with memleak_scan_area(a, 0, 16) holds pointers to
two 32-byte blocks, one at +8 (inside the area) and one at +32 (outside):
only the second is reported. GDB's memleak-dump of the first lists its
area (from the collector's record of rare block parts, extra.c).
"""
import gdb

from kleaktest import ScenarioFailure, log


def run(k):
    roots = k.roots(1)
    a = k.kmalloc(64)
    roots.set(0, a)
    k.scan_area(a, 0, 16)
    inside = k.kmalloc(32)
    outside = k.kmalloc(32)
    k.write_ptr(a + 8, inside)
    k.write_ptr(a + 32, outside)
    k.expect_leaks([outside])
    dump = gdb.execute("memleak-dump 0x%x" % a, to_string=True)
    log("(gdb) memleak-dump 0x%x\n%s" % (a, dump.rstrip()))
    areas = [line for line in dump.split("\n") if "scan area" in line]
    if areas != ["  scan area +0, 16 bytes"]:
        raise ScenarioFailure("memleak-dump 0x%08x lists the scan areas %s, "
                              "not [+0, 16 bytes]" % (a, areas))
