"""The scenario library: what a tests/gdb/*.py scenario calls, in GDB.

A scenario gets a Kernel object (k) stopped at the shell's input wait
(console_getc) with interrupts off, and builds memory graphs with real
kernel calls (k.kmalloc, k.vmalloc, k.cache_alloc, the memleak_*
annotations) and plain memory writes (k.write_ptr, k.list_add_tail),
then checks a scan with k.expect_leaks([...]): exactly those blocks are
reported, with their sizes, and nothing else that was not already
reported before the scenario began (the baseline).

Every step is logged, so the transcript of a failing scenario shows
what was done. Failures raise ScenarioFailure.
"""
import os
import re

import gdb

from kleakgdb import kcall, memleak, source, util
from kleakgdb.util import (KleakError, field_offset, has_symbol,
                           lookup_type, read_bytes, read_word, struct_at,
                           struct_type, symbol_value, ulong, word_size,
                           write_bytes, write_word)
from kleakgdb.commands import console_since, console_size

# Console lines that mean the collector or the allocators saw misuse.
BAD_CONSOLE = (r"panic", r"^warning: ", r"memleak: disabled",
               r"not the start of a tracked", r"freeing unknown object",
               r"overlaps a tracked", r"past the end of")


class ScenarioFailure(Exception):
    pass


def log(msg):
    print("  " + msg, flush=True)


