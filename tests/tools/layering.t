#!/usr/bin/env python3
"""The tree's layering, checked on the sources (no build needed).

Generic code is kernel/, mm/ (the collector included), lib/ and
include/kernel/. Module sources (*_mod.c: samples loaded with insmod,
built apart from the kernel) and samples/ are not generic code.

1. No arch conditionals: generic code has no #if/#ifdef/#ifndef/#elif
   on an ARCH_* or CONFIG_ARCH_* name or on a compiler's arch macro
   (__arm__, __i386__, ...). What differs per arch is an interface:
   a function or constant of arch/<arch>/include/asm/*.h that an
   include/kernel/ header declares or documents (ARCH_ENTRY_FILE in
   include/kernel/arch.h, say).
2. Arch headers only through include/kernel/: no generic .c file
   includes <asm/...> or any path with arch/ in it; a header of
   include/kernel/ may include <asm/X.h>, and then names <asm/X.h> in
   a comment saying what it takes from it (that is the documentation
   generic code reads). No header includes an arch/ path.
3. lib/ uses nothing above it. lib/ is the bottom layer, built into the
   kernel and into host programs alike (tests, fuzzers): its files
   include only the compiler's freestanding headers (<std*.h>) and the
   include/kernel/ headers of LIB_MAY_USE below, which declare lib/'s
   own functions or are pure definitions (types, errno, the printk and
   export declarations, the kallsyms table format of %pS), and whose
   own includes stay inside that set; self-tests (*_test.c) may also
   use the self-test runner and the boot information they read. No
   quoted ("...") include: private headers of kernel/ or mm/ are above
   lib/. Rule of thumb: what lib/ needs from above, it gets through a
   declaration in one of these headers, never by including a service's
   header (slab.h, sched.h, memleak.h, ...).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap  # noqa: E402

GENERIC = ["kernel", "mm", "lib", "include/kernel"]
ARCH_IF = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*"
                     r"(\bARCH_\w+|\bCONFIG_ARCH_\w+|\b__(arm|i386|x86_64|aarch64|"
                     r"thumb|ARM_ARCH\w*)__?\b)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
STD = re.compile(r"^std\w*\.h$")
LIB_MAY_USE = {"types", "compiler", "errno", "limits", "ctype", "string",
               "printk", "export", "cmdline", "cpio", "elf", "fdt",
               "radix-tree", "kallsyms"}
LIB_TESTS_MAY_USE = LIB_MAY_USE | {"ktest", "bootinfo"}


def generic_files():
    """The .c/.h files of generic code git knows or would add; no modules."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "--"]
                         + GENERIC, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [f for f in out.split() if f.endswith((".c", ".h"))
            and not f.endswith("_mod.c") and not f.startswith("samples/")]


def read(path):
    with open(os.path.join(ROOT, path), errors="replace") as f:
        return f.read()


def includes(text):
    """(kind, path) of every #include: kind '<' or '"'."""
    return [m.groups() for m in map(INCLUDE.match, text.splitlines()) if m]


def arch_conditionals(files):
    bad = []
    for f in files:
        for n, line in enumerate(read(f).splitlines(), 1):
            if ARCH_IF.match(line):
                bad.append("%s:%d: %s" % (f, n, line.strip()))
    return bad


def arch_includes(files):
    bad = []
    for f in files:
        text = read(f)
        for kind, path in includes(text):
            header = f.startswith("include/kernel/")
            if "arch/" in path:
                bad.append("%s includes %s" % (f, path))
            elif path.startswith("asm/") and not header:
                bad.append("%s includes <%s> (use its include/kernel/ header)"
                           % (f, path))
            elif path.startswith("asm/") and text.count("<%s>" % path) < 2:
                bad.append("%s includes <%s> without saying what it takes"
                           % (f, path))
    return bad


def lib_header_ok(path, allowed):
    """Is <path> a header lib/ may include (allowed: kernel/ names)?"""
    if STD.match(path):
        return True
    m = re.match(r"^kernel/([\w-]+)\.h$", path)
    return bool(m) and m.group(1) in allowed


def lib_includes(files):
    bad = []
    for f in files:
        if not f.startswith("lib/"):
            continue
        allowed = LIB_TESTS_MAY_USE if f.endswith("_test.c") else LIB_MAY_USE
        for kind, path in includes(read(f)):
            if kind == '"' or not lib_header_ok(path, allowed):
                bad.append("%s includes %s%s" % (f, kind, path))
    for name in sorted(LIB_TESTS_MAY_USE):
        h = "include/kernel/%s.h" % name
        for kind, path in includes(read(h)):
            if kind == '"' or not lib_header_ok(path, LIB_TESTS_MAY_USE):
                bad.append("%s (which lib/ may use) includes %s" % (h, path))
    return bad


def main():
    tap = Tap()
    files = generic_files()
    tap.ok(len(files) > 100 and "kernel/module.c" in files,
           "found the generic sources (%d files)" % len(files), files[:5])
    bad = arch_conditionals(files)
    tap.ok(not bad, "generic code has no #if on an arch", "\n".join(bad))
    bad = arch_includes(files)
    tap.ok(not bad, "generic code reaches arch headers only through "
           "documented include/kernel/ headers", "\n".join(bad))
    bad = lib_includes(files)
    tap.ok(not bad, "lib/ includes nothing above it", "\n".join(bad))
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
