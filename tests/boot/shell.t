#!/usr/bin/env python3
"""The serial shell on both arches: good and bad input, and `make run` fed by a pipe."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, Timeout, PROMPT  # noqa: E402

COMMANDS = ["bootinfo", "bt", "cmdline", "console", "crash", "echo", "help",
            "irqs", "meminfo", "poweroff", "ps", "reboot", "selftest", "sleep",
            "slabinfo", "uptime", "version", "vmallocinfo"]


def check_help(tap, arch, k):
    out = k.command("help")
    # The first line is the echo of what we typed.
    names = re.findall(r"^(\S+)\s", out.split("\n", 1)[1], re.M)
    missing = [c for c in COMMANDS if c not in names]
    tap.ok(not missing, "%s: help lists every command (missing %s)" %
           (arch, missing), out)
    tap.ok(names == sorted(names), "%s: help is sorted by name" % arch, out)
    out = k.command("help echo")
    tap.ok("usage: echo" in out, "%s: help CMD prints the usage" % arch, out)
    out = k.command("help nosuch")
    tap.ok("no command 'nosuch'" in out, "%s: help of an unknown command" % arch, out)


def check_bad_input(tap, arch, k):
    out = k.command("bogus")
    tap.ok("unknown command 'bogus' (try 'help')" in out,
           "%s: unknown command error" % arch, out)
    out = k.command("echo " + "A" * 300)
    tap.ok("line too long" in out and "AAAA" not in out.split("\n", 1)[-1],
           "%s: overlong line rejected, not truncated" % arch, out)
    out = k.command("echo still-alive")
    tap.ok("still-alive" in out, "%s: shell goes on after an overlong line" % arch, out)
    out = k.command("echo x\x07y\x1fz")
    tap.ok("xyz" in out and "non-printable" in out,
           "%s: non-printable bytes dropped with a warning" % arch, out)
    out = k.command("")
    tap.ok(out.strip() == "", "%s: empty line prints nothing" % arch, out)
    out = k.command("crash")
    tap.ok("usage: crash" in out, "%s: bad arguments print usage" % arch, out)


def check_commands(tap, arch, k):
    out = k.command('echo one "two  three" ; echo four')
    tap.ok("one two  three\n" in out and "four" in out,
           "%s: quotes and ';' in a line" % arch, out)
    out = k.command("version")
    tap.ok("kleak" in out and "(%s)" % arch in out, "%s: version" % arch, out)
    out = k.command("cmdline")
    tap.ok("test" in out and "marker=42" in out, "%s: cmdline shows the boot command line" % arch, out)
    out = k.command("bootinfo")
    m = re.search(r"total: (\d+) KiB", out)
    tap.ok(m and 100 * 1024 < int(m.group(1)) <= 128 * 1024,
           "%s: memory size from the boot loader (~128 MiB)" % arch, out)
    out = k.command("uptime")
    tap.ok("uptime" in out, "%s: uptime answers" % arch, out)


def interactive(tap, arch):
    with Kernel(arch, append="test marker=42") as k:
        try:
            k.expect(re.escape(PROMPT))
            check_help(tap, arch, k)
            check_bad_input(tap, arch, k)
            check_commands(tap, arch, k)
            k.send("poweroff\n")
            status = k.wait(20)
            tap.ok(status == 0, "%s: poweroff ends QEMU (status %s)" % (arch, status),
                   k.output)
        except Timeout as e:
            tap.ok(False, "%s: shell session (%s)" % (arch, e), k.output)


def make_run(tap, arch):
    """The README's promise: printf 'help\\nbogus\\npoweroff\\n' | make run."""
    try:
        p = subprocess.run(["make", "--no-print-directory", "-s", "run", "ARCH=" + arch],
                           input=b"help\nbogus\npoweroff\n", cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=120)
        out, status = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, status = (e.stdout or b"").decode("utf-8", "replace"), None
    tap.ok(status == 0, "%s: piped make run exits 0 (status %s)" % (arch, status), out)
    tap.ok("selftest" in out and "poweroff" in out, "%s: piped help printed" % arch, out)
    tap.ok("unknown command 'bogus'" in out, "%s: piped bogus rejected" % arch, out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        interactive(tap, arch)
        make_run(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
