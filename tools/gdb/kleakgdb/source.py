"""Constants the debug info does not carry (#defines), read from the
kernel's own headers in this source tree, so they never drift."""
import os
import re

import gdb

from .util import KleakError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))

_cache = {}


def header_defines(relpath):
    """{NAME: int} for the '#define NAME <number or (A | B)>' lines."""
    if relpath in _cache:
        return _cache[relpath]
    path = os.path.join(ROOT, relpath)
    try:
        text = open(path).read()
    except OSError as e:
        raise KleakError("cannot read %s: %s" % (path, e))
    values = {}
    pattern = r"^#define[ \t]+(\w+)[ \t]+(.+?)[ \t]*(?:/\*.*)?$"
    for name, expr in re.findall(pattern, text, re.M):
        expr = re.sub(r"(?<=[0-9a-fA-F])[uUlL]+\b", "", expr)
        for known, value in values.items():
            expr = re.sub(r"\b%s\b" % known, str(value), expr)
        if re.fullmatch(r"[0-9a-fA-Fx()|<>&~+ \-]+", expr):
            try:
                values[name] = int(eval(expr, {"__builtins__": {}}))
            except (SyntaxError, ValueError, TypeError):
                pass
    _cache[relpath] = values
    return values


def define(relpath, name):
    values = header_defines(relpath)
    if name not in values:
        raise KleakError("%s defines no %s" % (relpath, name))
    return values[name]


def arch_name():
    """'i386' or 'arm', from the architecture GDB detected in kernel.elf."""
    name = gdb.selected_inferior().architecture().name() \
        if gdb.selected_inferior().pid else gdb.execute(
            "show architecture", to_string=True)
    if "386" in name:
        return "i386"
    if "arm" in name:
        return "arm"
    raise KleakError("unknown architecture '%s' (i386 or arm)" % name)


def gfp(name):
    return define("include/kernel/gfp.h", name)


def arch_define(name):
    return define("arch/%s/include/asm/thread.h" % arch_name(), name)


def kconfig():
    """{CONFIG_X: value} from the .config next to the loaded kernel.elf."""
    elf = gdb.current_progspace().filename
    if not elf:
        raise KleakError("no kernel.elf loaded (file build/<arch>/kernel.elf)")
    path = os.path.join(os.path.dirname(os.path.abspath(elf)), ".config")
    if path in _cache:
        return _cache[path]
    values = {}
    try:
        for line in open(path):
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line.strip())
            if m:
                values[m.group(1)] = m.group(2).strip('"')
    except OSError:
        pass
    _cache[path] = values
    return values


def hz():
    return int(kconfig().get("CONFIG_HZ", "100"))
