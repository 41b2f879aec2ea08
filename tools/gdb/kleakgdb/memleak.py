"""memleak-scan, -list, -dump, -refs: the leak collector from GDB.

The blocks (struct memleak_block of mm/kmemleak/internal.h) are found by
reading the collector's index (memleak_index.py); a scan is run by calling the kernel's memleak_scan(),
which marks the suspected leaks MEMLEAK_SUSPECT, exactly as the shell's
'memleak' command does before it prints its report.
"""
import gdb

from . import kcall, memleak_index, source
from .threads import all_threads, on_cpu
from .util import (KleakError, byte_order, c_string, frame_lines,
                   has_symbol, hex_dump, parse_int, read_bytes,
                   read_word, source_place, struct_at, struct_type,
                   symbol_value, symbolize, ulong, word_size)

HEADER = "mm/kmemleak/internal.h"
HEX_DUMP_BYTES = 32


def flag(name):
    return source.define(HEADER, "MEMLEAK_" + name)


def require_collector():
    if not has_symbol("memleak_scan"):
        raise KleakError("this kernel has no leak collector "
                         "(built without CONFIG_DEBUG_MEMLEAK)")


class Block:
    """One struct memleak_block, read in one go."""

    def __init__(self, meta, value, start):
        self.meta = meta
        self.v = value
        self.start = start
        self.size = block_size(meta, value)
        self.flags = int(value["flags"])
        self.count = int(value["count"])
        self.min_count = int(value["min_count"])
        self.extra = extra_of(meta) if self.has("EXTRA") else None
        self.pad_offset = int(self.extra["pad_offset"]) if self.extra else 0
        # memleak_padding() may give the object a size of its own.
        self.object_size = (int(self.extra["object_size"]) if self.extra
                            else 0) or self.size
        self.jiffies = ulong(value["jiffies"])

    def has(self, name):
        return bool(self.flags & flag(name))

    def contains(self, addr):
        return self.start <= addr < self.start + max(self.size, 1)

    def colour(self):
        """The 2006 design's colour, as of the last scan."""
        if self.has("BLACK"):
            return "black"
        if self.min_count == 0:
            return "gray*"          # never a leak (memleak_not_leak)
        return "gray" if self.count >= self.min_count else "white"

    def flag_names(self):
        names = ("ALLOCATED", "BLACK", "REPORTED", "CLEARED",
                 "CHECKSUM_VALID", "SUSPECT")
        return ",".join(n.lower().replace("checksum_valid", "checksum")
                        for n in names if self.has(n)) or "-"

    def flag_letters(self):
        """a(llocated) r(eported) s(uspect) c(leared) k (checksum valid)
        b(lack), each in its column, '-' when not set."""
        return "".join(letter if self.has(name) else "-" for letter, name in (
            ("a", "ALLOCATED"), ("r", "REPORTED"), ("s", "SUSPECT"),
            ("c", "CLEARED"), ("k", "CHECKSUM_VALID"), ("b", "BLACK")))

    def trace(self, cache=None):
        addr = trace_address(int(self.v["trace"]))
        if cache is not None and addr in cache:
            return cache[addr]
        t = read_trace(addr) if addr else None
        if cache is not None:
            cache[addr] = t
        return t

    def aliases(self):
        """Offsets (from the object start) at which the block is also known:
        the alias set of its object's size (mm/kmemleak/aliases.c)."""
        addr = alias_set_of_size(self.object_size)
        if not addr:
            return []
        set_type = struct_type("memleak_alias_set")
        nr = int(struct_at(addr, set_type)["nr"])
        if nr > 4096:
            raise KleakError("alias set at 0x%08x: %d offsets?" % (addr, nr))
        # offsets[] is a flexible array: read its words one by one.
        first = addr + set_type["offsets"].bitpos // 8
        return [read_word(first + word_size() * i) for i in range(nr)]

    def scan_areas(self):
        """(offset, length) of each memleak_scan_area, newest first."""
        atype = struct_type("memleak_scan_area")
        areas = []
        addr = ulong(self.extra["areas"]) if self.extra else 0
        while addr and len(areas) < 1024:
            a = struct_at(addr, atype)
            areas.append((ulong(a["offset"]), int(a["length"])))
            addr = ulong(a["next"])
        return areas


