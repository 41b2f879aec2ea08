"""GDB script for tests/bench/qemu-mm.sh: counts the instructions of each
alloc+free pair the kernel's 'mmbench' command runs between
mmbench_begin() and mmbench_end(), by single-stepping, and prints one
benchmark row per pair, less the cost of the empty pair (the markers
and the call). Runs inside gdb-multiarch; QEMU is started by
'target remote | ...' with the command line in $MMBENCH_QEMU; rows are
labelled $MMBENCH_LABEL."""
import os

import gdb

LABEL = os.environ["MMBENCH_LABEL"]
# Larger pairs are let run unmeasured (debug kernels: poison scales with size).
MAX_SIZE = int(os.environ.get("MMBENCH_MAX_SIZE", "1048576"))
KINDS = os.environ.get("MMBENCH_KINDS", "kmalloc,kmem_cache,pages").split(",")
MAX_STEPS = 500000


def step_to(end):
    steps = 0
    while int(gdb.parse_and_eval("$pc")) != end and steps < MAX_STEPS:
        gdb.execute("stepi", to_string=True)
        steps += 1
    return steps


def label():
    kind = gdb.parse_and_eval("mmbench_kind").string()
    size = int(gdb.parse_and_eval("mmbench_size"))
    if kind == "kmalloc":
        return "kmalloc+kfree %d B" % size
    if kind == "kmalloc-newctx":
        return "kmalloc+kfree %d B, new call chain" % size
    if kind == "kmalloc-long":
        return "kmalloc+kfree %d B, long-lived (in the tree)" % size
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
        if kind != "empty" and (kind not in KINDS or
                                int(gdb.parse_and_eval("mmbench_size")) > MAX_SIZE):
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
