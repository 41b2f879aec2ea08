"""Calling kernel functions from GDB, and the places where that is safe.

GDB's `call` runs a kernel function on the stopped CPU's stack. It is
safe only where the kernel itself could make that call: a thread with a
valid stack, holding no lock, not inside the allocators or the leak
collector. The safe stops used here are:

  gdb_stop_here()            a hook, if the kernel has one;
  console_getc() entry       the shell (pid 1) asks for the next byte;
  idle_loop, after its halt  the idle thread woke up (interrupt handled).

While GDB calls into the kernel, interrupts are off on that CPU (so the
tick cannot switch threads under the call) and the other CPUs stay
stopped (scheduler-locking); both are put back afterwards. The kernel
is told so (smp_debugger_stopped): the leak collector, which stops the
other CPUs before it confirms a leak, then finds them stopped already.
"""
import gdb

from . import source
from .threads import all_threads
from .util import (KleakError, byte_order, has_symbol, ulong, word_size,
                   write_bytes)

SCRATCH_SIZE = 512
STACK_FILL = 0x57ac57ac
WIPE_BYTES = 3072

_state = {"depth": 0, "saved": None, "scratch": None, "stops": {}}


def _forget_target(*_):
    _state["scratch"] = None


def _forget_symbols(*_):
    _state["stops"] = {}


gdb.events.exited.connect(_forget_target)
if hasattr(gdb.events, "connection_removed"):
    gdb.events.connection_removed.connect(_forget_target)
gdb.events.new_objfile.connect(_forget_symbols)


def pc():
    return ulong(gdb.parse_and_eval("$pc"))


def sp():
    return ulong(gdb.parse_and_eval("$sp"))


def function_range(name):
    """[start, end) of a kernel function, static ones included."""
    sym = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    if sym is None or sym.addr_class != gdb.SYMBOL_LOC_BLOCK:
        raise KleakError("function '%s' is not in this kernel" % name)
    block = gdb.block_for_pc(ulong(sym.value().address))
    while block.function is None:
        block = block.superblock
    return block.start, block.end


def after_halt(function):
    """Addresses just after the halt instructions (hlt, wfi) of function:
    where the CPU resumes once an interrupt woke it and was handled."""
    start, end = function_range(function)
    arch = gdb.selected_inferior().architecture()
    insns = arch.disassemble(start, end - 1)
    return [nxt["addr"] for insn, nxt in zip(insns, insns[1:])
            if insn["asm"].split()[0] in ("hlt", "wfi")]


def safe_stops(which="any"):
    """{address: description} of the safe stops of kind which."""
    if which not in _state["stops"]:
        _state["stops"][which] = _find_safe_stops(which)
    return _state["stops"][which]


def _find_safe_stops(which):
    stops = {}
    if which in ("any", "hook") and has_symbol("gdb_stop_here"):
        stops[function_range("gdb_stop_here")[0]] = "gdb_stop_here()"
    if which in ("any", "shell"):
        stops[function_range("console_getc")[0]] = \
            "console_getc(): the shell waits for input"
    if which in ("any", "idle"):
        for addr in after_halt("idle_loop"):
            stops[addr] = "idle_loop(): the idle thread woke from its halt"
    if not stops:
        raise KleakError("no safe stop of kind '%s' in this kernel" % which)
    return stops


def cpu_halted():
    """True when the selected CPU sleeps in hlt/wfi (QEMU then reports the
    next instruction as its pc, but nothing runs until an interrupt)."""
    thread = gdb.selected_thread()
    return thread is not None and "halted" in (thread.details or "")


def at_safe_stop():
    return pc() in safe_stops("any") and not cpu_halted()


def require_safe_stop():
    if _state["depth"]:
        return
    if cpu_halted():
        raise KleakError(
            "the CPU sleeps in the idle loop's halt and would not run a "
            "call: run 'kleak-stop' first")
    if not at_safe_stop():
        raise KleakError(
            "the CPU is not stopped at a safe place for calling the kernel "
            "(pc 0x%08x): run 'kleak-stop' first" % pc())


def continue_to(addresses):
    """Resumes the kernel until it reaches one of addresses."""
    bps = [gdb.Breakpoint("*0x%x" % a, internal=True) for a in addresses]
    try:
        gdb.execute("continue", to_string=True)
    finally:
        for bp in bps:
            if bp.is_valid():
                bp.delete()


