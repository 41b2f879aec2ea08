"""pointers kept only on thread stacks, then stack scanning off

One block pointed to only from the live stack of the running thread (the
shell, stopped in console_getc: GDB lowers its stack pointer past two
words that belong to no frame) and one only from the saved registers on
the stack of a thread that was created and never started. Thread stacks
are scan roots: neither is reported. With stack scanning switched off
(memleak.stack_scan, the shell's 'memleak stack=off') the scan misses
both, and the check that confirms a suspect, which always reads the live
part of every stack, finds them: still neither is reported, and the
collector counts both as found in that check (memleak.nr_rescued).
"""
import gdb


def run(k):
    slots = k.stack_slots(2)
    on_running = k.kmalloc(56)
    k.write_ptr(slots[1], on_running)
    _, frame = k.new_thread("gdb-parked")
    on_parked = k.kmalloc(56)
    k.write_ptr(frame, on_parked)
    if not bool(gdb.parse_and_eval("memleak.stack_scan")):
        gdb.execute("set var memleak.stack_scan = 1")
    k.expect_leaks([], "stacks scanned")
    gdb.execute("set var memleak.stack_scan = 0")
    rescued = int(gdb.parse_and_eval("memleak.nr_rescued"))
    k.expect_leaks([], "stack scanning off")
    rescued = int(gdb.parse_and_eval("memleak.nr_rescued")) - rescued
    if rescued != 2:
        raise k.failure("stack scanning off: %d blocks found with the world "
                        "stopped, 2 expected" % rescued)
    gdb.execute("set var memleak.stack_scan = 1")
