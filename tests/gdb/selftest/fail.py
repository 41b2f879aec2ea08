"""a scenario whose check fails

The runner's own check: the verdict must be "not ok" with this reason.
"""
NEEDS = ()


def run(k):
    k.kmalloc(16)
    raise k.failure("deliberate failure")
