"""a leak made from GDB after boot, in every report

One kmalloc(100) called from GDB and dropped. It must appear, with its
size, in the report of memleak-scan (formatted by GDB from the block
list), in the kernel's own 'memleak' report on the console, and in
memleak-list --suspects and memleak-dump; the two reports must list
the same objects. Before that, an allocation still waiting in its CPU's
log of recent allocations must show in memleak-list and memleak-dump.
"""
import re

import gdb

from kleakgdb.commands import console_since, console_size
from kleaktest import ScenarioFailure, log


def objects(text):
    return {int(a, 16): int(s) for a, s in re.findall(
        r"^unreferenced object 0x([0-9a-f]{8}) \(size (\d+)\):$", text, re.M)}


def check_gdb_report(k, block):
    out = gdb.execute("memleak-scan", to_string=True)
    log("(gdb) memleak-scan\n" + out[-3000:])
    report = objects(out)
    if report.get(block) != 100:
        raise ScenarioFailure("memleak-scan does not report 0x%08x (size 100)"
                              % block)
    entry = out[out.index("unreferenced object 0x%08x" % block):]
    if not re.match(r"unreferenced object 0x[0-9a-f]+ \(size 100\):\n"
                    r'  comm "[^"]*", pid \d+, jiffies \d+ \(age \d+\.\d{3}s\)'
                    r"\n  hex dump \(first 32 bytes\):\n"
                    r"(    (00 ){16} \.{16}\n){2}  backtrace:\n"
                    r"    \[<[0-9a-f]{8}>\] (?!kmalloc)\S", entry):
        raise ScenarioFailure("memleak-scan's entry is not in the kernel's "
                              "report format:\n" + entry[:600])
    if not re.search(r"^memleak: \d+ new suspected memory leaks "
                     r"\(\d+ total\)$", out, re.M):
        raise ScenarioFailure("memleak-scan printed no summary line")
    return report


def check_waiting(k):
    """An allocation that still waits in its CPU's log of recent ones (no
    block yet) is shown by memleak-list and memleak-dump all the same."""
    p = k.kmalloc(40)
    listing = gdb.execute("memleak-list", to_string=True)
    log("(gdb) memleak-list\n" + listing[-2000:])
    if not re.search(r"^0x%08x +40 CPU \d+ " % p, listing, re.M):
        raise ScenarioFailure("memleak-list does not show the waiting "
                              "allocation 0x%08x" % p)
    dump = gdb.execute("memleak-dump 0x%x" % (p + 8), to_string=True)
    log("(gdb) memleak-dump\n" + dump)
    if not re.match(r"block 0x%08x-0x%08x \(size 40\) waits in CPU \d+'s "
                    r"log" % (p, p + 39), dump) or "kmalloc+0x" in dump or \
            not re.search(r"^ +\[<[0-9a-f]{8}>\] ", dump, re.M):
        raise ScenarioFailure("memleak-dump does not describe the waiting "
                              "allocation:\n" + dump)
    k.kfree(p)


def run(k):
    check_waiting(k)
    block = k.kmalloc(100)
    k.expect_leaks([block])
    ours = check_gdb_report(k, block)
    theirs = k.kernel_report()
    if theirs != ours:
        raise ScenarioFailure("the kernel's report %s differs from "
                              "memleak-scan's %s" % (sorted(theirs.items()),
                                                     sorted(ours.items())))
    listing = gdb.execute("memleak-list --suspects", to_string=True)
    if not re.search(r"^0x%08x +100 white +0/1 +ars-k- " % block, listing,
                     re.M):
        raise ScenarioFailure("memleak-list --suspects lacks the block:\n"
                              + listing)
    dump = gdb.execute("memleak-dump 0x%x" % (block + 50), to_string=True)
    log("(gdb) memleak-dump\n" + dump)
    if not dump.startswith("block 0x%08x-0x%08x (size 100), white"
                           % (block, block + 99)):
        raise ScenarioFailure("memleak-dump of an address inside the block "
                              "does not describe it")
    # Its checksum, kept in the collector's table: GDB finds the same one.
    start = console_size()
    gdb.execute("kshell memleak dump 0x%x" % block, to_string=True)
    kernel_sum = re.search(r"checksum ([0-9a-f]{8})", console_since(start))
    gdb_sum = re.search(r"checksum ([0-9a-f]{8})", dump)
    if not kernel_sum or not gdb_sum or kernel_sum.group(1) != gdb_sum.group(1):
        raise ScenarioFailure("checksums differ: the kernel's %s, GDB's %s"
                              % (kernel_sum and kernel_sum.group(1),
                                 gdb_sum and gdb_sum.group(1)))
