#!/usr/bin/env python3
"""The kernel's symbol table (kallsyms) and the multi-pass link that embeds it.

  kallsyms.py link --nm NM --dir DIR --assemble CMD --link CMD --out ELF
      Links the kernel first with an empty table, then again with the
      table of the text symbols of the previous image, until the table no
      longer changes; then checks that the .kallsyms section of the final
      image is exactly the table made from its own symbols. CMD templates
      take {src}/{out} (assemble) and {table}/{out} (link).
  kallsyms.py check --nm NM ELF
      The same final check on an existing image.

Table format (docs/backtraces.md), little-endian 32-bit words:

  header   magic "KSYM", version, count N, strings_size S
  addrs    N words, start addresses, strictly ascending
  sizes    N words, sizes in bytes (never 0; ranges do not overlap)
  names    N words, offsets of NUL-terminated names in the strings
  strings  S bytes, padded with NULs to a multiple of 4

Right after the text table comes the source file of each text symbol
(kallsyms_lookup_file(), docs/backtraces.md), from addr2line's outermost
frame at the symbol's start, relative to the source tree:

  header   magic "KSYF", version, count N (the text table's), files F,
           strings_size S
  file_of  N 16-bit indexes into files (0xffff: not known), padded to 4
  files    F words, offsets of NUL-terminated paths in the strings
  strings  S bytes, padded with NULs to a multiple of 4

A second table of the same format, of the sized data objects (.data,
.bss, .rodata, per-CPU), follows it, then its size in bytes and the word
"KSYD": the leak collector names root locations with it, and backtraces
never see it (kallsyms_lookup_data(), docs/backtraces.md).

Only the Python standard library is used (python3 may not be Debian's).
"""
import argparse
import os
import shlex
import struct
import subprocess
import sys

MAGIC = 0x4D59534B  # "KSYM" read as a little-endian word
VERSION = 1
HEADER = struct.Struct("<4I")
MAX_PASSES = 4
TEXT_TYPES = "TtWw"
DATA_TYPES = "DdBbRrGgSsVv"
DATA_MAGIC = 0x4459534B  # "KSYD"
FILES_MAGIC = 0x4659534B  # "KSYF"
FILES_VERSION = 1
FILES_HEADER = struct.Struct("<5I")
NO_FILE = 0xFFFF
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SHF_ALLOC = 0x2
SHF_EXECINSTR = 0x4


class Error(Exception):
    pass


