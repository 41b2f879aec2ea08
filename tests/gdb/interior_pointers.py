"""pointers into the middle of a block, at an alias offset and not

Two blocks of a size with a container_of() alias, each pointed to only
from inside: one at its alias offset, one at a word offset that is no
alias. The alias keeps the first alive; the second is reported, unless
the collector counts any interior pointer (memleak.interior).
"""
import gdb

from kleaktest import ScenarioFailure


def run(k):
    size, offset = k.alias_pair()
    roots = k.roots(2)
    aliased = k.kmalloc(size)
    plain = k.kmalloc(size)
    aliases = k.block_aliases(plain)
    if offset not in aliases:
        raise ScenarioFailure("no alias at +%d for size %d" % (offset, size))
    other = next(o for o in range(k.word, size, k.word) if o not in aliases)
    roots.set(0, aliased + offset)
    roots.set(1, plain + other)
    interior = bool(gdb.parse_and_eval("memleak.interior"))
    k.expect_leaks([] if interior else [plain])
