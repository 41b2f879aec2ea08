"""a cycle of orphans: all reported, one as the direct leak

Three 48-byte blocks pointing at each other in a ring, and nothing else
pointing at any of them: reference counting would keep them, a tracing
scan reports all three. memleak-scan's leak summary takes one of them as
the direct leak that leads the ring and the other two as indirect, and
its digest says the same by allocation site.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log


def run(k):
    ring = [k.kmalloc(48) for _ in range(3)]
    for i, block in enumerate(ring):
        k.write_ptr(block, ring[(i + 1) % 3])
    k.expect_leaks(ring)
    out = gdb.execute("memleak-scan", to_string=True)
    log("(gdb) memleak-scan\n" + out[-600:])
    m = re.search(r"^memleak: leak summary: direct (\d+) blocks? \((\d+) bytes\), "
                  r"indirect (\d+) blocks? \((\d+) bytes\)", out, re.M)
    base = len(k.baseline)
    if not m or int(m.group(3)) != 2 or int(m.group(1)) != 1 + base:
        raise ScenarioFailure("the ring is not 1 direct + 2 indirect leaks "
                              "(baseline %d):\n%s" % (base, out[-600:]))
    digest = re.findall(r"^memleak: (\d+) (direct|indirect) leaks?, (\d+) bytes, from ",
                        out, re.M)
    indirect = [(int(n), int(b)) for n, t, b in digest if t == "indirect"]
    if indirect != [(2, 96)] or sum(int(n) for n, t, _ in digest if t == "direct") != 1 + base:
        raise ScenarioFailure("the digest does not give 2 indirect leaks of "
                              "96 bytes and the direct one:\n" + out[-600:])
