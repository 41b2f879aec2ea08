"""file:line after each frame in memleak-scan, -list and -dump

leaktest's orphans (mm/leaktest.c, run through kshell) are reported by
memleak-scan with the source line of every frame, found in the source
text here: lt_kmalloc's frames name its kzalloc() call, the six
setup_orphans frames its six calls, and the two cache orphans show
lt_cache_alloc's kmem_cache_zalloc() call (inlined into setup_orphans,
or a frame of its own). memleak-list's caller column and memleak-dump's
backtrace carry the same places. The GDB commands and
tools/decode-report print the same format.
"""
import re

import gdb

from kleaktest import ScenarioFailure, log, source_lines_in

NEEDS = ("memleak", "leaktest")

LEAKTEST = "mm/leaktest.c"
EXPECT = re.compile(r"^leaktest: expect unreferenced object 0x([0-9a-f]{8}) "
                    r"\(size (\d+)\)$", re.M)
FRAME = re.compile(r"^    \[<[0-9a-f]{8}>\] (\w+)\+0x[0-9a-f]+/0x[0-9a-f]+"
                   r"(?: (\S+):(\d+))?$")
INLINED = re.compile(r"^ +inlined: (\w+) (\S+):(\d+)$")


def command(line):
    out = gdb.execute(line, to_string=True)
    log("(gdb) %s\n%s" % (line, out.rstrip()[-3000:]))
    return out


def places(text):
    """[(function, file, line, inlined)] of every frame and inlined line."""
    found = []
    for line in text.split("\n"):
        m = FRAME.match(line) or INLINED.match(line)
        if m:
            found.append((m.group(1), m.group(2), int(m.group(3) or 0),
                          m.re is INLINED))
    return found


def check_report(report, want):
    got = places(report)
    frames = [(f, l) for f, path, l, inl in got if not inl and path]
    if frames.count(("lt_kmalloc", want["kzalloc"])) != 2 or \
            any(f == "lt_kmalloc" and l != want["kzalloc"] for f, l in frames):
        raise ScenarioFailure("memleak-scan: lt_kmalloc's two frames are not "
                              "%s:%d" % (LEAKTEST, want["kzalloc"]))
    calls = sorted(l for f, l in frames if f == "setup_orphans")
    if calls != want["calls"]:
        raise ScenarioFailure("memleak-scan: setup_orphans frames at lines "
                              "%s, not its calls %s" % (calls, want["calls"]))
    cache = [(path, l) for f, path, l, _ in got if f == "lt_cache_alloc"]
    if cache != [(LEAKTEST, want["zalloc"])] * 2:
        raise ScenarioFailure("memleak-scan: lt_cache_alloc's places are %s, "
                              "not twice %s:%d" % (cache, LEAKTEST,
                                                   want["zalloc"]))


def run(k):
    want = {
        "kzalloc": source_lines_in(LEAKTEST, "static __noipa void *lt_kmalloc(",
                                   "kzalloc(")[0],
        "zalloc": source_lines_in(LEAKTEST, "static __always_inline void *lt_cache_alloc(",
                                  "kmem_cache_zalloc(")[0],
        "calls": source_lines_in(LEAKTEST, "static void setup_orphans(",
                                 "lt_"),
    }
    log("expected lines: %s" % want)
    setup = command("kshell leaktest orphans")
    orphans = [(int(a, 16), int(s)) for a, s in EXPECT.findall(setup)]
    if len(orphans) != 6:
        raise ScenarioFailure("leaktest orphans set up %d blocks"
                              % len(orphans))
    for addr, size in orphans:
        k.sizes[addr] = size
    k.expect_leaks([a for a, _ in orphans])
    check_report(command("memleak-scan"), want)

    listing = command("memleak-list --suspects")
    small = [a for a, s in orphans if s == 32]
    for addr in small:
        if not re.search(r"^0x%08x .* lt_kmalloc\+0x[0-9a-f]+/0x[0-9a-f]+ "
                         r"%s:%d$" % (addr, re.escape(LEAKTEST),
                                      want["kzalloc"]), listing, re.M):
            raise ScenarioFailure("memleak-list: 0x%08x's caller is not "
                                  "lt_kmalloc at %s:%d" % (
                                      addr, LEAKTEST, want["kzalloc"]))
    cache = [a for a, s in orphans if s == 48]
    dump = command("memleak-dump 0x%x" % cache[0])
    got = [(f, l) for f, path, l, _ in places(dump) if path == LEAKTEST]
    if ("lt_cache_alloc", want["zalloc"]) not in got or \
            not any(f == "setup_orphans" and l in want["calls"]
                    for f, l in got):
        raise ScenarioFailure("memleak-dump of a cache orphan lacks its "
                              "places: %s" % got)
    command("kshell leaktest clean")
