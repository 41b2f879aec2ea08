"""plain orphans: two of each allocator, and a vmalloc of 100 KiB

The 2006 test module's first case, written from GDB: two blocks of each
allocator (kmalloc(32), cache objects, vmalloc(64)), whose addresses are
dropped at once. All are reported, each with its size (vmalloc blocks
are recorded as whole pages). The large one's size does not fit a
record's 16 bits: the GDB tools read it from its tree node, as
block_size() does.
"""


def run(k):
    leaks = [k.kmalloc(32), k.kmalloc(32)]
    cache = k.cache_create("gdb-orphans", 48)
    leaks += [k.cache_alloc(cache), k.cache_alloc(cache)]
    leaks += [k.vmalloc(64), k.vmalloc(64)]
    leaks.append(k.vmalloc(100 * 1024))
    k.expect_leaks(leaks)
