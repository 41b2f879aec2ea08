"""a pointer kept only inside another orphan: both reported

A 64-byte orphan holds the only pointer to a 32-byte block. Orphans are
not scanned (they stay white), so the pointer does not count: both are
reported.
"""


def run(k):
    outer = k.kmalloc(64)
    inner = k.kmalloc(32)
    k.write_ptr(outer, inner)
    k.expect_leaks([outer, inner])
