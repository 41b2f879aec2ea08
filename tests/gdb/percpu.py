"""a pointer kept only in another CPU's copy of a per-CPU variable

GDB writes a block's only pointer into one CPU's copy of the per-CPU
variable lt_percpu_ref (mm/leaktest.c), at the variable's address plus
__per_cpu_offset[cpu], as the collector's "per-cpu areas" root finds
it. The CPU is another one than the CPU GDB stopped (CPU 1 when it can
be); with a single CPU, CPU 0's copy (a copy all the same: it is not
the template). While the copy holds the pointer the block is not
reported; once GDB clears the copy it is. A second block, pointed to
only from the template itself (which no CPU uses and no scan covers),
is reported from the start.
"""
import gdb

from kleakgdb.threads import all_threads
from kleakgdb.util import symbol_value, ulong
from kleaktest import log

NEEDS = ("memleak", "leaktest")   # lt_percpu_ref is mm/leaktest.c's
SMP = 2                 # so that the copy is another CPU's
VARIABLE = "lt_percpu_ref"
SHELL_PID = 1


def possible_cpus():
    offsets = symbol_value("__per_cpu_offset")
    nr_cpus = offsets.type.range()[1] + 1
    mask = ulong(symbol_value("cpu_possible_mask"))
    return [cpu for cpu in range(nr_cpus) if mask >> cpu & 1]


def stopped_cpu(k):
    """The CPU the shell thread, where GDB stopped, runs on."""
    for t in all_threads():
        if int(t["pid"]) == SHELL_PID:
            return int(t["cpu"])
    raise k.failure("no shell thread (pid %d) on thread_list" % SHELL_PID)


def pick_cpu(k):
    cpus = possible_cpus()
    here = stopped_cpu(k)
    others = [cpu for cpu in cpus if cpu != here]
    if not others:
        return here, "the only possible CPU"
    return (1 if 1 in others else others[-1]), \
        "GDB stopped CPU %d; possible %s" % (here, cpus)


def run(k):
    template = ulong(symbol_value(VARIABLE).address)
    cpu, why = pick_cpu(k)
    offset = ulong(symbol_value("__per_cpu_offset")[cpu])
    if offset == 0:
        raise k.failure("CPU %d's per-CPU copy is the template: "
                        "setup_per_cpu_areas() has not run" % cpu)
    copy = template + offset
    log("CPU %d's copy of %s at 0x%08x (%s)" % (cpu, VARIABLE, copy, why))
    saved = (k.read_ptr(copy), k.read_ptr(template))
    held = k.kmalloc(40)
    in_template = k.kmalloc(48)
    k.write_ptr(copy, held)
    k.write_ptr(template, in_template)
    try:
        k.expect_leaks([in_template], "CPU %d's copy holds the pointer" % cpu)
        # GDB's own answer to "what keeps it?" names the same copy.
        refs = gdb.execute("memleak-refs 0x%x" % held, to_string=True)
        log(refs.rstrip())
        if "0x%08x  start    in per-cpu area of CPU %d" % (copy, cpu) \
                not in refs:
            raise k.failure("memleak-refs does not find the reference in "
                            "CPU %d's per-CPU area" % cpu)
        k.write_ptr(copy, 0)
        k.expect_leaks([in_template, held], "CPU %d's copy cleared" % cpu)
    finally:
        k.write_ptr(copy, saved[0])
        k.write_ptr(template, saved[1])
