"""a block whose only pointer GDB then erases

A 24-byte block whose only pointer sits in a kernel global (gdb_roots[]
when the kernel has it) is not reported; GDB overwrites the pointer
with 0 and the next scan reports it.
"""


def run(k):
    roots = k.roots(1, "global")
    block = k.kmalloc(24)
    roots.set(0, block)
    k.expect_leaks([], "pointer in place")
    roots.clear(0)
    k.expect_leaks([block], "pointer erased")
