#!/usr/bin/env python3
"""The collector's pre-init buffer overflows (both arches): a kernel with
the smallest CONFIG_DEBUG_MEMLEAK_PREINIT_POINTERS (16) makes more early
allocations than that before memleak_init(). The collector must say so
once and disable itself; the kernel boots, allocates and frees (the mm
self-tests pass), 'memleak' and 'memleak stats' say the collector is
disabled and why, and QEMU powers off with status 0."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, build_variant  # noqa: E402

SUITES = ("page_alloc", "slab", "kmalloc", "vmalloc", "thread")
AUTORUN = ";".join(["selftest " + s for s in SUITES] +
                   ["memleak", "memleak stats", "poweroff"])
WHY = r"^memleak: disabled: .*DEBUG_MEMLEAK_PREINIT_POINTERS"


def check(tap, arch, elf):
    with Kernel(arch, append='test autorun="%s"' % AUTORUN, image=elf) as k:
        status = k.wait(120)
        out = k.output
    tap.ok(len(re.findall(WHY, out, re.M)) == 1,
           "%s: the overflow disables the collector with one message" % arch,
           out)
    tap.ok(len(re.findall(r"^# selftest: 1 passed, 0 failed$", out, re.M))
           == len(SUITES) and "not ok" not in out,
           "%s: the allocators' self-tests pass" % arch, out)
    tap.ok(re.search(r"^memleak: the collector is disabled \(early log "
                     r"full .*PREINIT_POINTERS.*\)$", out, re.M) and
           re.search(r"^state: +disabled \(early log full .*\)$", out, re.M),
           "%s: memleak says the collector is disabled, and why" % arch, out)
    tap.ok("panic" not in out and status == 0,
           "%s: no panic, powers off (status %s)" % (arch, status), out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        build_dir = "build/preinit-" + arch
        p = build_variant(arch, build_dir,
                          {"DEBUG_MEMLEAK_PREINIT_POINTERS": "16"})
        if tap.ok(p.returncode == 0,
                  "%s: builds with DEBUG_MEMLEAK_PREINIT_POINTERS=16" % arch,
                  p.stdout.decode("utf-8", "replace")):
            check(tap, arch, os.path.join(ROOT, build_dir, "kernel.elf"))
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
