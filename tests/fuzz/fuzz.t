#!/usr/bin/env python3
"""Runs each libFuzzer target of tests/fuzz/ (built by make test into
build/fuzz/) for a short, fixed budget from a seed corpus of real inputs.
A target's tests/fuzz/fuzz_NAME.mk names its seeds in
FUZZ_SEEDS_fuzz_NAME := GLOB ... (paths from the top of the tree: built
modules, boot archives, files of tests/fuzz/corpus/); without it the
target starts from nothing. A crash, leak or
sanitizer report fails the test and leaves the input in
build/fuzz/crashes/."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, "build", "fuzz")
RUNS = os.environ.get("FUZZ_RUNS", "300000")
# Per target: nine of them (with start-up) run in about 80 s.
SECONDS = os.environ.get("FUZZ_SECONDS", "7")
# A unit this slow is a hang (a parser looping forever): a failure.
TIMEOUT = os.environ.get("FUZZ_TIMEOUT", "10")



def targets():
    """Each target's name and its seed globs, from tests/fuzz/fuzz_*.mk."""
    found = {}
    for src in sorted(glob.glob(os.path.join(HERE, "fuzz_*.c"))):
        name = os.path.splitext(os.path.basename(src))[0]
        globs = []
        mk = os.path.join(HERE, name + ".mk")
        if os.path.exists(mk):
            with open(mk) as f:
                for line in f:
                    key, _, value = line.partition(":=")
                    if key.strip() == "FUZZ_SEEDS_" + name:
                        globs += value.split()
        found[name] = globs
    return found


def run(n, target, globs):
    binary = os.path.join(BUILD, target)
    if not os.access(binary, os.X_OK):
        print("not ok %d - %s is built (make test builds it)" % (n, target))
        return False
    crashes = os.path.join(BUILD, "crashes")
    os.makedirs(crashes, exist_ok=True)
    with tempfile.TemporaryDirectory() as corpus:
        seeds = sorted(p for g in globs for p in glob.glob(os.path.join(ROOT, g))
                       if os.path.isfile(p))
        for i, seed in enumerate(seeds):
            shutil.copy(seed, os.path.join(corpus, "seed%d" % i))
        proc = subprocess.run(
            [binary, "-seed=1", "-runs=" + RUNS, "-max_total_time=" + SECONDS,
             "-timeout=" + TIMEOUT,
             "-max_len=65536", "-artifact_prefix=" + crashes + "/" + target + "-",
             corpus], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.decode("utf-8", "replace")
    ok = proc.returncode == 0
    print("%sok %d - %s: %d seeds, no crash" % ("" if ok else "not ", n, target,
                                               len(seeds)))
    if not ok:
        for line in out.splitlines()[-40:]:
            print("#   " + line)
    return ok


def main():
    failed = 0
    found = targets()
    for n, target in enumerate(sorted(found), 1):
        failed += not run(n, target, found[target])
    print("1..%d" % len(found))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
