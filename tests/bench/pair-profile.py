"""GDB script for tests/bench/pair-profile.sh: single-steps one measured
pair of the kernel's 'mmbench' command (the one of kind $PROFILE_KIND and
size $PROFILE_SIZE, see mm/bench.c) and prints how many instructions ran
in each function, most first. Where a pair's instructions go: what
docs/memleak.md's per-function numbers come from."""
import collections
import os

import gdb

KIND = os.environ.get("PROFILE_KIND", "kmalloc")
SIZE = int(os.environ.get("PROFILE_SIZE", "64"))
MAX_STEPS = 100000


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


def measured_pair():
    """Runs to the mmbench_begin() of the wanted pair; False at the end."""
    while True:
        try:
            gdb.execute("continue", to_string=True)
        except gdb.error:
            return False
        if not gdb.selected_inferior().pid:
            return False
        if int(gdb.parse_and_eval("(unsigned long)mmbench_kind")) == 0:
            continue                    # a warm-up pair
        if (gdb.parse_and_eval("mmbench_kind").string() == KIND and
                int(gdb.parse_and_eval("mmbench_size")) == SIZE):
            return True


def main():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("target remote | exec " + os.environ["PROFILE_QEMU"])
    gdb.execute("break mmbench_begin", to_string=True)
    end = int(gdb.parse_and_eval("(unsigned long)&mmbench_end"))
    if not measured_pair():
        print("profile\tno measured pair of kind %s, size %d" % (KIND, SIZE))
        return
    counts = collections.Counter()
    steps = 0
    pc = int(gdb.parse_and_eval("$pc"))
    while pc != end and steps < MAX_STEPS:
        counts[function_of(pc)] += 1
        gdb.execute("stepi", to_string=True)
        pc = int(gdb.parse_and_eval("$pc"))
        steps += 1
    for name, n in counts.most_common():
        print("profile\t%6d  %s" % (n, name))
    print("profile\t%6d  total (the markers and the call included)" % steps)
    try:
        gdb.execute("kill")
    except gdb.error:
        pass


main()
