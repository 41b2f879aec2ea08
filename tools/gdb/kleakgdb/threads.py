"""kthreads and kthread-bt: the kernel's threads, read from thread_list."""
import gdb

from . import source
from .util import (KleakError, c_string, frame_lines, list_entries,
                   read_bytes, read_word,
                   struct_at, struct_type, symbol_value, symbolize, ulong,
                   word_size, byte_order, parse_int)

STACK_FILL = 0x57ac57ac
THREAD_IDLE, THREAD_BOOT = 0x01, 0x02


class Thread:
    """A struct thread read in one go: .addr and the fields by name."""

    def __init__(self, addr, value):
        self.addr = addr
        self.value = value

    def __getitem__(self, field):
        return self.value[field]


def all_threads():
    """Each struct thread on thread_list, in list order."""
    ttype = struct_type("thread")
    head = ulong(symbol_value("thread_list").address)
    for addr in list_entries(head, ttype, "all_node"):
        yield Thread(addr, struct_at(addr, ttype))


def on_cpu(t):
    return ulong(symbol_value("cpu_curr")[int(t["cpu"])]) == t.addr


def state_name(t):
    state = str(t["state"]).replace("THREAD_", "").lower()
    if state == "running":
        if on_cpu(t):
            return "running"
        return "idle" if int(t["flags"]) & THREAD_IDLE else "ready"
    return state


def stack_used(t):
    """The high-water mark, as the kernel's thread_stack_used() counts it."""
    low, size = ulong(t["stack"]), int(t["stack_size"])
    if not low or not size:
        return 0
    data = read_bytes(low, size)
    n = word_size()
    fill = STACK_FILL.to_bytes(4, byte_order()) * (n // 4)
    pos = n
    while pos < size and data[pos:pos + n] == fill:
        pos += n
    return size - pos


def saved_frame(t):
    """(pc, fp, sp) where a switched-out thread stopped, or None."""
    if on_cpu(t) or not ulong(t["stack"]):
        return None
    n = word_size()
    frame = ulong(t["ctx"]["sp"])
    pc = read_word(frame + n * source.arch_define("SWITCH_FRAME_PC"))
    fp = read_word(frame + n * source.arch_define("SWITCH_FRAME_FP"))
    return pc, fp, frame + n * source.arch_define("SWITCH_FRAME_WORDS")


def flag_names(t):
    f = int(t["flags"])
    names = [n for bit, n in ((THREAD_IDLE, "idle"), (THREAD_BOOT, "boot"))
             if f & bit]
    return ",".join(names) or "-"


class KThreads(gdb.Command):
    """List the kernel's threads (thread_list).

Usage: kthreads

Columns: pid, name, state (running = on a CPU now, ready, idle, sleeping,
new, dead), CPU, flags (boot, idle), the stack [low, high), its size and
deepest use (bytes no longer holding the fill pattern), the saved stack
pointer and where a switched-out thread stopped. Reads memory only: safe
at any stop."""

    def __init__(self):
        super().__init__("kthreads", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if arg.strip():
            raise KleakError("usage: kthreads")
        print("  PID NAME             STATE     CPU FLAGS     STACK"
              "                  SIZE   USED  WHERE")
        for t in all_threads():
            low, size = ulong(t["stack"]), int(t["stack_size"])
            frame = saved_frame(t)
            if frame:
                where = "sp 0x%08x  %s" % (frame[2], symbolize(frame[0]))
            elif on_cpu(t):
                where = "on CPU %d" % int(t["cpu"])
            else:
                where = "-"
            print("%5d %-16s %-9s %3d %-9s 0x%08x-0x%08x %6d %6d  %s" % (
                int(t["pid"]), c_string(t["name"]), state_name(t),
                int(t["cpu"]), flag_names(t), low, low + size, size,
                stack_used(t), where))


def frame_chain(pc, fp, low, high, limit=32):
    """(pc, fp) pairs following saved frame pointers inside [low, high)."""
    n = word_size()
    arm = source.arch_name() == "arm"
    yield pc
    for _ in range(limit):
        if not fp or not (low <= fp < high) or fp % n:
            return
        if arm:         # -mapcs-frame: lr at fp[-1], caller's fp at fp[-3]
            ret, nxt = read_word(fp - n), read_word(fp - 3 * n)
        else:           # [ebp] = saved ebp, [ebp+4] = return address
            nxt, ret = read_word(fp), read_word(fp + n)
        if not ret:
            return
        yield ret
        if nxt <= fp:
            return
        fp = nxt


class KThreadBt(gdb.Command):
    """Backtrace of a switched-out kernel thread.

Usage: kthread-bt PID

Follows the frame-pointer chain from where the thread switched away (its
saved context on its own stack). For the thread running on the selected
CPU use GDB's own 'bt'."""

    def __init__(self):
        super().__init__("kthread-bt", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise KleakError("usage: kthread-bt PID")
        pid = parse_int(arg, "pid")
        found = [t for t in all_threads() if int(t["pid"]) == pid]
        if not found:
            raise KleakError("no thread with pid %d" % pid)
        for t in found:
            frame = saved_frame(t)
            name = c_string(t["name"])
            if not frame:
                print("pid %d (%s) is on CPU %d: use 'bt' there"
                      % (pid, name, int(t["cpu"])))
                continue
            low = ulong(t["stack"])
            print("pid %d (%s), stack 0x%08x-0x%08x:" % (
                pid, name, low, low + int(t["stack_size"])))
            chain = frame_chain(frame[0], frame[1], low,
                                low + int(t["stack_size"]))
            for i, addr in enumerate(chain):
                print("\n".join(frame_lines(addr, "  #%-2d " % i, i > 0)))


KThreads()
KThreadBt()
