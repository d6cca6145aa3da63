"""Line endings on every path that writes a prompt file (issue 34's third habit), as one property.

A prompt file in LF, CRLF or mixed endings (CRLF first, then LF), with or without a BOM and a final
newline, with a stale block or none, is written by ``skillmem inject``, the skill-index hook or
``skillmem init``. Whatever the path: every byte outside the markers stays, and the block (with the
preamble a first injection adds) takes the file's line ending, that of its first line; and a second run
writes nothing (README: writes only when bytes change).
The merge driver's sides in differing styles are tests/commands/test_merge_driver.py's property;
``lint --fix`` in each style is tests/lint/test_fix.py's.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.cli import main
from skillmem_hook.hooks.index import skill_index

from .helpers import BEGIN, END, skill_md, write_skill

BOM = b"\xef\xbb\xbf"
ENDINGS = {"lf": (b"\n", b"\n"), "crlf": (b"\r\n", b"\r\n"), "mixed": (b"\r\n", b"\n")}  # the first line's, the rest's
LINE = st.text(st.sampled_from("abc XYZ#-*é名1"), max_size=12).map(lambda text: text.encode())


@st.composite
def prompt_files(draw):
    """(the file's bytes, its line ending, whether it holds a block)."""
    first, rest = ENDINGS[draw(st.sampled_from(sorted(ENDINGS)))]
    head = draw(st.lists(LINE, min_size=1, max_size=3))
    tail = draw(st.lists(LINE, max_size=3))
    stale = draw(st.booleans())
    block = [BEGIN, b"[general]", b"gone-skill", END] if stale else []
    endings = [first] + [rest] * (len(head) - 1) + [first] * len(block) + [rest] * len(tail)  # a tool wrote the block
    lines = [*head, *block, *tail]
    data = b"".join(line + ending for line, ending in zip(lines, endings))
    if not draw(st.booleans()):
        data = data[: -len(endings[-1])]  # no final newline
    if draw(st.booleans()):
        data = BOM + data
    return data, first if b"\n" in data else b"\n", stale


def _quiet(function, *args):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return function(*args)


def inject():
    return _quiet(main, ["inject", "--root", "skills", "--prompt-file", "AGENTS.md"])


def hook():
    return _quiet(skill_index, [])


def init():
    subprocess.run(["git", "init", "-q"], check=True)
    return _quiet(main, ["init", "--no-install", "--prompt-file", "AGENTS.md"])


def init_again():
    return _quiet(main, ["init", "--no-install"])  # the prompt file is .skillmem.yaml's now


WRITERS = {"inject": (inject, inject), "skill-index hook": (hook, hook), "init": (init, init_again)}


@contextlib.contextmanager
def project(data: bytes):
    """A fresh folder, the cwd while it lasts, holding skills/used-skill and AGENTS.md."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            write_skill(Path("skills"), "used-skill", skill_md("used-skill", "Does one thing."))
            Path("AGENTS.md").write_bytes(data)
            yield Path("AGENTS.md")
        finally:
            os.chdir(before)


@settings(max_examples=60)
@given(prompt_files(), st.sampled_from(sorted(WRITERS)))
def test_every_writer_keeps_the_bytes_outside_and_gives_the_block_the_files_line_ending(case, writer):
    data, newline, stale = case
    with project(data) as prompt:
        first, again = WRITERS[writer]
        assert first() in (0, 3)
        result, written_as = prompt.read_bytes(), prompt.stat().st_ino
        assert again() == 0  # a second run finds the block current and writes nothing
        assert (prompt.read_bytes(), prompt.stat().st_ino) == (result, written_as)
    start, stop = result.index(BEGIN), result.index(END) + len(END)
    assert b"used-skill" in result[start:stop]
    if stale:
        old_start, old_stop = data.index(BEGIN), data.index(END) + len(END)
        assert (result[:start], result[stop:]) == (data[:old_start], data[old_stop:])
        written = result[start:stop]
    else:
        assert result.startswith(data)  # a first injection only appends
        written = result[len(data) :]
    if newline == b"\r\n":
        assert written.count(b"\n") == written.count(b"\r\n") > 0
    else:
        assert b"\r" not in written
