#!/usr/bin/env python3
"""The source-file table tools/kallsyms.py links into both kernels.

The table after the text table (KSYF, docs/backtraces.md) is decoded
from build/ARCH/kernel.elf: it has one entry per text symbol, every
path it names is a file of the tree, nearly every symbol has one, and
functions whose first instruction comes from a header inlined into them
(list.h into leaktest's unhook_list, say) are credited to their own .c
file, not to the header: the outermost of addr2line's inlined frames.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap, kernel_image, make  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tools"))
import kallsyms  # noqa: E402

# Functions of the tree and their files; on i386 the first two begin
# with inlined list.h code and the others with arch.h or smp.h code.
KNOWN = {"unhook_list": "mm/leaktest.c",
         "unhook_container2": "mm/leaktest.c",
         "preempt_disable": "kernel/sched.c",
         "sched_tick": "kernel/sched.c",
         "setup_orphans": "mm/leaktest.c",
         "kmalloc": "mm/kmalloc.c",
         "kallsyms_lookup_file": "kernel/kallsyms.c"}


def cstring(blob, offset):
    return blob[offset:blob.index(b"\0", offset)].decode()


def decode(elf):
    """{symbol name: file or None} and the two counts of the section."""
    blob = kallsyms.section_bytes(elf, ".kallsyms")
    magic, _, n, size = struct.unpack_from("<4I", blob, 0)
    names = struct.unpack_from("<%dI" % n, blob, 16 + 8 * n)
    strings = blob[16 + 12 * n:16 + 12 * n + size]
    at = 16 + 12 * n + size
    fmagic, version, count, nr_files, fsize = struct.unpack_from("<5I", blob, at)
    if fmagic != kallsyms.FILES_MAGIC or version != kallsyms.FILES_VERSION:
        return None, n, count
    file_of = struct.unpack_from("<%dH" % count, blob, at + 20)
    at += 20 + ((2 * count + 3) & ~3)
    paths = struct.unpack_from("<%dI" % nr_files, blob, at)
    fstrings = blob[at + 4 * nr_files:at + 4 * nr_files + fsize]
    files = {}
    for i in range(min(n, count)):
        name = cstring(strings, names[i])
        if file_of[i] == kallsyms.NO_FILE:
            files.setdefault(name, None)
        else:
            files.setdefault(name, cstring(fstrings, paths[file_of[i]]))
    return files, n, count


def check_arch(tap, arch):
    built = make("ARCH=%s" % arch, "kernel")
    if not tap.ok(built.returncode == 0, "%s: kernel builds" % arch,
                  built.stdout.decode(errors="replace")):
        return
    files, n, count = decode(kernel_image(arch))
    if not tap.ok(files is not None and count == n,
                  "%s: a file table of %d entries follows the %d text "
                  "symbols" % (arch, count, n)):
        return
    known = [f for f in files.values() if f]
    missing = sorted(set(f for f in known
                         if not os.path.isfile(os.path.join(ROOT, f))))
    tap.ok(not missing, "%s: every path is a file of the tree" % arch,
           "\n".join(missing))
    tap.ok(len(known) > 0.9 * len(files),
           "%s: %d of %d names have a file" % (arch, len(known), len(files)))
    wrong = ["%s: %s, expected %s" % (name, files.get(name), want)
             for name, want in sorted(KNOWN.items())
             if files.get(name) != want]
    tap.ok(not wrong, "%s: functions credited to their own file, not to "
           "a header inlined at their start" % arch, "\n".join(wrong))


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        check_arch(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
