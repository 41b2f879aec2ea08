"""kleak-stop, kshell, kleak-console and the kleak-console-log setting."""
import os

import gdb

from . import kcall
from .util import KleakError, ulong


class ConsoleLog(gdb.Parameter):
    """The file that receives the kernel console output (QEMU's serial
    log); kshell and memleak-scan --kernel show what they printed there.
    'make gdb' sets it; empty means unknown."""

    set_doc = "Set the kernel console log file."
    show_doc = "Show the kernel console log file."

    def __init__(self):
        super().__init__("kleak-console-log", gdb.COMMAND_DATA,
                         gdb.PARAM_STRING)
        self.value = os.environ.get("KLEAK_CONSOLE_LOG", "")

    def get_show_string(self, value):
        return value or "(not set)"


console_log = ConsoleLog()


def console_size():
    path = console_log.value
    try:
        return os.path.getsize(path) if path else None
    except OSError:
        return None


def console_since(offset):
    """Console output written to the log after offset ('' if no log)."""
    path = console_log.value
    if not path or offset is None:
        return ""
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read().decode("utf-8", "replace").replace("\r", "")


def at_reset():
    """True before the kernel ran its first instruction (QEMU's -S)."""
    pc = kcall.pc()
    entry = gdb.current_progspace().objfiles()[0].lookup_global_symbol(
        "_start")
    return pc == 0xfff0 or (entry is not None and
                            pc == ulong(entry.value().address))


class KleakStop(gdb.Command):
    """Run the kernel to a place where GDB may call it.

Usage: kleak-stop [shell|idle|hook|any]

Continues until the CPU reaches a safe stop and stays stopped there:
  shell  console_getc(): the shell is about to read its next input byte
         (reached once the boot is over and the prompt is printed)
  idle   the idle thread wakes from its halt (at every tick while the
         kernel waits, so Ctrl-C then kleak-stop works at any time)
  hook   gdb_stop_here(), if the kernel has it
  any    the first of these (the default; from the reset vector: shell)
Commands that call kernel functions (memleak-scan, kshell, 'call ...')
need such a stop: a valid stack, no lock held, interrupts may be off."""

    def __init__(self):
        super().__init__("kleak-stop", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        which = arg.strip() or ("shell" if at_reset() else "any")
        if which not in ("shell", "idle", "hook", "any"):
            raise KleakError("usage: kleak-stop [shell|idle|hook|any]")
        where = kcall.stop_at_safe_point(which)
        print("kleak: stopped at a safe point: %s" % where)


class KShell(gdb.Command):
    """Run a kernel shell command line from GDB.

Usage: kshell [--irqs-on] LINE

Calls the kernel's shell_run_line(LINE) on the stopped CPU (at a safe
stop, see kleak-stop) and shows what it printed on the console when
kleak-console-log is set. Interrupts are off during the call, or on
with --irqs-on: commands that wait for time or for other threads
(sleep, most self-tests) need --irqs-on, or they never return. Inside
another kleak command's calls, that command's choice holds."""

    def __init__(self):
        super().__init__("kshell", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        line = arg.strip()
        irqs_on = line.startswith("--irqs-on")
        if irqs_on:
            line = line[len("--irqs-on"):].strip()
        if not line:
            raise KleakError("usage: kshell [--irqs-on] LINE")
        start = console_size()
        with kcall.KernelCalls(irqs_on=irqs_on):
            addr = kcall.kstring(line)
            status = int(kcall.call("shell_run_line((const char *)0x%x)"
                                    % addr))
        out = console_since(start)
        if out:
            print(out, end="" if out.endswith("\n") else "\n")
        elif start is None:
            print("kleak: output went to the kernel console "
                  "(set kleak-console-log FILE to see it here)")
        if status:
            print("kleak: '%s' returned status %d" % (line, status))


class KleakConsole(gdb.Command):
    """Show the end of the kernel console log.

Usage: kleak-console [LINES]

Prints the last LINES lines (default 20) of the file named by
kleak-console-log (make gdb sets it to build/<arch>/gdb-console.log)."""

    def __init__(self):
        super().__init__("kleak-console", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        n = int(arg) if arg.strip().isdigit() else 20
        if arg.strip() and not arg.strip().isdigit():
            raise KleakError("usage: kleak-console [LINES]")
        text = console_since(0)
        if not console_log.value:
            raise KleakError("kleak-console-log is not set")
        for line in text.splitlines()[-n:]:
            print(line)


KleakStop()
KShell()
KleakConsole()
