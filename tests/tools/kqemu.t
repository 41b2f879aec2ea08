#!/usr/bin/env python3
"""The boot tests' harness (tests/lib/kqemu.py), on plain processes
instead of QEMU: wait() returns the exit status only once everything the
process printed is in output, even when the reader thread is slow (on a
loaded machine a test once lost its verdict line: the process had
exited, its last lines were still in the pipe); a process that outlives
wait()'s timeout is killed (None); expect() finds what comes later.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Console, Tap, Timeout  # noqa: E402

LINES = 2000
PRINTER = ["sh", "-c", 'i=0; while [ $i -lt %d ]; do echo "line $i"; '
           'i=$((i + 1)); done; echo "last line"' % LINES]


class StarvedConsole(Console):
    """A reader that starts late, as a thread on a busy machine may."""

    def _read(self):
        time.sleep(0.5)
        super()._read()


def check_wait_drains(tap):
    with StarvedConsole(PRINTER) as c:
        status = c.wait(20)
        out = c.output
    tap.ok(status == 0, "the printer exits with status 0 (%s)" % status)
    tap.ok(out.endswith("last line\n"),
           "wait() returns with the last line read (%d lines of %d)" %
           (out.count("\n"), LINES + 1), out[-200:])
    tap.ok(out.count("\n") == LINES + 1 and "line 1999\n" in out,
           "every line is there, once", out[-200:])


def check_wait_kills(tap):
    start = time.monotonic()
    with Console(["sleep", "30"]) as c:
        status = c.wait(0.5)
        gone = c.proc.poll() is not None
    tap.ok(status is None and gone,
           "a process past wait()'s timeout is killed (status %s)" % status)
    tap.ok(time.monotonic() - start < 15, "and wait() does not hang")


def check_expect(tap):
    with Console(["sh", "-c", "echo hello; sleep 0.3; echo world"]) as c:
        first = c.expect("hello", 10).group(0)
        second = c.expect("world", 10).group(0)
        try:
            c.expect("hello", 2)
            again = "found"
        except Timeout as e:
            again = str(e)
        c.wait(10)
    tap.ok(first == "hello" and second == "world",
           "expect() finds each pattern in turn")
    tap.ok("QEMU exited" in again or "timed out" in again,
           "a pattern only before the last match is not found again (%s)" %
           again)


def main():
    tap = Tap()
    check_wait_drains(tap)
    check_wait_kills(tap)
    check_expect(tap)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
