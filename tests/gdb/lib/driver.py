"""Runs one scenario inside GDB (gdb-multiarch -batch -x driver.py).

tests/gdb/run starts QEMU halted with its stub on a Unix socket and
passes, in the environment: KLEAK_KERNEL (kernel.elf), KLEAK_TARGET (the
socket), KLEAK_SCENARIO (the scenario file), KLEAK_CONSOLE_LOG (QEMU's
console log) and KLEAK_NEEDS ("memleak" when the scenario needs the
collector). The driver connects, boots to the shell prompt, sets up the
Kernel object, runs the scenario's run(k), checks the console, puts the
CPU back as it was and detaches. Its last line is the verdict:
"KLEAK-RESULT: ok", "KLEAK-RESULT: not ok: why" or, when the kernel
cannot run the scenario at all, "KLEAK-RESULT: skip: why".
"""
import importlib.util
import os
import sys
import traceback

import gdb

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def setup():
    for cmd in ("set pagination off", "set confirm off",
                "set unwindonsignal on", "set width 0",
                "file " + os.environ["KLEAK_KERNEL"],
                "source " + os.path.join(ROOT, "tools", "gdb", "kleak.py"),
                "set kleak-console-log " + os.environ["KLEAK_CONSOLE_LOG"],
                "target remote " + os.environ["KLEAK_TARGET"]):
        gdb.execute(cmd, to_string=True)
    sys.path.insert(0, HERE)


def load(path):
    spec = importlib.util.spec_from_file_location("scenario", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "run"):
        raise RuntimeError("%s has no run(k)" % path)
    return module


class Skip(Exception):
    pass


def prepare(k, needs):
    from kleakgdb.util import symbol_value, ulong
    k.errors_before = ulong(symbol_value("error_count"))
    if "memleak" in needs:
        if not symbol_value("memleak")["initialized"]:
            raise Skip("the leak collector is built in but memleak_init() "
                       "never ran (not wired into mm_init yet)")
        if not k.collector_enabled():
            raise k.failure("the leak collector is disabled at boot")
        # Blocks made by the scenario are reported at once (the kernel's
        # self-tests do the same).
        gdb.execute("set var memleak.min_age_jiffies = 0")
        k.take_baseline()


def finish(k, needs, scenario):
    from kleakgdb.util import symbol_value, ulong
    k.check_console()
    errors = ulong(symbol_value("error_count")) - k.errors_before
    if errors:
        raise k.failure("the allocators counted %d errors (MmErrors)"
                        % errors)
    # A scenario about the collector giving up says so with DISABLES.
    if "memleak" in needs and not getattr(scenario, "DISABLES", False) \
            and not k.collector_enabled():
        raise k.failure("the leak collector disabled itself")


def main():
    verdict = "ok"
    k = None
    try:
        setup()
        from kleakgdb import kcall
        import kleaktest
        print("kleak: %s" % kcall.stop_at_safe_point("shell"), flush=True)
        scenario = load(os.environ["KLEAK_SCENARIO"])
        needs = os.environ.get("KLEAK_NEEDS", "").split()
        with kcall.KernelCalls():
            k = kleaktest.Kernel()
            prepare(k, needs)
            scenario.run(k)
            finish(k, needs, scenario)
            k.restore_stack()
    except Skip as e:
        verdict = "skip: %s" % e
    except Exception as e:      # every failure becomes the verdict
        name = type(e).__name__
        if name not in ("ScenarioFailure", "KleakError"):
            traceback.print_exc(file=sys.stdout)
        verdict = "not ok: %s" % (str(e).strip().splitlines() or [name])[0]
        if k is not None:
            try:
                k.restore_stack()
            except gdb.error:
                pass
    try:
        gdb.execute("delete", to_string=True)
        gdb.execute("detach", to_string=True)
    except gdb.error as e:
        if verdict == "ok":
            verdict = "not ok: detach failed: %s" % e
    print("KLEAK-RESULT: %s" % verdict, flush=True)


main()
