#!/usr/bin/env python3
"""Leak reports whose backtraces reach the culprit, on both arches.

1. 'leaktest orphans': each report's first frame is the function that
   called the allocator (lt_kmalloc for kzalloc -> kmalloc; the cache
   object and the vmalloc area from lt_cache_alloc / lt_vmalloc or
   setup_orphans, where those are inlined), never an allocator, never
   one frame too far; the traces hold the configured depth, at least 8.
2. The seed's test module: its six orphans (kmalloc, kmem_cache_alloc,
   vmalloc called directly) start at memleak_test_init+0x../0x..
   [memleak_test]; after rmmod all sixteen reports still name it, as
   "[memleak_test] (unloaded)", at the same addresses, and so does the
   digest; loaded again, the live module names those of them its areas
   cover (where it lands is the page allocator's business: elsewhere,
   the old ones stay "(unloaded)"; the self-test loads a table over a
   ghost's own range). The self-tests of
   kernel/module_ghosts.c (eviction, the bound) pass.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, Timeout, PROMPT, session  # noqa: E402

REPORT = re.compile(r"^unreferenced object 0x([0-9a-f]{8}) \(size (\d+)\):\n"
                    r"(?:.*\n)*?  backtrace:\n((?:    \[<[0-9a-f]{8}>\] .*\n)+)",
                    re.M)
FRAME = re.compile(r"^    \[<([0-9a-f]{8})>\] (\S+)\+0x([0-9a-f]+)/0x([0-9a-f]+)"
                   r"(?: \[(\w+)\]( \(unloaded\))?)?$")
SITE = re.compile(r"^memleak: \d+ direct leaks?, \d+ bytes, from (.*)$", re.M)
# Every function marked __alloc_entry, and the hook: never a first frame.
ALLOCATORS = {"kmalloc", "kzalloc", "kcalloc", "krealloc", "kmem_cache_alloc",
              "kmem_cache_zalloc", "vmalloc", "vzalloc", "vmalloc_caller",
              "alloc_pages", "__get_free_pages", "get_free_page",
              "memleak_alloc", "memleak_untracked_alloc"}
# leaktest orphans: size -> the functions that may call the allocator.
ORPHAN_CALLERS = {32: {"lt_kmalloc"}, 48: {"lt_cache_alloc", "setup_orphans"},
                  4096: {"lt_vmalloc", "setup_orphans"}}
MODULE_FRAME = re.compile(r"^memleak_test_init\+0x[0-9a-f]+/0x[0-9a-f]+ "
                          r"\[memleak_test\]$")
GONE_FRAME = re.compile(r"^memleak_test_init\+0x[0-9a-f]+/0x[0-9a-f]+ "
                        r"\[memleak_test\] \(unloaded\)$")


def trace_depth(arch):
    with open(os.path.join(ROOT, "build", arch, ".config")) as f:
        m = re.search(r"^CONFIG_DEBUG_MEMLEAK_TRACE_LENGTH=(\d+)$", f.read(), re.M)
    return int(m.group(1)) if m else 0


def reports(out):
    """{address: (size, [(name, text after the address), ...])}."""
    found = {}
    for addr, size, block in REPORT.findall(out):
        frames = []
        for line in block.splitlines():
            m = FRAME.match(line)
            text = line.split("] ", 1)[1]
            frames.append((m.group(2) if m else None, text))
        found[addr] = (int(size), frames)
    return found


def check_leaktest(tap, arch, k):
    depth = trace_depth(arch)
    tap.ok(8 <= depth <= 16, "%s: trace depth %d is 8..16" % (arch, depth))
    k.command("leaktest orphans")
    k.command("sleep 1100")
    out = k.command("memleak")
    got = reports(out)
    tap.ok(sorted(s for s, _ in got.values()) == [32, 32, 48, 48, 4096, 4096],
           "%s: leaktest orphans: the six orphans reported" % arch, out)
    firsts = [(s, f[0][0] if f else None) for s, f in got.values()]
    tap.ok(got and all(name in ORPHAN_CALLERS.get(s, ()) for s, name in firsts),
           "%s: each first frame is the allocator's caller %s" % (arch, firsts),
           out)
    tap.ok(not any(n in ALLOCATORS for _, f in got.values() for n, _ in f),
           "%s: no allocator frame in any trace" % arch, out)
    kzalloc = [f for s, f in got.values() if s == 32]
    tap.ok(kzalloc and all(len(f) > 1 and f[1][0] == "setup_orphans"
                           for f in kzalloc),
           "%s: lt_kmalloc's caller setup_orphans comes second" % arch, out)
    # Typed at the shell, the chain is deeper than 8: all of it is kept.
    tap.ok(got and all(len(f) == depth for _, f in got.values()) and
           all("shell_run_line" in [n for n, _ in f] for _, f in got.values()),
           "%s: every trace holds %d frames, down to the shell" % (arch, depth),
           out)
    k.command("leaktest clean")


def module_firsts(got):
    return {a: f[0][1] for a, (_, f) in got.items() if f}


LOADED = re.compile(r"insmod: memleak_test: loaded at 0x([0-9a-f]+) "
                    r"\(\d+ bytes, init \d+ at 0x([0-9a-f]+)\)")
PAGE = 4096


def first_frame_pages(out):
    """{block address: the page of its first frame's address}."""
    return {addr: int(block.split("[<", 1)[1][:8], 16) // PAGE
            for addr, _, block in REPORT.findall(out)}


def module_pages(out):
    """The pages the module's core and init areas start at."""
    m = LOADED.search(out)
    return {int(m.group(1), 16) // PAGE, int(m.group(2), 16) // PAGE} if m else set()


def check_module(tap, arch, k):
    k.command("memleak clear")
    out = k.command("insmod memleak_test")
    tap.ok("insmod: memleak_test: loaded" in out, "%s: insmod memleak_test" % arch, out)
    k.command("sleep 1100")
    out = k.command("memleak")
    loaded = module_firsts(reports(out))
    tap.ok(len(loaded) == 6 and all(MODULE_FRAME.match(t) for t in loaded.values()),
           "%s: the six orphans start at memleak_test_init+0x../0x.. "
           "[memleak_test]" % arch, out)
    sites = SITE.findall(out)
    tap.ok(sites and all(MODULE_FRAME.match(s) for s in sites),
           "%s: the digest names memleak_test_init [memleak_test]" % arch, out)
    out = k.command("rmmod memleak_test")
    tap.ok("rmmod: memleak_test: removed" in out, "%s: rmmod memleak_test" % arch, out)
    out = k.command("memleak")
    gone = module_firsts(reports(out))
    tap.ok(len(gone) == 16 and all(GONE_FRAME.match(t) for t in gone.values()),
           "%s: after rmmod all 16 still start at memleak_test_init "
           "[memleak_test] (unloaded)" % arch, out)
    tap.ok(loaded and all(gone.get(a) == t + " (unloaded)" for a, t in loaded.items()),
           "%s: the six orphans' first frames are unchanged but for (unloaded)"
           % arch, out)
    sites = SITE.findall(out)
    tap.ok(sites and all(GONE_FRAME.match(s) for s in sites),
           "%s: the digest names the unloaded module too" % arch, out)
    now = module_pages(k.command("insmod memleak_test"))
    out = k.command("memleak list")
    again = module_firsts(reports(out))
    pages = first_frame_pages(out)
    old = {a: t for a, t in again.items() if a in gone}
    # A frame on a page the module now holds is its; the others stay ghosts'.
    live = {a: t for a, t in old.items() if pages[a] in now}
    tap.ok(len(old) == 16 and now and
           all(t.endswith(" [memleak_test]") for t in live.values()) and
           all(GONE_FRAME.match(t) for a, t in old.items() if a not in live),
           "%s: loaded again, the live module names the old frames it covers "
           "(%d of 16), the ghost the rest" % (arch, len(live)), out)
    # Eviction by a module loaded over a ghost, and the bound on ghosts.
    out = k.command("selftest module_ghosts")
    tap.ok(re.search(r"^ok \d+ module_ghosts$", out, re.M) and
           "selftest: 1 passed, 0 failed" in out,
           "%s: selftest module_ghosts passes" % arch, out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        session(tap, arch, [check_leaktest, check_module],
                "the shell answers")
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
