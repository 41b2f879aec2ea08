"""a scenario with nothing wrong

The runner's own check: kmalloc and kfree called from GDB, nothing
else; the verdict must be ok and the kernel must power off afterwards.
"""
NEEDS = ()


def run(k):
    k.kfree(k.kmalloc(16))
