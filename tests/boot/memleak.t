#!/usr/bin/env python3
"""The leak collector from the shell, on both arches: leaktest patterns,
the report format, new/total counts, dump, clear, orphan freeing, the
scan thread, the minimum age (what it leaves out is counted), the
suspects' tiers (direct, indirect, possibly lost) and the digest by
allocation site, 'memleak list', Linux's
spellings, bad arguments, memleak=off|on on the command line, and a
leak whose address the command that made it left in a dead frame (the
shell wipes the dead stack after each command: 'memleak graph', whose
scan runs deep in the stack, where the copies lie, still finds it)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout, PROMPT, session  # noqa: E402
from memleak_report import REPORT, EXPECT, SUMMARY  # noqa: E402



def summary(out):
    m = SUMMARY.search(out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def check_seed(tap, arch, k):
    out = k.command("memleak")
    tap.ok(summary(out) == (0, 0), "%s: a fresh kernel has no suspected leaks" % arch, out)
    setup = k.command("leaktest")
    expected = set(EXPECT.findall(setup))
    tap.ok(len(expected) == 6, "%s: leaktest sets up the seed's 6 orphans" % arch, setup)
    k.command("sleep 1100")
    out = k.command("memleak")
    tap.ok(set(REPORT.findall(out)) == expected,
           "%s: exactly the 6 orphans are reported, not the list" % arch, out)
    tap.ok(summary(out) == (6, 6), "%s: summary 6 new (6 total)" % arch, out)
    for line in (r'^  comm "shell", pid 1, jiffies \d+ \(age \d+\.\d{3}s\)$',
                 r"^  hex dump \(first 32 bytes\):$",
                 r"^    (00 ){16} ................$",
                 r"^  backtrace:$",
                 # The allocators' frames are left out: the caller first.
                 r"^  backtrace:\n    \[<[0-9a-f]{8}>\] lt_kmalloc\+0x[0-9a-f]+/0x[0-9a-f]+$",
                 r"^    \[<[0-9a-f]{8}>\] setup_orphans\+0x[0-9a-f]+/0x[0-9a-f]+$",
                 r"^  backtrace:\n    \[<[0-9a-f]{8}>\] setup_orphans\+"):
        tap.ok(re.search(line, out, re.M), "%s: report has %s" % (arch, line), out)
    out = k.command("memleak")
    tap.ok(summary(out) == (0, 6), "%s: second scan: 0 new (6 total)" % arch, out)
    addr = sorted(expected)[0][0]
    out = k.command("memleak dump " + addr[2:])
    tap.ok("block %s-" % addr in out and "white" in out and "backtrace:" in out,
           "%s: memleak dump of a reported block" % arch, out)
    out = k.command("memleak dump 1")
    tap.ok("is not inside any tracked block" in out, "%s: dump of a non-block" % arch, out)
    out = k.command("leaktest clean")
    tap.ok(out.count("memleak: freeing orphan object") == 6 and "Call trace:" in out,
           "%s: freeing the reported blocks prints the orphan notice" % arch, out)
    out = k.command("memleak")
    tap.ok(summary(out) == (0, 0), "%s: freed blocks are not reported" % arch, out)


def check_list_and_clear(tap, arch, k):
    setup = k.command("leaktest list-orphaned")
    expected = set(EXPECT.findall(setup))
    k.command("sleep 1100")
    out = k.command("memleak")
    tap.ok(len(expected) == 10 and set(REPORT.findall(out)) == expected,
           "%s: a list whose head is cleared: its 10 elements reported" % arch, out)
    out = k.command("memleak clear")
    tap.ok("10 reported blocks cleared" in out, "%s: memleak clear" % arch, out)
    out = k.command("memleak")
    tap.ok(summary(out) == (0, 0), "%s: cleared blocks stay hidden" % arch, out)
    # The ten, white at every scan, have their sums in a table of pages.
    out = k.command("memleak stats")
    m = re.search(r"checksums: +(\d+) blocks \(white at a scan\), (\d+) bytes",
                  out)
    tap.ok(m and int(m.group(1)) >= 10 and int(m.group(2)) >= 4096 and
           int(m.group(2)) % 4096 == 0,
           "%s: memleak stats: the white blocks' checksums" % arch, out)
    # The pause that confirmed the ten: on i386 it read again only the
    # blocks on pages written since the mark began (dirty bits), and of
    # the twenty-odd blocks reachable here most were not (21 of 22 when
    # measured; how many depends on what else wrote meanwhile); ARM has
    # no dirty bits.
    m = re.search(r"pause rereads: +only the pages written since the mark "
                  r"began: (\d+) blocks passed over in the last", out)
    if arch == "i386":
        tap.ok(m and int(m.group(1)) > 0,
               "%s: memleak stats: the pause passed over unwritten blocks" % arch,
               out)
    else:
        tap.ok("pause rereads:  everything the mark read (written pages not "
               "tracked)" in out,
               "%s: memleak stats: the pause read everything again" % arch, out)
    k.command("leaktest clean")


def check_commands(tap, arch, k):
    out = k.command("memleak stats")
    tap.ok(re.search(r"blocks tracked: \d+", out) and "longest irq-off" in out,
           "%s: memleak stats" % arch, out)
    # The index's tables: 12 bytes or more per page of 128 MiB of RAM.
    m = re.search(r"index: +(\d+) bytes of slab records, (\d+) of page tables", out)
    tap.ok(m and int(m.group(1)) > 0 and int(m.group(2)) >= 32768 * 12,
           "%s: memleak stats: the index's slab records and page tables" % arch, out)
    # The metadata part by part: they add up (the bitmap of written pages,
    # kept from scan to scan on i386, too), and every tracked slab block
    # has a 20-byte record in its slab's array.
    m = re.search(r"metadata: +(\d+) bytes: records (\d+) \((\d+)\.\d per tracked "
                  r"slab block, (\d+) blocks\), tables (\d+), blocks outside slabs "
                  r"(\d+), traces (\d+), scan areas (\d+), queues (\d+), "
                  r"checksums (\d+), scan bitmaps (\d+)", out)
    parts = [int(v) for v in m.groups()] if m else []
    tables = re.search(r"(\d+) of page tables", out)
    tap.ok(m and tables and parts[0] == parts[1] + sum(parts[4:])
           and parts[3] > 0 and parts[1] >= 20 * parts[3]
           and parts[2] == parts[1] // parts[3]
           and parts[4] == int(tables.group(1)),
           "%s: memleak stats: the metadata, part by part" % arch, out)
    # The last scan step by step: five phases, together no longer than it.
    took = re.search(r"scans: +\d+, the last at jiffies \d+, took (\d+) us", out)
    phases = re.findall(r"(reset|marking|checksums|confirmation|classification) (\d+) us",
                        out.split("scan phases:")[-1].split("\n")[0])
    tap.ok(took and [p[0] for p in phases] == ["reset", "marking", "checksums",
                                             "confirmation", "classification"]
           and int(phases[1][1]) > 0
           and sum(int(p[1]) for p in phases) <= int(took.group(1)),
           "%s: memleak stats: the last scan's phases" % arch, out)
    out = k.command("memleak bogus")
    tap.ok("\nusage: memleak" in out, "%s: bad argument prints usage" % arch, out)
    out = k.command("memleak help")
    tap.ok(re.search(r"^memleak dump ADDR +print the tracked block", out, re.M)
           and re.search(r"^memleak age MS ", out, re.M),
           "%s: memleak help lists the subcommands" % arch, out)
    out = k.command("leaktest nosuch")
    tap.ok("no scenario 'nosuch'" in out, "%s: unknown scenario" % arch, out)
    out = k.command("memleak scan=1")
    tap.ok("scanning every 1 s" in out, "%s: memleak scan=1 starts the scan thread" % arch, out)
    k.command("leaktest orphans")
    out = k.command("sleep 2600")
    tap.ok("new suspected memory leaks (run 'memleak'" in out,
           "%s: the scan thread reports new leaks by itself" % arch, out)
    out = k.command("memleak scan=off")
    tap.ok("automatic scanning off" in out, "%s: memleak scan=off" % arch, out)
    k.command("leaktest clean")


TIERS = re.compile(r"^memleak: leak summary: direct (\d+) blocks? \((\d+) bytes\), "
                   r"indirect (\d+) blocks? \((\d+) bytes\), possibly lost (\d+) "
                   r"blocks? \((\d+) bytes\)$", re.M)
SITE = re.compile(r"^memleak: (\d+) (direct leaks?|indirect leaks?|possibly lost blocks?), "
                  r"(\d+) bytes, from (\S+)", re.M)

# scenario: (direct, indirect, possibly lost), as LSan/Valgrind would say
TIER_CASES = {
    "orphans": (6, 0, 0),
    "inside-orphan": (1, 1, 0),
    "cycle": (1, 2, 0),
    "list-orphaned": (1, 9, 0),
    "interior-only": (0, 0, 1),
}


def check_tiers(tap, arch, k):
    k.command("memleak age=0")
    for name, want in TIER_CASES.items():
        k.command("leaktest " + name)
        out = k.command("memleak")
        m = TIERS.search(out)
        got = (int(m.group(1)), int(m.group(3)), int(m.group(5))) if m else None
        sizes = sum(int(s) for s in re.findall(r"^unreferenced object 0x[0-9a-f]{8} "
                                               r"\(size (\d+)\):$", out, re.M))
        tap.ok(got == want and m and sizes == sum(int(m.group(i)) for i in (2, 4, 6)),
               "%s: %s: direct, indirect, possibly lost = %s, bytes add up" % (arch, name, want),
               out)
        sites = SITE.findall(out)
        per_tier = [sum(int(n) for n, t, _, _ in sites if t.startswith(w))
                    for w in ("direct", "indirect", "possibly")]
        tap.ok(tuple(per_tier) == want and all(not s.startswith(("kmalloc+", "vmalloc"))
                                               for _, _, _, s in sites),
               "%s: %s: the digest's sites add up, none in the allocators" % (arch, name),
               out)
        k.command("leaktest clean")
    k.command("leaktest orphans")
    out = k.command("memleak list")
    tap.ok(len(REPORT.findall(out)) == 6 and not TIERS.search(out) and summary(out) == (6, 6),
           "%s: memleak list: the per-block list alone" % arch, out)
    out = k.command("memleak")
    sites = SITE.findall(out)
    tap.ok(any(s.startswith("setup_orphans+") for _, _, _, s in sites)
           and [int(b) for _, _, b, _ in sites] == sorted([int(b) for _, _, b, _ in sites],
                                                          reverse=True),
           "%s: digest names setup_orphans, largest first" % arch, out)
    k.command("leaktest clean")
    k.command("memleak age=1000")


YOUNG = re.compile(r"^memleak: (\d+) blocks younger than (\d+) ms not reported", re.M)


def check_age(tap, arch, k):
    out = k.command("memleak age=60000")
    tap.ok("memleak: minimum age 60000 ms" in out, "%s: memleak age=60000" % arch, out)
    setup = k.command("leaktest")
    expected = set(EXPECT.findall(setup))
    out = k.command("memleak")
    m = YOUNG.search(out)
    tap.ok(summary(out) == (0, 0) and m and int(m.group(1)) == len(expected) == 6
           and m.group(2) == "60000",
           "%s: the 6 young orphans are counted as not reported, not listed" % arch, out)
    out = k.command("memleak age=0")
    tap.ok("memleak: minimum age 0 ms" in out, "%s: memleak age=0" % arch, out)
    out = k.command("memleak")
    tap.ok(set(REPORT.findall(out)) == expected and summary(out) == (6, 6)
           and not YOUNG.search(out),
           "%s: with age=0 they are reported at once, nothing left out" % arch, out)
    addr = sorted(expected)[0][0]
    out = k.command("memleak dump=" + addr[2:])
    tap.ok("block %s-" % addr in out and "backtrace:" in out,
           "%s: Linux's spelling memleak dump=ADDR" % arch, out)
    for bad in ("age=soon", "age=-1", "age=99999999999"):
        out = k.command("memleak " + bad)
        tap.ok("is not a number of milliseconds" in out and "usage" not in out,
               "%s: memleak %s is refused with a message" % (arch, bad), out)
    out = k.command("memleak stats")
    tap.ok("minimum age: 0 ms" in out, "%s: a refused age changes nothing" % arch, out)
    k.command("memleak age=1000")
    k.command("leaktest clean")


def check_stale_copy(tap, arch, k):
    k.command("memleak age=0")
    setup = k.command("leaktest stale-copy")
    expected = [a for a, _ in EXPECT.findall(setup)]
    out = k.command("memleak graph")
    drawn = re.findall(r'^  "(0x[0-9a-f]{8})" \[label=', out, re.M)
    tap.ok(len(expected) == 1 and drawn == expected,
           "%s: an address left in the dead frames of the command before "
           "hides no leak" % arch, out)
    k.command("leaktest clean")
    k.command("memleak age=1000")


def check_boot_option(tap, arch):
    with Kernel(arch, append="test memleak=off") as k:
        try:
            k.expect(re.escape(PROMPT))
            tap.ok("memleak: disabled: turned off on the command line (memleak=off)"
                   in k.output, "%s: memleak=off turns the collector off at boot" % arch,
                   k.output)
            out = k.command("memleak")
            tap.ok("the collector is disabled (turned off on the command "
                   "line (memleak=off))" in out,
                   "%s: memleak=off: no scan, and why" % arch, out)
            out = k.command("memleak stats")
            tap.ok("state:          disabled (turned off on the command line "
                   "(memleak=off))" in out and "blocks tracked: 0 " in out,
                   "%s: memleak=off: nothing tracked, and why" % arch, out)
            k.send("poweroff\n")
            k.wait(20)
        except Timeout as e:
            tap.ok(False, "%s: memleak=off session (%s)" % (arch, e), k.output)
    with Kernel(arch, append="test memleak=maybe") as k:
        try:
            k.expect(re.escape(PROMPT))
            tap.ok("memleak= is neither on nor off" in k.output
                   and "memleak: tracking" in k.output,
                   "%s: a bad memleak= is named, and the collector stays on" % arch,
                   k.output)
            k.send("poweroff\n")
            k.wait(20)
        except Timeout as e:
            tap.ok(False, "%s: memleak=maybe session (%s)" % (arch, e), k.output)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        session(tap, arch, [check_seed, check_list_and_clear, check_commands,
                            check_age, check_tiers, check_stale_copy],
                "memleak session", poweroff=True)
        check_boot_option(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
