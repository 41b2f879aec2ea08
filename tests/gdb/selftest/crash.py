"""a scenario with a bug of its own (a Python exception)

The runner's own check: not ok, with the traceback in the transcript.
"""
NEEDS = ()


def run(k):
    return undefined_name  # noqa: F821
