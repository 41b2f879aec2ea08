#!/usr/bin/env python3
"""The leak collector's windows with interrupts off stay bounded however
many blocks are white at a scan: 'mmbench scan' (mm/debug/mmbench.c)
with 5,000 and with 10,000 leaked blocks, its longest window counted in
instructions (QEMU -icount, one count one instruction, as in
tests/bench/memleak-scan-qemu.sh), on both arches; then 20,000 and
40,000 with 'memleak age=0', when they are suspects, so that the
classification and the lists of suspects are measured too (emptied in
one window, the suspects' list took 218,000 with 40,000 on i386). A
pass over the white blocks or the suspects held in one window grows
with them (it took 345,000 and 690,000 instructions on i386); a
window's own bound is what SCAN_BUDGET words or WALK_BATCH blocks
cost, plus a slab the collector's own allocation may have to make
(about 40,000; 83,000 for a slab of the queues' chunks, eight pages
poisoned in this debug kernel). Blocks of 64 KiB, larger than a
window, are read in several, the world-stopped pause included."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout, PROMPT  # noqa: E402

BOUND = 200000
QEMU_LIB = os.path.join(os.path.dirname(__file__), "..", "bench", "lib",
                        "qemu.sh")


def icount_shift(arch):
    """The -icount shift at which a count of the cycle counter is one
    instruction: the benches' icount_shift (tests/bench/lib/qemu.sh)."""
    out = subprocess.check_output(
        ["sh", "-c", '. "$0" && icount_shift "$1"', QEMU_LIB, arch])
    return int(out)


SHIFT = {arch: icount_shift(arch) for arch in ("i386", "arm")}
LINE = re.compile(r"mmbench scan: added \d+ size \d+ tracked \d+ bytes \d+ "
                  r"cycles \d+ irqoff (\d+) hz (\d+) suspects (\d+) "
                  r"leaks (\d+)")
# A leaked block whose address a stack still holds (a stale local) is
# no suspect: the scan is conservative. At most this many of them.
STALE = 10


def longest_window(k, arch, leaks, blocks=10000, size=64, suspects=False):
    """The scan's longest window in instructions, or None; with
    suspects, the leaks must be found."""
    out = k.command("mmbench scan %d %d %d" % (blocks, size, leaks),
                    timeout=300)
    m = LINE.search(out)
    if not m or int(m.group(4)) != leaks:
        return None, out
    if suspects and int(m.group(3)) < leaks - STALE:
        return None, out
    return int(m.group(1)) * 1e9 / int(m.group(2)) / 2 ** SHIFT[arch], out


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        with Kernel(arch, append="test", extra=("--icount", str(SHIFT[arch]))) as k:
            try:
                k.expect(re.escape(PROMPT), 120)
                half, out1 = longest_window(k, arch, 5000)
                full, out2 = longest_window(k, arch, 10000)
                tap.ok(half and full and max(half, full) <= BOUND,
                       "%s: the longest IRQ-off window does not grow with the "
                       "white blocks (%s insns with 5,000, %s with 10,000)"
                       % (arch, half and int(half), full and int(full)),
                       out1 + out2)
                # With age 0 the leaks are suspects at once: the
                # classification, the tiers and the lists of suspects
                # keep their windows too.
                k.command("memleak age=0")
                half, out1 = longest_window(k, arch, 20000, suspects=True)
                full, out2 = longest_window(k, arch, 40000, suspects=True)
                tap.ok(half and full and max(half, full) <= BOUND,
                       "%s: nor with the suspects, classified (%s insns with "
                       "20,000, %s with 40,000)"
                       % (arch, half and int(half), full and int(full)),
                       out1 + out2)
                # Blocks of 64 KiB: each is read a window at a time, in
                # the pause too.
                big, out = longest_window(k, arch, 10, 50, 65536)
                tap.ok(big and big <= BOUND,
                       "%s: blocks larger than a window are read in several "
                       "(%s insns with blocks of 64 KiB)"
                       % (arch, big and int(big)), out)
            except Timeout as e:
                tap.ok(False, "%s: mmbench scan (%s)" % (arch, e), k.output)
    tap.done()


if __name__ == "__main__":
    main()
