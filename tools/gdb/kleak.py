"""Loads the kleak GDB commands: source this file from GDB.

    (gdb) source tools/gdb/kleak.py
    (gdb) help kleak    -- lists them (kthreads, kmem-slabinfo, memleak-*)
"""
import inspect
import os
import sys

import gdb

# Not __file__: GDB leaves the outer script's there when a script
# sources this one.
sys.path.insert(0, os.path.dirname(os.path.abspath(
    inspect.getframeinfo(inspect.currentframe()).filename)))

import kleakgdb.commands  # noqa: E402,F401
import kleakgdb.memleak  # noqa: E402,F401
import kleakgdb.slab  # noqa: E402,F401
import kleakgdb.threads  # noqa: E402,F401


class KleakHelp(gdb.Command):
    """The kleak kernel's GDB commands (tools/gdb/).

Usage: kleak (or help kleak)

  kleak-stop [shell|idle|hook|any]  run to a place where calls are safe
  kthreads                          threads: pid, name, state, stack
  kthread-bt PID                    backtrace of a switched-out thread
  kmem-slabinfo [NAME]              slab caches
  memleak-scan [--kernel]           scan (calls the kernel), print the report
  memleak-list [--suspects|--white] blocks the leak collector tracks
  memleak-dump ADDR [BYTES]         one tracked block in detail
  memleak-refs ADDR                 what points to a block (why not leaked)
  kshell [--irqs-on] LINE           run a kernel shell command from GDB
  kleak-console [LINES]             the end of the kernel console log
Each has its own 'help CMD'. docs/gdb.md has the details."""

    def __init__(self):
        super().__init__("kleak", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        print(self.__doc__)


KleakHelp()
