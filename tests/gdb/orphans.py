"""plain orphans: kmalloc(32) x2, cache objects x2, vmalloc(64) x2

The 2006 test module's first case, written from GDB: two blocks of each
allocator, whose addresses are dropped at once. All six are reported,
each with its size (vmalloc blocks are recorded as whole pages).
"""


def run(k):
    leaks = [k.kmalloc(32), k.kmalloc(32)]
    cache = k.cache_create("gdb-orphans", 48)
    leaks += [k.cache_alloc(cache), k.cache_alloc(cache)]
    leaks += [k.vmalloc(64), k.vmalloc(64)]
    k.expect_leaks(leaks)
