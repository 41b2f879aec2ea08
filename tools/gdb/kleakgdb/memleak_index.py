"""The leak collector's index, read from GDB: where every tracked block is.

The kernel keeps no list of its blocks; memleak_walk_blocks() walks the
index (mm/kmemleak/index.c, docs/memleak.md "The index"), and so does
this, by reading memory only:

  slab_starts  a bit per page of RAM: the first page of a slab with
               tracked objects
  page_slots   per page, that slab's struct slab_slots: a header, a type
               byte per slot (rounded up to a word), then a block pointer
               per slot (NULL: no block)
  block_tree   the blocks outside slabs: a radix tree keyed by start
               page, each entry a list of the tree's own links (struct
               tree_link of mm/kmemleak/index_tree.c: next, block)
"""
from .util import (KleakError, read_bytes, read_word, struct_at,
                   struct_type, symbol_value, ulong, word_size, byte_order)

# A bound on what a sane index holds: more means a corrupted one.
MAX_BLOCKS = 1 << 22


def words_at(addr, count):
    """count words at addr, in one read."""
    n = word_size()
    data = read_bytes(addr, n * count)
    return [int.from_bytes(data[i:i + n], byte_order())
            for i in range(0, len(data), n)]


def slab_start_pages():
    """Page numbers (from min_pfn) whose bit is set in slab_starts."""
    nr_pages = ulong(symbol_value("max_pfn")) - ulong(symbol_value("min_pfn"))
    starts = ulong(symbol_value("slab_starts"))
    if not starts:
        return []               # the index was never made (memleak=off)
    bits = 8 * word_size()
    pages = []
    for w, word in enumerate(words_at(starts, (nr_pages + bits - 1) // bits)):
        while word:
            low = word & -word
            pages.append(w * bits + low.bit_length() - 1)
            word ^= low
    return [p for p in pages if p < nr_pages]


def slab_blocks(slots_addr):
    """The block addresses in one slab's slot array, by slot."""
    stype = struct_type("slab_slots")
    s = struct_at(slots_addr, stype)
    shape = symbol_value("shapes")[int(s["shape"])]
    nr_slots = int(shape["nr_slots"])
    n = word_size()
    types_bytes = (nr_slots + n - 1) // n * n
    first = slots_addr + stype.sizeof + types_bytes
    return [b for b in words_at(first, nr_slots) if b]


def tree_blocks():
    """The blocks outside slabs, by start page, each page's in address
    order (radix tree nodes of include/kernel/radix-tree.h)."""
    root = symbol_value("block_tree")
    ntype = struct_type("radix_tree_node")
    ltype = struct_type("tree_link")
    found = []

    def visit(node_addr, depth):
        if depth > 16:
            raise KleakError("block tree deeper than 16 levels: corrupted?")
        node = struct_at(node_addr, ntype)
        slots = node["slots"]
        for i in range(slots.type.range()[1] + 1):
            entry = ulong(slots[i])
            if not entry:
                continue
            if int(node["shift"]):
                visit(entry, depth + 1)
                continue
            while entry:        # the blocks starting in this page
                link = struct_at(entry, ltype)
                found.append(ulong(link["block"]))
                if len(found) > MAX_BLOCKS:
                    raise KleakError("more than %d blocks in the tree: "
                                     "a loop?" % MAX_BLOCKS)
                entry = ulong(link["next"])

    top = ulong(root["rnode"])
    if top:
        visit(top, 0)
    return found


def block_addresses():
    """Every tracked block's address, in memleak_walk_blocks()' order:
    slab by slab in address order, then the tree."""
    page_slots = ulong(symbol_value("page_slots"))
    found = []
    for page in slab_start_pages():
        slots = read_word(page_slots + page * word_size())
        if not slots:
            raise KleakError("slab start page %d has no slot array" % page)
        found.extend(slab_blocks(slots))
    return found + tree_blocks()
