#!/usr/bin/env python3
"""Loadable modules on both arches (docs/modules.md).

1. The seed's test module: right after insmod memleak_test, memleak
   reports exactly its six orphans; after rmmod, also its ten list
   elements. lsmod and lsmod -a show what is loaded and available.
2. modtest/modtest_user: relocations, parameters, exports between
   modules, use counts, a failing init, unknown or bad parameters, a
   duplicate name, an undefined symbol, removal while in use.
3. A boot archive of damaged modules made here (truncated, wrong class,
   wrong machine, a section outside the file, an unknown relocation, an
   undefined kernel symbol, not ELF): each is refused with its message,
   leaves nothing loaded, and the good module still loads afterwards.
After the failures of 2 and 3, memleak finds nothing new: a failed load
leaks nothing. On i386 the GRUB ISO's Multiboot module is the archive.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, Timeout, PROMPT, session  # noqa: E402
from memleak_report import REPORT, SUMMARY  # noqa: E402

LSMOD = re.compile(r"^(\w+)\s+(\d+)\s+(\d+) (loading|live|unloading)\s*(.*)$", re.M)


def summary(out):
    m = SUMMARY.search(out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def lsmod(k):
    return {m[0]: (int(m[1]), int(m[2]), m[3], m[4].split())
            for m in LSMOD.findall(k.command("lsmod"))}


def config(arch, option):
    path = os.path.join(ROOT, "build", arch, ".config")
    with open(path) as f:
        return ("CONFIG_%s=y" % option) in f.read().split("\n")


def check_archive(tap, arch, k):
    out = k.command("lsmod -a")
    for name in ("memleak_test", "modtest", "modtest_user"):
        tap.ok(re.search(r"^%s\s+\d+  \S" % name, out, re.M),
               "%s: lsmod -a lists %s with its description" % (arch, name), out)
    tap.ok(re.search(r"^3 modules in the boot archive", out, re.M),
           "%s: lsmod -a counts 3 modules" % arch, out)


def check_seed(tap, arch, k):
    out = k.command("memleak")
    tap.ok(summary(out) == (0, 0), "%s: no suspected leaks before insmod" % arch, out)
    out = k.command("insmod memleak_test")
    tap.ok("insmod: memleak_test: loaded at" in out, "%s: insmod memleak_test" % arch, out)
    mods = lsmod(k)
    tap.ok("memleak_test" in mods and mods["memleak_test"][1:3] == (0, "live"),
           "%s: lsmod: memleak_test live, used by none" % arch, mods)
    k.command("sleep 1100")
    out = k.command("memleak")
    orphans = REPORT.findall(out)
    sizes = sorted(int(s) for _, s in orphans)
    tap.ok(sizes == [32, 32, 48, 48, 4096, 4096],
           "%s: exactly the 6 orphans (2 kmalloc(32), 2 cache objects, "
           "2 vmalloc(64)), not the list" % arch, out)
    tap.ok(summary(out) == (6, 6), "%s: summary 6 new (6 total)" % arch, out)
    if config(arch, "DEBUG_KEEP_INIT"):
        tap.ok(out.count("] memleak_test_init+0x") == 6,
               "%s: backtraces name the module's init (kept: DEBUG_KEEP_INIT)"
               % arch, out)
    out = k.command("rmmod memleak_test")
    tap.ok("rmmod: memleak_test: removed" in out and "not destroyed" in out,
           "%s: rmmod memleak_test (its cache keeps the 2 objects)" % arch, out)
    tap.ok("memleak_test" not in lsmod(k), "%s: lsmod: gone" % arch, out)
    out = k.command("memleak")
    after = REPORT.findall(out)
    elems = [a for a, s in after if s == "204"]
    tap.ok(len(elems) == 10 and set(orphans) <= set(after) and len(after) == 16,
           "%s: after rmmod the 10 list elements are reported too" % arch, out)
    tap.ok(summary(out) == (10, 16), "%s: summary 10 new (16 total)" % arch, out)
    check_seed_digest(tap, arch, out, sum(int(s) for _, s in after))
    out = k.command("memleak clear")
    tap.ok("16 reported blocks cleared" in out, "%s: memleak clear" % arch, out)


TIERS = re.compile(r"^memleak: leak summary: direct (\d+) blocks? \((\d+) bytes\), "
                   r"indirect (\d+) blocks? \((\d+) bytes\), possibly lost (\d+) "
                   r"blocks? \((\d+) bytes\)$", re.M)
SITE = re.compile(r"^memleak: (\d+) direct leaks?, (\d+) bytes, from (\S+) (.*)$", re.M)


def check_seed_digest(tap, arch, out, total_bytes):
    """The seed's 16 leaks after rmmod: all direct (list_del() poisoned
    the elements' links), grouped by the 7 allocation sites of the
    module's init, still named after the module is gone."""
    m = TIERS.search(out)
    tiers = tuple(int(g) for g in m.groups()) if m else None
    tap.ok(tiers == (16, total_bytes, 0, 0, 0, 0),
           "%s: seed module: 16 direct leaks, %d bytes, none indirect or "
           "possibly lost" % (arch, total_bytes), out)
    sites = SITE.findall(out)
    counts = sorted(int(n) for n, _, _, _ in sites)
    tap.ok(counts == [1, 1, 1, 1, 1, 1, 10] and
           sum(int(b) for _, b, _, _ in sites) == total_bytes and
           all(re.match(r"memleak_test_init\+0x[0-9a-f]+/0x[0-9a-f]+$", f) and
               rest == "[memleak_test] (unloaded)" for _, _, f, rest in sites) and
           len(set(f for _, _, f, _ in sites)) == 7,
           "%s: seed module: the digest has its 7 sites in memleak_test_init "
           "[memleak_test], the list's 10 elements as one" % arch, out)


