#!/usr/bin/env python3
"""SMP on both arches with 1, 2 and 4 CPUs: every CPU comes online and
runs threads ('cpus', 'ps'), the self-tests pass (the smp and percpu
suites among them), the leak collector finds nothing, and a panic on
one CPU stops all the others."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import Kernel, Tap, Timeout, PROMPT  # noqa: E402

# "  1 online     0x1       288       729     0      1     36  idle/1 (pid 0)"
CPU_ROW = re.compile(r"^\s*(\d+) (\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+"
                     r"(\d+)\s+(\d+)\s+(.+)$", re.M)
SUITE_RESULT = re.compile(r"^(not )?ok \d+ (\S+)$", re.M)
LEAKS = re.compile(r"^memleak: (\d+) new suspected memory leaks \((\d+) total\)$", re.M)


def cpu_rows(out):
    return [dict(cpu=int(m.group(1)), state=m.group(2), hwid=m.group(3),
                 ticks=int(m.group(4)), switches=int(m.group(5)),
                 running=m.group(9)) for m in CPU_ROW.finditer(out)]


def check_cpus(tap, name, k, n):
    out = k.command("cpus")
    rows = cpu_rows(out)
    tap.ok([r["cpu"] for r in rows] == list(range(n)),
           "%s: cpus lists CPUs 0..%d" % (name, n - 1), out)
    tap.ok(rows and all(r["state"] == "online" for r in rows),
           "%s: every CPU online" % name, out)
    tap.ok("%d of %d CPUs online" % (n, n) in out,
           "%s: cpus counts %d of %d online" % (name, n, n), out)
    tap.ok(len(set(r["hwid"] for r in rows)) == len(rows),
           "%s: distinct hardware IDs" % name, out)
    tap.ok(rows and all(r["running"] != "-" for r in rows) and
           any(r["running"].startswith("shell ") for r in rows),
           "%s: cpus shows what each CPU runs, the shell on one" % name, out)
    return rows


def check_selftest(tap, name, k):
    out = k.command("selftest", timeout=120)
    results = SUITE_RESULT.findall(out)
    suites = [s for _, s in results]
    failed = [s for f, s in results if f]
    tap.ok("smp" in suites and "percpu" in suites,
           "%s: the smp and percpu suites ran" % name, out)
    # The failing cases and what they said, not only the output's tail.
    lines = out.splitlines()
    bad = [i for i, line in enumerate(lines) if re.match(r"\s*not ok", line)]
    diag = "\n".join("\n".join(lines[max(0, i - 6):i + 1]) for i in bad) or out
    tap.ok(results and not failed and ", 0 failed" in out,
           "%s: every self-test suite passes %s" % (name, failed or ""), diag)


def check_after(tap, name, k, n):
    rows = cpu_rows(k.command("cpus"))
    tap.ok(len(rows) == n and all(r["ticks"] > 0 for r in rows),
           "%s: every CPU's own tick runs" % name, rows)
    tap.ok(len(rows) == n and all(r["switches"] > 0 for r in rows),
           "%s: every CPU ran threads (context switches on each)" % name, rows)
    out = k.command("ps")
    idles = re.findall(r"^\s*0\s+idle/(\d+)\s+\S+\s+(\d+)\s", out, re.M)
    tap.ok(sorted((int(a), int(b)) for a, b in idles) ==
           [(c, c) for c in range(n)],
           "%s: ps shows one idle thread per CPU, on its CPU" % name, out)
    out = k.command("memleak", timeout=60)
    m = LEAKS.search(out)
    tap.ok(m and m.group(2) == "0",
           "%s: the collector reports no leak" % name, out)


def session(tap, arch, n):
    name = "%s smp=%d" % (arch, n)
    with Kernel(arch, append="test", smp=n) as k:
        try:
            k.expect(re.escape(PROMPT))
            tap.ok("smp: %d of %d CPU%s online" % (n, n, "" if n == 1 else "s")
                   in k.output, "%s: boot brings every CPU up" % name,
                   k.output)
            check_cpus(tap, name, k, n)
            check_selftest(tap, name, k)
            check_after(tap, name, k, n)
            k.send("poweroff\n")
            status = k.wait(20)
            tap.ok(status == 0, "%s: poweroff (status %s)" % (name, status),
                   k.output[-2000:])
        except Timeout as e:
            tap.ok(False, "%s: session (%s)" % (name, e), k.output[-3000:])


def panic_stops_others(tap, arch):
    """A panic on CPU 2 of 4 halts CPUs 0, 1 and 3 before it reports."""
    name = "%s smp=4" % arch
    with Kernel(arch, append="test", smp=4) as k:
        try:
            k.expect(re.escape(PROMPT))
            out = k.command("crash cpu 7")
            tap.ok("not an online CPU" in out,
                   "%s: crash cpu refuses a CPU that is not online" % name, out)
            k.send("crash cpu 2\n")
            status = k.wait(30)
            out = k.output
            tap.ok("smp: CPU 2 stopped the other CPUs: 0 1 3\n" in out,
                   "%s: panic on CPU 2 stops CPUs 0, 1 and 3" % name, out[-3000:])
            tap.ok("panic: crash command on CPU 2" in out and "Call trace:" in out,
                   "%s: the panic report comes from CPU 2" % name, out[-3000:])
            tap.ok(status == 1, "%s: QEMU ends with the failure status (%s)" %
                   (name, status), out[-3000:])
        except Timeout as e:
            tap.ok(False, "%s: panic session (%s)" % (name, e), k.output[-3000:])


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        for n in (1, 2, 4):
            session(tap, arch, n)
        panic_stops_others(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
