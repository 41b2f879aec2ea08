#!/usr/bin/env python3
"""Boots each arch with autorun="selftest;poweroff" and checks every KTAP suite."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout  # noqa: E402

SUITE_RESULT = re.compile(r"^(not )?ok (\d+) (\S+)$", re.M)


def check_arch(tap, arch, smp):
    name = "%s smp=%d" % (arch, smp)
    with Kernel(arch, append='test autorun="selftest;poweroff"', smp=smp) as k:
        status = k.wait(60)
        out = k.output
    suites = SUITE_RESULT.findall(out)
    tap.ok(len(suites) > 0, "%s: KTAP suites printed" % name, out)
    for failed, number, suite in suites:
        tap.ok(not failed, "%s: suite %s" % (name, suite), out)
    m = re.search(r"^1\.\.(\d+)$", out, re.M)
    tap.ok(m and int(m.group(1)) == len(suites),
           "%s: KTAP plan matches the suites run" % name, out)
    tap.ok("# selftest:" in out and ", 0 failed" in out,
           "%s: summary line reports no failure" % name, out)
    tap.ok("panic" not in out, "%s: no panic" % name, out)
    tap.ok(status == 0, "%s: QEMU exited through poweroff (status %s)" %
           (name, status), out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        check_arch(tap, arch, 1)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