def elf_sections(path):
    """(name, addr, size, flags, offset) of every section of an ELF32 LE file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise Error("%s: not a little-endian 32-bit ELF file" % path)
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<3H", data, 0x2E)
    raw = [struct.unpack_from("<10I", data, shoff + i * shentsize)
           for i in range(shnum)]
    strtab_off = raw[shstrndx][4]
    sections = []
    for sh in raw:
        end = data.index(b"\0", strtab_off + sh[0])
        name = data[strtab_off + sh[0]:end].decode()
        sections.append((name, sh[3], sh[5], sh[2], sh[4]))
    return sections, data


def code_ranges(sections):
    """[start, end) of the sections that hold code in memory."""
    want = SHF_ALLOC | SHF_EXECINSTR
    return sorted((addr, addr + size) for _, addr, size, flags, _ in sections
                  if flags & want == want and size)


def section_bytes(path, name):
    sections, data = elf_sections(path)
    for sname, _, size, _, offset in sections:
        if sname == name:
            return data[offset:offset + size]
    raise Error("%s: no %s section (see linker/sections.ld)" % (path, name))


def parse_nm(text, kinds=TEXT_TYPES):
    """Symbols of `nm -n -S` output as (addr, size or None, type, name)."""
    syms = []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 4:
            addr, size, kind, name = int(f[0], 16), int(f[1], 16), f[2], f[3]
        elif len(f) == 3:
            addr, size, kind, name = int(f[0], 16), None, f[1], f[2]
        else:
            continue
        if kind in kinds and name.isprintable():
            syms.append((addr, size, kind, name))
    return syms


def range_end(ranges, addr):
    for start, end in ranges:
        if start <= addr < end:
            return end
    return None


def preference(sym):
    """Which of several symbols at one address names it: sized, global, fewer '_'."""
    addr, size, kind, name = sym
    return (size is None, kind.islower(), len(name) - len(name.lstrip("_")), name)


def select_symbols(nm_syms, ranges):
    """One (addr, size, name) per code address, sizes filled in and clamped.

    A symbol without a size (an assembly label, a linker script mark)
    reaches the next symbol or the end of its section; one that reaches
    nothing (a mark at the end of a section) is left out. A sized symbol
    that runs into the next one is cut there, so ranges never overlap.
    """
    best = {}
    for sym in nm_syms:
        if range_end(ranges, sym[0]) is None:
            continue
        if sym[0] not in best or preference(sym) < preference(best[sym[0]]):
            best[sym[0]] = sym
    addrs = sorted(best)
    out = []
    for i, addr in enumerate(addrs):
        limit = range_end(ranges, addr)
        if i + 1 < len(addrs):
            limit = min(limit, addrs[i + 1])
        size = best[addr][1]
        size = limit - addr if size is None else min(size, limit - addr)
        if size > 0:
            out.append((addr, size, best[addr][3]))
    return out


def build_table(symbols):
    strings = bytearray()
    offsets = []
    for _, _, name in symbols:
        offsets.append(len(strings))
        strings += name.encode() + b"\0"
    while len(strings) % 4:
        strings += b"\0"
    n = len(symbols)
    out = bytearray(HEADER.pack(MAGIC, VERSION, n, len(strings)))
    out += struct.pack("<%dI" % n, *[s[0] for s in symbols])
    out += struct.pack("<%dI" % n, *[s[1] for s in symbols])
    out += struct.pack("<%dI" % n, *offsets)
    out += strings
    return bytes(out)


def data_ranges(sections):
    """[start, end) of the sections that hold data in memory, not the table."""
    return sorted((addr, addr + size) for name, addr, size, flags, _ in sections
                  if flags & (SHF_ALLOC | SHF_EXECINSTR) == SHF_ALLOC and size
                  and name != ".kallsyms")


def data_table(nm_text, sections):
    """The data objects' table and its trailer; only sized objects count."""
    objects = [s for s in parse_nm(nm_text, DATA_TYPES) if s[1]]
    blob = build_table(select_symbols(objects, data_ranges(sections)))
    return blob + struct.pack("<2I", len(blob), DATA_MAGIC)


def addr2line_of(nm):
    """The addr2line beside nm: i686-linux-gnu-nm -> i686-linux-gnu-addr2line."""
    argv = shlex.split(nm)
    if not argv or not argv[0].endswith("nm"):
        raise Error("cannot tell addr2line from --nm %s" % nm)
    argv[0] = argv[0][:-2] + "addr2line"
    return argv


def source_path(path):
    """A DWARF path relative to the source tree; None when not known or
    outside the tree (ARM's libgcc names its own build directory)."""
    if not path or path.startswith("??"):
        return None
    path = os.path.normpath(os.path.join(SOURCE_ROOT, path))
    if path.startswith(SOURCE_ROOT + os.sep):
        return path[len(SOURCE_ROOT) + 1:]
    return None


