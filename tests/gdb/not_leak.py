"""memleak_not_leak: never reported, and still scanned

A 64-byte block nothing points to, annotated memleak_not_leak, holding
the only pointer to a 32-byte block: neither is reported.
"""


def run(k):
    parent = k.kmalloc(64)
    k.not_leak(parent)
    child = k.kmalloc(32)
    k.write_ptr(parent, child)
    k.expect_leaks([])