class Kernel:
    """The stopped kernel, as a scenario sees it."""

    failure = ScenarioFailure   # raise k.failure("why") to fail

    def __init__(self):
        self.word = word_size()
        self.page = 1 << source.define("include/asm-generic/page.h",
                                       "PAGE_SHIFT")
        self.gfp = source.gfp("GFP_KERNEL")
        self.sizes = {}         # block start -> size the collector records
        self.kinds = {}         # block start -> "kmalloc" | "cache" | ...
        self.baseline = set()
        self.reported = set()   # blocks some scan reported
        self.console_start = console_size()
        self.allowed_console = []
        self.stack_reserved = 0
        self.saved_sp = kcall.sp()
        self.global_used = 0

    # ------------------------------------------------------------ calls
    def call(self, expr):
        log("call %s" % expr)
        try:
            return kcall.call(expr)
        except KleakError as e:
            raise ScenarioFailure(str(e))

    def call_ptr(self, expr):
        return ulong(self.call(expr))

    def _track(self, addr, size, kind, what):
        if addr == 0:
            raise ScenarioFailure("%s returned NULL" % what)
        log("%s = 0x%08x" % (what, addr))
        self.sizes[addr] = size
        self.kinds[addr] = kind
        return addr

    def zero(self, addr, size):
        write_bytes(addr, bytes(size))

    def kmalloc(self, size, zero=True):
        """kmalloc(size, GFP_KERNEL); zeroed by GDB so it holds no pointer."""
        addr = self._track(self.call_ptr("kmalloc(%d, %d)" % (size, self.gfp)),
                           size, "kmalloc", "kmalloc(%d)" % size)
        if zero:
            self.zero(addr, size)
        return addr

    def kfree(self, addr):
        log("kfree(0x%08x)" % addr)
        self.call("kfree((void *)0x%x)" % addr)
        self._forget(addr)

    def vmalloc(self, size):
        """vmalloc(size); the collector records whole pages (min_count 2)."""
        pages = -(-size // self.page) * self.page
        addr = self._track(self.call_ptr("vmalloc(%d)" % size), pages,
                           "vmalloc", "vmalloc(%d)" % size)
        self.zero(addr, pages)
        return addr

    def vfree(self, addr):
        log("vfree(0x%08x)" % addr)
        self.call("vfree((const void *)0x%x)" % addr)
        self._forget(addr)

    def cache_create(self, name, size):
        name_addr = kcall.kstring(name)
        cache = self.call_ptr("kmem_cache_create((const char *)0x%x, %d, 0, "
                              "0, 0)" % (name_addr, size))
        if cache == 0:
            raise ScenarioFailure("kmem_cache_create(%s, %d) failed"
                                  % (name, size))
        log("kmem_cache_create(\"%s\", %d) = 0x%08x" % (name, size, cache))
        return cache

    def cache_alloc(self, cache):
        c = struct_at(cache, struct_type("kmem_cache"))
        size = int(c["object_size"])
        addr = self._track(
            self.call_ptr("kmem_cache_alloc((struct kmem_cache *)0x%x, %d)"
                          % (cache, self.gfp)),
            size, ("cache", cache), "kmem_cache_alloc(0x%08x)" % cache)
        self.zero(addr, size)
        return addr

    def cache_free(self, cache, addr):
        log("kmem_cache_free(0x%08x, 0x%08x)" % (cache, addr))
        self.call("kmem_cache_free((struct kmem_cache *)0x%x, (void *)0x%x)"
                  % (cache, addr))
        self._forget(addr)

    def free(self, addr):
        """Frees a block with the function matching its allocator."""
        kind = self.kinds.get(addr)
        if kind == "kmalloc":
            self.kfree(addr)
        elif kind == "vmalloc":
            self.vfree(addr)
        elif kind and kind[0] == "cache":
            self.cache_free(kind[1], addr)
        else:
            raise ScenarioFailure("free(0x%08x): not a block of this "
                                  "scenario" % addr)

    def _forget(self, addr):
        self.sizes.pop(addr, None)
        self.kinds.pop(addr, None)
        if addr in self.reported:
            # CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING says so on the console.
            self.allow_console(r"freeing orphan object 0x%08x" % addr)

    # ------------------------------------------------------ annotations
    def not_leak(self, addr):
        log("memleak_not_leak(0x%08x)" % addr)
        self.call("memleak_not_leak((const void *)0x%x)" % addr)

    def ignore(self, addr):
        log("memleak_ignore(0x%08x)" % addr)
        self.call("memleak_ignore((const void *)0x%x)" % addr)

    def scan_area(self, addr, offset, length):
        log("memleak_scan_area(0x%08x, %d, %d)" % (addr, offset, length))
        self.call("memleak_scan_area((const void *)0x%x, %d, %d)"
                  % (addr, offset, length))

    def padding(self, addr, offset, size):
        log("memleak_padding(0x%08x, %d, %d)" % (addr, offset, size))
        self.call("memleak_padding((const void *)0x%x, %d, %d)"
                  % (addr, offset, size))

    # ----------------------------------------------------------- memory
    def write_ptr(self, where, value):
        log("*0x%08x = 0x%08x" % (where, value))
        write_word(where, value)

    def read_ptr(self, where):
        return read_word(where)

    def roots(self, n, kind="array"):
        """n words whose contents the scan treats as references.

        kind "array": a kmalloc'd array made memleak_not_leak (gray
        forever, so scanned); "global": the next n words of the kernel
        global gdb_roots[] (in .bss, a scan root), when the kernel has it,
        else an array as above."""
        if kind == "global" and has_symbol("gdb_roots"):
            arr = symbol_value("gdb_roots")
            total = arr.type.sizeof // self.word
            if self.global_used + n > total:
                raise ScenarioFailure("gdb_roots[] has %d words, %d wanted"
                                      % (total, self.global_used + n))
            addr = ulong(arr.address) + self.global_used * self.word
            self.global_used += n
            log("roots: gdb_roots[%d..%d] at 0x%08x" % (
                self.global_used - n, self.global_used - 1, addr))
            self.zero(addr, n * self.word)
            return Roots(self, addr, n)
        if kind == "global":
            log("roots: the kernel has no gdb_roots[]: a not_leak array")
        arr = self.kmalloc(n * self.word)
        self.not_leak(arr)
        return Roots(self, arr, n)

    def list_init(self, head):
        self.write_ptr(head, head)
        self.write_ptr(head + self.word, head)

    def list_add_tail(self, node, head):
        """<kernel/list.h>'s list_add_tail(), as memory writes."""
        prev = read_word(head + self.word)
        self.write_ptr(node, head)
        self.write_ptr(node + self.word, prev)
        self.write_ptr(prev, node)
        self.write_ptr(head + self.word, node)

    def stack_slots(self, n):
        """n words of the current thread's live stack that belong to no
        frame: sp is lowered past them until the scenario ends."""
        size = -(-n * self.word // 16) * 16
        new_sp = kcall.sp() - size
        gdb.execute("set var $sp = 0x%x" % new_sp)
        self.stack_reserved += size
        self.zero(new_sp, size)
        log("stack slots 0x%08x-0x%08x (sp lowered by %d)"
            % (new_sp, new_sp + size, size))
        return [new_sp + i * self.word for i in range(n)]

    def restore_stack(self):
        if self.stack_reserved:
            gdb.execute("set var $sp = 0x%x" % self.saved_sp)
            self.stack_reserved = 0

    def new_thread(self, name):
        """A kernel thread that is created but never started; returns
        (struct thread address, a word of its saved switch frame that
        the scan of its stack covers and nothing ever reads)."""
        fn = ulong(gdb.parse_and_eval("&kthread_exit"))
        name_addr = kcall.kstring(name)
        t = self.call_ptr("kthread_create((void *)0x%x, (void *)0, "
                          "(const char *)0x%x)" % (fn, name_addr))
        if not t:
            raise ScenarioFailure("kthread_create(%s) failed" % name)
        ttype = struct_type("thread")
        sp = ulong(struct_at(t, ttype)["ctx"]["sp"])
        log("kthread_create(\"%s\") = 0x%08x, saved sp 0x%08x" % (name, t, sp))
        return t, sp        # word 0 of the switch frame: a callee-saved reg

    # ---------------------------------------------------------- aliases
    def alias_pair(self):
        """(size, offset): blocks of size bytes have an alias at offset.

        struct leaktest_elem (CONFIG_MEMLEAK_TEST) if the kernel has it,
        else the first alias set of a tracked block."""
        try:
            t = lookup_type("struct leaktest_elem")
            return t.sizeof, field_offset(t, "list")
        except KleakError:
            pass
        for b in memleak.all_blocks():
            offsets = b.aliases()
            if offsets and not b.pad_offset:
                return b.size, offsets[0]
        raise ScenarioFailure("no container_of() alias in this kernel")

    def block_aliases(self, addr):
        memleak.flush_pending()
        b = memleak.find_block(addr)
        if b is None or b.start != addr:
            raise ScenarioFailure("0x%08x is not a tracked block" % addr)
        return b.aliases()

    # ------------------------------------------------------------- scans
    def scan(self):
        """Runs memleak_scan(); returns {start: size} of the suspects."""
        err = memleak.scan()
        if err:
            raise ScenarioFailure("memleak_scan() returned %d" % err)
        found = {b.start: b.size for b in memleak.suspects()}
        self.reported |= set(found)
        return found

    def take_baseline(self):
        self.baseline = set(self.scan().items())
        log("baseline: %d suspects before the scenario" % len(self.baseline))

    def expect_leaks(self, leaks, what="scan"):
        """Scans; exactly the blocks in leaks (and the baseline's) must be
        reported, each with the size the scenario allocated."""
        found = self.scan()
        new = {(a, s) for a, s in found.items()} - self.baseline
        want = {(a, self.sizes[a]) for a in leaks}
        missing = sorted(want - new)
        extra = sorted(new - want)
        log("%s: %d reported (%d new), %d expected" % (
            what, len(found), len(new), len(want)))
        if missing or extra:
            raise ScenarioFailure("%s: missing %s; unexpected %s" % (
                what, self._describe(missing), self._describe(extra)))

    def _describe(self, pairs):
        if not pairs:
            return "none"
        return ", ".join("0x%08x (size %d%s)" % (
            a, s, "" if self.sizes.get(a, s) == s else
            ", allocated %d" % self.sizes[a]) for a, s in pairs)

    def kernel_report(self):
        """Runs the shell's 'memleak' (the kernel prints its report on the
        console) and returns {start: size} of the objects it printed."""
        start = console_size()
        if start is None:
            raise ScenarioFailure("no console log to read the report from")
        gdb.execute("memleak-scan --kernel", to_string=True)
        text = console_since(start)
        m = re.search(r"memleak: (\d+) new suspected memory leaks "
                      r"\((\d+) total\)", text)
        if not m:
            raise ScenarioFailure("no summary line in the kernel's report:\n"
                                  + text[-2000:])
        objs = re.findall(r"^unreferenced object 0x([0-9a-f]+) "
                          r"\(size (\d+)\):", text, re.M)
        report = {int(a, 16): int(s) for a, s in objs}
        if len(report) != int(m.group(2)):
            raise ScenarioFailure("the report lists %d objects, its summary "
                                  "says %s" % (len(report), m.group(2)))
        return report

    # ----------------------------------------------------------- console
    def allow_console(self, pattern):
        self.allowed_console.append(pattern)

    def console(self):
        return console_since(self.console_start)

    def expect_console(self, pattern):
        if not re.search(pattern, self.console(), re.M):
            raise ScenarioFailure("the console never showed /%s/" % pattern)

    def check_console(self):
        """No line of the scenario's console output shows misuse."""
        for line in self.console().splitlines():
            if any(re.search(p, line) for p in self.allowed_console):
                continue
            for bad in BAD_CONSOLE:
                if re.search(bad, line):
                    raise ScenarioFailure("console: %s" % line.strip())

    def collector_enabled(self):
        return bool(symbol_value("memleak")["enabled"])


def source_lines_in(path, header, needle):
    """Line numbers (1-based) of the lines containing needle inside the
    function of the tree's file path whose definition line starts with
    header, up to its closing brace: a scenario finds the lines it
    expects in the source, never as numbers written down."""
    with open(os.path.join(util.ROOT, path)) as f:
        lines = f.read().split("\n")
    first = next((i for i, l in enumerate(lines) if l.startswith(header)),
                 None)
    if first is None:
        raise ScenarioFailure("%s has no function %s" % (path, header))
    last = lines.index("}", first)
    return [i + 1 for i in range(first, last + 1) if needle in lines[i]]


class Roots:
    """A not_leak array of words: set(i, ptr), clear(i), address(i)."""

    def __init__(self, k, addr, n):
        self.k, self.addr, self.n = k, addr, n

    def address(self, i):
        if not 0 <= i < self.n:
            raise ScenarioFailure("root %d of %d" % (i, self.n))
        return self.addr + i * self.k.word

    def set(self, i, value):
        self.k.write_ptr(self.address(i), value)

    def clear(self, i):
        self.k.write_ptr(self.address(i), 0)

    def get(self, i):
        return read_word(self.address(i))


__all__ = ["Kernel", "Roots", "ScenarioFailure", "log", "read_bytes",
           "source_lines_in"]
