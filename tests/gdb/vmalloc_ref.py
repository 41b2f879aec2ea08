"""vmalloc: the area list holds one reference, a block needs two

A vmalloc block is tracked with min_count 2; its vm_struct on the area
list always holds one pointer. One block kept in a root and one that
only the area list knows: the second is reported. Then the root is
erased and the first is reported too.
"""


def run(k):
    roots = k.roots(1)
    kept = k.vmalloc(100)
    roots.set(0, kept)
    lost = k.vmalloc(100)
    k.expect_leaks([lost], "one vmalloc block rooted")
    roots.clear(0)
    k.expect_leaks([kept, lost], "root erased")
