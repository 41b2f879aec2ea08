"""a scenario that hangs the kernel

The runner's own check: console_getc() called with interrupts off and no
input polls the UART forever; the runner's timeout must end this
scenario alone, and kill its QEMU and GDB.
"""
NEEDS = ()


def run(k):
    k.call("console_getc()")