def stop_at_safe_point(which="any"):
    """Continues the kernel until it reaches a safe stop; returns its name.

    A CPU stopped while halted in the idle loop sits at the idle stop's
    address without having woken: it is first run to the end of the next
    interrupt (irq_exit), so that no breakpoint sits under its pc (GDB
    would single-step over it, which QEMU does with interrupts masked:
    a halted CPU would never wake)."""
    stops = safe_stops(which)
    if pc() in stops and not cpu_halted():
        return stops[pc()]
    if cpu_halted():
        continue_to([function_range("irq_exit")[0]])
    continue_to(stops)
    if pc() not in stops:
        raise KleakError("stopped at 0x%08x, not at a safe stop" % pc())
    return stops[pc()]


def _irq_register():
    if source.arch_name() == "i386":
        return "$eflags", 0x200         # IF
    return "$cpsr", 0x80                # I: set means masked


def _set_irqs(on):
    """Masks (or unmasks) interrupts on the stopped CPU; returns what to
    write back afterwards."""
    reg, bit = _irq_register()
    old = ulong(gdb.parse_and_eval(reg))
    if (reg == "$eflags") == on:    # IF set, or I clear, means enabled
        new = old | bit
    else:
        new = old & ~bit
    gdb.execute("set var %s = 0x%x" % (reg, new))
    return reg, old


class KernelCalls:
    """Context for a batch of calls: checks the stop, interrupts off (or,
    with irqs_on, on: for calls that wait for the tick).

    Nests: only the outermost one saves and restores the CPU state."""

    def __init__(self, check=True, irqs_on=False):
        self.check = check
        self.irqs_on = irqs_on

    def __enter__(self):
        if self.check:
            require_safe_stop()
        if _state["depth"] == 0:
            lock = gdb.parameter("scheduler-locking")
            gdb.execute("set scheduler-locking on")
            _state["saved"] = (_set_irqs(self.irqs_on), lock)
            if has_symbol("smp_debugger_stopped"):
                gdb.execute("set var smp_debugger_stopped = 1")
        _state["depth"] += 1
        return self

    def __exit__(self, *exc):
        _state["depth"] -= 1
        if _state["depth"] == 0:
            irq, lock = _state["saved"]
            try:
                if has_symbol("smp_debugger_stopped"):
                    gdb.execute("set var smp_debugger_stopped = 0")
                gdb.execute("set var %s = 0x%x" % irq)
                gdb.execute("set scheduler-locking %s" % lock)
            except gdb.error:
                if exc[0] is None:      # else: the target died, say why
                    raise
        return False


def call(expr):
    """Evaluates expr (which calls kernel functions) inside KernelCalls."""
    with KernelCalls():
        try:
            return gdb.parse_and_eval(expr)
        except gdb.error as e:
            raise KleakError("calling the kernel: %s failed: %s" % (expr, e))


def call_ptr(expr):
    return ulong(call(expr))


def current_stack():
    """[low, high) of the stack the CPU is on, from the thread list."""
    here = sp()
    for t in all_threads():
        low = ulong(t["stack"])
        if low and low <= here < low + int(t["stack_size"]):
            return low, low + int(t["stack_size"])
    raise KleakError("sp 0x%08x is on no thread's stack" % here)


def wipe_dead_stack(limit=WIPE_BYTES):
    """Paints the dead stack below sp, where earlier calls from GDB left
    copies of pointers that a scan of this (live) stack could find."""
    low, _ = current_stack()
    n = word_size()
    start = max(low + n, sp() - limit)
    start -= start % n
    count = (sp() - start) // n
    if count > 0:
        word = STACK_FILL.to_bytes(n, byte_order())
        write_bytes(start, word * count)


def scratch():
    """A kernel buffer for strings passed to kernel functions.

    kmalloc'd once per boot and, with the leak collector, marked
    memleak_ignore so that it is never reported nor scanned."""
    if _state["scratch"] is not None:
        return _state["scratch"]
    addr = call_ptr("kmalloc(%d, %d)" % (SCRATCH_SIZE,
                                         source.gfp("GFP_KERNEL")))
    if addr == 0:
        raise KleakError("kmalloc(%d) for the scratch buffer failed"
                         % SCRATCH_SIZE)
    if has_symbol("memleak_ignore"):
        call("memleak_ignore((void *)0x%x)" % addr)
    _state["scratch"] = addr
    return addr


def kstring(text, slot=0):
    """Writes text (NUL-terminated) into the scratch buffer; its address."""
    data = text.encode() + b"\0"
    half = SCRATCH_SIZE // 2
    if len(data) > half or slot not in (0, 1):
        raise KleakError("string too long for the scratch buffer (max %d)"
                         % (half - 1))
    addr = scratch() + slot * half
    write_bytes(addr, data)
    return addr

