"""Boots the kernel in QEMU (through tools/run) for the boot tests.

A Kernel object sends input to the serial console, waits for output
patterns and collects QEMU's exit status. Timeouts only catch hangs:
every wait is bounded and QEMU is always killed at the end.
"""
import os
import re
import signal
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPT = "kernel> "
# How long wait() lets the reader take the output left in the pipe.
DRAIN_SECONDS = 10


class Timeout(Exception):
    pass


def kernel_image(arch):
    return os.path.join(ROOT, "build", arch, "kernel.elf")


def make(*args, timeout=900):
    return subprocess.run(["make", "--no-print-directory", "-s"] + list(args),
                          cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout)


def build_variant(arch, build_dir, options, target="kernel"):
    """The test image's configuration (test_defconfig) in build_dir with
    options ({"DEBUG_MEMLEAK": "n", "NAME": "16", ...}) changed, then make
    target there. Returns the last make's CompletedProcess (returncode,
    stdout with the log)."""
    cfg = ["ARCH=" + arch, "BUILD=" + build_dir]
    p = make(*cfg, "test_defconfig")
    if p.returncode:
        return p
    config = os.path.join(ROOT, build_dir, ".config")
    with open(config) as f:
        lines = f.read().splitlines()
    for name, value in options.items():
        key = "CONFIG_" + name
        lines = [l for l in lines if not (l.startswith(key + "=") or
                                          l == "# %s is not set" % key)]
        lines.append("# %s is not set" % key if value == "n"
                     else "%s=%s" % (key, value))
    with open(config, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = make(*cfg, "olddefconfig")
    if p.returncode:
        return p
    return make(*cfg, "-j2", target)


class Console:
    """A process whose output is read in the background (QEMU's serial
    console, for Kernel), with input sent to it. Use as a context manager
    so the process never outlives it."""

    def __init__(self, cmd, stdin_data=None):
        self.output = ""
        self.pos = 0
        self._cond = threading.Condition()
        self._eof = False
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, start_new_session=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if stdin_data is not None:
            self.proc.stdin.write(stdin_data.encode())
            self.proc.stdin.close()

    def _read(self):
        while True:
            chunk = self.proc.stdout.read1(4096)
            with self._cond:
                if not chunk:
                    self._eof = True
                    self._cond.notify_all()
                    return
                self.output += chunk.decode("utf-8", "replace").replace("\r", "")
                self._cond.notify_all()

    def expect(self, pattern, timeout=20):
        """Waits for pattern (a regex) after the last match; returns the match."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                m = regex.search(self.output, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                left = deadline - time.monotonic()
                if self._eof or left <= 0:
                    why = "QEMU exited" if self._eof else "timed out"
                    raise Timeout("%s waiting for %r" % (why, pattern))
                self._cond.wait(left)

    def since(self, start):
        """Output from offset start up to the last match."""
        return self.output[start:self.pos]

    def send(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def command(self, line, timeout=20):
        """Types line at the prompt and returns what it printed before the next prompt."""
        self.send(line + "\n")
        start = self.pos
        self.expect(re.escape(PROMPT), timeout)
        return self.output[start:self.pos - len(PROMPT)]

    def wait(self, timeout=20):
        """The exit status (QEMU's, through tools/run), or None if the
        process had to be killed. Returns once all the process printed is
        in output: when it exits, its last lines may still wait in the
        pipe for the reader (a loaded machine once lost a test's verdict
        line so)."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        self._reader.join(DRAIN_SECONDS)
        return status

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        self._reader.join(5)
        return False


class Kernel(Console):
    """One QEMU run of a kernel image (by default the arch's test build)."""

    def __init__(self, arch, append="", smp=1, iso=None, test=True,
                 stdin_data=None, extra=(), image=None):
        cmd = [os.path.join(ROOT, "tools", "run"), "--arch", arch,
               "--smp", str(smp)]
        if test:
            cmd.append("--test")
        if iso:
            cmd += ["--iso", iso]
        else:
            if append:
                cmd += ["--append", append]
            cmd.append(image or kernel_image(arch))
        cmd += list(extra)
        self.arch = arch
        super().__init__(cmd, stdin_data)


def session(tap, arch, checks, name="session", append="test",
            poweroff=False, extra=()):
    """Boots arch and runs each check(tap, arch, k) at the prompt, then
    (poweroff) checks that it powers off cleanly. A hang fails one test
    that names the session; the tests after it go on."""
    with Kernel(arch, append=append, extra=extra) as k:
        try:
            k.expect(re.escape(PROMPT))
            for check in checks:
                check(tap, arch, k)
            if poweroff:
                k.send("poweroff\n")
                tap.ok(k.wait(20) == 0, "%s: powers off cleanly" % arch,
                       k.output)
        except Timeout as e:
            tap.ok(False, "%s: %s (%s)" % (arch, name, e), k.output)


class Tap:
    """Minimal TAP producer: numbered results, diagnostics, a final plan."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, diag=""):
        self.n += 1
        print("%sok %d - %s" % ("" if cond else "not ", self.n, name), flush=True)
        if not cond:
            self.failed += 1
            # prove shows comments, not the "not ok" line: say what failed,
            # and the console's own failures from before its last lines.
            print("# failed: " + name)
            lines = str(diag).splitlines()
            earlier = [line for line in lines[:-40]
                       if re.search(r"\bnot ok\b|: expected ", line)]
            # A block freed after it was reported: the collector's own
            # report of it (who allocated it) follows the line. Tests free
            # their deliberate leaks last: a false report comes earlier.
            for i in [i for i, line in enumerate(lines[:-40])
                      if "freeing orphan object" in line][-12:]:
                earlier += lines[i:i + 12]
            for line in earlier[-160:]:
                print("#   " + line)
            if earlier:
                print("#   ...")
            for line in lines[-40:]:
                print("#   " + line)
        return cond

    def done(self):
        print("1..%d" % self.n, flush=True)
        return 1 if self.failed else 0
