#!/usr/bin/env python3
"""The docs stay true to the tree (no build needed).

Every page of docs/:
- opens with a picture of its subsystem: a fenced block starting in its
  first 15 lines, not tagged as code (``` or ```text), drawn with lines
  or arrows (a console transcript is not a picture);
- has a "Where to start reading" list: the marker line, any lines up to
  the list, then "- " items up to the next blank line. It names at
  least two paths, and each exists. A path is a `quoted` word with a
  '/' or a source file's ending; `arch/<arch>/x` must exist for every
  kernel arch (i386, arm); a NAME in it stands for any name (a glob);
  a bare file name (`scan.c`) may be relative to a folder the section
  names (`mm/kmemleak/`, or the folder of a path named before it).

The README's layout table (under "## Layout"): every path a row names
exists, from the top of the tree or inside one of the folders the row
is about (its first column); in the rows about tools/ a bare word
(`setup`, `mkcpio`) is a path too, since tools have no file ending.
Every entry of tools/ has its place in the table, so that a new tool
is never undocumented.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from kqemu import ROOT, Tap  # noqa: E402

ARCHES = ("i386", "arm")
PICTURE_LINES = 15
DRAWING = re.compile(r"->|<-|[─│┌┐└┘├┤┬┴┼→←▶►▼▲◀]|\+--|--\+|\|")
SOURCE_END = re.compile(r"\.(c|h|S|py|md|t|mk|ld|sh|cfg|in)$")
TOKEN = re.compile(r"`([^`]+)`")


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def first_picture(text):
    """(line number, info string, body) of the first fenced block."""
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            end = next((i for i in range(n, len(lines))
                        if lines[i].startswith("```")), len(lines))
            return n, line[3:].strip(), "\n".join(lines[n:end])
    return None, None, ""


def path_like(tok):
    """Is a `quoted` word a path (not code, a command or an include)?"""
    if re.search(r"[\s()=,:;'\"]", tok) or tok.startswith("<") or "..." in tok:
        return False
    return "/" in tok or bool(SOURCE_END.search(tok))


def expand(tok):
    """The concrete paths a token stands for: <arch> -> each arch."""
    if "<arch>" in tok:
        return [tok.replace("<arch>", a) for a in ARCHES]
    return [tok]


def exists(path, bases):
    """Does path exist from the root or from one of the folders bases?"""
    for base in [""] + sorted(bases):
        full = os.path.join(ROOT, base, path.replace("NAME", "*"))
        if glob.glob(full.rstrip("/")):
            return True
    return False


def start_reading(text):
    """The lines of the "Where to start reading" section, or None."""
    lines = text.splitlines()
    at = next((i for i, l in enumerate(lines)
               if "where to start reading" in l.lower()), None)
    if at is None:
        return None
    section, in_list = [], False
    for line in lines[at:]:
        if in_list and not line.strip():
            break
        in_list = in_list or line.startswith("- ")
        section.append(line)
    return section if in_list else None


def check_paths(tokens):
    """The missing paths among tokens (in order, folders named count)."""
    bases, missing, named = set(), [], 0
    for tok in tokens:
        if not path_like(tok):
            continue
        named += 1
        for p in expand(tok):
            if not exists(p, bases):
                missing.append(p)
            elif "/" in p:
                bases.add(p if p.endswith("/") else os.path.dirname(p))
    return named, missing


def check_page(tap, page):
    text = read(page)
    line, info, body = first_picture(text)
    tap.ok(line is not None and line <= PICTURE_LINES and
           info in ("", "text") and DRAWING.search(body),
           "%s opens with a picture (a drawn block in its first %d lines)"
           % (page, PICTURE_LINES),
           "first fenced block: line %s, tag %r" % (line, info))
    section = start_reading(text)
    tap.ok(section, "%s has a 'Where to start reading' list" % page)
    if section:
        named, missing = check_paths(TOKEN.findall("\n".join(section)))
        tap.ok(named >= 2 and not missing,
               "%s: the %d paths it says to start reading exist" % (page, named),
               "missing: %s" % ", ".join(missing))


def layout_rows(readme):
    """The rows of the README's layout table, as lists of cells."""
    part = readme.split("\n## Layout", 1)[1].split("\n## ", 1)[0]
    rows = [l for l in part.splitlines() if l.startswith("| ")]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows[1:]
            if not r.startswith("| ---")]


def check_layout(tap):
    rows = layout_rows(read("README.md"))
    tap.ok(len(rows) >= 8, "the README has a layout table (%d rows)" % len(rows))
    missing, named = [], set()
    for cells in rows:
        folders = [t for t in TOKEN.findall(cells[0]) if path_like(t + "/")]
        row_words = TOKEN.findall(" | ".join(cells))
        tools_row = any(f.startswith("tools") for f in folders)
        for tok in row_words:
            if not path_like(tok) and not (
                    tools_row and re.match(r"^[\w-]+/?$", tok)):
                continue
            if not exists(tok, folders):
                missing.append("%s (row %s)" % (tok, cells[0]))
            for f in folders:
                named.add(os.path.normpath(os.path.join(f, tok)))
            named.add(os.path.normpath(tok))
    tap.ok(not missing, "every path the README's layout table names exists",
           "\n".join(missing))
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard",
                          "tools"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    entries = sorted({"/".join(p.split("/")[:2]) for p in out})
    absent = [e for e in entries if e not in named]
    tap.ok(entries and not absent,
           "every entry of tools/ is in the README's layout table (%d)"
           % len(entries), "not named: %s" % ", ".join(absent))


def main():
    tap = Tap()
    pages = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    tap.ok(len(pages) >= 5, "found the docs pages (%d)" % len(pages))
    for page in pages:
        check_page(tap, os.path.relpath(page, ROOT))
    check_layout(tap)
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
