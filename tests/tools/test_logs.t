#!/usr/bin/env python3
"""make test's logs: tools/test-log passes a test's output to prove
unchanged, with its exit status (124 when it timed out) and its
standard error, and keeps them in LOGDIR; tools/test-failures reads
them back and prints each failing test with its diagnostics, or the
status and last lines of a file that failed without one, and the last
lines of a failed file's standard error, and nothing for files that
passed (exit 1 when any failed, 0 when none did, 2 on bad usage)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap  # noqa: E402

TEST_LOG = os.path.join(ROOT, "tools", "test-log")
FAILURES = os.path.join(ROOT, "tools", "test-failures")

FAILING = """1..3
ok 1 - a
not ok 2 - b
# failed: b
#   the console said x
ok 3 - c
"""


def script(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


def main():
    tap = Tap()
    with tempfile.TemporaryDirectory() as tmp:
        logs = os.path.join(tmp, "logs")
        os.mkdir(os.path.join(tmp, "t"))
        script(os.path.join(tmp, "t", "bad.t"), "cat <<'EOF'\n%sEOF\nexit 1\n" % FAILING)
        script(os.path.join(tmp, "t", "hang.t"), "echo 1..1\necho '# waiting'\nsleep 30\n")
        script(os.path.join(tmp, "t", "good.t"), "echo 1..1\necho 'ok 1 - fine'\n")
        script(os.path.join(tmp, "t", "crash.t"),
               "echo 1..2\necho 'ok 1 - first'\necho 'ERROR: AddressSanitizer: "
               "heap-use-after-free' >&2\nexit 1\n")

        run = subprocess.run([TEST_LOG, logs, "20", "t/bad.t"], cwd=tmp,
                             capture_output=True, text=True)
        log = open(os.path.join(logs, "t_bad.t.tap")).read()
        tap.ok(run.returncode == 1 and run.stdout == FAILING and
               log == FAILING + "# test-log: exit status 1\n",
               "test-log: the output passed on unchanged, the exit status kept "
               "and logged", run.stdout + run.stderr + log)
        run = subprocess.run([TEST_LOG, logs, "1", "t/hang.t"], cwd=tmp,
                             capture_output=True, text=True)
        tap.ok(run.returncode == 124,
               "test-log: a test that runs too long is stopped (124)", run.stderr)
        subprocess.run([TEST_LOG, logs, "20", "t/good.t"], cwd=tmp,
                       capture_output=True, text=True)
        run = subprocess.run([TEST_LOG, logs, "20", "t/crash.t"], cwd=tmp,
                             capture_output=True, text=True)
        tap.ok(run.returncode == 1 and run.stdout == "1..2\nok 1 - first\n" and
               "heap-use-after-free" in run.stderr,
               "test-log: the standard error passed on as well", run.stdout + run.stderr)

        run = subprocess.run([FAILURES, logs], capture_output=True, text=True)
        out = run.stdout
        tap.ok(run.returncode == 1 and
               "t_bad.t: exit status 1\n  not ok 2 - b\n    # failed: b\n"
               "    #   the console said x\n" in out and "ok 1 - a" not in out,
               "test-failures: a failing test with its diagnostics", out)
        tap.ok("t_hang.t: timed out\n" in out and "# waiting" in out,
               "test-failures: a file that timed out, with its last lines", out)
        tap.ok("t_crash.t: exit status 1\n  (no failing test printed; the last "
               "lines:)\n    1..2\n    ok 1 - first\n  its standard error, the last "
               "lines:\n    ERROR: AddressSanitizer: heap-use-after-free\n" in out,
               "test-failures: a crash's last lines and standard error", out)
        tap.ok("good" not in out and
               "make test: 3 test files failed" in out.splitlines()[-1],
               "test-failures: passing files left out, the count last", out)

        for name in ("t_bad.t", "t_hang.t", "t_crash.t"):
            os.remove(os.path.join(logs, name + ".tap"))
        run = subprocess.run([FAILURES, logs], capture_output=True, text=True)
        tap.ok(run.returncode == 0 and run.stdout == "",
               "test-failures: nothing failed, nothing printed, status 0",
               run.stdout + run.stderr)
        run = subprocess.run([FAILURES, os.path.join(tmp, "none")],
                             capture_output=True, text=True)
        tap.ok(run.returncode == 2 and "usage" in run.stderr,
               "test-failures: no such directory: usage, status 2", run.stderr)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
