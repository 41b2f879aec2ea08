#!/usr/bin/env python3
"""tools/scan-ab on stand-ins for two builds of the host leak check:
small scripts that print what build/host-bench/peers/ours prints, with
phases set per run. The medians and the pairs' ratios come out as
computed by hand, the runs go in turns ABBA, and a build that misses a
leaked block, prints no phases, exits with an error or is not there
stops the tool with status 2 and a message, no traceback.
"""
import os
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap  # noqa: E402

TOOL = os.path.join(ROOT, "tools", "scan-ab")

# A stand-in: its nth run (counted in a file) prints row n of its table
# of phases (reset marking checksums confirmation classification), and
# the whole check's ns, the table over again after its last row; each
# run appends its name to the log of turns.
STAND_IN = """#!/bin/sh
n=$(cat "{count}" 2>/dev/null || echo 0)
echo $((n + 1)) >"{count}"
echo {name} >>"{log}"
set -- $(sed -n "$((n % $(wc -l <"{table}") + 1))p" "{table}")
echo "ours: phases reset=$1 marking=$2 checksums=$3 confirmation=$4 \
classification=$5 ns per block" >&2
echo "blocks=$7 expected=100 found=$8 ns=$6 words=1 meta=1"
exit {status}
"""


def stand_in(tmp, name, rows, found=100, status=0):
    """A script printing rows, one a run: (five phases, ns per block)."""
    table = os.path.join(tmp, name + ".table")
    with open(table, "w") as f:
        for phases, per_block in rows:
            f.write(" ".join(str(p) for p in phases) +
                    " %d 1000 %d\n" % (per_block * 1000, found))
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(STAND_IN.format(count=os.path.join(tmp, name + ".count"),
                                log=os.path.join(tmp, "turns"),
                                name=name, table=table, status=status))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def scan_ab(*args):
    out = subprocess.run([TOOL] + [str(a) for a in args],
                         capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def row(stdout, name):
    """The numbers of the row named name."""
    for line in stdout.splitlines():
        words = line.split()
        if words and words[0] == name:
            return [float(w) for w in words[1:]]
    return None


def main():
    t = Tap()
    with tempfile.TemporaryDirectory() as tmp:
        # Before: reset 10, 20, 30 in its three runs; after: half of
        # each, and the other phases as before but marking, which is
        # 1.5 times in the second pair only.
        before = stand_in(tmp, "before", [
            ((10, 100, 30, 12, 20), 172),
            ((20, 100, 30, 12, 20), 182),
            ((30, 100, 30, 12, 20), 192)])
        after = stand_in(tmp, "after", [
            ((5, 100, 30, 12, 20), 167),
            ((10, 150, 30, 12, 20), 222),
            ((15, 100, 30, 12, 20), 177)])
        status, out, err = scan_ab(before, after, 3, 1000)
        t.ok(status == 0, "two builds, three pairs: exit status 0",
             out + err)
        t.ok(row(out, "before") == [20.0, 100.0, 30.0, 12.0, 20.0, 182.0],
             "the medians of the first build", out)
        t.ok(row(out, "after") == [10.0, 100.0, 30.0, 12.0, 20.0, 177.0],
             "the medians of the second build", out)
        ratio = row(out, "ratio") or []
        t.ok(len(ratio) == 6 and ratio[:5] == [0.5, 1.0, 1.0, 1.0, 1.0],
             "each pair's own ratios, their median: reset 0.5, "
             "marking 1.0 (1.5 in one pair only)", out)
        t.ok(len(ratio) == 6 and abs(ratio[5] - 167 / 172) < 0.001,
             "the whole check's ratio is the median of the pairs' "
             "(167/172, 222/182, 177/192), not of the medians' "
             "(177/182)", out)
        with open(os.path.join(tmp, "turns")) as f:
            turns = f.read().split()
        t.ok(turns == ["before", "after", "after", "before",
                       "before", "after"],
             "the runs go in turns ABBA", " ".join(turns))

        missed = stand_in(tmp, "missed", [((1, 1, 1, 1, 1), 5)], found=99)
        status, out, err = scan_ab(before, missed, 1, 1000)
        t.ok(status == 2 and "found 99 leaked blocks, expected 100" in err
             and "Traceback" not in err,
             "a build that misses a leaked block stops it (status 2)", err)
        crashed = stand_in(tmp, "crashed", [((1, 1, 1, 1, 1), 5)],
                           status=3)
        status, out, err = scan_ab(crashed, before, 1, 1000)
        t.ok(status == 2 and "exited with 3" in err and
             "Traceback" not in err,
             "a build that fails stops it (status 2)", err)
        silent = os.path.join(tmp, "silent")
        with open(silent, "w") as f:
            f.write("#!/bin/sh\necho hello\n")
        os.chmod(silent, 0o755)
        status, out, err = scan_ab(before, silent, 1, 1000)
        t.ok(status == 2 and "printed no phases" in err and
             "Traceback" not in err,
             "a program that prints no phases stops it (status 2)", err)
        status, out, err = scan_ab(before, os.path.join(tmp, "none"))
        t.ok(status == 2 and "no program" in err and "Traceback" not in err,
             "a build that is not there: status 2, a message", err)
        status, out, err = scan_ab(before, after, "many")
        t.ok(status == 2 and "are numbers" in err and
             "Traceback" not in err,
             "PAIRS not a number: status 2, a message", err)
        status, out, err = scan_ab(before)
        t.ok(status == 2 and "usage" in err,
             "one build alone: the usage, status 2", err)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
