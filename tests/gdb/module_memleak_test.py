"""the seed's test module: memleak_test.ko loaded and removed from GDB

module_load() brings memleak_test in from the boot archive; its init
leaves six orphans (2 kmalloc(32), 2 objects of its own cache, 2
vmalloc(64)) and a list of ten 204-byte elements whose head is a module
global, linked through list_heads at offset 100: an alias only the
module's own container_of() records give. The scan reports exactly the
six. module_unload() runs its exit and frees the module: its data is no
longer a root, and the next scan reports the ten elements as well; its
alias is gone for blocks allocated afterwards.
"""

from kleakgdb import kcall, memleak
from kleakgdb.util import symbol_value, ulong

ELEM_SIZE, ELEM_ALIAS = 204, 100



def module_blocks(k, before):
    """New blocks the module's code asked an allocator for directly: the
    first frame (the allocator's caller: traces leave the allocators out)
    is outside the kernel's text, in the module."""
    text = (ulong(symbol_value("__text_start").address),
            ulong(symbol_value("__text_end").address))
    found = []
    memleak.flush_pending()
    for b in memleak.all_blocks():
        if b.start in before or not b.has("ALLOCATED"):
            continue
        entries = b.trace()["entries"]
        if entries and not text[0] <= entries[0] < text[1]:
            k.sizes[b.start] = b.size
            found.append(b)
    return found


def run(k):
    name = kcall.kstring("memleak_test")   # its buffer is not the module's
    memleak.flush_pending()
    before = {b.start for b in memleak.all_blocks()}
    err = int(k.call("module_load((const char *)0x%x, 0, (char **)0)" % name))
    if err:
        raise k.failure("module_load(memleak_test) returned %d" % err)
    k.expect_console(r"insmod: memleak_test: loaded at")
    blocks = module_blocks(k, before)
    elems = [b.start for b in blocks if b.size == ELEM_SIZE]
    orphans = [b.start for b in blocks if b.size != ELEM_SIZE]
    if len(elems) != 10 or sorted(k.sizes[a] for a in orphans) != \
            [32, 32, 48, 48, k.page, k.page]:
        raise k.failure("the module allocated %s, not 6 orphans and 10 "
                        "elements" % sorted(b.size for b in blocks))
    for e in elems:
        if ELEM_ALIAS not in k.block_aliases(e):
            raise k.failure("element 0x%08x has no alias at +%d: the "
                            "module's records were not added"
                            % (e, ELEM_ALIAS))
    k.expect_leaks(orphans, "memleak_test loaded")
    name = kcall.kstring("memleak_test")
    err = int(k.call("module_unload((const char *)0x%x)" % name))
    if err:
        raise k.failure("module_unload(memleak_test) returned %d" % err)
    k.allow_console(r"kmem_cache_destroy: cache memleak_test still has 2")
    k.expect_leaks(orphans + elems, "memleak_test removed")
    # The module's alias went with it: a new block of that size has none.
    probe = k.kmalloc(ELEM_SIZE)
    if ELEM_ALIAS in k.block_aliases(probe):
        raise k.failure("a %d-byte block allocated after rmmod still has "
                        "the module's alias at +%d" % (ELEM_SIZE, ELEM_ALIAS))
    k.kfree(probe)
