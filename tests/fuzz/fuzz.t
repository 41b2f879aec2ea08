#!/usr/bin/env python3
"""Runs each libFuzzer target of tests/fuzz/ (built by make test into
build/fuzz/) for a short, fixed budget from a seed corpus of real inputs:
the modules and boot archives of both arches when they are built. A
crash, leak or sanitizer report fails the test and leaves the input in
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
SECONDS = os.environ.get("FUZZ_SECONDS", "10")

SEEDS = {
    "fuzz_elf": "build/*/modules/*.ko",
    "fuzz_cpio": "build/*/initrd.cpio",
}


def run(n, target):
    binary = os.path.join(BUILD, target)
    if not os.access(binary, os.X_OK):
        print("not ok %d - %s is built (make test builds it)" % (n, target))
        return False
    crashes = os.path.join(BUILD, "crashes")
    os.makedirs(crashes, exist_ok=True)
    with tempfile.TemporaryDirectory() as corpus:
        seeds = glob.glob(os.path.join(ROOT, SEEDS[target]))
        for i, seed in enumerate(seeds):
            shutil.copy(seed, os.path.join(corpus, "seed%d" % i))
        proc = subprocess.run(
            [binary, "-seed=1", "-runs=" + RUNS, "-max_total_time=" + SECONDS,
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
    for n, target in enumerate(sorted(SEEDS), 1):
        failed += not run(n, target)
    print("1..%d" % len(SEEDS))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
