"""the GDB commands: kthreads, kmem-slabinfo, kshell, kmalloc from GDB

Needs no leak collector: checks the read-only commands against what the
kernel itself prints ('ps', 'slabinfo' through kshell) and that a
kmalloc()/kfree() called from GDB moves the right cache's counters.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log

NEEDS = ()


def command(line):
    out = gdb.execute(line, to_string=True)
    log("(gdb) %s\n%s" % (line, out.rstrip()))
    return out


def check_threads(k):
    rows = re.findall(r"^\s*(\d+) (\S+)\s+(\w+)\s+(\d+) (\S+)\s+0x"
                      r"([0-9a-f]+)-", command("kthreads"), re.M)
    threads = {name: (int(pid), state, flags) for pid, name, state, _, flags,
               _ in rows}
    if threads.get("shell", (0,))[0] != 1 or threads["shell"][1] != "running":
        raise ScenarioFailure("kthreads: no running shell with pid 1")
    if "idle/0" not in threads or "idle" not in threads["idle/0"][2]:
        raise ScenarioFailure("kthreads: no idle/0 thread flagged idle")
    ps = command("kshell ps")
    for name, (pid, _, _) in threads.items():
        if not re.search(r"^\s*%d %s\s" % (pid, re.escape(name)), ps, re.M):
            raise ScenarioFailure("kthreads shows %s (pid %d), ps does not"
                                  % (name, pid))


def cache_row(name):
    out = command("kmem-slabinfo %s" % name)
    for line in out.splitlines()[1:]:
        cols = line.split()
        if cols and cols[0] == name:
            return int(cols[1]), int(cols[3])
    raise ScenarioFailure("kmem-slabinfo has no cache %s" % name)


def check_slabinfo(k):
    ours = command("kmem-slabinfo")
    theirs = command("kshell slabinfo")
    for line in theirs.splitlines()[1:]:
        cols = line.split()
        if len(cols) == 6 and not re.search(
                r"^%s\s+%s\s+%s\s+%s\s" % tuple(map(re.escape, cols[:4])),
                ours, re.M):
            raise ScenarioFailure("slabinfo row %s differs in kmem-slabinfo"
                                  % cols[0])
    before, size = cache_row("kmalloc-96")
    if size != 96:
        raise ScenarioFailure("kmalloc-96 has object size %d" % size)
    p = k.kmalloc(70)
    after, _ = cache_row("kmalloc-96")
    k.kfree(p)
    again, _ = cache_row("kmalloc-96")
    if (after, again) != (before + 1, before):
        raise ScenarioFailure("kmalloc-96 active %d -> %d -> %d, expected "
                              "+1 then back" % (before, after, again))


def run(k):
    check_threads(k)
    check_slabinfo(k)
    command("kthread-bt 2")

