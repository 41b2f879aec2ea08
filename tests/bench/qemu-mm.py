"""GDB script for tests/bench/qemu-mm.sh: counts the instructions of each
alloc+free pair the kernel's 'mmbench' command runs between
mmbench_begin() and mmbench_end(), by single-stepping, and prints one
benchmark row per pair, less the cost of the empty pair (the markers
and the call). Runs inside gdb-multiarch; QEMU is started by
'target remote | ...' with the command line in $MMBENCH_QEMU."""
import os

import gdb

ARCH = os.environ["MMBENCH_ARCH"]
MAX_STEPS = 200000


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
        name = label()
        steps = step_to(end)
        if name == "empty":
            base = steps
            continue
        net = steps - (base or 0)
        print("row\tmm (qemu %s)\t%s\t%d\t-\t-\tinsns/pair" % (ARCH, name, net),
              flush=True)
    gdb.execute("delete")
    try:
        gdb.execute("kill")
    except gdb.error:
        pass


main()
