#!/usr/bin/env python3
"""Kernel core on both arches: time (uptime, sleep), interrupts (irqs),
interrupt-driven console input that loses nothing, and the threads (ps)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout, PROMPT  # noqa: E402

UPTIME = re.compile(r"uptime: (\d+)\.(\d{3}) s, jiffies (\d+) \(HZ (\d+)\)")
# Lines queued while the kernel sleeps: more than the console's input
# ring holds (1024 bytes), so the UART must hold the rest back.
FLOOD_LINES = 150


def uptime(k):
    out = k.command("uptime")
    m = UPTIME.search(out)
    if not m:
        return None, out
    return (int(m.group(1)) * 1000 + int(m.group(2)), int(m.group(3)),
            int(m.group(4))), out


def check_time(tap, arch, k):
    first, out1 = uptime(k)
    k.command("sleep 300")
    second, out2 = uptime(k)
    diag = out1 + out2
    if not tap.ok(first and second, "%s: uptime prints seconds and jiffies" % arch, diag):
        return
    ms = second[0] - first[0]
    ticks = second[1] - first[1]
    hz = second[2]
    tap.ok(ms >= 300, "%s: uptime grows across sleep 300 (%d ms)" % (arch, ms), diag)
    tap.ok(ticks >= 300 * hz // 1000,
           "%s: jiffies grow across sleep 300 (%d ticks at HZ %d)" % (arch, ticks, hz), diag)
    out = k.command("sleep nope")
    tap.ok("not a number of milliseconds" in out, "%s: sleep rejects bad input" % arch, out)


def check_irqs(tap, arch, k):
    out = k.command("irqs")
    m = re.search(r"^\s*\d+:\s+(\d+).*\btimer\b", out, re.M)
    tap.ok(m and int(m.group(1)) > 0, "%s: irqs shows the ticking timer" % arch, out)
    tap.ok(re.search(r"^\s*\d+:\s+[1-9]\d*.*\buart\b", out, re.M),
           "%s: console input came by interrupt" % arch, out)


def check_flood(tap, arch, k):
    """Input typed while the shell is busy: the ring fills, nothing is lost."""
    lines = "".join("echo flood%03d\n" % i for i in range(FLOOD_LINES))
    k.send("sleep 500\n" + lines)
    k.expect(re.escape(PROMPT))  # after sleep
    for _ in range(FLOOD_LINES):
        k.expect(re.escape(PROMPT))
    seen = re.findall(r"^flood(\d{3})$", k.output, re.M)
    tap.ok(seen == ["%03d" % i for i in range(FLOOD_LINES)],
           "%s: %d lines typed during a sleep all arrive in order (%d seen)" %
           (arch, FLOOD_LINES, len(seen)), k.output[-2000:])
    out = k.command("console")
    m = re.search(r"received (\d+), lost (\d+), ring full (\d+) times", out)
    tap.ok(m and int(m.group(2)) == 0 and int(m.group(3)) > 0,
           "%s: console ring filled up and lost nothing" % arch, out)


def check_threads(tap, arch, k):
    out = k.command("ps")
    names = re.findall(r"^\s*\d+\s+(\S+)\s+\S+\s+\d+\s+\d+\s+\d+", out, re.M)
    tap.ok("idle/0" in names and "shell" in names,
           "%s: ps lists the idle and shell threads (%s)" % (arch, names), out)
    m = re.search(r"^\s*\d+\s+shell\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)", out, re.M)
    tap.ok(m and m.group(1) == "running" and 0 < int(m.group(4)) <= int(m.group(3)),
           "%s: the shell is running, stack high-water mark within its stack" % arch, out)


def session(tap, arch):
    with Kernel(arch, append="test") as k:
        try:
            k.expect(re.escape(PROMPT))
            check_time(tap, arch, k)
            check_irqs(tap, arch, k)
            check_flood(tap, arch, k)
            check_threads(tap, arch, k)
            k.send("poweroff\n")
            status = k.wait(20)
            tap.ok(status == 0, "%s: poweroff (status %s)" % (arch, status), k.output)
        except Timeout as e:
            tap.ok(False, "%s: core session (%s)" % (arch, e), k.output[-3000:])


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        session(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
