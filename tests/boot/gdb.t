#!/usr/bin/env python3
"""The GDB-driven leak scenarios (tests/gdb/) on both arches, as TAP.

Each arch's scenarios run on build/<arch>/kernel.elf when it has the
leak collector (CONFIG_DEBUG_MEMLEAK); otherwise on a collector-enabled
kernel built for them in build/gdb-<arch>/ (and, should that build fail,
on build/<arch>/kernel.elf, where the collector's scenarios are
skipped). Then the runner's own checks (tests/gdb/selftest/): a failing,
a crashing, a hanging and a panicking scenario each fail alone with the
right reason, and the passing one passes.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "tests", "gdb", "run")
ARCHES = ("i386", "arm")

# Selftest scenario file -> (passes?, regex its reason must match, what
# that verdict shows).
SELFTEST = {
    "pass": (True, None, "passes"),
    "fail": (False, r"^not ok: deliberate failure$", "fails with its reason"),
    "crash": (False, r"^not ok: name 'undefined_name' is not defined$",
              "fails with the Python error"),
    "hang": (False, r"^timed out after \d+s", "is cut off by the timeout"),
    "panic": (False, r"^QEMU ended during the scenario, status 1 "
                     r"\(kernel panic\)$", "fails as a kernel panic"),
}


def has_collector(build):
    try:
        return "\nCONFIG_DEBUG_MEMLEAK=y\n" in "\n" + open(
            os.path.join(build, ".config")).read()
    except OSError:
        return False


def make(*args, log):
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.call(["make", "--no-print-directory"] + list(args),
                           cwd=ROOT, env=env, stdout=log,
                           stderr=subprocess.STDOUT) == 0


def collector_kernel(arch):
    """build/gdb-<arch>/kernel.elf with the collector on, or None."""
    build = "build/gdb-%s" % arch
    os.makedirs(os.path.join(ROOT, build), exist_ok=True)
    with open(os.path.join(ROOT, build, "build.log"), "w") as log:
        cfg = ["ARCH=" + arch, "BUILD=" + build]
        if not has_collector(os.path.join(ROOT, build)):
            if not make(*cfg, "defconfig", log=log):
                return None
            path = os.path.join(ROOT, build, ".config")
            text = open(path).read().replace(
                "# CONFIG_DEBUG_MEMLEAK is not set", "CONFIG_DEBUG_MEMLEAK=y")
            open(path, "w").write(text)
            if not make(*cfg, "olddefconfig", log=log):
                return None
        if not make(*cfg, "kernel", "-j2", log=log):
            return None
    return os.path.join(ROOT, build, "kernel.elf")


def pick_kernel(arch, notes):
    default = os.path.join(ROOT, "build", arch, "kernel.elf")
    if has_collector(os.path.dirname(default)):
        return default
    kernel = collector_kernel(arch)
    if kernel:
        notes.append("%s: build/%s has no leak collector: scenarios run on "
                     "build/gdb-%s" % (arch, arch, arch))
        return kernel
    notes.append("%s: building build/gdb-%s with the collector failed (see "
                 "build/gdb-%s/build.log)" % (arch, arch, arch))
    return default


class Tap:
    def __init__(self):
        self.n = 0

    def line(self, ok, name, diag=()):
        self.n += 1
        print("%sok %d - %s" % ("" if ok else "not ", self.n, name))
        for d in diag:
            print("# " + d)
        sys.stdout.flush()


def run_runner(args):
    proc = subprocess.run([RUN] + args, cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=900)
    return proc.stdout.decode("utf-8", "replace")


def results(output):
    """[(ok, name, diagnostics)] from the runner's TAP."""
    found = []
    for line in output.splitlines():
        m = re.match(r"^(not )?ok \d+ - (.*)$", line)
        if m:
            found.append([m.group(1) is None, m.group(2), []])
        elif line.startswith("#") and found:
            found[-1][2].append(line[1:].strip())
    return found


def scenarios(tap, kernels):
    args = []
    for arch, kernel in kernels.items():
        args += ["--arch", arch, "--kernel", kernel]
    out = run_runner(args + ["-j", "2"])
    got = results(out)
    if not got:
        tap.line(False, "tests/gdb/run printed no results", out.splitlines())
    for ok, name, diag in got:
        tap.line(ok, name, diag)


def selftest(tap, kernels):
    args = ["--dir", os.path.join(ROOT, "tests", "gdb", "selftest"),
            "--timeout", "5", "-j", "4"]
    for arch, kernel in kernels.items():
        args += ["--arch", arch, "--kernel", kernel]
    got = {}
    out = run_runner(args)
    titles = {}
    for name in SELFTEST:
        text = open(os.path.join(ROOT, "tests", "gdb", "selftest",
                                 name + ".py")).read()
        titles[name] = re.search(r'"""(.*)', text).group(1).strip()
    for ok, label, diag in results(out):
        got[label] = (ok, diag)
    for arch in kernels:
        for name, (should_pass, reason, shows) in SELFTEST.items():
            label = "%s: %s" % (arch, titles[name])
            ok, diag = got.get(label, (None, []))
            text = diag[0] if diag else ""
            right = ok is should_pass and (
                reason is None or re.search(reason, text) is not None)
            tap.line(right, "runner: %s %s" % (label, shows),
                     [] if right else ["got: %s %s" % (ok, text)] + diag[:30])


def main():
    notes = []
    kernels = {arch: pick_kernel(arch, notes) for arch in ARCHES}
    for note in notes:
        print("# " + note)
    tap = Tap()
    scenarios(tap, kernels)
    selftest(tap, kernels)
    print("1..%d" % tap.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
