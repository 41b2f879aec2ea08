"""a scenario that panics the kernel

The runner's own check: panic() called from GDB ends QEMU (test mode,
status 1) in the middle of the call; the scenario fails with that.
"""
from kleakgdb import kcall

NEEDS = ()


def run(k):
    k.call("panic((const char *)0x%x)" % kcall.kstring("panic from GDB"))
