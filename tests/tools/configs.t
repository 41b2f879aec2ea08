#!/usr/bin/env python3
"""The named configurations of configs/: kconfig takes every file
without a warning (and does warn about a bad one), both arches build
with each, the default image (configs/ARCH_defconfig, what 'make run'
boots) leaves the self-tests and debug commands out but keeps the
README's leak demo and the sample modules, and the test image
(test_defconfig) has all of them."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, make  # noqa: E402

ARCHES = ("i386", "arm")
NM = {"i386": ("i686-elf-nm", "i686-linux-gnu-nm"),
      "arm": ("arm-none-eabi-nm",)}
# What each image must (True) or must not (False) hold: a symbol of the
# kernel, or a command in 'help'.
DEBUG_SYMS = ("cmd_crash", "cmd_vmtest", "cmd_mmbench", "ktest_run")
DEBUG_CMDS = ("crash", "vmtest", "mmbench", "selftest")
ALWAYS_CMDS = ("memleak", "leaktest", "insmod", "vmallocinfo")
MODULES = ("memleak_test", "modtest", "modtest_user")


def nm_symbols(arch, elf):
    tool = next((t for t in NM[arch] if shutil.which(t)), NM[arch][-1])
    out = subprocess.run([tool, elf], stdout=subprocess.PIPE).stdout.decode()
    fields = (line.split() for line in out.splitlines())
    return {f[2]: f[0] for f in fields if len(f) == 3}


def check_files(tap):
    """Every file of configs/ is an arch's defconfig or a fragment."""
    files = sorted(os.path.basename(p)
                   for p in glob.glob(os.path.join(ROOT, "configs", "*")))
    for name in files:
        arch = name[:-len("_defconfig")] if name.endswith("_defconfig") \
            else None
        tap.ok((arch and os.path.isdir(os.path.join(ROOT, "arch", arch)))
               or name.endswith(".config"),
               "configs/%s is an arch's defconfig or a .config fragment" % name)
    for arch in ARCHES:
        tap.ok("%s_defconfig" % arch in files,
               "configs/%s_defconfig exists" % arch)
    return [os.path.join("configs", n) for n in files if n.endswith(".config")]


def configure(arch, build, fragment=None):
    """make defconfig (or test_defconfig with fragment) in build; the
    CompletedProcess, stdout holding kconfig's messages."""
    args = ["ARCH=" + arch, "BUILD=" + build]
    if fragment:
        return make(*args, "TEST_CONFIG=" + fragment, "test_defconfig")
    return make(*args, "defconfig")


def check_kconfig(tap, arch, fragments):
    """Each file loads without a warning; a bad fragment is refused."""
    build = "build/configs-%s-kconfig" % arch
    for fragment in [None] + fragments:
        p = configure(arch, build, fragment)
        log = p.stdout.decode("utf-8", "replace")
        what = "configs/%s_defconfig" % arch
        if fragment:
            what += " + " + fragment
        tap.ok(p.returncode == 0 and "warning" not in log.lower(),
               "%s: kconfig takes %s without a warning" % (arch, what), log)
    bad = {"unknown symbol": "CONFIG_NO_SUCH_OPTION=y\n",
           "an option whose menu is off": "# CONFIG_DEBUG_COMMANDS is not set\n"
                                          "CONFIG_DEBUG_CRASH=y\n"}
    for why, text in bad.items():
        with tempfile.NamedTemporaryFile("w", suffix=".config") as f:
            f.write(text)
            f.flush()
            p = configure(arch, build, f.name)
        log = p.stdout.decode("utf-8", "replace")
        tap.ok(p.returncode != 0 and "warning" in log.lower(),
               "%s: kconfig refuses a fragment with %s" % (arch, why), log)


def build_image(tap, arch, kind):
    build = "build/configs-%s-%s" % (arch, kind)
    p = configure(arch, build, "configs/test.config" if kind == "test" else None)
    if p.returncode == 0:
        p = make("ARCH=" + arch, "BUILD=" + build, "-j2", "kernel")
    ok = tap.ok(p.returncode == 0, "%s: the %s image builds" % (arch, kind),
                p.stdout.decode("utf-8", "replace"))
    return os.path.join(ROOT, build, "kernel.elf") if ok else None


def boot(arch, elf, commands):
    autorun = ";".join(commands + ["poweroff"])
    with Kernel(arch, append='test autorun="%s"' % autorun, image=elf) as k:
        status = k.wait(60)
        return status, k.output


def check_image(tap, arch, kind, elf):
    debug = kind == "test"
    syms = nm_symbols(arch, elf)
    for sym in DEBUG_SYMS:
        tap.ok((sym in syms) == debug, "%s %s image: %s %s" %
               (arch, kind, sym, "linked in" if debug else "left out"))
    suites = syms.get("__start_ktest_suites") != syms.get("__stop_ktest_suites")
    tap.ok(suites == debug, "%s %s image: self-test suites %s" %
           (arch, kind, "present" if debug else "absent"))
    status, out = boot(arch, elf, ["help", "lsmod -a", "leaktest orphans",
                                   "memleak age=0", "memleak"])
    tap.ok(status == 0, "%s %s image: boots and powers off (status %s)" %
           (arch, kind, status), out)
    # help's lines: after the autorun echo, before lsmod's table.
    m = re.search(r"^autorun: .*?$(.*?)^Module ", out, re.M | re.S)
    helptext = m.group(1) if m else out
    for cmd in DEBUG_CMDS:
        there = re.search(r"^\s*%s\b" % cmd, helptext, re.M) is not None
        tap.ok(there == debug, "%s %s image: help %s %s" %
               (arch, kind, "lists" if debug else "does not list", cmd), helptext)
    for cmd in ALWAYS_CMDS:
        tap.ok(re.search(r"^\s*%s\b" % cmd, helptext, re.M),
               "%s %s image: help lists %s" % (arch, kind, cmd), helptext)
    for mod in MODULES:
        tap.ok(re.search(r"^%s\s+\d+" % mod, out, re.M),
               "%s %s image: the boot archive holds %s" % (arch, kind, mod), out)
    tap.ok(re.search(r"^unreferenced object 0x", out, re.M) and
           re.search(r"memleak: \d+ new suspected memory leaks", out),
           "%s %s image: the README's leaktest + memleak demo reports leaks" %
           (arch, kind), out)


def main():
    tap = Tap()
    fragments = check_files(tap)
    for arch in ARCHES:
        check_kconfig(tap, arch, fragments)
        for kind in ("default", "test"):
            elf = build_image(tap, arch, kind)
            if elf:
                check_image(tap, arch, kind, elf)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
