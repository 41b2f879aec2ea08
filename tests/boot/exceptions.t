#!/usr/bin/env python3
"""Takes the exception and panic paths on purpose and checks the report."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap  # noqa: E402

EXPECT = {
    "i386": ["exception 6 (invalid opcode)", "EIP:", "EAX:", "ESP:",
             "panic: unhandled exception 6 (invalid opcode)"],
    "arm": ["exception: undefined instruction at", "pc :", "r0 :", "sp :",
            "panic: unhandled exception (undefined instruction)"],
}


def crash(tap, arch, how, expected):
    with Kernel(arch, append='test autorun="crash %s"' % how) as k:
        status = k.wait(30)
        out = k.output
    for text in expected:
        tap.ok(text in out, "%s: crash %s prints %r" % (arch, how, text), out)
    tap.ok("autorun" in out and "kernel> " not in out,
           "%s: crash %s stops before the shell" % (arch, how), out)
    tap.ok(status == 1, "%s: crash %s exits QEMU with failure (status %s)" %
           (arch, how, status), out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        crash(tap, arch, "undef", EXPECT[arch])
        crash(tap, arch, "panic", ["panic: crash command"])
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
