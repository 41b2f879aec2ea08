"""random pointer graphs: exactly the unreachable blocks are reported

For each seed, a generator allocates N blocks (kmalloc of several sizes,
cache objects, vmalloc), annotates some (memleak_not_leak, memleak_ignore,
memleak_scan_area over the first two words), writes M pointers into
random words of random blocks (to a block's start, or to its alias when
its size has one) and roots a few blocks in a not_leak array. A model
of the 2006 design says which blocks a scan must report: the ones that
are neither ignored nor never-leak nor reachable from the roots and the
never-leak blocks through scanned words (an ignored block is not
scanned; a block with a scan area only there). The scan must agree
exactly.

Then some pointers and roots are erased and new ones written, and a
second scan is checked against the model with the checksum rule: a
block that was reported and whose contents changed since is taken for
one in use, scanned, and not reported.
"""
import random

from kleaktest import log, read_bytes

SEEDS = (1, 2, 3, 4, 5)
N_BLOCKS = 32
M_EDGES = 48
N_ROOTS = 4
MAX_SLOTS = 32          # words of a block that may hold a pointer
KMALLOC_SIZES = (16, 24, 32, 64, 100, 128, 200)


class Node:
    def __init__(self, addr, size, kind):
        self.addr, self.size, self.kind = addr, size, kind
        self.note = None            # "not_leak", "ignore" or "area"
        self.slots = {}             # word index -> target Node
        self.alias = None           # offset at which it may be pointed to


def allocate(k, rng, cache, alias):
    kind = rng.choice(("kmalloc",) * 5 + ("cache",) * 2 + ("vmalloc",))
    if kind == "cache":
        addr = k.cache_alloc(cache)
    elif kind == "vmalloc":
        addr = k.vmalloc(rng.choice((64, 5000)))
    else:
        size = rng.choice(KMALLOC_SIZES + ((alias[0],) if alias else ()))
        addr = k.kmalloc(size)
    node = Node(addr, k.sizes[addr], kind)
    if alias and node.size == alias[0] and kind == "kmalloc":
        node.alias = alias[1]
    return node


def annotate(k, rng, node):
    r = rng.random()
    if r < 0.1:
        node.note = "not_leak"
        k.not_leak(node.addr)
    elif r < 0.2:
        node.note = "ignore"
        k.ignore(node.addr)
    elif r < 0.3:
        node.note = "area"
        k.scan_area(node.addr, 0, 2 * k.word)


def pointer_to(rng, node):
    if node.alias is not None and rng.random() < 0.5:
        return node.addr + node.alias
    return node.addr


def add_edge(k, rng, nodes):
    src, dst = rng.choice(nodes), rng.choice(nodes)
    free = [i for i in range(min(MAX_SLOTS, src.size // k.word))
            if i not in src.slots]
    if not free:
        return
    slot = rng.choice(free)
    src.slots[slot] = dst
    k.write_ptr(src.addr + slot * k.word, pointer_to(rng, dst))


def erase_edge(k, rng, nodes):
    src = rng.choice([n for n in nodes if n.slots] or nodes)
    if src.slots:
        slot = rng.choice(sorted(src.slots))
        del src.slots[slot]
        k.write_ptr(src.addr + slot * k.word, 0)


def counts(node, slot, word):
    """Whether the scan reads the pointer in this slot of node."""
    if node.note == "ignore":
        return False
    return node.note != "area" or slot * word < 2 * word


def expected(nodes, roots, word, extra_gray=()):
    """The blocks a scan must report, given the gray blocks to start from."""
    gray = [n for n in nodes if n.note == "not_leak"] + \
        [r for r in roots if r is not None] + list(extra_gray)
    seen = set()
    while gray:
        n = gray.pop()
        if id(n) in seen or n.note == "ignore":
            continue
        seen.add(id(n))
        gray += [dst for slot, dst in n.slots.items() if counts(n, slot, word)]
    return [n for n in nodes if n.note not in ("ignore", "not_leak")
            and id(n) not in seen]


def snapshot(nodes):
    return {id(n): read_bytes(n.addr, n.size) for n in nodes}


def one_seed(k, seed, cache, alias):
    rng = random.Random(seed)
    log("seed %d: %d blocks, %d pointers, %d roots" % (
        seed, N_BLOCKS, M_EDGES, N_ROOTS))
    nodes = [allocate(k, rng, cache, alias) for _ in range(N_BLOCKS)]
    for n in nodes:
        annotate(k, rng, n)
    for _ in range(M_EDGES):
        add_edge(k, rng, nodes)
    roots = k.roots(N_ROOTS)
    rooted = [None] * N_ROOTS
    for i in range(N_ROOTS):
        rooted[i] = rng.choice(nodes)
        roots.set(i, pointer_to(rng, rooted[i]))
    first = expected(nodes, rooted, k.word)
    k.expect_leaks([n.addr for n in first], "seed %d, first scan" % seed)

    before = snapshot(nodes)
    for _ in range(M_EDGES // 4):
        erase_edge(k, rng, nodes)
    for _ in range(M_EDGES // 6):
        add_edge(k, rng, nodes)
    i = rng.randrange(N_ROOTS)
    rooted[i] = None
    roots.clear(i)
    after = snapshot(nodes)
    white = expected(nodes, rooted, k.word)
    changed = [n for n in white
               if n in first and before[id(n)] != after[id(n)]]
    second = expected(nodes, rooted, k.word, changed)
    log("seed %d: %d reported blocks changed since the first scan"
        % (seed, len(changed)))
    k.expect_leaks([n.addr for n in second], "seed %d, second scan" % seed)

    for n in nodes:
        k.free(n.addr)
    k.kfree(roots.addr)


def run(k):
    cache = k.cache_create("gdb-graph", 48)
    try:
        alias = k.alias_pair()
    except k.failure:
        alias = None
    for seed in SEEDS:
        one_seed(k, seed, cache, alias)
