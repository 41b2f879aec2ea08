"""Helpers shared by the kleak GDB commands: types, memory, lists, symbols.

Everything is read through GDB's Python API from the symbols of
kernel.elf. Structures are fetched in one read each (struct_at) because
every field read over the remote protocol is a round trip.
"""
import os

import gdb


class KleakError(gdb.GdbError):
    """An error shown to the user as a plain message, without a traceback."""


def lookup_type(name):
    try:
        return gdb.lookup_type(name)
    except gdb.error:
        raise KleakError("type '%s' is not in the kernel's debug info "
                         "(wrong kernel.elf?)" % name)


def struct_type(name):
    return lookup_type("struct " + name)


def symbol_value(name):
    """The value of a kernel global (static ones too), or KleakError."""
    try:
        return gdb.parse_and_eval(name)
    except gdb.error:
        sym = gdb.lookup_static_symbol(name)
        if sym is None:
            raise KleakError("symbol '%s' is not in this kernel" % name)
        return sym.value()


def has_symbol(name):
    try:
        gdb.parse_and_eval("&" + name)
        return True
    except gdb.error:
        return gdb.lookup_static_symbol(name) is not None


def word_size():
    return lookup_type("long").sizeof


def ulong(value):
    """A gdb.Value (pointer or integer) as a Python int, unsigned."""
    mask = (1 << (8 * word_size())) - 1
    return int(value.cast(lookup_type("unsigned long"))) & mask


def inferior():
    inf = gdb.selected_inferior()
    if inf is None or inf.pid == 0 or not gdb.selected_thread():
        raise KleakError("not connected to the kernel (target remote ...)")
    return inf


def read_bytes(addr, length):
    try:
        return inferior().read_memory(addr, length).tobytes()
    except gdb.MemoryError:
        raise KleakError("cannot read %d bytes at 0x%08x" % (length, addr))


def write_bytes(addr, data):
    try:
        inferior().write_memory(addr, data)
    except gdb.MemoryError:
        raise KleakError("cannot write %d bytes at 0x%08x" % (len(data), addr))


_byte_order = []


def byte_order():
    if not _byte_order:
        shown = gdb.execute("show endian", to_string=True)
        _byte_order.append("big" if "big endian" in shown else "little")
    return _byte_order[0]


def read_word(addr):
    return int.from_bytes(read_bytes(addr, word_size()), byte_order())


def write_word(addr, value):
    n = word_size()
    write_bytes(addr, (value & ((1 << (8 * n)) - 1)).to_bytes(n, byte_order()))


def struct_at(addr, type_):
    """A non-lazy copy of the object of type_ at addr: one memory read."""
    return gdb.Value(read_bytes(addr, type_.sizeof), type_)


def field_offset(type_, name):
    for f in type_.strip_typedefs().fields():
        if f.name == name:
            return f.bitpos // 8
    raise KleakError("%s has no field '%s'" % (type_, name))


def list_entries(head_addr, type_, member, limit=100000):
    """Addresses of the elements of the list at head_addr (container_of)."""
    off = field_offset(type_, member)
    pos = read_word(head_addr)
    seen = 0
    while pos != head_addr:
        if pos == 0:
            raise KleakError("list at 0x%08x: NULL next pointer" % head_addr)
        seen += 1
        if seen > limit:
            raise KleakError("list at 0x%08x: more than %d entries "
                             "(corrupted or circular?)" % (head_addr, limit))
        yield pos - off
        pos = read_word(pos)      # next is the first word of list_head


def c_string(value):
    """A char array field as a Python str (up to its first NUL)."""
    raw = bytes(int(value[i]) & 0xff for i in range(value.type.sizeof))
    return raw.split(b"\0", 1)[0].decode("latin-1")


def function_block(pc):
    """The block of the (outermost, not inlined) function holding pc."""
    try:
        block = gdb.block_for_pc(pc)
    except RuntimeError:
        return None
    found = None
    while block is not None and not (block.is_static or block.is_global):
        if block.function is not None:
            found = block
        block = block.superblock
    return found


