#!/usr/bin/env python3
"""Memory management on both arches: the boot summary, meminfo, slabinfo."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout, PROMPT  # noqa: E402

MIB = 1024
CLASSES = [8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096,
           8192, 16384, 32768, 65536, 131072]


def meminfo_fields(out):
    return {k: int(v) for k, v in
            re.findall(r"^(\w+):\s+(\d+)(?: KiB)?$", out, re.M)}


def check_boot_line(tap, arch, out):
    m = re.search(r"^mm: (\d+) KiB RAM, (\d+) KiB free, (\d+) KiB kept by boot$",
                  out, re.M)
    tap.ok(m is not None, "%s: mm_init prints its summary" % arch, out)
    if m:
        ram, free, boot = (int(x) for x in m.groups())
        tap.ok(free + boot <= ram and boot < 8 * MIB,
               "%s: free and boot memory add up (%d+%d <= %d)" %
               (arch, free, boot, ram), out)


def check_meminfo(tap, arch, k):
    out = k.command("meminfo")
    f = meminfo_fields(out)
    total = f.get("MemTotal", 0)
    tap.ok(120 * MIB <= total <= 128 * MIB,
           "%s: MemTotal near 128 MiB (%d KiB)" % (arch, total), out)
    tap.ok(0 < f.get("MemFree", 0) < total,
           "%s: MemFree below MemTotal" % arch, out)
    tap.ok(f.get("Slab", 0) > 0, "%s: slab pages in use after boot" % arch, out)
    keys = ["MemFree", "Slab", "KmallocLarge", "Vmalloc", "PageTables",
            "BootReserved", "OtherPages"]
    tap.ok(all(key in f for key in keys) and sum(f[key] for key in keys) == total,
           "%s: the meminfo lines add up to MemTotal" % arch, out)
    tap.ok(f.get("MmErrors", -1) == 0, "%s: no allocator errors" % arch, out)
    out = k.command("meminfo x")
    tap.ok("usage: meminfo" in out, "%s: meminfo rejects arguments" % arch, out)


def check_slabinfo(tap, arch, k):
    out = k.command("slabinfo")
    rows = re.findall(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M)
    names = [r[0] for r in rows]
    missing = [c for c in CLASSES if "kmalloc-%d" % c not in names]
    tap.ok("name" in out and "pagesperslab" in out,
           "%s: slabinfo header" % arch, out)
    tap.ok(not missing and "kmem_cache" in names,
           "%s: every kmalloc cache listed (missing %s)" % (arch, missing), out)
    sane = all(int(a) <= int(t) and int(per) >= 1 and int(pages) >= 1 and
               int(per) * int(size) <= int(pages) * 4096
               for _, a, t, size, per, pages in rows)
    tap.ok(rows and sane,
           "%s: active <= total, objects fit their slabs" % arch, out)
    sizes = {r[0]: int(r[3]) for r in rows}
    tap.ok(all(sizes.get("kmalloc-%d" % c) == c for c in CLASSES),
           "%s: kmalloc caches have their class sizes" % arch, out)


def check_arch(tap, arch):
    with Kernel(arch, append="test") as k:
        try:
            k.expect(re.escape(PROMPT))
            check_boot_line(tap, arch, k.output)
            check_meminfo(tap, arch, k)
            check_slabinfo(tap, arch, k)
            out = k.command("selftest slab")
            tap.ok("# selftest: 1 passed, 0 failed" in out,
                   "%s: slab self-tests pass" % arch, out)
            out = k.command("meminfo")
            tap.ok(meminfo_fields(out).get("MmErrors", 0) > 0,
                   "%s: the self-tests' deliberate misuse was counted" % arch, out)
            k.send("poweroff\n")
            status = k.wait(20)
            tap.ok(status == 0, "%s: poweroff (status %s)" % (arch, status),
                   k.output)
        except Timeout as e:
            tap.ok(False, "%s: mm session (%s)" % (arch, e), k.output)
        tap.ok("panic" not in k.output, "%s: no panic" % arch, k.output)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        check_arch(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
