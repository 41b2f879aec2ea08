"""kmem-slabinfo: the slab caches, read from mm/slab.c's slab_caches."""
import gdb

from .util import (KleakError, c_string, list_entries, struct_at,
                   struct_type, symbol_value, ulong)

FLAG_NAMES = ((0x01, "hwalign"), (0x02, "redzone"), (0x04, "poison"),
              (0x08, "nodebug"), (0x10, "kmalloc"))


def all_caches():
    """(address, struct kmem_cache copy) of every cache, oldest first."""
    ctype = struct_type("kmem_cache")
    head = ulong(symbol_value("slab_caches").address)
    for addr in list_entries(head, ctype, "list"):
        yield addr, struct_at(addr, ctype)


def objects_in_arrays(c):
    cpus = c["cpu"]
    low, high = cpus.type.range()
    return sum(int(cpus[i]["avail"]) for i in range(low, high + 1))


def active_objects(c):
    """As kmem_cache_active_objects(): out of the slabs, less the arrays."""
    return max(int(c["inuse"]) - objects_in_arrays(c), 0)


def flag_names(flags):
    return ",".join(n for bit, n in FLAG_NAMES if flags & bit) or "-"


class KmemSlabinfo(gdb.Command):
    """List the slab caches (mm/slab.c's slab_caches).

Usage: kmem-slabinfo [NAME]

Like the shell's 'slabinfo' (active and total objects, object size,
objects and pages per slab), plus: the slot size (object, red zones,
free word), the slabs and the empty slabs, the free objects cached in
the per-CPU arrays, the cache's address and flags. With NAME, only the
caches whose name contains it. Reads memory only."""

    def __init__(self):
        super().__init__("kmem-slabinfo", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        want = arg.strip()
        if len(want.split()) > 1:
            raise KleakError("usage: kmem-slabinfo [NAME]")
        print("%-20s %7s %7s %7s %5s %7s %5s %5s %5s %6s  %-10s %s" % (
            "name", "active", "total", "objsize", "slot", "perslab",
            "pages", "slabs", "empty", "cached", "address", "flags"))
        for addr, c in all_caches():
            name = c_string(c["name"])
            if want and want not in name:
                continue
            print("%-20s %7d %7d %7d %5d %7d %5d %5d %5d %6d  0x%08x %s" % (
                name, active_objects(c),
                int(c["nr_slabs"]) * int(c["num"]), int(c["object_size"]),
                int(c["size"]), int(c["num"]), 1 << int(c["order"]),
                int(c["nr_slabs"]), int(c["nr_free_slabs"]),
                objects_in_arrays(c), addr, flag_names(int(c["flags"]))))


KmemSlabinfo()
