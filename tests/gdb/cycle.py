"""a cycle of orphans: all reported

Three 48-byte blocks pointing at each other in a ring, and nothing else
pointing at any of them: reference counting would keep them, a tracing
scan reports all three.
"""


def run(k):
    ring = [k.kmalloc(48) for _ in range(3)]
    for i, block in enumerate(ring):
        k.write_ptr(block, ring[(i + 1) % 3])
    k.expect_leaks(ring)