def symbolize(pc, call_site=False):
    """pc as the kernel's %pS prints it: name+0xoff/0xsize (or 0x...).

    With call_site, pc is a return address and is named after the call
    before it, which may end a function (a call that never returns)."""
    block = function_block(pc - 1 if call_site else pc)
    if block is not None:
        return "%s+0x%x/0x%x" % (block.function.name, pc - block.start,
                                 block.end - block.start)
    out = gdb.execute("info symbol 0x%x" % pc, to_string=True).strip()
    if out.startswith("No symbol"):
        return "0x%08x" % pc
    # "name + 123 in section .bss" (decimal), or "name in section ..."
    parts = out.split(" in section")[0].split(" + ")
    return parts[0] + ("+0x%x" % int(parts[1]) if len(parts) == 2 else "")


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))


def tree_path(name):
    """A source file name from the debug information, relative to the
    tree root as tools/decode-report prints it."""
    name = os.path.normpath(name)
    if name.startswith(ROOT + os.sep):
        return name[len(ROOT) + 1:]
    return name


def source_chain(pc):
    """(function, "file:line") from the innermost function inlined at pc
    out to the function holding it, as addr2line -i answers (docs/gdb.md):
    the innermost place is the line table's, each outer one the call
    line GDB keeps as the inlined function's line. pc must already be a
    call site (trace entries are: stack_call_address()). [] if unknown."""
    sal = gdb.find_pc_line(pc)
    if sal.symtab is None or sal.line <= 0:
        return []
    place = "%s:%d" % (tree_path(sal.symtab.filename), sal.line)
    try:
        block = gdb.block_for_pc(pc)
    except RuntimeError:
        block = None
    chain = []
    while block is not None and not (block.is_static or block.is_global):
        fn = block.function
        # An out-of-line copy of a function inlined into itself: its outer
        # line is only the opening brace, so the inner place stays.
        if fn is not None and not (chain and chain[-1][0] == fn.name):
            chain.append((fn.name, place))
            place = "%s:%d" % (tree_path(fn.symtab.filename), fn.line) \
                if fn.symtab else None
        block = block.superblock
    return chain or [("??", place)]


def frame_lines(pc, prefix="    ", return_address=False):
    """A trace entry as the report prints it, "[<pc>] func+off/size", with
    the source place in that function appended and, below it, one line
    per call inlined there, from the named function inwards: the format
    of tools/decode-report. A return_address (a live frame's, not a
    trace's) is placed at the call before it, a byte back."""
    head = "%s[<%08x>] " % (prefix, pc)
    chain = source_chain(pc - 1 if return_address else pc)
    line = head + symbolize(pc, return_address)
    if chain and chain[-1][1]:
        line += " " + chain[-1][1]
    lines = [line]
    lines += ["%sinlined: %s %s" % (" " * len(head), fn, place)
              for fn, place in reversed(chain[:-1]) if place]
    return lines


def source_place(pc):
    """Just "file:line" of pc in the function holding it, or ""."""
    chain = source_chain(pc)
    return chain[-1][1] or "" if chain else ""


def function_file(pc):
    """The source file of the function holding pc, or ''."""
    sal = gdb.find_pc_line(pc)
    return sal.symtab.filename if sal.symtab else ""


def hex_dump(data, width=16):
    """Rows like the kernel's report: hex bytes, two spaces, ASCII."""
    rows = []
    for i in range(0, len(data), width):
        chunk = data[i:i + width]
        hexes = " ".join("%02x" % b for b in chunk).ljust(width * 3 - 1)
        text = "".join(chr(b) if 0x20 <= b < 0x7f else "." for b in chunk)
        rows.append("%s  %s" % (hexes, text))
    return rows


def parse_int(arg, what="value"):
    """An integer or any GDB expression (a symbol, $var, ptr + 8)."""
    try:
        return ulong(gdb.parse_and_eval(arg))
    except gdb.error as e:
        raise KleakError("%s: cannot evaluate '%s' (%s)" % (what, arg, e))
