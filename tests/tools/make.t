#!/usr/bin/env python3
"""The tree's front door: 'make help' names every target of the Makefile
(and every target it names exists), the README shows the GDB targets,
and the README's hand-written gdb line loads the kleak commands."""
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap, kernel_image  # noqa: E402


def phony_targets(makefile):
    """Every name declared .PHONY, continuation lines included."""
    text = makefile.replace("\\\n", " ")
    names = []
    for line in re.findall(r"^\.PHONY:(.*)$", text, re.M):
        names += line.split()
    return sorted(set(names))


def main():
    tap = Tap()
    with open(os.path.join(ROOT, "Makefile")) as f:
        makefile = f.read()
    helptext = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT,
                              capture_output=True, text=True).stdout
    tap.ok(helptext.count("\n") >= 10, "make help prints the targets", helptext)
    targets = phony_targets(makefile)
    for t in targets:
        tap.ok(re.search(r"^%s:" % re.escape(t), makefile, re.M),
               "target %s has a rule" % t)
        tap.ok(re.search(r"(make|\|) (\[.*\] )?%s\b" % re.escape(t), helptext)
               or (t in ("all", "kernel") and "(= all, kernel)" in helptext),
               "make help names %s" % t, helptext)
    for t in re.findall(r"\bmake ([a-z-]+)", helptext):
        tap.ok(t in targets, "make help's %s is a target" % t)
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    for t in ("gdb", "scenarios", "help", "boot-tests"):
        tap.ok("`make %s" % t in readme, "README lists make %s" % t)
    m = re.search(r"`(gdb-multiarch [^`]*)`", readme)
    tap.ok(m and "source tools/gdb/kleak.py" in m.group(1),
           "README's gdb line sources the kleak commands", m.group(1) if m else readme)
    if m:
        # The line as written, without attaching, then one command's help.
        words = shlex.split(m.group(1).replace("build/<arch>/", "build/i386/"))
        args = []
        for w in words:
            if w.startswith("target remote"):
                args.pop()  # its -ex
            else:
                args.append(w)
        cmd = [args[0], "-batch", "-nx"] + args[1:] + ["-ex", "help memleak-scan"]
        if os.path.exists(kernel_image("i386")):
            out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            tap.ok("memleak-scan" in out.stdout and "Usage" in out.stdout,
                   "README's gdb line loads the commands (help memleak-scan)",
                   " ".join(cmd) + "\n" + out.stdout + out.stderr)
        else:
            tap.ok(False, "build/i386/kernel.elf exists for the gdb line")
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