def check_modtest(tap, arch, k):
    out = k.command("insmod modtest verbose greeting=hi count=3")
    tap.ok(out.count(" ok\n") == 6 and "FAILED" not in out,
           "%s: modtest: every relocation check passes" % arch, out)
    tap.ok("count=3 verbose=1 greeting=hi" in out, "%s: parameters set" % arch, out)
    out = k.command("insmod modtest_user")
    tap.ok("modtest_add(40, 2) = 42" in out,
           "%s: a module calls another module's export" % arch, out)
    mods = lsmod(k)
    tap.ok(mods.get("modtest", (0, 0, "", []))[1:] == (1, "live", ["modtest_user"]),
           "%s: lsmod: modtest used by modtest_user" % arch, mods)
    out = k.command("rmmod modtest")
    tap.ok("rmmod: modtest is in use by modtest_user" in out,
           "%s: removal of a module in use is refused" % arch, out)
    tap.ok("modtest" in lsmod(k), "%s: still loaded" % arch)
    out = k.command("insmod modtest")
    tap.ok("insmod: module 'modtest' is already loaded" in out,
           "%s: duplicate module name refused" % arch, out)
    k.command("rmmod modtest_user")
    out = k.command("rmmod modtest")
    tap.ok("modtest: exit after 2 calls" in out and "removed" in out,
           "%s: exit runs, then removal" % arch, out)
    out = k.command("insmod modtest_user")
    tap.ok("undefined symbol 'modtest_add'" in out,
           "%s: undefined symbol (modtest not loaded) refused" % arch, out)
    out = k.command("insmod modtest init_error=-5")
    tap.ok("its init failed with error -5" in out, "%s: failing init refused" % arch, out)
    out = k.command("insmod modtest bogus=1")
    tap.ok("unknown parameter 'bogus'" in out, "%s: unknown parameter" % arch, out)
    out = k.command("insmod modtest count=abc")
    tap.ok("bad value 'abc' for parameter 'count'" in out, "%s: bad value" % arch, out)
    out = k.command("rmmod nosuch")
    tap.ok("no module 'nosuch' is loaded" in out, "%s: rmmod of nothing" % arch, out)
    out = k.command("insmod nosuch")
    tap.ok("no module 'nosuch' in the boot archive" in out, "%s: insmod of nothing" % arch, out)
    tap.ok(lsmod(k) == {}, "%s: nothing left loaded" % arch, k.command("lsmod"))


def check_no_new_leaks(tap, arch, k, what):
    k.command("sleep 1100")
    out = k.command("memleak")
    tap.ok(summary(out) is not None and summary(out)[0] == 0,
           "%s: %s leave nothing for memleak to find" % (arch, what), out)


# ---------------------------------------------------------------- bad files

def sections(data):
    shoff, = struct.unpack_from("<I", data, 32)
    shnum, shstrndx = struct.unpack_from("<HH", data, 48)
    secs = []
    for i in range(shnum):
        f = struct.unpack_from("<10I", data, shoff + 40 * i)
        secs.append({"hdr": shoff + 40 * i, "name": f[0], "type": f[1],
                     "flags": f[2], "off": f[4], "size": f[5], "info": f[7]})
    names = secs[shstrndx]["off"]
    for s in secs:
        end = data.index(b"\0", names + s["name"])
        s["name"] = data[names + s["name"]:end].decode()
    return secs


