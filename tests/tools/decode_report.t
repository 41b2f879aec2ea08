#!/usr/bin/env python3
"""tools/decode-report on real reports of both arches.

Each kernel sets up leaktest's orphans and loads the seed's test module
(memleak_test), then 'memleak list' prints their reports; after 'rmmod
memleak_test' a second list prints the module's frames as "[memleak_test]
(unloaded)". The captured console goes through tools/decode-report. The lines expected for the
known frames are found in the source text (never written down here):
lt_kmalloc's frame is its kzalloc() call, the six setup_orphans frames
are its six calls, the cache orphans show lt_cache_alloc's
kmem_cache_zalloc() call (inlined or as a frame of its own), and the
module's six orphans are the six allocation lines of memleak_test_init
in samples/modules/memleak_test.c, and after rmmod the ten list
elements add its element kmalloc() line. Every other line, and odd bytes
added to the log, must come out byte for byte; a missing .ko or ELF is
an error with exit status 2 and no traceback.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Kernel, Tap, Timeout, PROMPT, kernel_image  # noqa: E402

TOOL = os.path.join(ROOT, "tools", "decode-report")
RMMOD = "rmmod memleak_test"
FRAME = re.compile(r"^ *\[<[0-9a-f]{8}>\] \w+\+0x[0-9a-f]+/0x[0-9a-f]+"
                   r"( \[\w+\]( \(unloaded\))?)?$")
LOCATED = re.compile(r"^(?P<frame> *\[<[0-9a-f]{8}>\] (?P<func>\w+)"
                     r"\+0x[0-9a-f]+/0x[0-9a-f]+"
                     r"(?: \[(?P<mod>\w+)\](?P<gone> \(unloaded\))?)?) "
                     r"(?P<file>\S+):(?P<line>\d+)$")
INLINED = re.compile(r"^ +inlined: (?P<func>\w+) (?P<file>\S+):(?P<line>\d+)$")
# Bytes a console may carry that are not frames: CR LF, not UTF-8, a
# raw frame nothing can name, a frame already decoded, no final newline.
ODD = (b"plain line\r\n\xff\xfe not utf-8 \x80\n"
       b"    [<deadbeef>] 0xdeadbeef\n"
       b"    [<00000010>] nosuchfunction+0x0/0x4\n"
       b"    [<00000000>] nosuchfunction+0x0/0x4 mm/leaktest.c:1\n"
       b"last line without a newline")


def source_lines(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read().split("\n")


def function_body(lines, header):
    """(first, last) line numbers (1-based) of the function whose
    definition line starts with header, up to its closing brace."""
    first = next(i for i, l in enumerate(lines) if l.startswith(header))
    last = next(i for i in range(first, len(lines)) if lines[i] == "}")
    return first + 1, last + 1


def lines_in(path, header, needle):
    """Line numbers of the lines inside a function that contain needle."""
    lines = source_lines(path)
    first, last = function_body(lines, header)
    return [n for n in range(first, last + 1) if needle in lines[n - 1]]


def capture(arch):
    """The console of one session: leaktest orphans, insmod memleak_test,
    memleak list, then rmmod memleak_test, memleak list (the module's
    frames read "(unloaded)"). Returns (console text, the output of the
    two lists, ok)."""
    with Kernel(arch, append="test") as k:
        try:
            k.expect(re.escape(PROMPT))
            k.command("leaktest orphans")
            k.command("insmod memleak_test")
            k.command("sleep 1100")
            listed = k.command("memleak list")
            k.command(RMMOD)
            listed += k.command("memleak list")
            k.send("poweroff\n")
            return k.output, listed, k.wait(20) == 0
        except Timeout as e:
            return k.output + "\n" + str(e), "", False


def decode(arch, data, *extra):
    cmd = [TOOL, "--kernel", kernel_image(arch),
           "--modules", os.path.join(ROOT, "build", arch, "modules")]
    return subprocess.run(cmd + list(extra), input=data, capture_output=True)


def check_passthrough(tap, arch, log, out):
    """Every input line comes out as it was, a frame with ' FILE:LINE'
    added and followed by its inlined lines."""
    outs = out.split(b"\n")
    i = 0
    bad = []
    for line in log.split(b"\n"):
        text = line.decode("utf-8", "replace")
        got = outs[i] if i < len(outs) else None
        i += 1
        if FRAME.match(text) and got is not None and \
                got.startswith(line + b" ") and LOCATED.match(got.decode()):
            while i < len(outs) and INLINED.match(outs[i].decode("utf-8",
                                                               "replace")):
                i += 1
        elif got != line:
            bad.append("%r -> %r" % (line, got))
    tap.ok(not bad and i == len(outs),
           "%s: every other line passes through byte for byte" % arch,
           "\n".join(bad[:10]) + "\n%d of %d output lines used"
           % (i, len(outs)))


def located(text):
    """[(frame match, [inlined matches])] of the decoded log."""
    found = []
    for line in text.split("\n"):
        m = LOCATED.match(line)
        if m:
            found.append((m, []))
        elif found and INLINED.match(line):
            found[-1][1].append(INLINED.match(line))
    return found


def check_kernel_frames(tap, arch, frames, text):
    leaktest = "mm/leaktest.c"
    want = lines_in(leaktest, "static __noipa void *lt_kmalloc(", "kzalloc(")
    got = [(m["file"], int(m["line"])) for m, _ in frames
           if m["func"] == "lt_kmalloc"]
    tap.ok(len(want) == 1 and len(got) == 2 and
           set(got) == {(leaktest, want[0])},
           "%s: lt_kmalloc's frames name its kzalloc() call, %s:%s"
           % (arch, leaktest, want), text)
    want = set(lines_in(leaktest, "static void setup_orphans(", "lt_"))
    got = [int(m["line"]) for m, _ in frames if m["func"] == "setup_orphans"
           and m["file"] == leaktest]
    tap.ok(len(want) == 6 and set(got) == want and len(got) == 6,
           "%s: the six setup_orphans frames name its six calls, lines %s"
           % (arch, sorted(want)), "got %s\n%s" % (got, text))
    want = lines_in(leaktest, "static __always_inline void *lt_cache_alloc(",
                    "kmem_cache_zalloc(")
    got = []
    for m, inlined in frames:
        for place in [m] + inlined:
            if place["func"] == "lt_cache_alloc":
                got.append((place["file"], int(place["line"])))
    tap.ok(len(want) == 1 and got == [(leaktest, want[0])] * 2,
           "%s: both cache orphans show lt_cache_alloc's kmem_cache_zalloc() "
           "call, %s:%s" % (arch, leaktest, want), "got %s\n%s" % (got, text))


def check_module_frames(tap, arch, loaded, removed, text):
    """The six orphans while loaded; after rmmod, "(unloaded)", the six
    and the ten list elements."""
    path = "samples/modules/memleak_test.c"
    header = "static int __init memleak_test_init("
    want = []
    for needle in ("kmalloc(32,", "kmem_cache_alloc(test_cache,",
                   "vmalloc(64)"):
        want += lines_in(path, header, needle)
    elems = lines_in(path, header, "kmalloc(sizeof(*elem)")
    got = sorted(int(m["line"]) for m, _ in loaded
                 if m["mod"] == "memleak_test" and not m["gone"]
                 and m["file"] == path)
    tap.ok(len(want) == 6 and got == sorted(want),
           "%s: the module's six orphans name their lines in %s, %s"
           % (arch, path, sorted(want)), "got %s\n%s" % (got, text))
    got = sorted(int(m["line"]) for m, _ in removed
                 if m["mod"] == "memleak_test" and m["gone"]
                 and m["file"] == path)
    tap.ok(len(elems) == 1 and got == sorted(want + elems * 10),
           "%s: after rmmod, (unloaded) frames: the six and the ten list "
           "elements (line %s)" % (arch, elems), "got %s\n%s" % (got, text))


def check_errors(tap, arch, log):
    with tempfile.TemporaryDirectory() as empty:
        p = decode(arch, log, "--modules", empty)
    err = p.stderr.decode()
    tap.ok(p.returncode == 2 and "memleak_test.ko" in err and not p.stdout
           and "Traceback" not in err,
           "%s: a missing .ko: exit 2, named on stderr, nothing written"
           % arch, err)
    p = subprocess.run([TOOL, "--kernel", kernel_image(arch) + ".none"],
                       input=log, capture_output=True)
    err = p.stderr.decode()
    tap.ok(p.returncode == 2 and "kernel.elf.none" in err and not p.stdout
           and "Traceback" not in err,
           "%s: a missing kernel.elf: exit 2, named on stderr" % arch, err)


def check_arch(tap, arch):
    if not os.path.exists(kernel_image(arch)):
        tap.ok(False, "%s: %s exists (make ARCH=%s)" % (
            arch, kernel_image(arch), arch))
        return
    console, listed, clean = capture(arch)
    tap.ok(clean and "unreferenced object" in listed,
           "%s: leaktest orphans, insmod memleak_test, memleak list" % arch,
           console)
    log = console.encode() + ODD
    p = decode(arch, log)
    tap.ok(p.returncode == 0 and not p.stderr,
           "%s: decode-report runs cleanly" % arch, p.stderr.decode())
    check_passthrough(tap, arch, log, p.stdout)
    text = p.stdout.decode("utf-8", "replace")
    loaded, _, removed = text.partition(PROMPT + RMMOD + "\n")
    tap.ok(removed, "%s: the log shows the rmmod" % arch, text)
    check_kernel_frames(tap, arch, located(loaded), loaded)
    check_module_frames(tap, arch, located(loaded), located(removed), text)
    check_errors(tap, arch, log)


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        check_arch(tap, arch)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
