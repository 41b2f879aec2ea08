"""out of memory for the collector's metadata: it disables itself, the kernel goes on

GDB takes the collector's cache of blocks outside slabs away ('block_cache'
set to NULL in mm/kmemleak/index_tree.c), so the next tracked large
allocation (a slab object's block is its slot's record, already there)
cannot get its metadata (when its CPU's log of recent allocations is
flushed), exactly as when that cache runs out of memory. The kmalloc
itself must still succeed; the collector must say once why it stops and
disable itself (no panic); afterwards allocations and frees (also of
blocks it tracked before) work without a word from it, 'memleak' says it
is disabled, and the kernel powers off cleanly.
"""
import re

import gdb

from kleakgdb.util import ulong
from kleaktest import log

DISABLES = True
CACHE = "'mm/kmemleak/index_tree.c'::block_cache"
WHY = r"^memleak: disabled: out of memory for block metadata$"


def shell(k, line):
    """Runs a shell line in the kernel; returns what it printed."""
    start = len(k.console())
    gdb.execute("kshell %s" % line, to_string=True)
    out = k.console()[start:]
    log("(gdb) kshell %s\n%s" % (line, out.rstrip()))
    return out


def run(k):
    before = k.kmalloc(64)          # tracked while the collector works
    cache = ulong(gdb.parse_and_eval(CACHE))
    k.allow_console(WHY)
    k.allow_console(r"kmem_cache_alloc: no cache")
    gdb.execute("set var %s = 0" % CACHE)
    try:
        block = k.kmalloc(1 << 18)    # whole pages, outside slabs
        # It waits in the CPU's log of recent allocations: get it a block.
        k.call("memleak_flush_pending()")
    finally:
        gdb.execute("set var %s = 0x%x" % (CACHE, cache))
    if not block:
        raise k.failure("kmalloc failed with the collector out of metadata")
    # The one allocator error is the simulated out-of-memory itself.
    k.errors_before += 1
    k.expect_console(WHY)
    if k.collector_enabled():
        raise k.failure("the collector is still enabled")
    if len(re.findall(WHY, k.console(), re.M)) != 1:
        raise k.failure("the collector said more than once why it stopped")

    # Life goes on: new blocks, frees of old and new ones, no complaints.
    more = [k.kmalloc(n) for n in (16, 100, 3000)]
    area = k.vmalloc(8192)
    for addr in [before, block] + more + [area]:
        k.free(addr)
    out = shell(k, "memleak")
    if ("memleak: the collector is disabled (out of memory for block "
            "metadata)") not in out:
        raise k.failure("'memleak' does not say the collector is disabled, "
                        "and why")
    out = shell(k, "memleak stats")
    if not re.search(r"^state: +disabled \(out of memory for block "
                     r"metadata\)$", out, re.M):
        raise k.failure("'memleak stats' does not show the disabled state "
                        "and why")
