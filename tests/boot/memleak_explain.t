#!/usr/bin/env python3
"""'memleak refs ADDR' and 'memleak why ADDR' on both arches (two CPUs,
so that the per-CPU scenario uses CPU 1's copy): the exact referrers of
the leaktest scenarios' blocks (root symbols and offsets, referring
blocks and offsets, start/alias/interior, each referrer's verdict), the
exact shortest path from a root, the answers for suspects, and bad
input."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout, PROMPT  # noqa: E402

KEEPS = re.compile(r"^leaktest: keeps referenced object 0x([0-9a-f]{8}) \(size (\d+)\)$", re.M)
EXPECT = re.compile(r"^leaktest: expect unreferenced object 0x([0-9a-f]{8}) \(size (\d+)\)$", re.M)
ELEM = 208          # struct leaktest_elem on 32-bit: 100 + list_head + 100
LIST_OFF = 100      # its list_head


def h(n):
    return "0x%08x" % n


def referrers(out):
    """The lines naming one referrer each, as a set."""
    return {line.strip() for line in out.splitlines() if line.startswith("  ")}


def path(out):
    """The lines of a why-path, in order."""
    return [line.strip() for line in out.splitlines() if line.startswith("  ")]


def blocks(setup, regex=KEEPS):
    return [int(a, 16) for a, _ in regex.findall(setup)]


def check_list(tap, arch, k):
    setup = k.command("leaktest")  # the seed: orphans and the list
    e = blocks(setup)
    if not tap.ok(len(e) == 10, "%s: the list's 10 elements are named" % arch, setup):
        return
    # e[0] is first: the head's next and e[1]'s prev point at its list_head.
    out = k.command("memleak refs %x" % e[0])
    want = {".data: leaktest_list+0x0: %s, alias +0x64" % h(e[0] + LIST_OFF),
            "block %s (size %d)+0x68: %s, alias +0x64; that block is reachable"
            % (h(e[1]), ELEM, h(e[0] + LIST_OFF))}
    tap.ok(referrers(out) == want, "%s: refs of the first element: the list head "
           "in .data and the second element's prev" % arch, out)
    tap.ok("memleak refs: block %s (size %d) is reachable\n" % (h(e[0]), ELEM) in out
           and "memleak refs: 2 pointers into block %s: 1 in roots, 1 in blocks"
           % h(e[0]) in out, "%s: refs: verdict and count" % arch, out)
    # An interior address of e[4] names the same block.
    out = k.command("memleak refs %x" % (e[4] + 8))
    want = {"block %s (size %d)+0x64: %s, alias +0x64; that block is reachable"
            % (h(e[3]), ELEM, h(e[4] + LIST_OFF)),
            "block %s (size %d)+0x68: %s, alias +0x64; that block is reachable"
            % (h(e[5]), ELEM, h(e[4] + LIST_OFF))}
    tap.ok(referrers(out) == want and "0 in roots, 2 in blocks" in out,
           "%s: refs of the fifth element: its neighbours' next and prev" % arch, out)
    out = k.command("memleak why %x" % e[2])
    want = ["root .data: leaktest_list+0x0",
            "-> block %s (size %d)+0x64" % (h(e[0]), ELEM),
            "-> block %s (size %d)+0x64" % (h(e[1]), ELEM),
            "-> %s" % h(e[2])]
    tap.ok(path(out) == want and "a path of 3 pointers from a root" in out,
           "%s: why of the third element: forward from the head" % arch, out)
    # The ninth is nearer the head's prev: the shortest path goes backward.
    out = k.command("memleak why %x" % (e[8] + 0x10))
    want = ["root .data: leaktest_list+0x4",
            "-> block %s (size %d)+0x68" % (h(e[9]), ELEM),
            "-> %s" % h(e[8] + 0x10)]
    tap.ok(path(out) == want, "%s: why of the ninth element: the shortest path, "
           "through the head's prev" % arch, out)
    k.command("leaktest clean")


def check_suspects(tap, arch, k):
    setup = k.command("leaktest inside-orphan")
    outer, inner = blocks(setup, EXPECT)
    k.command("sleep 1100")
    out = k.command("memleak refs %x" % inner)
    want = {"block %s (size 64)+0x0: %s, start; that block is a suspect (direct leak)"
            % (h(outer), h(inner))}
    tap.ok(referrers(out) == want and "block %s (size 32) is a suspect (indirect leak)"
           % h(inner) in out, "%s: refs of an inside orphan: the orphan holding it" % arch, out)
    out = k.command("memleak refs %x" % outer)
    tap.ok(referrers(out) == set() and "is a suspect (direct leak)" in out
           and "0 pointers into block %s: 0 in roots, 0 in blocks" % h(outer) in out,
           "%s: refs of a direct leak: nothing" % arch, out)
    out = k.command("memleak why %x" % inner)
    tap.ok("no path from a root: see 'memleak refs %x'" % inner in out and not path(out),
           "%s: why of a suspect points to refs" % arch, out)
    k.command("leaktest clean")

    setup = k.command("leaktest interior-only")
    p, = blocks(setup, EXPECT)
    k.command("sleep 1100")
    out = k.command("memleak refs %x" % p)
    want = {".bss: lt_interior_word+0x0: %s, interior +0x18, no reference to the scan"
            % h(p + 0x18)}
    tap.ok(referrers(out) == want and "is a suspect (possibly lost)" in out,
           "%s: refs of a possibly lost block: the interior pointer in .bss" % arch, out)
    k.command("leaktest clean")


def check_other_roots(tap, arch, k):
    setup = k.command("leaktest percpu")
    cpu = re.search(r"pointers in CPU (\d)'s copy", setup)
    kept, = blocks(setup)
    lost, = blocks(setup, EXPECT)
    out = k.command("memleak refs %x" % lost)
    tap.ok(cpu and cpu.group(1) == "1" and referrers(out) ==
           {"per-cpu 1: lt_percpu_ref+0x4: %s, start" % h(lost)},
           "%s: refs: a per-CPU copy is named by CPU and symbol" % arch, out)
    out = k.command("memleak why %x" % kept)
    tap.ok(path(out) == ["root per-cpu 1: lt_percpu_ref+0x0", "-> %s" % h(kept)],
           "%s: why: from CPU 1's copy" % arch, out)
    k.command("leaktest clean")

    setup = k.command("leaktest stack")
    held, = blocks(setup)
    out = k.command("memleak why %x" % held)
    lines = path(out)
    tap.ok(len(lines) == 2 and re.fullmatch(
        r'root stack of "leaktest-stack" \(pid \d+\): 0x[0-9a-f]{8}', lines[0])
        and lines[1] == "-> %s" % h(held),
        "%s: why: from a sleeping thread's stack, named" % arch, out)
    k.command("leaktest clean")

    setup = k.command("leaktest not-leak")
    holder, child = blocks(setup)
    out = k.command("memleak why %x" % child)
    want = ["root: block %s (size 64), never a leak (min_count 0, memleak_not_leak())"
            % h(holder),
            "-> block %s (size 64)+0x0" % h(holder),
            "-> %s" % h(child)]
    tap.ok(path(out) == want, "%s: why: from a memleak_not_leak() block" % arch, out)
    k.command("leaktest clean")


def check_bad_input(tap, arch, k):
    for line, want in (("memleak refs", "usage: memleak refs ADDR"),
                       ("memleak why", "usage: memleak why ADDR"),
                       ("memleak why 1 2", "usage: memleak why ADDR"),
                       ("memleak refs zz", "memleak refs: 'zz' is not a hex address"),
                       ("memleak why 12g", "memleak why: '12g' is not a hex address"),
                       ("memleak refs 1", "memleak refs: 0x00000001 is not inside "
                        "any tracked block"),
                       ("memleak why=ffffffff", "memleak why: 0xffffffff is not "
                        "inside any tracked block")):
        out = k.command(line)
        tap.ok(want in out, "%s: %s: %s" % (arch, line, want), out)
    out = k.command("memleak help")
    tap.ok(re.search(r"^memleak refs ADDR +who points", out, re.M)
           and re.search(r"^memleak why ADDR +a path", out, re.M),
           "%s: memleak help lists refs and why" % arch, out)
    out = k.command("echo still here")
    tap.ok("still here" in out, "%s: the shell goes on" % arch, out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        with Kernel(arch, append="test", smp=2) as k:
            try:
                k.expect(re.escape(PROMPT))
                check_list(tap, arch, k)
                check_suspects(tap, arch, k)
                check_other_roots(tap, arch, k)
                check_bad_input(tap, arch, k)
                tap.ok("panic" not in k.output.lower(), "%s: no panic" % arch, k.output)
                k.send("poweroff\n")
                tap.ok(k.wait(20) == 0, "%s: powers off cleanly" % arch, k.output)
            except (Timeout, ValueError) as e:
                tap.ok(False, "%s: session (%s)" % (arch, e), k.output)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
