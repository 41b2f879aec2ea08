"""memleak_ignore: never reported, and never scanned

A 64-byte block annotated memleak_ignore holds the only pointer to a
32-byte block: the ignored block is not reported, and since it is not
scanned either, the block it points to is.
"""


def run(k):
    parent = k.kmalloc(64)
    k.ignore(parent)
    child = k.kmalloc(32)
    k.write_ptr(parent, child)
    k.expect_leaks([child])
