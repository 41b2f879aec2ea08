#!/usr/bin/env python3
"""With CONFIG_DEBUG_KEEP_INIT=n the __init sections are freed after boot
(both arches): the boot log and meminfo show the amount, the self-tests
and a module still work on 2 CPUs, and a stray jump into freed init code
traps at once (GDB moves the shell's pc there). The default kernel keeps
its init memory and says so."""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, build_variant, kernel_image  # noqa: E402

NM = {"i386": "i686-linux-gnu-nm", "arm": "arm-none-eabi-nm"}
AUTORUN = "meminfo;insmod modtest;rmmod modtest;selftest;meminfo;poweroff"

# Run inside gdb-multiarch: stops at the shell's input wait, finds a
# freed init function whose page still holds the init poison, and moves
# the pc there.
GDB_SCRIPT = r'''
import gdb
gdb.execute("target remote %(sock)s", to_string=True)
gdb.execute("break console_getc", to_string=True)
gdb.execute("continue", to_string=True)
gdb.execute("delete", to_string=True)
inf = gdb.selected_inferior()
begin = int(gdb.parse_and_eval("(unsigned long)__init_begin"))
end = int(gdb.parse_and_eval("(unsigned long)__init_end"))
data = bytes(inf.read_memory(begin, end - begin))
poisoned = set(a for a in range(begin, end, 4096)
               if data[a - begin:a - begin + 4096] == b"\xff" * 4096)
print("INITMEM poisoned %%d of %%d pages" %% (len(poisoned),
                                          (end - begin) // 4096))
for name in %(functions)r:
    addr = int(gdb.parse_and_eval("(unsigned long)&%%s" %% name))
    if begin <= addr < end and addr & ~4095 in poisoned:
        print("INITMEM jump %%s 0x%%08x" %% (name, addr))
        gdb.execute("set var $pc = %%d" %% addr)
        break
gdb.execute("detach", to_string=True)
'''
FUNCTIONS = ["mm_init", "page_alloc_init", "kmem_cache_init", "memleak_init",
             "setup_per_cpu_areas", "kmalloc_init"]


def init_kib(arch, elf):
    nm = subprocess.run([NM[arch], elf], stdout=subprocess.PIPE).stdout.decode()
    syms = {l.split()[2]: int(l.split()[0], 16) for l in nm.splitlines()
            if len(l.split()) == 3}
    return (syms["__init_end"] - syms["__init_begin"]) // 1024


def meminfo_values(out, key):
    return [int(v) for v in re.findall(r"^%s:\s+(\d+) KiB$" % key, out, re.M)]


def check_freed(tap, arch, elf):
    kib = init_kib(arch, elf)
    with Kernel(arch, append='test autorun="%s"' % AUTORUN, smp=2,
                image=elf) as k:
        status = k.wait(180)
        out = k.output
    tap.ok(kib > 0 and re.search(r"^mm: freed %d KiB of __init code and data$"
                                 % kib, out, re.M),
           "%s: boot frees the %d KiB of __init sections" % (arch, kib), out)
    shown = meminfo_values(out, "InitFreed")
    tap.ok(shown == [kib, kib],
           "%s: meminfo shows InitFreed %d KiB (got %s)" % (arch, kib, shown), out)
    tap.ok("modtest: relocations ok" in out and "rmmod: modtest: removed" in out,
           "%s: a module loads and unloads" % arch, out)
    tap.ok("# selftest:" in out and ", 0 failed" in out and "not ok" not in out,
           "%s: self-tests pass on 2 CPUs" % arch, out)
    tap.ok(status == 0, "%s: powers off (status %s)" % (arch, status), out)


def check_stray_jump(tap, arch, elf):
    with tempfile.TemporaryDirectory() as tmp:
        sock = os.path.join(tmp, "gdb.sock")
        script = os.path.join(tmp, "jump.py")
        with open(script, "w") as f:
            f.write(GDB_SCRIPT % {"sock": sock, "functions": FUNCTIONS})
        with Kernel(arch, append="test", image=elf,
                    extra=["--gdb-socket", sock, "--halt"]) as k:
            deadline = time.monotonic() + 20
            while not os.path.exists(sock) and time.monotonic() < deadline:
                time.sleep(0.1)
            try:
                g = subprocess.run(["gdb-multiarch", "-q", "-nx", "-batch",
                                    "-ex", "file " + elf, "-x", script],
                                   stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=60)
                transcript = g.stdout.decode("utf-8", "replace")
            except subprocess.TimeoutExpired:
                transcript = "gdb timed out"
            status = k.wait(30)
            out = k.output
    m = re.search(r"^INITMEM jump (\w+) 0x([0-9a-f]+)$", transcript, re.M)
    tap.ok(m is not None, "%s: a freed init function still holds the init "
           "poison at the prompt" % arch, transcript)
    if not m:
        return
    trap = re.search(r"exception.*(invalid opcode|undefined instruction)"
                     r".* at %s" % m.group(2), out)
    tap.ok(trap and "panic: unhandled exception" in out and status == 1,
           "%s: a jump into freed %s traps at once (status %s)"
           % (arch, m.group(1), status), out + "\n" + transcript)


def check_kept(tap, arch):
    """The default kernel (DEBUG_KEEP_INIT=y by default) frees nothing."""
    config = os.path.join(os.path.dirname(kernel_image(arch)), ".config")
    try:
        keep = "\nCONFIG_DEBUG_KEEP_INIT=y\n" in "\n" + open(config).read()
    except OSError:
        keep = True
    with Kernel(arch, append='test autorun="meminfo;poweroff"') as k:
        status = k.wait(60)
        out = k.output
    if keep:
        ok = "mm: keeping the __init code and data" in out and \
            meminfo_values(out, "InitFreed") == [0]
    else:
        ok = "mm: freed " in out and meminfo_values(out, "InitFreed")[0] > 0
    tap.ok(ok and status == 0, "%s: build/%s (DEBUG_KEEP_INIT=%s) says what it "
           "did with init memory" % (arch, arch, "y" if keep else "n"), out)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        build_dir = "build/initmem-" + arch
        p = build_variant(arch, build_dir, {"DEBUG_KEEP_INIT": "n"})
        log = p.stdout.decode("utf-8", "replace")
        if tap.ok(p.returncode == 0,
                  "%s: builds with DEBUG_KEEP_INIT=n" % arch, log):
            elf = os.path.join(ROOT, build_dir, "kernel.elf")
            check_freed(tap, arch, elf)
            check_stray_jump(tap, arch, elf)
        check_kept(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
