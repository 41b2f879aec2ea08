"""memleak-suppress: a suppression set from GDB hides exactly its leaks

Two orphans allocated by GDB's kmalloc calls (their traces run through
the GDB-call path, so a pattern on their own frames would hide both) and
one orphan made by the shell's 'leaktest orphans' (setup_orphans in its
trace). After memleak-suppress setup_orph*, memleak-scan lists the two GDB
orphans, not the leaktest ones, and its summary counts the 6 hidden
with their bytes, as the shell does. The pattern is removed afterwards.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log

NEEDS = ("memleak", "leaktest")


def run(k):
    a, b = k.kmalloc(40), k.kmalloc(56)
    gdb.execute("kshell leaktest orphans", to_string=True)
    try:
        gdb.execute("memleak-suppress setup_orph*", to_string=True)
        k.expect_leaks([a, b])
        out = gdb.execute("memleak-scan", to_string=True)
        log("(gdb) memleak-scan\n" + out.rstrip())
        m = re.search(r"^memleak: (\d+) suspects? \((\d+) bytes\) suppressed "
                      r"\(memleak suppressions\)$", out, re.M)
        if not m or m.group(1) != "6":
            raise ScenarioFailure("memleak-scan's summary does not count the "
                                  "6 suppressed leaktest orphans:\n" + out)
        for bad in ("", "a b"):
            try:
                gdb.execute("memleak-suppress %s" % bad, to_string=True)
                raise ScenarioFailure("memleak-suppress '%s' did not fail" % bad)
            except gdb.error as err:
                if "usage: memleak-suppress PATTERN" not in str(err):
                    raise ScenarioFailure("memleak-suppress '%s': %s" % (bad, err))
    finally:
        gdb.execute("kshell memleak unsuppress setup_orph*", to_string=True)
        gdb.execute("kshell leaktest clean", to_string=True)
    k.kfree(a)
    k.kfree(b)
