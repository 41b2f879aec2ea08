#!/usr/bin/env python3
"""Typed blocks, on both arches: 'memleak types' lists the descriptors
with each field's kind, offset and target (checked against the kernel's
own DWARF layout); a leak whose address a typed block keeps in an
integer field is reported by the precise scan and missed with 'memleak
typed=off'; a stale typed pointer to a freed object reused by another
type is a type mismatch, one to a freed object a dangling pointer, each
with both backtraces and counted in the summary; a typed list through
container_of() gives no finding, and orphaned it is 1 direct and 4
indirect leaks; 'memleak stats' splits precise and conservative bytes;
bad input is refused."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap, session  # noqa: E402
from memleak_report import REPORT, EXPECT, SUMMARY  # noqa: E402

KEEPS = re.compile(r"^leaktest: keeps referenced object (0x[0-9a-f]{8}) \(size (\d+)\)$", re.M)
FINDINGS = re.compile(r"^memleak: (\d+) pointers? of typed blocks points? where "
                      r"their type forbids$", re.M)
FINDING = re.compile(r"^memleak: ([a-z ]+): (struct \w+\.[\w.]+) at (0x[0-9a-f]{8}) -> (.*)$", re.M)
TYPE = re.compile(r"^(struct \w+) \((\d+) bytes, type (\d+)\): (\d+) blocks live$", re.M)
FIELD = re.compile(r"^  \+(\d+) +(data|any|ptr|list) +(\w+) +(.*)$", re.M)
STATS = re.compile(r"^bytes scanned: +(\d+) \(last scan\): (\d+) precisely .*?, "
                   r"(\d+) conservatively; (\d+) bytes of typed blocks' data "
                   r"skipped; typed scanning (on|off)$", re.M)
GDB = "gdb-multiarch"


def total(out):
    m = SUMMARY.search(out)
    return int(m.group(2)) if m else None


def findings(out):
    m = FINDINGS.search(out)
    return int(m.group(1)) if m else 0


def dwarf_offsets(arch, struct):
    """Each member's offset in struct, as the compiler laid it out."""
    elf = os.path.join(ROOT, "build", arch, "kernel.elf")
    out = subprocess.run([GDB, "-batch", "-nx", "-ex", "ptype/o struct " + struct, elf],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
    offsets, nested = {}, []
    for line in out.splitlines():
        m = re.match(r"^/\*\s+(\d+)(?::\s*\d+)?\s+\|\s+\d+\s+\*/\s+(.*)$", line)
        if m and m.group(2).endswith("{"):
            nested.append(int(m.group(1)))      # a struct member opens
        elif m and not nested:
            name = re.search(r"\b(\w+)(\[\d+\])*;$", m.group(2))
            if name:
                offsets[name.group(1)] = int(m.group(1))
        else:
            close = re.match(r"^\s*} (\w+)(\[\d+\])*;$", line)
            if close and nested:
                offset = nested.pop()
                if not nested:
                    offsets[close.group(1)] = offset
    return offsets


def types_listed(out):
    """{type: {field: (offset, kind, rest)}} from 'memleak types'."""
    types, cur = {}, None
    for line in out.splitlines():
        m = TYPE.match(line)
        if m:
            cur = types.setdefault(m.group(1), {})
            continue
        m = FIELD.match(line)
        if m and cur is not None:
            cur[m.group(3)] = (int(m.group(1)), m.group(2), m.group(4))
    return types


SHARE = re.compile(r"^typed blocks: +(\d+) of (\d+) \((\d+) of (\d+) bytes\)$", re.M)


def check_boot_heap(tap, arch, k):
    """Every block of the kernel's own at boot is typed: caches, threads."""
    m = SHARE.search(k.command("memleak stats"))
    tap.ok(m and int(m.group(1)) == int(m.group(2)) >= 20 and m.group(3) == m.group(4),
           "%s: at boot the whole heap is typed (%s)" % (arch, m and m.group(0)),
           m and m.group(0))
    out = k.command("memleak types thread")
    m = TYPE.search(out)
    tap.ok(m and int(m.group(4)) >= 2, "%s: memleak types counts live threads" % arch, out)


def check_types(tap, arch, k):
    out = k.command("memleak types")
    types = types_listed(out)
    want = {"struct thread", "struct vm_struct", "struct module_ghost", "struct kmem_cache",
            "struct lt_typed_owner", "struct lt_typed_item", "struct lt_typed_other"}
    tap.ok(want <= set(types) and "memleak: %d types" % len(types) in out,
           "%s: memleak types lists the kernel's and leaktest's types" % arch, out)
    owner = types.get("struct lt_typed_owner", {})
    tap.ok(owner.get("item", (0, ""))[1:] == ("ptr", "-> struct lt_typed_item") and
           owner.get("cookie", (0, ""))[1] == "data" and
           owner.get("items", (0, ""))[1] == "list" and
           owner.get("other", (0, ""))[1:] == ("ptr", "-> struct lt_typed_other"),
           "%s: each field's kind and target" % arch, out)
    bad = []
    for name, fields in types.items():
        layout = dwarf_offsets(arch, name.split()[1])
        for field, (offset, kind, rest) in fields.items():
            if layout.get(field) != offset:
                bad.append("%s.%s: +%d, DWARF +%s" % (name, field, offset,
                                                      layout.get(field)))
    tap.ok(types and not bad, "%s: every listed offset is the compiler's (%d types)"
           % (arch, len(types)), "\n".join(bad) + out)
    out = k.command("memleak types lt_typed_item")
    tap.ok(list(types_listed(out)) == ["struct lt_typed_item"] and
           "memleak: 1 type" in out, "%s: memleak types NAME lists one" % arch, out)
    out = k.command("memleak types nosuch")
    tap.ok("memleak types: no type 'nosuch'" in out, "%s: an unknown type is named" % arch,
           out)
    out = k.command("memleak typed=maybe")
    tap.ok("memleak typed: 'maybe' is not on or off" in out,
           "%s: memleak typed refuses a bad value" % arch, out)


def check_hidden(tap, arch, k):
    k.command("memleak age=0")
    setup = k.command("leaktest typed-hidden")
    leaked = EXPECT.findall(setup)
    out = k.command("memleak")
    tap.ok(len(leaked) == 1 and REPORT.findall(out) == leaked and total(out) == 1 and
           findings(out) == 0,
           "%s: precise: the leak kept only in an integer field is reported" % arch,
           setup + out)
    owner = [a for a, _ in KEEPS.findall(setup)]
    out = k.command("memleak refs %s" % (leaked[0][0] if leaked else "0"))
    tap.ok("0 pointers into block" in out and "direct leak" in out,
           "%s: memleak refs reads the typed owner as the scan does: no pointer" % arch,
           out)
    m = STATS.search(k.command("memleak stats"))
    tap.ok(m and int(m.group(2)) > 0 and int(m.group(4)) > 0 and m.group(5) == "on" and
           int(m.group(1)) == int(m.group(2)) + int(m.group(3)),
           "%s: stats split precise and conservative bytes" % arch, m and m.group(0))
    out = k.command("memleak typed=off")
    tap.ok("memleak: typed scanning off" in out, "%s: typed scanning off" % arch, out)
    k.command("memleak clear")
    out = k.command("memleak")
    tap.ok(total(out) == 0 and not REPORT.search(out),
           "%s: conservative: the integer hides the leak" % arch, out)
    out = k.command("memleak refs %s" % (leaked[0][0] if leaked else "0"))
    tap.ok("1 pointer into block" in out and owner and
           "block %s (size 20)+0x4: %s, start" % (owner[0], leaked[0][0]) in out,
           "%s: ... and refs names the owner's integer field when off" % arch, out)
    m = STATS.search(k.command("memleak stats"))
    tap.ok(m and m.group(2) == "0" and m.group(5) == "off",
           "%s: nothing scanned precisely when off" % arch, m and m.group(0))
    k.command("memleak typed=on")
    k.command("leaktest clean")


def check_confusion(tap, arch, k):
    setup = k.command("leaktest typed-confusion")
    kept = dict(KEEPS.findall(setup))
    out = k.command("memleak")
    found = FINDING.findall(out)
    owner = [a for a, s in kept.items() if s != "12" and s != "24"]
    item = [a for a, s in kept.items() if a not in owner]
    ok = (len(found) == 1 and found[0][0] == "type mismatch" and
          found[0][1] == "struct lt_typed_owner.other" and item and
          found[0][3].startswith("struct lt_typed_item %s+0x0 " % item[0]) and
          "struct lt_typed_other expected" in found[0][3])
    tap.ok(ok, "%s: a stale pointer to a reused object is a type mismatch" % arch,
           setup + out)
    tap.ok("its backtrace:" in out and "the target's backtrace:" in out and
           out.count("setup_typed_confusion+") == 2 and findings(out) == 1 and
           total(out) == 0,
           "%s: with both backtraces, counted in the summary, no leak" % arch, out)
    k.command("leaktest clean")
    out = k.command("memleak")
    tap.ok(findings(out) == 0 and not FINDING.search(out),
           "%s: gone once the owner is freed" % arch, out)


def check_dangling(tap, arch, k):
    setup = k.command("leaktest typed-dangling")
    out = k.command("memleak")
    found = FINDING.findall(out)
    tap.ok(len(found) == 1 and found[0][0] == "dangling pointer" and
           found[0][1] == "struct lt_typed_owner.other" and
           re.match(r"freed object 0x[0-9a-f]{8} \(struct lt_typed_other expected\)",
                    found[0][3]) and "the target's backtrace" not in out,
           "%s: a typed pointer to a freed object is a dangling pointer" % arch,
           setup + out)
    k.command("leaktest clean")


def check_lists(tap, arch, k):
    setup = k.command("leaktest typed-list")
    out = k.command("memleak")
    tap.ok(len(KEEPS.findall(setup)) == 5 and total(out) == 0 and findings(out) == 0,
           "%s: a typed list through container_of: no leak, no finding" % arch,
           setup + out)
    k.command("leaktest clean")
    setup = k.command("leaktest typed-list-orphaned")
    out = k.command("memleak")
    tap.ok(sorted(REPORT.findall(out)) == sorted(EXPECT.findall(setup)) and
           "direct 1 block" in out and "indirect 4 blocks" in out and
           findings(out) == 0,
           "%s: orphaned, the owner is a direct leak, its 4 items indirect" % arch,
           setup + out)
    k.command("leaktest clean")


def main():
    tap = Tap()
    for arch in ("i386", "arm"):
        session(tap, arch, [check_boot_heap, check_types, check_hidden, check_confusion,
                            check_dangling, check_lists], "typed session",
                poweroff=True)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
