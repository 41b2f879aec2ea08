"""The leak collector's index, read from GDB: where every tracked block is.

The kernel keeps no list of its blocks; memleak_walk_blocks() walks the
index (mm/kmemleak/index.c, docs/memleak.md "The index"), and so does
this, by reading memory only:

  slab_starts  a bit per page of RAM: the first page of a slab with
               tracked objects
  memleak_page_entries
               per page, its entry: the slab's records (one struct
               memleak_block per slot, in slot order; a free slot's
               flags without MEMLEAK_ALLOCATED) and its shape, which
               gives the slot count, the slot size and the object's
               offset in its slot: a record's block starts at its
               slot's object
  block_tree   the blocks outside slabs: a radix tree keyed by start
               page, each entry a list of the tree's nodes (struct
               tree_block of mm/kmemleak/index_tree.c: the block
               itself, next, its start and its whole size)

Each block is given as (address of its record, its start).
"""
from . import source
from .util import (KleakError, read_bytes, struct_at,
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


def page_address(page):
    """The address of page number page (from min_pfn): RAM is mapped
    one to one (include/asm-generic/page.h)."""
    return (ulong(symbol_value("min_pfn")) + page) * 4096


def slab_blocks(page):
    """(record, start) of the blocks in the records of the slab whose
    first page is page (from min_pfn), by slot."""
    entry = symbol_value("memleak_page_entries")[page]
    records = ulong(entry["records"])
    if not records:
        raise KleakError("slab start page %d has no records" % page)
    shape = symbol_value("memleak_shapes")[int(entry["shape"])]
    nr_slots = int(shape["nr_slots"])
    slot_size = int(shape["size"])
    first = page_address(page) + int(shape["obj_offset"])
    btype = struct_type("memleak_block")
    flags_at = btype["flags"].bitpos // 8
    size = btype.sizeof
    data = read_bytes(records, size * nr_slots)
    allocated = source.define("mm/kmemleak/internal.h", "MEMLEAK_ALLOCATED")
    found = []
    for i in range(nr_slots):
        at = i * size + flags_at
        flags = int.from_bytes(data[at:at + 2], byte_order())
        if flags & allocated:
            found.append((records + i * size, first + i * slot_size))
    return found


def radix_leaves(root):
    """The items of a radix tree (include/kernel/radix-tree.h) whose root
    is the gdb.Value root, in key order."""
    ntype = struct_type("radix_tree_node")
    leaves = []

    def visit(node_addr, depth):
        if depth > 16:
            raise KleakError("radix tree deeper than 16 levels: corrupted?")
        node = struct_at(node_addr, ntype)
        slots = node["slots"]
        for i in range(slots.type.range()[1] + 1):
            entry = ulong(slots[i])
            if not entry:
                continue
            if int(node["shift"]):
                visit(entry, depth + 1)
            else:
                leaves.append(entry)

    top = ulong(root["rnode"])
    if top:
        visit(top, 0)
    return leaves


def tree_blocks():
    """The blocks outside slabs, by start page, each page's in address
    order (the tree's items are lists of the blocks starting in a page)."""
    ttype = struct_type("tree_block")
    block_at = ttype["block"].bitpos // 8
    found = []
    for entry in radix_leaves(symbol_value("block_tree")):
        while entry:        # the blocks starting in this page
            tb = struct_at(entry, ttype)
            found.append((entry + block_at, ulong(tb["start"])))
            if len(found) > MAX_BLOCKS:
                raise KleakError("more than %d blocks in the tree: "
                                 "a loop?" % MAX_BLOCKS)
            entry = ulong(tb["next"])
    return found


def block_addresses():
    """Every tracked block's (record, start), in memleak_walk_blocks()'
    order: slab by slab in address order, then the tree."""
    found = []
    for page in slab_start_pages():
        found.extend(slab_blocks(page))
    return found + tree_blocks()
