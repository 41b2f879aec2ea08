"""a list linked through a list_head at an alias offset, then orphaned

Ten elements of a size the kernel has a container_of() record for (struct
leaktest_elem: 204 bytes on 32-bit, list_head at 100, when the kernel has
the built-in leak tests; else the first alias the collector knows), linked
by memory writes into a list whose head sits in a root. The only
pointers to each element point at its list_head: aliases keep them all
alive. Clearing the head orphans the whole list: all ten are reported.
"""
from kleaktest import ScenarioFailure


def run(k):
    size, offset = k.alias_pair()
    roots = k.roots(2)
    head = roots.address(0)
    k.list_init(head)
    elems = []
    for _ in range(10):
        e = k.kmalloc(size)
        if offset not in k.block_aliases(e):
            raise ScenarioFailure("kmalloc(%d) block has no alias at +%d"
                                  % (size, offset))
        k.list_add_tail(e + offset, head)
        elems.append(e)
    k.expect_leaks([], "list reachable from its head")
    k.list_init(head)
    k.expect_leaks(elems, "head cleared")
