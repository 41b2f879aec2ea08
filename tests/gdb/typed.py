"""typed blocks: memleak-scan prints the pointer checks' findings

The shell's 'leaktest typed-confusion' leaves a typed owner whose
'other' pointer (a struct lt_typed_other *) points to a freed object
that now holds a struct lt_typed_item. memleak-scan prints the type
mismatch in the kernel's format, with file:line in both backtraces,
and its summary counts it, as the shell's 'memleak' does. Then
'leaktest clean' takes it apart and the finding is gone.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log

NEEDS = ("memleak", "leaktest")

FINDING = re.compile(r"^memleak: type mismatch: struct lt_typed_owner\.other at "
                     r"0x([0-9a-f]{8}) -> struct lt_typed_item 0x([0-9a-f]{8})\+0x0 "
                     r"\(size \d+; struct lt_typed_other expected\)$", re.M)
COUNT = "memleak: 1 pointer of typed blocks points where their type forbids"


def scan_output():
    out = gdb.execute("memleak-scan", to_string=True)
    log("(gdb) memleak-scan\n" + out[-2500:])
    return out


def run(k):
    setup = gdb.execute("kshell leaktest typed-confusion", to_string=True)
    log(setup)
    kept = re.findall(r"keeps referenced object 0x([0-9a-f]{8}) \(size (\d+)\)", setup)
    try:
        out = scan_output()
        m = FINDING.search(out)
        if not m or COUNT not in out:
            raise ScenarioFailure("no type mismatch, or no count in the "
                                  "summary:\n" + out[-1500:])
        owner, item = int(kept[0][0], 16), int(kept[1][0], 16)
        if int(m.group(1), 16) - owner not in (16, 32) or int(m.group(2), 16) != item:
            raise ScenarioFailure("the finding names 0x%s -> 0x%s, not the "
                                  "owner's field and the item" % m.groups())
        traces = out[m.end():].split("memleak:")[0]
        frames = re.findall(r"setup_typed_confusion\+\S+ mm/leaktest\.c:\d+", traces)
        if "its backtrace:" not in traces or \
                "the target's backtrace:" not in traces or len(frames) != 2:
            raise ScenarioFailure("both backtraces, with file:line, wanted:\n" + traces)
    finally:
        gdb.execute("kshell leaktest clean", to_string=True)
    out = scan_output()
    if FINDING.search(out) or COUNT in out:
        raise ScenarioFailure("the finding outlived the owner:\n" + out[-800:])