def bad_modules(good):
    """(file name, bytes, expected message) of each damaged module."""
    secs = sections(good)
    out = [("truncated", good[:len(good) // 2], "file is truncated"),
           ("notelf", b"not a module\n" * 20, "not an ELF file")]
    b = bytearray(good)
    b[4] = 2
    out.append(("class", bytes(b), "not 32-bit little-endian ELF version 1"))
    b = bytearray(good)
    struct.pack_into("<H", b, 18, 62)
    out.append(("machine", bytes(b), "built for another machine"))
    text = next(s for s in secs if s["flags"] & 2 and s["type"] == 1 and s["size"])
    b = bytearray(good)
    struct.pack_into("<I", b, text["hdr"] + 16, len(good) + 0x1000)
    out.append(("section", bytes(b), "a section lies outside the file"))
    rel = next(s for s in secs if s["type"] == 9 and secs[s["info"]]["flags"] & 2)
    b = bytearray(good)
    b[rel["off"] + 4] = 0xfe
    out.append(("reloc", bytes(b), "unknown relocation type 254"))
    strtab = next(s for s in secs if s["name"] == ".strtab")
    b = bytearray(good)
    at = good.index(b"\0printk\0", strtab["off"])
    b[at + 1:at + 7] = b"printq"
    out.append(("undef", bytes(b), "undefined symbol 'printq'"))
    return out


def make_bad_archive(arch, tmp):
    moddir = os.path.join(ROOT, "build", arch, "modules")
    with open(os.path.join(moddir, "modtest.ko"), "rb") as f:
        good = f.read()
    files, cases = [os.path.join(moddir, "modtest.ko")], []
    for name, data, msg in bad_modules(good):
        path = os.path.join(tmp, name + ".ko")
        with open(path, "wb") as f:
            f.write(data)
        files.append(path)
        cases.append((name, msg))
    archive = os.path.join(tmp, "bad-%s.cpio" % arch)
    subprocess.run([os.path.join(ROOT, "tools", "mkcpio"), "-o", archive,
                    "--dir", "modules"] + files, check=True)
    return archive, cases


def check_bad(tap, arch, archive, cases):
    with Kernel(arch, append="test", extra=["--initrd", archive]) as k:
        try:
            k.expect(re.escape(PROMPT))
            for name, msg in cases:
                out = k.command("insmod " + name)
                tap.ok(msg in out and "panic" not in out,
                       "%s: %s.ko refused: %s" % (arch, name, msg), out)
                tap.ok(lsmod(k) == {}, "%s: %s.ko left nothing loaded" % (arch, name))
            out = k.command("insmod modtest")
            tap.ok("insmod: modtest: loaded at" in out,
                   "%s: the good module loads after all that" % arch, out)
            k.command("rmmod modtest")
            check_no_new_leaks(tap, arch, k, "the refused modules")
            k.send("poweroff\n")
            tap.ok(k.wait(20) == 0, "%s: powers off cleanly" % arch, k.output)
        except Timeout as e:
            tap.ok(False, "%s: bad modules session (%s)" % (arch, e), k.output)


def check_iso(tap):
    iso = os.path.join(ROOT, "build", "i386", "kernel.iso")
    if not tap.ok(os.path.exists(iso), "i386: ISO was built (make iso)", iso):
        return
    with Kernel("i386", iso=iso, test=False) as k:
        try:
            k.expect(re.escape(PROMPT), 60)
            out = k.command("lsmod -a")
            tap.ok("3 modules in the boot archive" in out,
                   "i386: GRUB's module line passes the boot archive", out)
            out = k.command("insmod modtest")
            tap.ok("insmod: modtest: loaded at" in out,
                   "i386: a module loads from the ISO's archive", out)
        except Timeout as e:
            tap.ok(False, "i386 ISO session (%s)" % e, k.output)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        session(tap, arch, [check_archive, check_seed, check_modtest,
                            lambda tap, arch, k: check_no_new_leaks(
                                tap, arch, k, "the failed loads")],
                "modules session", poweroff=True)
        with tempfile.TemporaryDirectory() as tmp:
            archive, cases = make_bad_archive(arch, tmp)
            check_bad(tap, arch, archive, cases)
    check_iso(tap)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