def alias_set_of_size(size):
    """memleak_aliases_of_size(): the address of the set for blocks of
    size bytes, 0 when none. Small sizes index an array; the others are
    in a radix tree keyed by size, whose leaves are searched here for the
    set that says it is of that size."""
    small = symbol_value("memleak_small_alias_sets")
    if size <= small.type.range()[1]:
        return ulong(small[size])
    set_type = struct_type("memleak_alias_set")
    for addr in memleak_index.radix_leaves(symbol_value("alias_tree")):
        if int(struct_at(addr, set_type)["size"]) == size:
            return addr
    return 0


def addr_base():
    """memleak_addr_base() of mm/kmemleak/internal.h: 0 on a 32-bit
    kernel, RAM's first byte (min_pfn's page) on a 64-bit one."""
    if word_size() == 4:
        return 0
    return ulong(symbol_value("min_pfn")) * 4096


# A size the record's 16 bits cannot hold (MEMLEAK_SIZE_LARGE).
SIZE_LARGE = 0xffff


def block_size(addr, value):
    """block_size() of mm/kmemleak/internal.h: the record's size, or for
    a larger block (outside slabs) its tree node's."""
    size = int(value["size"])
    if size != SIZE_LARGE:
        return size
    ttype = struct_type("tree_block")
    node = addr - ttype["block"].bitpos // 8
    return ulong(struct_at(node, ttype)["size"])


