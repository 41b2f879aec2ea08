#!/usr/bin/env python3
"""Boots the i386 GRUB ISO: GRUB's menu, its command line, a clean
power-off, and input piped to it (make run-iso) reaching the shell, not
GRUB's menu."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, Timeout, PROMPT  # noqa: E402

ISO = os.path.join(ROOT, "build", "i386", "kernel.iso")


def main():
    tap = Tap()
    if not tap.ok(os.path.exists(ISO), "ISO was built (make iso)", ISO):
        return tap.done()
    # Not --test: GRUB's default entry has no "test", so poweroff is ACPI's.
    with Kernel("i386", iso=ISO, test=False) as k:
        try:
            k.expect(re.escape(PROMPT), 60)
            tap.ok("kleak" in k.output, "kernel booted from GRUB", k.output)
            out = k.command("cmdline")
            tap.ok("loader=grub" in out, "GRUB's menu passed the command line", out)
            out = k.command("bootinfo")
            tap.ok("ram:" in out, "memory map from GRUB's Multiboot info", out)
            k.send("poweroff\n")
            k.expect("powering off")
            status = k.wait(20)
            tap.ok(status == 0, "ACPI poweroff ends QEMU with 0 (status %s)" % status,
                   k.output)
        except Timeout as e:
            tap.ok(False, "GRUB boot (%s)" % e, k.output)
    piped_input(tap)
    return tap.done()


def piped_input(tap):
    """printf '...' | make run-iso: every line reaches the shell."""
    try:
        run = subprocess.run([os.path.join(ROOT, "tools", "run"), "--arch", "i386",
                              "--iso", ISO], input=b"cmdline\necho piped-ok\npoweroff\n",
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=120)
        out = run.stdout.decode(errors="replace")
        status = run.returncode
    except subprocess.TimeoutExpired as e:
        out, status = (e.output or b"").decode(errors="replace"), "timeout"
    tap.ok("loader=grub" in out and "\npiped-ok" in out.replace("\r", "")
           and "powering off" in out and status == 0,
           "input piped to the ISO boot reaches the shell (status %s)" % status,
           out[-2000:])


if __name__ == "__main__":
    sys.exit(main())
