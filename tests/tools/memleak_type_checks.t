#!/usr/bin/env python3
"""The compiler's checks of MEMLEAK_TYPE() descriptors
(<kernel/memleak_type.h>), with both kernels' compilers, the collector
built in and left out: a correct descriptor compiles; a field left out
(at the start, in the middle, at the end), fields out of order, a PTR
field of another type, a target with no descriptor, MEMLEAK_ANY on a
field that cannot hold a pointer and MEMLEAK_LIST on one that is no
list_head each stop the build with a message naming the mistake."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap  # noqa: E402

COMPILERS = {"i386": "i686-linux-gnu-gcc", "arm": "arm-none-eabi-gcc"}

PRELUDE = """
#include <kernel/list.h>
#include <kernel/memleak_type.h>
struct node { struct node *next; unsigned long key; };
struct item { unsigned long key; struct list_head link; };
MEMLEAK_TYPE(node, MEMLEAK_PTR(next, node), MEMLEAK_DATA(key));
MEMLEAK_TYPE(item, MEMLEAK_DATA(key), MEMLEAK_LIST(link, item, link));
"""

CASES = [
    ("a correct descriptor", """
struct good { struct node *n; char c; int i; void *any; struct list_head items; };
MEMLEAK_TYPE(good, MEMLEAK_PTR(n, node), MEMLEAK_DATA_TO(c, i), MEMLEAK_ANY(any),
             MEMLEAK_LIST(items, item, link));
""", None),
    ("a field left out in the middle", """
struct bad { void *a; int x; void *c; };
MEMLEAK_TYPE(bad, MEMLEAK_ANY(a), MEMLEAK_ANY(c));
""", "memleak type bad: a field is missing, or out of order, before c"),
    ("a field left out at the start", """
struct bad { int x; void *a; };
MEMLEAK_TYPE(bad, MEMLEAK_ANY(a));
""", "memleak type bad: a field is missing at the start"),
    ("a field left out at the end", """
struct bad { void *a; int x; };
MEMLEAK_TYPE(bad, MEMLEAK_ANY(a));
""", "memleak type bad: a field is missing at the end"),
    ("fields out of order", """
struct bad { void *a; void *b; };
MEMLEAK_TYPE(bad, MEMLEAK_ANY(b), MEMLEAK_ANY(a));
""", "memleak type bad: a field is missing"),
    ("a PTR field of another type", """
struct bad { struct item *p; };
MEMLEAK_TYPE(bad, MEMLEAK_PTR(p, node));
""", "memleak type bad: p is not a struct node *"),
    ("a target without a descriptor", """
struct other { int x; };
struct bad { struct other *p; };
MEMLEAK_TYPE(bad, MEMLEAK_PTR(p, other));
""", "memleak_type_other"),
    ("MEMLEAK_ANY on a field that cannot hold a pointer", """
struct bad { int x; char c; };
MEMLEAK_TYPE(bad, MEMLEAK_DATA(x), MEMLEAK_ANY(c));
""", "memleak type bad: c cannot hold a pointer"),
    ("MEMLEAK_LIST on a field that is no list_head", """
struct bad { struct item *link; void *prev; };
MEMLEAK_TYPE(bad, MEMLEAK_LIST(link, item, link), MEMLEAK_ANY(prev));
""", "memleak type bad: link or item.link is not a struct list_head"),
]


def compile_case(cc, source, collector, tmp):
    path = os.path.join(tmp, "case.c")
    with open(path, "w") as f:
        f.write(PRELUDE + source)
    flags = ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-ffreestanding",
             "-I" + os.path.join(ROOT, "include"), "-c", path,
             "-o", os.path.join(tmp, "case.o")]
    if collector:
        flags.insert(0, "-DCONFIG_DEBUG_MEMLEAK=1")
    p = subprocess.run([cc] + flags, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def main():
    tap = Tap()
    with tempfile.TemporaryDirectory() as tmp:
        for arch, cc in COMPILERS.items():
            for collector in (True, False):
                where = "%s, collector %s" % (arch, "in" if collector else "out")
                for name, source, error in CASES:
                    status, out = compile_case(cc, source, collector, tmp)
                    if error is None:
                        tap.ok(status == 0, "%s: %s compiles" % (where, name), out)
                        continue
                    if not collector and error.startswith("memleak_type_"):
                        # Without the collector no descriptor object exists to
                        # point to, so a missing target is not an error there.
                        continue
                    tap.ok(status != 0 and error in out,
                           "%s: %s is a build error" % (where, name), out)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
