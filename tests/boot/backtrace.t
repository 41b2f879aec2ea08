#!/usr/bin/env python3
"""Symbolized backtraces on both arches: the bt command, panic, exceptions."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout, PROMPT  # noqa: E402

# "  [<0010210d>] kernel_main+0xcd/0x11f"
FRAME = re.compile(r"^  \[<([0-9a-f]{8})>\] (\S+)\+0x([0-9a-f]+)/0x([0-9a-f]+)$")

# Callers every trace of a shell command goes through, innermost first
# (static helpers in between may or may not be inlined). A chain ends at
# _start, whose entry code cleared the frame pointer.
TYPED = ["shell_run_line", "shell_main", "kernel_main", "_start"]
AUTORUN = ["shell_run_line", "kernel_main", "_start"]
HANDLER = {"i386": ["trap_handler", "trap_common"],
           "arm": ["arm_exception", "exception_common"]}


def traces(out):
    """Every "Call trace:" block of out as a list of (name, offset, size)."""
    blocks = []
    for block in out.split("Call trace:\n")[1:]:
        frames = []
        for line in block.splitlines():
            m = FRAME.match(line)
            if not m:
                break
            frames.append((m.group(2), int(m.group(3), 16), int(m.group(4), 16)))
        blocks.append(frames)
    return blocks


def names(frames):
    return [f[0] for f in frames]


def chain_is(frames, innermost, callers):
    """frames start with innermost, then hold callers in order, last one last."""
    got = names(frames)
    if got[:len(innermost)] != innermost or not got or got[-1] != callers[-1]:
        return False
    rest = iter(got[len(innermost):])
    return all(name in rest for name in callers)


def check_bt(tap, arch):
    with Kernel(arch, append="test") as k:
        try:
            k.expect(re.escape(PROMPT))
            out = k.command("bt")
        except Timeout as e:
            tap.ok(False, "%s: bt answers (%s)" % (arch, e), k.output)
            return
    blocks = traces(out)
    frames = blocks[0] if blocks else []
    tap.ok(len(blocks) == 1, "%s: bt prints one call trace" % arch, out)
    tap.ok(chain_is(frames, ["cmd_bt"], TYPED),
           "%s: bt names cmd_bt and the shell's callers in order" % arch, out)
    tap.ok(frames and all(0 < off < size for _, off, size in frames),
           "%s: every call site lies inside its function" % arch, out)


def check_panic(tap, arch):
    with Kernel(arch, append='test autorun="crash panic"') as k:
        status = k.wait(30)
        out = k.output
    after = out.split("panic: crash command", 1)[-1]
    blocks = traces(after)
    tap.ok("panic: crash command" in out and len(blocks) == 1,
           "%s: panic prints a call trace after its message" % arch, out)
    tap.ok(blocks and chain_is(blocks[0], ["panic", "cmd_crash"], AUTORUN),
           "%s: the panic trace goes through cmd_crash" % arch, out)
    tap.ok(status == 1, "%s: crash panic still exits with failure (%s)" %
           (arch, status), out)


def check_exception(tap, arch):
    with Kernel(arch, append='test autorun="crash undef"') as k:
        status = k.wait(30)
        out = k.output
    before, _, after = out.partition("panic: unhandled exception")
    trapped = traces(before)
    panicked = traces(after)
    # The trapped pc first (an exact pc: its offset may be anything).
    tap.ok(len(trapped) == 1 and chain_is(trapped[0], ["cmd_crash"], AUTORUN),
           "%s: the exception prints the trapped chain from cmd_crash" % arch, out)
    tap.ok(len(panicked) == 1 and
           chain_is(panicked[0], ["panic"] + HANDLER[arch], AUTORUN),
           "%s: the panic trace runs through the exception entry" % arch, out)
    tap.ok(status == 1, "%s: crash undef exits with failure (%s)" %
           (arch, status), out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        check_bt(tap, arch)
        check_panic(tap, arch)
        check_exception(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