def checksum_of(block_addr):
    """The sum of a block with MEMLEAK_CHECKSUM_VALID, from the tables of
    mm/kmemleak/checksums.c: key_of() and slot_of() there, then the next
    slots; in the table, else (stopped during a resize) in the old one."""
    etype = struct_type("checksum_entry")
    per_page = 4096 // etype.sizeof
    key = ((block_addr - addr_base()) // 4 + 1) & 0xffffffff
    for name in ("checksum_table", "checksum_moving"):
        table = symbol_value(name)
        pages, shift = table["pages"], int(table["shift"])
        if not ulong(pages):
            continue
        slots = 1 << shift
        i = ((key * 0x9e3779b9) & 0xffffffff) >> (32 - shift)
        for _ in range(slots):
            e = struct_at(ulong(pages[i // per_page]) +
                          i % per_page * etype.sizeof, etype)
            if int(e["key"]) == key:
                return int(e["sum"])
            if not int(e["key"]):
                break
            i = (i + 1) & (slots - 1)
    raise KleakError("block 0x%08x has MEMLEAK_CHECKSUM_VALID but no sum "
                     "in checksum_table" % block_addr)


def extra_of(block_addr):
    """The struct memleak_extra of a block with MEMLEAK_EXTRA (its scan
    areas and padding: mm/kmemleak/extra.c), found in extra_table."""
    table = symbol_value("extra_table")
    xtype = struct_type("memleak_extra")
    for i in range(table.type.range()[1] + 1):
        addr, seen = ulong(table[i]), 0
        while addr and seen < 100000:
            x = struct_at(addr, xtype)
            if ulong(x["block"]) == block_addr:
                return x
            addr, seen = ulong(x["next"]), seen + 1
    raise KleakError("block 0x%08x has MEMLEAK_EXTRA but no record in "
                     "extra_table" % block_addr)


def trace_address(trace_id):
    """Where the trace a block names by its id is: memleak_trace_of() of
    mm/kmemleak/internal.h, pages of pointers of 4 KiB; 0 for id 0."""
    if not trace_id:
        return 0
    per_page = 4096 // word_size()
    page = ulong(symbol_value("memleak_trace_pages")[trace_id // per_page])
    if not page:
        raise KleakError("trace %d: no page of the trace table" % trace_id)
    return read_word(page + word_size() * (trace_id % per_page))


def read_trace(addr):
    t = struct_at(addr, struct_type("memleak_trace"))
    nr = min(int(t["nr_entries"]), t["entries"].type.range()[1] + 1)
    return {"comm": c_string(t["comm"]), "pid": int(t["pid"]),
            "cpu": int(t["cpu"]),
            "entries": [ulong(t["entries"][i]) for i in range(nr)]}


def caller(trace):
    """The allocator's caller: the first backtrace entry. The kernel drops
    the allocators' frames (between __start_alloc_text and
    __stop_alloc_text, <kernel/alloc_entry.h>) when it takes a trace."""
    if not trace or not trace["entries"]:
        return None
    return trace["entries"][0]


def caller_text(pc):
    """memleak-list's caller column: func+off/size file:line, or ?."""
    if not pc:
        return "?"
    place = source_place(pc)
    return symbolize(pc) + (" " + place if place else "")


def state():
    require_collector()
    return symbol_value("memleak")


def all_blocks():
    """Every tracked block, oldest first, as the kernel prints suspects
    (report.c, allocated_before()): by allocation tick, then address."""
    require_collector()
    btype = struct_type("memleak_block")
    blocks = [Block(addr, struct_at(addr, btype), start)
              for addr, start in memleak_index.block_addresses()]
    now = ulong(symbol_value("jiffies"))
    mask = (1 << (8 * word_size())) - 1
    return sorted(blocks, key=lambda b: (-((now - b.jiffies) & mask),
                                         b.start))


def pending_allocs():
    """Allocations that still wait in the per-CPU logs of recent ones
    (mm/kmemleak/log.c, pending_logs): not yet blocks in the index. One dict per
    allocation: start, size, cpu, comm, pid, entries. Reads memory only."""
    require_collector()
    logs = symbol_value("pending_logs")
    mask = (1 << (8 * word_size())) - 1
    found = []
    for cpu in range(logs.type.range()[1] + 1):
        log = logs[cpu]
        first = ulong(log["allocs"][0].address)
        size = log["allocs"][0].type.sizeof
        for i in range((ulong(log["next"]) - first) // size):
            a = log["allocs"][i]
            inv = ulong(a["start_inv"])
            if not inv:
                continue            # cancelled by a free
            c = a["ctx"].dereference()
            nr = min(int(c["nr_entries"]), c["chain"].type.range()[1] + 1)
            # The first skip records are the allocators' (log.c): as the
            # trace the kernel will intern, from the caller on.
            skip = int(c["skip"])
            length = struct_type("memleak_trace")["entries"].type.range()[1] + 1
            found.append({"start": ~inv & mask, "size": int(a["size"]),
                          "cpu": cpu, "comm": c_string(c["who"]["comm"]),
                          "pid": int(c["who"]["pid"]),
                          "entries": [call_site(ulong(c["chain"][j]["ret"]))
                                      for j in range(skip, nr)][:length]})
    return found


def call_site(ret):
    """The call instruction a return address goes back after, as the
    kernel's stack_call_address() (arch/<arch>/include/asm/unwind.h) names
    it in traces: the bl 4 bytes back on ARM; on i386 a byte back, inside
    the call."""
    return ret - (4 if source.arch_name() == "arm" else 1)


def flush_pending():
    """Gives the waiting allocations their blocks: calls the kernel's
    memleak_flush_pending() (the CPU must be at a safe stop)."""
    require_collector()
    with kcall.KernelCalls():
        kcall.call("memleak_flush_pending()")


def suspects():
    """The blocks the last scan marked as suspected leaks, still allocated."""
    return [b for b in all_blocks() if b.has("SUSPECT") and b.has("ALLOCATED")]


def find_block(addr):
    for b in all_blocks():
        if b.contains(addr):
            return b
    return None


def scan():
    """Runs memleak_scan() in the kernel; returns its status (0 or -EBUSY)."""
    require_collector()
    with kcall.KernelCalls():
        kcall.wipe_dead_stack()
        return int(kcall.call("memleak_scan()"))


def age(jiffies_then):
    now = ulong(symbol_value("jiffies"))
    ms = ((now - jiffies_then) & ((1 << (8 * word_size())) - 1)) \
        * 1000 // source.hz()
    return "%d.%03ds" % (ms // 1000, ms % 1000)


def report_lines(b, cache=None):
    """One block in the kernel's report format (mm/kmemleak/report.c)."""
    t = b.trace(cache) or {"comm": "?", "pid": 0, "entries": []}
    nbytes = min(b.size, HEX_DUMP_BYTES)
    lines = ["unreferenced object 0x%08x (size %d):" % (b.start, b.size),
             '  comm "%s", pid %d, jiffies %d (age %s)' % (
                 t["comm"], t["pid"], ulong(b.v["jiffies"]),
                 age(ulong(b.v["jiffies"]))),
             "  hex dump (first %d bytes):" % nbytes]
    lines += ["    " + row for row in hex_dump(read_bytes(b.start, nbytes))]
    lines.append("  backtrace:")
    lines += [line for pc in t["entries"] for line in frame_lines(pc)]
    return lines


TIER_NAMES = (("direct leak", "direct leaks"),
              ("indirect leak", "indirect leaks"),
              ("possibly lost block", "possibly lost blocks"))


def tier(b):
    """mm/kmemleak/classify.c's verdict: 0 direct, 1 indirect, 2 possibly lost."""
    if b.has("INTERIOR_REF"):
        return 2
    return 1 if b.has("INDIRECT") else 0


def digest_lines(blocks, cache=None):
    """The shell's digest: one line per allocation site and tier, the
    most bytes first (report.c, memleak_print_digest())."""
    groups = {}
    for b in blocks:
        key = (caller(b.trace(cache)), tier(b))
        n, size = groups.get(key, (0, 0))
        groups[key] = (n + 1, size + b.size)
    return ["memleak: %d %s, %d bytes, from %s" % (
        n, TIER_NAMES[t][n != 1], size, symbolize(pc) if pc else "other places")
        for (pc, t), (n, size) in sorted(groups.items(),
                                         key=lambda kv: -kv[1][1])]


FINDING_KINDS = ("type mismatch", "pointer into a block", "dangling pointer")


def type_finding_lines(cache=None):
    """The pointer findings of the last scan (mm/kmemleak/types.c), in
    the kernel's format, with file:line in every frame."""
    try:
        findings = gdb.parse_and_eval("'types.c'::findings")
        nr = int(gdb.parse_and_eval("'types.c'::nr_findings"))
    except gdb.error:
        return []       # a kernel without typed blocks
    lines = []
    for i in range(nr):
        f = findings[i]
        kind = int(f["kind"])
        field = f["field"].dereference()
        name = "%s.%s" % (f["owner_type"]["name"].string(), field["name"].string())
        if int(field["kind"]) == int(gdb.parse_and_eval("MEMLEAK_FIELD_LIST")):
            name += ".next" if int(f["word"]) % 2 == 0 else ".prev"
        where = ulong(f["owner"]) + int(field["offset"]) + int(f["word"]) * word_size()
        value, target = ulong(f["value"]), ulong(f["target"])
        expected = field["target"]["name"].string()
        line = "memleak: %s: %s at 0x%08x -> " % (FINDING_KINDS[kind], name, where)
        if kind == 2:
            line += "freed object 0x%08x (%s expected)" % (value, expected)
        elif kind == 0:
            line += "%s 0x%08x+0x%x (size %d; %s expected)" % (
                f["target_type"]["name"].string(), target, value - target,
                int(f["target_size"]), expected)
        else:
            line += "0x%08x, inside %s 0x%08x (size %d) at +0x%x" % (
                value, f["target_type"]["name"].string(), target,
                int(f["target_size"]), value - target)
        lines.append(line)
        lines.append("  in %s 0x%08x (size %d)" % (
            f["owner_type"]["name"].string(), ulong(f["owner"]), int(f["owner_size"])))
        for what, key in (("its backtrace", "owner_trace"),
                          ("the target's backtrace", "target_trace")):
            addr = ulong(f[key])
            if addr:
                lines.append("  %s:" % what)
                lines += [l for pc in read_trace(addr)["entries"]
                          for l in frame_lines(pc)]
    return lines


def summary_line(digest=()):
    """The shell's summary: counts, tiers, the digest's lines when given,
    and the counts of blocks left out as suppressed or young."""
    s = state()
    line = "memleak: %d new suspected memory leaks (%d total)" % (
        ulong(s["nr_new"]), ulong(s["nr_suspects"]))
    if ulong(s["nr_suspects"]):
        n = [ulong(s["tier_blocks"][i]) for i in range(3)]
        b = [ulong(s["tier_bytes"][i]) for i in range(3)]
        line += "\nmemleak: leak summary: " + ", ".join(
            "%s %d block%s (%d bytes)" % (name, n[i], "" if n[i] == 1 else "s", b[i])
            for i, name in enumerate(("direct", "indirect", "possibly lost")))
        line += "".join("\n" + d for d in digest)
    hidden = ulong(s["nr_suppressed"])
    if hidden:
        line += "\nmemleak: %d suspect%s (%d bytes) suppressed (memleak " \
            "suppressions)" % (hidden, "" if hidden == 1 else "s",
                               ulong(s["suppressed_bytes"]))
    young = ulong(s["nr_young"])
    if young:
        min_age_ms = ulong(s["min_age_jiffies"]) * 1000 // source.hz()
        line += "\nmemleak: %d blocks younger than %d ms not reported " \
            "(memleak age=MS)" % (young, min_age_ms)
    findings = ulong(s["nr_type_findings"])
    if findings:
        line += "\nmemleak: %d pointer%s of typed blocks point%s where their " \
            "type forbids" % (findings, "" if findings == 1 else "s",
                              "s" if findings == 1 else "")
    return line


class MemleakScan(gdb.Command):
    """Scan for leaks by calling the kernel, and print the report.

Usage: memleak-scan [--kernel]

Calls memleak_scan() on the stopped CPU (it must be at a safe stop: see
kleak-stop), then prints every suspected leak in the format of the
shell's 'memleak' (Linux's kmemleak format) from the collector's index, the
pointers typed blocks should not hold (mm/kmemleak/types.c), and the
summary line. With --kernel, the kernel's own 'memleak' command runs
instead (shell_run_line) and prints on the kernel console; its output
is shown here when kleak-console-log names the console log."""

    def __init__(self):
        super().__init__("memleak-scan", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        args = arg.split()
        if args not in ([], ["--kernel"]):
            raise KleakError("usage: memleak-scan [--kernel]")
        if args:
            require_collector()
            with kcall.KernelCalls():
                kcall.wipe_dead_stack()
                gdb.execute("kshell memleak")
            return
        err = scan()
        if err:
            raise KleakError("memleak_scan() returned %d (another scan "
                             "running, or the collector is disabled)" % err)
        cache = {}
        found = list(suspects())
        for b in found:
            print("\n".join(report_lines(b, cache)))
        for line in type_finding_lines(cache):
            print(line)
        print(summary_line(digest_lines(found, cache)))


class MemleakList(gdb.Command):
    """List the blocks the leak collector tracks.

Usage: memleak-list [--suspects] [--white]

One line per block, oldest first: address, size, colour after the last
scan (white: not enough references; gray: enough; gray*: never a leak,
memleak_not_leak; black: memleak_ignore), references found/needed,
flags (a allocated, r reported once, s suspect now, c cleared,
k checksum taken, b black), the allocating thread and the first caller
outside the allocators (a bare address outside the kernel's text is
GDB's own call: the block was allocated from GDB). --suspects keeps the
suspected leaks of the last scan, --white the white blocks. Reads
memory only: safe at any stop."""

    def __init__(self):
        super().__init__("memleak-list", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        only_suspects = only_white = False
        for a in arg.split():
            if a == "--suspects":
                only_suspects = True
            elif a == "--white":
                only_white = True
            else:
                raise KleakError("usage: memleak-list [--suspects] [--white]")
        cache = {}
        shown = 0
        blocks = all_blocks()
        print("%-10s %7s %-6s %5s %-6s %-12s %s" % (
            "address", "size", "colour", "refs", "flags", "comm/pid",
            "caller"))
        for b in blocks:
            if only_suspects and not b.has("SUSPECT"):
                continue
            if only_white and b.colour() != "white":
                continue
            t = b.trace(cache)
            who = "%s/%d" % (t["comm"], t["pid"]) if t else "?"
            pc = caller(t)
            print("0x%08x %7d %-6s %2d/%-2d %-6s %-12s %s" % (
                b.start, b.size, b.colour(), b.count, b.min_count,
                b.flag_letters(), who, caller_text(pc)))
            shown += 1
        print("%d of %d blocks" % (shown, len(blocks)))
        pending = pending_allocs()
        if pending and not only_suspects and not only_white:
            print("%d allocations wait in the per-CPU logs (blocks once a "
                  "scan or memleak_flush_pending() runs):" % len(pending))
            for a in pending:
                pc = caller(a)
                print("0x%08x %7d CPU %-3d %-12s %s" % (
                    a["start"], a["size"], a["cpu"],
                    "%s/%d" % (a["comm"], a["pid"]), caller_text(pc)))


class MemleakDump(gdb.Command):
    """Everything the leak collector knows about one block.

Usage: memleak-dump ADDR [BYTES]

ADDR is any address inside the block (an expression: a symbol, $1, ...).
Prints the block's range, colour, references, flags, padding, aliases,
scan areas, the allocating thread and full backtrace, and a hex dump of
its first BYTES bytes (default 32). Reads memory only."""

    def __init__(self):
        super().__init__("memleak-dump", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if len(args) not in (1, 2):
            raise KleakError("usage: memleak-dump ADDR [BYTES]")
        addr = parse_int(args[0], "address")
        nbytes = parse_int(args[1], "bytes") if len(args) == 2 else 32
        b = find_block(addr)
        if b is None:
            for a in pending_allocs():
                if a["start"] <= addr < a["start"] + max(a["size"], 1):
                    print("block 0x%08x-0x%08x (size %d) waits in CPU %d's "
                          "log of recent allocations (not in the index yet)"
                          % (a["start"], a["start"] + a["size"] - 1,
                             a["size"], a["cpu"]))
                    print('  comm "%s", pid %d' % (a["comm"], a["pid"]))
                    for pc in a["entries"]:
                        print("\n".join(frame_lines(pc)))
                    return
            raise KleakError("0x%08x is not inside any tracked block" % addr)
        print("block 0x%08x-0x%08x (size %d), %s after the last scan" % (
            b.start, b.start + b.size - 1, b.size, b.colour()))
        print("  metadata at 0x%08x; references: %d found, %d needed; "
              "flags %s" % (b.meta, b.count, b.min_count, b.flag_names()))
        t = b.trace()
        print("  allocated on CPU %s at jiffies %d, checksum %08x" % (
            t["cpu"] if t else "?", ulong(b.v["jiffies"]),
            checksum_of(b.meta) if b.has("CHECKSUM_VALID") else 0))
        if b.pad_offset:
            print("  object starts at +%d (memleak_padding)" % b.pad_offset)
        for off in b.aliases():
            print("  alias 0x%08x (+%d)" % (b.start + b.pad_offset + off,
                                           b.pad_offset + off))
        for off, length in b.scan_areas():
            print("  scan area +%d, %d bytes" % (off, length))
        t = b.trace()
        if t:
            print('  comm "%s", pid %d' % (t["comm"], t["pid"]))
            for pc in t["entries"]:
                print("\n".join(frame_lines(pc)))
        nbytes = min(nbytes, b.size)
        print("  hex dump (first %d bytes):" % nbytes)
        for row in hex_dump(read_bytes(b.start, nbytes)):
            print("    " + row)


def per_cpu_regions():
    """Every possible CPU's copy of the per-CPU section, as the scan's
    "per-cpu areas" root sees it (the template until the copies exist)."""
    start = ulong(symbol_value("__per_cpu_start").address)
    end = ulong(symbol_value("__per_cpu_end").address)
    offsets = symbol_value("__per_cpu_offset")
    possible = ulong(symbol_value("cpu_possible_mask"))
    regions = []
    for cpu in range(offsets.type.range()[1] + 1):
        if possible >> cpu & 1:
            off = ulong(offsets[cpu])
            regions.append(("per-cpu area of CPU %d" % cpu,
                            start + off, end + off))
    return regions


def root_regions():
    """(label, start, end) of the memory the scan treats as roots."""
    sym = lambda name: ulong(symbol_value(name).address)  # noqa: E731
    # The boot thread's stack is in .bss: the scan takes only its live part.
    # The noscan parts open .data and .bss (linker/sections.ld).
    regions = [("data", sym("__noscan_data_end"), sym("_edata")),
               ("bss", sym("__noscan_bss_end"), sym("boot_stack")),
               ("bss", sym("boot_stack_top"), sym("__bss_stop"))]
    regions += per_cpu_regions()
    pages = ulong(symbol_value("max_pfn")) - ulong(symbol_value("min_pfn"))
    mem_map = ulong(symbol_value("mem_map"))
    regions.append(("mem_map", mem_map,
                    mem_map + pages * struct_type("page").sizeof))
    for t in all_threads():
        low = ulong(t["stack"])
        if not low:
            continue
        if on_cpu(t):
            low = max(low, kcall.sp())
        else:
            low = ulong(t["ctx"]["sp"])
        regions.append(("stack of %s (pid %d)" % (c_string(t["name"]),
                                                   int(t["pid"])),
                        low, ulong(t["stack"]) + int(t["stack_size"])))
    return regions


def words_of(start, end):
    n = word_size()
    start += -start % n
    data = read_bytes(start, max(end - start, 0))
    order = byte_order()
    for i in range(0, len(data) - n + 1, n):
        yield start + i, int.from_bytes(data[i:i + n], order)


def references_to(target):
    """(where, label, how) of every word in roots or tracked blocks that
    points to target (its start, an alias, or inside it): the roots'
    first, then the blocks' in address order."""
    keys = {target.start + target.pad_offset: "start"}
    for off in target.aliases():
        keys[target.start + target.pad_offset + off] = \
            "alias +%d" % (target.pad_offset + off)
    regions = root_regions()
    for b in sorted(all_blocks(), key=lambda b: b.start):
        if b.meta != target.meta:
            regions.append(("block 0x%08x (size %d, %s)" % (
                b.start, b.size, b.colour()), b.start, b.start + b.size))
    found = []
    for label, start, end in regions:
        for where, value in words_of(start, end):
            how = keys.get(value)
            if how is None and target.contains(value):
                how = "interior +%d" % (value - target.start)
            if how:
                found.append((where, label, how))
    return found


class MemleakRefs(gdb.Command):
    """Find what points to a tracked block.

Usage: memleak-refs ADDR

Searches the scan's roots (.data, .bss, every CPU's per-CPU area, the
page array, the live part of every thread stack) and every tracked block for words that point to the
block holding ADDR: at its start, at an alias (container_of), or
anywhere inside (those count only with memleak.interior). The answer to
"why is this block not reported?" (or, with none found, "why is it?").
Reads memory only; a whole pass over the tracked blocks takes a while."""

    def __init__(self):
        super().__init__("memleak-refs", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if len(gdb.string_to_argv(arg)) != 1:
            raise KleakError("usage: memleak-refs ADDR")
        addr = parse_int(arg, "address")
        target = find_block(addr)
        if target is None:
            raise KleakError("0x%08x is not inside any tracked block" % addr)
        refs = references_to(target)
        print("block 0x%08x (size %d, %s): %d reference%s" % (
            target.start, target.size, target.colour(), len(refs),
            "" if len(refs) == 1 else "s"))
        for where, label, how in refs:
            print("  0x%08x  %-8s in %s%s" % (where, how, label,
                                             "" if not label.startswith(
                                                 ("data", "bss")) else
                                             "  <%s>" % symbolize(where)))


class MemleakInKernel(gdb.Command):
    """A 'memleak' subcommand the kernel runs itself (through kshell), for
    what only the kernel's own walk answers; its output goes to the
    kernel console (shown here when kleak-console-log names the log)."""

    def __init__(self, name, subcommand, args, doc):
        self.__doc__ = "%s\n\nUsage: %s %s\n\nRuns the shell's 'memleak %s' " \
            "on the stopped CPU (it must be at a safe stop: see kleak-stop)." \
            % (doc, name, args, subcommand)
        super().__init__(name, gdb.COMMAND_DATA)
        self.name, self.subcommand, self.args = name, subcommand, args

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        wanted = len(self.args.split())
        if len(argv) != wanted or any(" " in a for a in argv):
            raise KleakError(("usage: %s %s" % (self.name, self.args)).strip())
        require_collector()
        with kcall.KernelCalls():
            kcall.wipe_dead_stack()
            gdb.execute(" ".join(["kshell memleak", self.subcommand] + argv))


MemleakScan()
MemleakList()
MemleakDump()
MemleakRefs()
MemleakInKernel("memleak-why", "why", "ADDR",
                "One path of pointers from a root to the block at ADDR.")
MemleakInKernel("memleak-suppress", "suppress", "PATTERN",
                "Leave out leaks allocated through PATTERN (suppress.c).")
MemleakInKernel("memleak-graph", "graph", "",
                "The suspects and their pointers as Graphviz DOT "
                "(tools/leak-graph draws it).")
