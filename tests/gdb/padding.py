"""memleak_padding: a pointer to an object that starts inside its block

Two 32-byte blocks, each pointed to only at +16 (where a 16-byte object
starts). The one annotated with memleak_padding(p, 16, 16) is referenced
by that pointer; the other is not (unless the collector counts any
interior pointer, memleak.interior), and is reported.
"""
import gdb


def run(k):
    roots = k.roots(2)
    padded = k.kmalloc(32)
    control = k.kmalloc(32)
    k.padding(padded, 16, 16)
    roots.set(0, padded + 16)
    roots.set(1, control + 16)
    interior = bool(gdb.parse_and_eval("memleak.interior"))
    k.expect_leaks([] if interior else [control])
