"""young blocks: kmalloc(24) x2 dropped, then scanned with a minimum age

Two orphans made from GDB, scanned while the minimum age is hours: they
are not reported, and memleak-scan's summary says how many blocks it
left out for being too young (as the shell's 'memleak' does). With the
minimum age back to 0 both are reported and the line is gone.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log

YOUNG = re.compile(r"^memleak: (\d+) blocks younger than (\d+) ms not "
                   r"reported \(memleak age=MS\)$", re.M)


def scan_output():
    out = gdb.execute("memleak-scan", to_string=True)
    log("(gdb) memleak-scan\n" + out[-1500:])
    return out


def run(k):
    leaks = [k.kmalloc(24), k.kmalloc(24)]
    gdb.execute("set var memleak.min_age_jiffies = 1000000")  # hours
    out = scan_output()
    m = YOUNG.search(out)
    reported = {int(a, 16) for a in re.findall(
        r"^unreferenced object 0x([0-9a-f]{8})", out, re.M)}
    if not m or int(m.group(1)) < len(leaks) or reported & set(leaks):
        raise ScenarioFailure("with a minimum age the two orphans are not "
                              "counted as young, or are reported:\n" + out[-800:])
    gdb.execute("set var memleak.min_age_jiffies = 0")
    out = scan_output()
    if YOUNG.search(out):
        raise ScenarioFailure("minimum age 0: blocks still left out as young")
    k.expect_leaks(leaks)
