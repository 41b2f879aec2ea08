"""GDB script for tests/bench/qemu-mm.sh: counts the instructions of each
alloc+free pair the kernel's 'mmbench' command runs between
mmbench_begin() and mmbench_end(), by single-stepping, and prints one
benchmark row per pair, less the cost of the empty pair (the markers
and the call). Runs inside gdb-multiarch; QEMU is started by
'target remote | ...' with the command line in $MMBENCH_QEMU; rows are
labelled $MMBENCH_LABEL.

With $MMBENCH_PROFILE set to "KIND SIZE" it prints instead, for that one
pair, how many instructions ran in each function ("profile" lines, most
first): tools/pair-profile."""
import collections
import os

import gdb

LABEL = os.environ["MMBENCH_LABEL"]
# Larger pairs are let run unmeasured (debug kernels: poison scales with size).
MAX_SIZE = int(os.environ.get("MMBENCH_MAX_SIZE", "1048576"))
KINDS = os.environ.get("MMBENCH_KINDS", "kmalloc,kmem_cache,pages").split(",")
MAX_STEPS = 500000
PROFILE = os.environ.get("MMBENCH_PROFILE", "").split()
PROFILE = (PROFILE[0], int(PROFILE[1])) if len(PROFILE) == 2 else None


def step_to(end, seen=None):
    """Single-steps to end; returns how many instructions ran, and counts
    each one's function in seen, when given."""
    steps = 0
    pc = int(gdb.parse_and_eval("$pc"))
    while pc != end and steps < MAX_STEPS:
        if seen is not None:
            seen[function_of(pc)] += 1
        gdb.execute("stepi", to_string=True)
        pc = int(gdb.parse_and_eval("$pc"))
        steps += 1
    return steps


def function_of(pc):
    """The function pc is in, as the symbol table names it: code inlined
    into it counts as its own."""
    try:
        block = gdb.block_for_pc(pc)
    except RuntimeError:
        block = None
    name = None
    while block and not block.is_static and not block.is_global:
        if block.function:
            name = block.function.name
        block = block.superblock
    return name or "0x%x" % pc


def profile(end):
    """The profile of this pair, printed."""
    seen = collections.Counter()
    steps = step_to(end, seen)
    for name, n in seen.most_common():
        print("profile\t%6d  %s" % (n, name))
    print("profile\t%6d  total (the markers and the call included)" % steps)


def label():
    kind = gdb.parse_and_eval("mmbench_kind").string()
    size = int(gdb.parse_and_eval("mmbench_size"))
    if kind == "kmalloc":
        return "kmalloc+kfree %d B" % size
    if kind == "kmalloc-newctx":
        return "kmalloc+kfree %d B, new call chain" % size
    if kind == "kmalloc-long":
        return "kmalloc+kfree %d B, long-lived (a block)" % size
    if kind == "kmem_cache":
        return "kmem_cache_alloc+free %d B" % size
    if kind == "pages":
        return "alloc_pages+free order %d" % size
    return kind


def main():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("target remote | exec " + os.environ["MMBENCH_QEMU"])
    gdb.execute("break mmbench_begin", to_string=True)
    end = int(gdb.parse_and_eval("(unsigned long)&mmbench_end"))
    base = None
    while True:
        try:
            gdb.execute("continue", to_string=True)
        except gdb.error:
            break
        if int(gdb.parse_and_eval("$pc")) == end or not gdb.selected_inferior().pid:
            break
        if int(gdb.parse_and_eval("(unsigned long)mmbench_kind")) == 0:
            continue                    # a warm-up pair
        name = label()
        kind = gdb.parse_and_eval("mmbench_kind").string()
        size = int(gdb.parse_and_eval("mmbench_size"))
        if PROFILE:
            if PROFILE == (kind, size):
                profile(end)
                break
            continue
        if kind != "empty" and (kind not in KINDS or size > MAX_SIZE):
            continue
        steps = step_to(end)
        if name == "empty":
            base = steps
            continue
        count = int(gdb.parse_and_eval("mmbench_count"))
        net = (steps - (base or 0)) // count
        print("row\t%s\t%s\t%d\t-\t-\tinsns/pair" % (LABEL, name, net),
              flush=True)
    gdb.execute("delete")
    try:
        gdb.execute("kill")
    except gdb.error:
        pass


main()
