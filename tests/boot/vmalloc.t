#!/usr/bin/env python3
"""Paging and vmalloc on both arches: the shell commands, and the faults
that would kill the kernel (guard page, NULL) taken on purpose."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap  # noqa: E402

FAULT = {
    "i386": {"data": "exception 14 (page fault) at",
             "exec": "exception 14 (page fault) at 00000000",
             "panic": "panic: unhandled exception 14 (page fault)"},
    "arm": {"data": "exception: data abort at",
            "exec": "exception: prefetch abort at 00000000",
            "panic": "panic: unhandled exception (data abort)"},
}
PREFETCH_PANIC = "panic: unhandled exception (prefetch abort)"


def describe_fault_wired(arch):
    """True once the arch's fault handler calls vmalloc_describe_fault()."""
    with open(os.path.join(ROOT, "arch", arch, "traps.c")) as f:
        return "vmalloc_describe_fault(" in f.read()


def crash(arch, command):
    with Kernel(arch, append='test autorun="%s"' % command) as k:
        status = k.wait(30)
        return status, k.output


def check_stopped(tap, arch, command, status, out):
    tap.ok("kernel> " not in out, "%s: %s stops before the shell" %
           (arch, command), out)
    tap.ok(status == 1, "%s: %s exits QEMU with failure (status %s)" %
           (arch, command, status), out)


def check_guard(tap, arch):
    status, out = crash(arch, "vmtest guard")
    m = re.search(r"past the (\d+)-byte area at 0x([0-9a-f]+)", out)
    tap.ok(m, "%s: vmtest guard made an area" % arch, out)
    if not m:
        return
    start, size = int(m.group(2), 16), int(m.group(1))
    guard = "%08x" % (start + size)
    tap.ok(FAULT[arch]["data"] in out and
           "faulting address: " + guard in out,
           "%s: write past the area faults at the guard page %s" %
           (arch, guard), out)
    tap.ok(FAULT[arch]["panic"] in out, "%s: guard fault panics" % arch, out)
    tap.ok("no fault" not in out, "%s: the guard page is not mapped" % arch, out)
    check_stopped(tap, arch, "vmtest guard", status, out)
    if describe_fault_wired(arch):
        line = ("fault in the guard page after vmalloc area 0x%08x-0x%s "
                "(%d bytes, caller 0x" % (start, guard, size))
        tap.ok(line in out, "%s: the report names the area and the guard"
               % arch, out)


def check_null(tap, arch):
    status, out = crash(arch, "vmtest null")
    tap.ok(FAULT[arch]["data"] in out and
           "faulting address: 00000000" in out,
           "%s: NULL read faults at address 0" % arch, out)
    tap.ok("address 0 is mapped" not in out, "%s: page 0 is not mapped" % arch, out)
    check_stopped(tap, arch, "vmtest null", status, out)
    status, out = crash(arch, "vmtest nullcall")
    tap.ok(FAULT[arch]["exec"] in out, "%s: a call through NULL faults "
           "fetching from 0" % arch, out)
    if arch == "arm":
        tap.ok(PREFETCH_PANIC in out, "arm: NULL call is a prefetch abort", out)
    check_stopped(tap, arch, "vmtest nullcall", status, out)


def check_shell(tap, arch):
    with Kernel(arch, append="test") as k:
        k.expect("kernel> ")
        boot = k.output
        tap.ok(re.search(r"^paging: .*vmalloc 0xd0000000-0xf0000000", boot,
                         re.M), "%s: boot reports paging on" % arch, boot)
        out = k.command("vmtest alloc 10000")
        m = re.search(r"vmalloc\(10000\) = 0x([0-9a-f]+)", out)
        tap.ok(m, "%s: vmtest alloc returns an area" % arch, out)
        addr = int(m.group(1), 16) if m else 0
        out = k.command("vmallocinfo")
        row = r"0x%08x-0x%08x +12288 +3  vmalloc +0x[0-9a-f]+" % (addr, addr + 12288)
        tap.ok(re.search(row, out), "%s: vmallocinfo lists the 3-page area" % arch, out)
        out = k.command("vmtest walk 0x%x" % addr)
        tap.ok(re.search(r"-> physical 0x[0-9a-f]+", out), "%s: the area's first "
               "page is mapped" % arch, out)
        out = k.command("vmtest walk 0x%x" % (addr + 12288))
        tap.ok("is not mapped" in out, "%s: its guard page is not" % arch, out)
        out = k.command("vmtest free 0x%x" % (addr + 4096))
        tap.ok("vfree: 0x%08x is not a vmalloc area" % (addr + 4096) in out,
               "%s: vfree of an address inside an area warns" % arch, out)
        out = k.command("vmtest free 0x%x" % addr)
        tap.ok("vfree" not in out, "%s: vfree of the area is quiet" % arch, out)
        out = k.command("vmallocinfo")
        tap.ok(not re.search(r"^0x%08x-" % addr, out, re.M),
               "%s: the area is gone" % arch, out)
        out = k.command("vmtest free 0x%x" % addr)
        tap.ok("is not a vmalloc area" in out, "%s: double vfree warns" % arch, out)
        out = k.command("vmtest walk 0")
        tap.ok("0x00000000 is not mapped" in out, "%s: address 0 is unmapped" % arch, out)
        out = k.command("vmallocinfo x")
        tap.ok("usage: vmallocinfo" in out, "%s: vmallocinfo usage" % arch, out)
        out = k.command("vmtest alloc 0")
        tap.ok("cannot allocate 0 bytes" in out, "%s: vmalloc(0) refused" % arch, out)
        out = k.command("vmtest")
        tap.ok("usage: vmtest" in out, "%s: vmtest usage" % arch, out)
        out = k.command("vmtest bench 16")
        tap.ok(re.search(r"of 16 pages: \d+ ns \(\d+ ns per page\)", out),
               "%s: vmtest bench times vmalloc+vfree" % arch, out)
        out = k.command("vmtest bench 0")
        tap.ok("at least one page" in out, "%s: vmtest bench 0 refused" % arch, out)
        out = k.command("vmallocinfo")
        tap.ok(re.search(r"^0 areas, 0 pages mapped \(0 KiB\), [1-9]\d* "
                         r"page-table pages$", out, re.M),
               "%s: every area freed, page tables kept" % arch, out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        check_shell(tap, arch)
        check_guard(tap, arch)
        check_null(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
