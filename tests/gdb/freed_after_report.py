"""a block freed after it was reported

An orphan is reported; then it is freed after all, which the collector
notes on the console (with CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING: "freeing
orphan object"); the next scan no longer reports it.
"""
from kleakgdb import source


def run(k):
    block = k.kmalloc(40)
    k.expect_leaks([block], "orphan")
    k.kfree(block)
    if source.kconfig().get("CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING") == "y":
        k.expect_console(r"freeing orphan object 0x%08x \(size 40\)" % block)
    k.expect_leaks([], "after the free")
