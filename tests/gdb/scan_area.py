"""memleak_scan_area: only the area is scanned

A rooted 64-byte block with memleak_scan_area(a, 0, 16) holds pointers to
two 32-byte blocks, one at +8 (inside the area) and one at +32 (outside):
only the second is reported.
"""


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
