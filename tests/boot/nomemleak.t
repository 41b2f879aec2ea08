#!/usr/bin/env python3
"""With CONFIG_DEBUG_MEMLEAK=n the kernel builds, boots and passes its
self-tests with no collector code in it at all (both arches)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, build_variant  # noqa: E402

NM = {"i386": "i686-linux-gnu-nm", "arm": "arm-none-eabi-nm"}


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        build_dir = "build/nomemleak-" + arch
        p = build_variant(arch, build_dir, {"DEBUG_MEMLEAK": "n"})
        log = p.stdout.decode("utf-8", "replace")
        if not tap.ok(p.returncode == 0, "%s: builds without the collector" % arch, log):
            continue
        elf = os.path.join(ROOT, build_dir, "kernel.elf")
        nm = subprocess.run([NM[arch], elf], stdout=subprocess.PIPE).stdout.decode()
        syms = {l.split()[-1]: l.split()[0] for l in nm.splitlines() if len(l.split()) == 3}
        # The linker script's section markers stay, with nothing between them.
        markers = [("__start_memleak_roots", "__stop_memleak_roots"),
                   ("__memleak_offsets_start", "__memleak_offsets_end")]
        empty = all(syms.get(a) == syms.get(b) for a, b in markers)
        found = [n for n in syms if ("memleak" in n or "leaktest" in n)
                 and n not in sum(markers, ())]
        tap.ok(not found and empty, "%s: no collector code or data in the image" % arch,
               "\n".join(found))
        with Kernel(arch, append='test autorun="memleak;selftest;poweroff"',
                    image=elf) as k:
            status = k.wait(60)
            out = k.output
        tap.ok("unknown command 'memleak'" in out, "%s: no memleak command" % arch, out)
        tap.ok("# selftest:" in out and ", 0 failed" in out,
               "%s: self-tests pass" % arch, out)
        tap.ok(status == 0, "%s: powers off (status %s)" % (arch, status), out)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
