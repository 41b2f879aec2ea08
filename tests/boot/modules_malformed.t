#!/usr/bin/env python3
"""Malformed modules on both arches (issue 16, docs/modules.md).

tests/fuzz/corpus/module/<arch>/ holds what tools/mkbadmods made of that
arch's modtest.ko: targeted malformations (a relocation table applying
to .symtab or another section that is not loaded, symbol indices and
offsets out of range, sections moved, resized or retyped, symbols out of
place, ...) and 60 random byte flips in the headers, the section table,
the symbol table and the relocation tables. Each file is packed with the
good modtest.ko into a boot archive and insmod'ed twice:

- a targeted file is refused with its own message;
- a flip is refused with some message or loads, runs and unloads;
- nothing panics, hangs or stays loaded, and the good module loads after;
- the second pass leaves exactly the free memory the first one did, the
  first (which warms the slab caches) as many pages outside the slab
  caches as before it, and memleak finds nothing: a refusal loses nothing.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, Timeout, PROMPT  # noqa: E402

CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus", "module")
CRASH = re.compile(r"panic|exception \d+|Oops|BUG|Kernel panic|undefined instruction|abort")
MEMINFO = re.compile(r"^(MemFree|Slab|KmallocLarge):\s+(\d+) KiB$", re.M)
SUMMARY = re.compile(r"^memleak: (\d+) new suspected memory leaks", re.M)


def corpus(arch):
    """(file name, expected message or '*') of each malformed module."""
    with open(os.path.join(CORPUS, arch, "expected")) as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f if line.strip()]


def make_archive(arch, cases, tmp):
    files = [os.path.join(ROOT, "build", arch, "modules", "modtest.ko")]
    files += [os.path.join(CORPUS, arch, name + ".ko") for name, _ in cases]
    archive = os.path.join(tmp, "malformed-%s.cpio" % arch)
    subprocess.run([os.path.join(ROOT, "tools", "mkcpio"), "-o", archive,
                    "--dir", "modules"] + files, check=True)
    return archive


def meminfo(k):
    return {key: int(v) for key, v in MEMINFO.findall(k.command("meminfo"))}


def try_one(k, name, msg):
    """What insmod of one file did: None when as expected, else why not."""
    out = k.command("insmod " + name)
    if CRASH.search(out):
        return "crashed", out
    loaded = "insmod: modtest: loaded at" in out
    if msg != "*":
        if loaded:
            # Out again, so that one failure does not refuse the rest.
            return "loaded instead of '%s'" % msg, out + k.command("rmmod modtest")
        if msg not in out:
            return "not refused with '%s'" % msg, out
        return None, out
    if not loaded:
        return (None if re.search(r"^insmod: ", out, re.M) else
                "refused without a message"), out
    rm = k.command("rmmod modtest")
    out += rm
    if "rmmod: modtest: removed" not in rm or CRASH.search(rm):
        return "loaded but did not unload cleanly", out
    return None, out


def run_pass(tap, arch, k, cases, first):
    failed = []
    loads = 0
    for name, msg in cases:
        why, out = try_one(k, name, msg)
        loads += "insmod: modtest: loaded at" in out
        if first:
            tap.ok(why is None, "%s: %s.ko %s" % (
                arch, name, "refused: " + msg if msg != "*" else
                "refused or loads and unloads cleanly"), out)
        elif why:
            failed.append((name, why, out))
    return loads, failed


def check_arch(tap, arch, archive, cases):
    with Kernel(arch, append="test", extra=["--initrd", archive]) as k:
        try:
            k.expect(re.escape(PROMPT))
            out = k.command("insmod modtest")
            tap.ok("insmod: modtest: loaded at" in out,
                   "%s: the good module loads" % arch, out)
            k.command("rmmod modtest")
            before = meminfo(k)
            loads, _ = run_pass(tap, arch, k, cases, True)
            after1 = meminfo(k)
            loads2, failed = run_pass(tap, arch, k, cases, False)
            after2 = meminfo(k)
            tap.ok(not failed and loads2 == loads,
                   "%s: a second pass does the same (%d refused, %d loaded)"
                   % (arch, len(cases) - loads, loads), failed[:3])
            tap.ok(after1.get("MemFree") == after2.get("MemFree") and after1,
                   "%s: the second pass leaves free memory unchanged" % arch,
                   (after1, after2))
            pages = [m.get("MemFree", 0) + m.get("Slab", 0) for m in (before, after1)]
            tap.ok(pages[0] == pages[1] and
                   before.get("KmallocLarge") == after1.get("KmallocLarge"),
                   "%s: the first pass loses no page outside the slab caches"
                   % arch, (before, after1))
            out = k.command("lsmod")
            tap.ok("modtest" not in out, "%s: nothing stays loaded" % arch, out)
            out = k.command("insmod modtest")
            tap.ok("insmod: modtest: loaded at" in out,
                   "%s: the good module still loads after all that" % arch, out)
            k.command("rmmod modtest")
            k.command("sleep 1100")
            out = k.command("memleak")
            m = SUMMARY.search(out)
            tap.ok(m and m.group(1) == "0",
                   "%s: memleak finds nothing new after the malformed modules"
                   % arch, out)
            k.send("poweroff\n")
            tap.ok(k.wait(60) == 0, "%s: the kernel still answers and powers "
                   "off cleanly" % arch, k.output[-2000:])
        except Timeout as e:
            tap.ok(False, "%s: malformed modules session (%s)" % (arch, e),
                   k.output[-3000:])


def main():
    tap = Tap()
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ("i386", "arm"):
            cases = corpus(arch)
            check_arch(tap, arch, make_archive(arch, cases, tmp), cases)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