def symbol_files(nm, elf, symbols):
    """The source file of each symbol's first byte, or None.

    addr2line -i prints the inlined frames at an address innermost
    first; the last one is the function the symbol is, so its file is
    where that function is written (a .c, or a header for an out-of-line
    copy of a static inline).
    """
    if not symbols:
        return []
    argv = addr2line_of(nm) + ["-a", "-i", "-e", elf]
    argv += ["0x%x" % s[0] for s in symbols]
    try:
        text = subprocess.run(argv, check=True, stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise Error("running %s on %s: %s" % (argv[0], elf, e))
    last = {}
    addr = None
    for line in text.splitlines():
        if line.startswith("0x"):
            addr = int(line, 16)
        elif addr is not None:
            last[addr] = source_path(line.rsplit(":", 1)[0].split(" (")[0])
    return [last.get(s[0]) for s in symbols]


def files_table(files):
    """The KSYF table of one file (or None) per text symbol."""
    names = sorted(set(f for f in files if f))
    if len(names) >= NO_FILE:
        raise Error("%d source files: more than the table can name" % len(names))
    index = {name: i for i, name in enumerate(names)}
    strings = bytearray()
    offsets = []
    for name in names:
        offsets.append(len(strings))
        strings += name.encode() + b"\0"
    while len(strings) % 4:
        strings += b"\0"
    file_of = [index[f] if f else NO_FILE for f in files]
    if len(file_of) % 2:
        file_of.append(0)
    out = bytearray(FILES_HEADER.pack(FILES_MAGIC, FILES_VERSION, len(files),
                                      len(names), len(strings)))
    out += struct.pack("<%dH" % len(file_of), *file_of)
    out += struct.pack("<%dI" % len(offsets), *offsets)
    out += strings
    return bytes(out)


def table_of(nm, elf):
    try:
        text = subprocess.run(shlex.split(nm) + ["-n", "-S", elf], check=True,
                              stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise Error("running %s on %s: %s" % (nm, elf, e))
    sections = elf_sections(elf)[0]
    symbols = select_symbols(parse_nm(text), code_ranges(sections))
    files = files_table(symbol_files(nm, elf, symbols))
    return build_table(symbols) + files + data_table(text, sections), len(symbols)


def run(template, **paths):
    """Runs a command template, each {name} replaced by one path argument."""
    argv = [arg.format(**paths) for arg in shlex.split(template)]
    if subprocess.run(argv).returncode != 0:
        raise Error("command failed: %s" % " ".join(argv))


def assemble_table(args, blob, number):
    """Writes the table of one pass as a .bin, a .S around it, and its object."""
    base = os.path.join(args.dir, "table%d" % number)
    with open(base + ".bin", "wb") as f:
        f.write(blob)
    path = os.path.abspath(base + ".bin").replace("\\", "\\\\").replace('"', '\\"')
    with open(base + ".S", "w") as f:
        f.write("/* Generated by tools/kallsyms.py: link pass %d. */\n"
                "\t.section .kallsyms, \"a\"\n\t.balign 4\n"
                "\t.incbin \"%s\"\n"
                "/* What GNU/Linux linkers want of every object, and only they. */\n"
                "#ifdef __linux__\n"
                "\t.section .note.GNU-stack, \"\", %%progbits\n"
                "#endif\n" % (number, path))
    run(args.assemble, src=base + ".S", out=base + ".o")
    return base + ".o"


def check_image(nm, elf, expected=None):
    """Fails unless the image's .kallsyms section is the table of its own symbols."""
    blob, count = table_of(nm, elf)
    linked = section_bytes(elf, ".kallsyms")
    for other in (linked, expected if expected is not None else blob):
        if other != blob:
            at = next((i for i, (a, b) in enumerate(zip(other, blob)) if a != b),
                      min(len(other), len(blob)))
            raise Error("%s: the linked symbol table (%d bytes) is not the table "
                        "of the image's own symbols (%d bytes): they differ from "
                        "byte %d on" % (elf, len(other), len(blob), at))
    return blob, count


def link(args):
    os.makedirs(args.dir, exist_ok=True)
    blob = build_table([])
    image = os.path.join(args.dir, "kernel.elf")
    for number in range(1, MAX_PASSES + 1):
        run(args.link, table=assemble_table(args, blob, number), out=image)
        new, count = table_of(args.nm, image)
        if new == blob:
            check_image(args.nm, image, blob)
            os.replace(image, args.out)
            print("  KSYMS   %s: %d symbols, %d bytes, %d link passes" %
                  (args.out, count, len(blob), number))
            return
        blob = new
    raise Error("symbol addresses still move after %d link passes" % MAX_PASSES)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    lk = sub.add_parser("link", help="multi-pass link of the kernel")
    lk.add_argument("--nm", required=True)
    lk.add_argument("--dir", required=True, help="scratch directory")
    lk.add_argument("--assemble", required=True, help="{src} -> {out}")
    lk.add_argument("--link", required=True, help="{table} -> {out}")
    lk.add_argument("--out", required=True)
    ck = sub.add_parser("check", help="check the table of a linked image")
    ck.add_argument("--nm", required=True)
    ck.add_argument("elf")
    args = p.parse_args()
    try:
        if args.cmd == "link":
            link(args)
        else:
            blob, count = check_image(args.nm, args.elf)
            print("%s: %d symbols, %d bytes: table matches" %
                  (args.elf, count, len(blob)))
    except (Error, OSError) as e:
        print("kallsyms: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
