#!/usr/bin/env python3
"""Suppressions and the run-time annotations, on both arches: a
function pattern hides exactly the suspects with a matching frame and
the summary counts them, 'memleak suppressions' says how many each
pattern hid, unsuppress brings them back, a [module] pattern hides the
seed's test module's leaks, bad patterns are refused, the command line
(memleak.suppress=A,B) adds patterns at boot and refuses bad ones, and
'memleak not-leak' / 'memleak ignore' take a block out of the reports."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap, session  # noqa: E402
from memleak_report import REPORT, EXPECT, SUMMARY  # noqa: E402

SUPPRESSED = re.compile(r"^memleak: (\d+) suspects? \((\d+) bytes\) suppressed "
                        r"\(memleak suppressions\)$", re.M)
PATTERN = re.compile(r"^  (\S+) +(\d+) blocks? \((\d+) bytes\) at the last scan$", re.M)


def total(out):
    m = SUMMARY.search(out)
    return int(m.group(2)) if m else None


def suppressed(out):
    m = SUPPRESSED.search(out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def check_function_pattern(tap, arch, k):
    k.command("memleak age=0")
    setup = k.command("leaktest orphans")
    orphans = dict(EXPECT.findall(setup))
    size = sum(int(s) for s in orphans.values())
    out = k.command("memleak")
    tap.ok(total(out) == 6 and suppressed(out) == (0, 0),
           "%s: 6 orphans reported, none suppressed" % arch, out)
    out = k.command("memleak suppress lt_kmal?oc")
    tap.ok("suppressing leaks allocated through 'lt_kmal?oc'" in out,
           "%s: memleak suppress adds a pattern" % arch, out)
    out = k.command("memleak")
    left = dict(REPORT.findall(out))
    small = {a for a, s in orphans.items() if s == "32"}
    tap.ok(total(out) == 4 and not small & set(left) and
           set(left) == set(orphans) - small and suppressed(out) == (2, 64),
           "%s: lt_kmal?oc hides exactly the 2 kmalloc(32) orphans, and "
           "says so" % arch, out)
    out = k.command("memleak suppress leak:setup_*")
    out = k.command("memleak")
    tap.ok(total(out) == 0 and suppressed(out) == (6, size) and
           not REPORT.search(out) and "leak summary" not in out,
           "%s: LSan's leak:setup_* hides the rest; the digest lists "
           "nothing" % arch, out)
    out = k.command("memleak suppressions")
    tap.ok(sorted(PATTERN.findall(out)) ==
           sorted([("lt_kmal?oc", "2", "64"),
                   ("setup_*", "4", str(size - 64))]) and
           "memleak: 2 suppressions" in out,
           "%s: memleak suppressions: what each pattern hid" % arch, out)
    k.command("memleak unsuppress setup_*")
    out = k.command("memleak unsuppress lt_kmal?oc")
    tap.ok("no longer suppressed" in out, "%s: memleak unsuppress" % arch, out)
    out = k.command("memleak")
    tap.ok(total(out) == 6 and suppressed(out) == (0, 0),
           "%s: unsuppressed, the 6 are reported again" % arch, out)
    k.command("leaktest clean")


def check_file_pattern(tap, arch, k):
    """Source-file patterns: kernel frames only (a module's have no file)."""
    k.command("insmod memleak_test")
    orphans = {a for a, _ in EXPECT.findall(k.command("leaktest orphans"))}
    out = k.command("memleak")
    tap.ok(total(out) == 12, "%s: 6 orphans and the module's 6" % arch, out)
    for pattern in ("leaktest.c", "mm/leak*.c", "leak:*/leaktest.c"):
        k.command("memleak suppress " + pattern)
        out = k.command("memleak")
        left = {a for a, _ in REPORT.findall(out)}
        tap.ok(total(out) == 6 and not left & orphans and
               suppressed(out) == (6, 8352),
               "%s: file pattern %s hides exactly leaktest's 6, the "
               "module's 6 are still reported" % (arch, pattern), out)
        k.command("memleak unsuppress " + pattern)
    k.command("memleak suppress nosuch.c")
    k.command("memleak suppress memleak_test.c")
    out = k.command("memleak")
    tap.ok(total(out) == 12 and suppressed(out) == (0, 0),
           "%s: nosuch.c and memleak_test.c (a module's file) hide "
           "nothing" % arch, out)
    k.command("memleak unsuppress nosuch.c")
    k.command("memleak unsuppress memleak_test.c")
    k.command("rmmod memleak_test")
    k.command("leaktest clean")
    k.command("memleak clear")


def check_bad_patterns(tap, arch, k):
    cases = [("memleak suppress [memleak_test", "is not a [module] pattern"),
             ("memleak suppress " + "x" * 60, "is too long"),
             ("memleak suppress leak:", "is empty"),
             ("memleak suppress a,b", "holds a blank, ',', '#' or a "
              "control character"),
             ("memleak suppress a]", "has a bracket outside a [module] "
              "pattern"),
             ("memleak unsuppress nosuch", "no pattern 'nosuch'"),
             ("memleak suppress", "usage: memleak suppress FUNC|[MODULE]|FILE")]
    for line, message in cases:
        out = k.command(line)
        tap.ok(message in out, "%s: '%s' refused: %s" % (arch, line[:40], message), out)
    for i in range(16):
        k.command("memleak suppress p%d" % i)
    out = k.command("memleak suppress leak:p3")
    tap.ok("'p3' is already there" in out,
           "%s: a duplicate (in LSan's spelling) refused" % arch, out)
    out = k.command("memleak suppress p16")
    tap.ok("16 patterns at most" in out, "%s: at most 16 patterns" % arch, out)
    k.command("memleak unsuppress p0")
    out = k.command("memleak suppressions")
    tap.ok([p for p, _, _ in PATTERN.findall(out)] ==
           ["p%d" % i for i in range(1, 16)],
           "%s: unsuppress keeps the others' order (it decides ties)" % arch,
           out)
    for i in range(1, 16):
        k.command("memleak unsuppress p%d" % i)
    out = k.command("memleak suppressions")
    tap.ok("memleak: 0 suppressions" in out, "%s: all removed" % arch, out)


def check_module_pattern(tap, arch, k):
    orphans = {a for a, _ in EXPECT.findall(k.command("leaktest orphans"))}
    k.command("memleak suppress [memleak_test]")
    k.command("insmod memleak_test")
    out = k.command("memleak")
    tap.ok(total(out) == 6 and set(REPORT.findall(out)) and
           {a for a, _ in REPORT.findall(out)} == orphans and
           suppressed(out) == (6, 8352),
           "%s: [memleak_test] hides the module's 6 orphans, and only "
           "them: leaktest's 6 are reported" % arch, out)
    k.command("rmmod memleak_test")
    out = k.command("memleak")
    tap.ok(total(out) == 6 and suppressed(out) == (16, 10392),
           "%s: ... and its 10 list elements after rmmod" % arch, out)
    k.command("memleak unsuppress [memleak_test]")
    out = k.command("memleak")
    tap.ok(total(out) == 22 and suppressed(out) == (0, 0),
           "%s: unsuppressed: the module's 16 and the 6 orphans" % arch, out)
    k.command("memleak suppress [memleak_*]")
    out = k.command("memleak")
    tap.ok(total(out) == 6 and suppressed(out) == (16, 10392),
           "%s: the glob [memleak_*] hides the unloaded module's 16" % arch,
           out)
    k.command("memleak unsuppress [memleak_*]")
    k.command("leaktest clean")
    k.command("memleak clear")


def check_annotations(tap, arch, k):
    setup = k.command("leaktest orphans")
    orphans = [a for a, _ in EXPECT.findall(setup)]
    out = k.command("memleak not-leak %x" % (int(orphans[0], 16) + 4))
    tap.ok("block %s is never reported" % orphans[0] in out,
           "%s: memleak not-leak (an address inside the block)" % arch, out)
    out = k.command("memleak ignore %s" % orphans[1][2:])
    tap.ok("block %s is neither reported nor scanned" % orphans[1] in out,
           "%s: memleak ignore" % arch, out)
    out = k.command("memleak")
    tap.ok(set(a for a, _ in REPORT.findall(out)) == set(orphans[2:]),
           "%s: both are no longer reported, the 4 others are" % arch, out)
    for line, message in [("memleak ignore zz", "'zz' is not a hex address"),
                          ("memleak not-leak 10",
                           "0x00000010 is not inside any tracked block")]:
        out = k.command(line)
        tap.ok(message in out, "%s: %s" % (arch, line), out)
    k.command("leaktest clean")


def check_annotation_kinds(tap, arch, k):
    """not-leak keeps the block scanned, ignore does not: the block that
    only the annotated one points to is reachable after the first only."""
    def sizes(setup):
        return {int(s): a for a, s in EXPECT.findall(setup)}
    blocks = sizes(k.command("leaktest inside-orphan"))
    k.command("memleak not-leak %s" % blocks[64])
    out = k.command("memleak")
    tap.ok(total(out) == 0,
           "%s: not-leak on the outer orphan: still scanned, so the inner "
           "one is reachable" % arch, out)
    k.command("leaktest clean")
    blocks = sizes(k.command("leaktest inside-orphan"))
    k.command("memleak ignore %s" % blocks[64])
    out = k.command("memleak")
    tap.ok(total(out) == 1 and REPORT.findall(out) == [(blocks[32], "32")],
           "%s: ignore on the outer orphan: not scanned, so the inner one "
           "alone is reported" % arch, out)
    k.command("leaktest clean")


def check_command_line(tap, arch, k):
    boot = k.output[:k.output.find("kernel> ")]
    tap.ok("memleak: suppressing 'setup_orphans' (command line)" in boot and
           "memleak suppress: '[nomod' is not a [module] pattern" in boot,
           "%s: memleak.suppress= at boot: one added, one refused" % arch, boot)
    k.command("memleak age=0")
    k.command("leaktest orphans")
    out = k.command("memleak")
    tap.ok(total(out) == 0 and suppressed(out) == (6, 8352),
           "%s: setup_orphans from the command line hides the 6 (each "
           "trace has it, under lt_kmalloc for 2)" % arch, out)
    k.command("memleak suppress lt_kmal?oc")
    k.command("memleak")
    out = k.command("memleak suppressions")
    tap.ok(sorted(PATTERN.findall(out)) ==
           sorted([("lt_kmal?oc", "2", "64"),
                   ("setup_orphans", "4", str(8352 - 64))]),
           "%s: a later pattern on a frame nearer the allocation takes "
           "the 2 lt_kmalloc orphans" % arch, out)
    k.command("leaktest clean")


SUPP_FILE = b"""# known leaks of the tests
setup_orphans   # leaktest's orphans
\t[memleak_*]\t# every module called memleak_*, a comment longer than a pattern
[bad
"""


def archive_with_suppressions(arch, tmp):
    """A boot archive with memleak.supp at its root and the modules."""
    supp = os.path.join(tmp, "memleak.supp")
    with open(supp, "wb") as f:
        f.write(SUPP_FILE)
    moddir = os.path.join(ROOT, "build", arch, "modules")
    archive = os.path.join(tmp, "supp-%s.cpio" % arch)
    subprocess.run([os.path.join(ROOT, "tools", "mkcpio"), "-o", archive, supp,
                    "--dir", "modules"] +
                   [os.path.join(moddir, m) for m in sorted(os.listdir(moddir))],
                   check=True)
    return archive


def check_file(tap, arch, k):
    boot = k.output[:k.output.find("kernel> ")]
    tap.ok(re.findall(r"memleak\.supp:(\d+):", boot) == ["4"] and
           "memleak: 2 suppressions after the boot archive's memleak.supp" in boot,
           "%s: memleak.supp in the boot archive: line 4 named and skipped, "
           "the other 2 patterns added" % arch, boot)
    k.command("memleak age=0")
    k.command("leaktest orphans")
    out = k.command("memleak")
    tap.ok(total(out) == 0 and suppressed(out) == (6, 8352),
           "%s: the file's setup_orphans hides the 6 orphans" % arch, out)
    out = k.command("insmod memleak_test")
    tap.ok("loaded at" in out, "%s: the modules are still there" % arch, out)
    out = k.command("memleak")
    tap.ok(total(out) == 0 and suppressed(out) == (12, 16704),
           "%s: the file's [memleak_*] hides the module's 6 too" % arch, out)
    k.command("leaktest clean")


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        session(tap, arch, [check_function_pattern, check_bad_patterns,
                            check_module_pattern, check_annotations,
                            check_annotation_kinds, check_file_pattern],
                "suppressions session")
        session(tap, arch, [check_command_line], "command-line session",
                append="test memleak.suppress=setup_orphans,[nomod")
        with tempfile.TemporaryDirectory() as tmp:
            session(tap, arch, [check_file], "memleak.supp session",
                    extra=["--initrd", archive_with_suppressions(arch, tmp)])
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
