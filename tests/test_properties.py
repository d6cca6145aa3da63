"""Property tests (hypothesis) for the invariants the tool promises."""

from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from skillmem_hook.block.drift import Drift
from skillmem_hook.block.markers import BEGIN_MARKER, END_MARKER, find_markers, newline_of, splice_block
from skillmem_hook.block.render import render_block
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skillfile.names import slug_of
from skillmem_hook.cli import main
from skillmem_hook.errors import MarkerError

from .helpers import BEGIN, END, write_skill

NEWLINES = st.sampled_from([b"\n", b"\r\n"])
# Arbitrary bytes, any encoding, with line breaks, but no marker line (those are
# generated on purpose), no NUL byte and no UTF-16 BOM (files with those are refused).
TEXT = (
    st.binary(max_size=200)
    .map(lambda data: data.replace(b"\x00", b""))
    .filter(lambda data: b"<<<SKILL_INDEX_" not in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")))
)
NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=20)


def lines(parts, newlines):
    return b"".join(part + newline for part, newline in zip(parts, newlines))


@st.composite
def prompt_with_block(draw):
    before = draw(TEXT)
    after = draw(TEXT)
    nl = draw(NEWLINES)
    inside = draw(TEXT).replace(b"\n", b" ")
    prefix = before + (b"\n" if before and not before.endswith(b"\n") else b"")
    return (
        prefix,
        prefix + BEGIN + nl + inside + nl + END + (nl + after if after else b""),
        (nl + after if after else b""),
    )


def quietly(*args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main([str(arg) for arg in args])
    return code, (json.loads(out.getvalue()) if out.getvalue() else None)


def make_tree(root: Path, names):
    for number, name in enumerate(names):
        write_skill(root, f"s{number:03d}", ("---\nname: " + json.dumps(name) + "\n---\n").encode())


@contextlib.contextmanager
def workspace(names, prompt_bytes: bytes):
    """A temporary skills root holding ``names`` and a prompt file; yields (root, prompt)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "skills"
        root.mkdir()
        make_tree(root, names)
        prompt = Path(folder) / "AGENTS.md"
        prompt.write_bytes(prompt_bytes)
        yield root, prompt


@given(prompt_with_block(), st.lists(st.sampled_from(["alpha", "beta", "pdf-parse", "名前"]), unique=True))
def test_bytes_outside_the_markers_never_change(case, names):
    prefix, data, suffix = case
    with workspace(names, data) as (root, prompt):
        assert quietly("inject", "--root", root, "--prompt-file", prompt)[0] == 0
        result = prompt.read_bytes()
        assert result.startswith(prefix + BEGIN)
        assert result.endswith(END + suffix)


@given(TEXT, st.lists(NAMES, max_size=6, unique=True))
def test_inject_twice_is_inject_once_and_verify_then_passes(data, names):
    with workspace(names, data) as (root, prompt):
        quietly("inject", "--root", root, "--prompt-file", prompt)
        once = prompt.read_bytes()
        quietly("inject", "--root", root, "--prompt-file", prompt)
        assert prompt.read_bytes() == once
        assert quietly("verify", "--strict", "--root", root, "--prompt-file", prompt)[0] == 0


# unique by slug: "a" and "a-" are one skill (de-duplicated), so removing one leaves the other listed
@given(
    st.lists(st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True), min_size=1, max_size=8, unique_by=slug_of),
    st.data(),
)
def test_adding_or_removing_one_skill_is_drift_naming_exactly_that_skill(names, data):
    with workspace(names, b"# prompt\n") as (root, prompt):
        quietly("inject", "--root", root, "--prompt-file", prompt)
        if data.draw(st.booleans()):
            write_skill(root, "zz-new", b"---\nname: zz-new-skill\n---\n")
            expected = {"missing": ["zz-new-skill"], "stale": []}
        else:
            victim = data.draw(st.integers(0, len(names) - 1))
            (root / f"s{victim:03d}" / "SKILL.md").unlink()
            expected = {"missing": [], "stale": [names[victim]]}
        code, report = quietly("verify", "--root", root, "--prompt-file", prompt)
        assert code == 3
        assert {"missing": report["missing"], "stale": report["stale"]} == expected


@st.composite
def malformed_prompt(draw):
    markers = draw(
        st.lists(st.sampled_from([BEGIN, END, b" " + BEGIN, END + b"\t"]), min_size=1, max_size=4).filter(
            lambda found: found != [BEGIN, END]
        )
    )
    parts = []
    for marker in markers:
        parts += [draw(TEXT).replace(b"\n", b" "), marker]
    parts.append(draw(TEXT).replace(b"\n", b" "))
    return b"\n".join(parts)


@given(malformed_prompt())
def test_a_file_with_malformed_markers_is_never_modified(data):
    with pytest.raises(MarkerError):
        find_markers(data)
    with workspace(["a"], data) as (root, prompt):
        for command in ("inject", "verify"):
            assert quietly(command, "--root", root, "--prompt-file", prompt)[0] == 2
        assert prompt.read_bytes() == data


@given(st.lists(NAMES, max_size=12))
def test_the_block_never_holds_more_than_one_pair_of_markers(names):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        make_tree(root, names)
        block = render_block(scan_roots([str(root)]).skills).decode()
    block_lines = block.split("\n")
    assert block_lines.count(BEGIN_MARKER) == 1
    assert block_lines.count(END_MARKER) == 1
    assert block_lines[0] == BEGIN_MARKER
    assert block_lines[-1] == END_MARKER
    assert all("\r" not in line for line in block_lines)
    # Read back, the block lists exactly the skills: no name turned into a header or a marker.
    assert splice_block(block.encode(), block.encode()) == block.encode()


@given(
    st.lists(st.from_regex(r"[A-Za-z0-9 _.-]{1,10}", fullmatch=True), min_size=1, max_size=10, unique=True),
    st.randoms(),
)
def test_the_block_is_the_same_whatever_order_the_files_were_created_in(names, rng: random.Random):
    blocks = []
    for _ in range(2):
        order = list(enumerate(names))
        rng.shuffle(order)
        with tempfile.TemporaryDirectory() as folder:
            for number, name in order:
                write_skill(Path(folder), f"s{number:03d}", ("---\nname: " + json.dumps(name) + "\n---\n").encode())
            blocks.append(render_block(scan_roots([folder]).skills))
    assert blocks[0] == blocks[1]


@given(st.lists(NAMES, max_size=8))
def test_drift_after_inject_is_none(names):
    with tempfile.TemporaryDirectory() as folder:
        make_tree(Path(folder), names)
        skills = scan_roots([folder]).skills
    updated = Drift(b"", skills).updated
    again = Drift(updated, skills)
    assert (again.missing, again.stale, again.moved, again.current) == ([], [], [], True)


FOLDERS = st.lists(st.sampled_from(["a", "b", "@acme", "x y", "é"]), min_size=1, max_size=4).map("/".join)


@given(st.lists(st.tuples(FOLDERS, NAMES), min_size=1, max_size=12, unique_by=lambda entry: entry[0]))
def test_every_skill_file_is_indexed_dropped_as_a_duplicate_or_skipped(entries):
    """Nothing is lost silently: nested, owned, odd or duplicate, every SKILL.md is accounted for."""
    with tempfile.TemporaryDirectory() as folder:
        for path, name in entries:
            write_skill(Path(folder), path, ("---\nname: " + json.dumps(name) + "\n---\n").encode())
        catalog = scan_roots([folder])
    accounted = [skill.path for skill in catalog.skills]
    accounted += [dropped.path for dropped, _ in catalog.duplicates]
    accounted += [item["path"] for item in catalog.skipped]
    assert sorted(accounted) == sorted(path for path, _ in entries)


# CR-only files (no LF anywhere): markers are recognised and the block keeps CR endings.
CR_TEXT = TEXT.map(lambda data: data.replace(b"\n", b"\r"))


@given(CR_TEXT, CR_TEXT, st.lists(NAMES, max_size=5, unique=True))
def test_a_cr_only_file_gets_one_block_and_keeps_every_byte_outside_it(before, after, names):
    skills = _skills(names)
    data = before + (b"\r" if before and not before.endswith(b"\r") else b"") + BEGIN + b"\rold\r" + END + b"\r" + after
    updated = Drift(data, skills).updated
    assert b"\n" not in updated
    start, stop = find_markers(updated)
    assert updated[:start] == data[: data.index(BEGIN)]
    assert updated[stop:] == data[data.index(END) + len(END) :]
    assert Drift(updated, skills).current


@given(CR_TEXT, st.lists(NAMES, max_size=5, unique=True))
def test_a_first_injection_into_a_cr_only_file_is_found_again(data, names):
    skills = _skills(names)
    once = Drift(data, skills).updated
    assert once.startswith(data)
    assert (b"\n" in once) is (b"\r" not in data)  # a file with no line ending at all gets LF
    assert Drift(once, skills).updated == once


INVISIBLE = st.sampled_from(
    [" ", "\t", "\x0b", "\x0c", "\r", "\u00a0", "\u200b", "\u2060", "\ufeff", "\u3000", "\u3164", "\u034f", "\u0301"]
).map(str.encode)


@st.composite
def near_miss_prompt(draw):
    marker = draw(st.sampled_from([BEGIN, END]))
    before = b"".join(draw(st.lists(INVISIBLE, max_size=2)))
    after = b"".join(draw(st.lists(INVISIBLE, max_size=2)))
    assume(before or after)
    near = before + marker + after
    nl = draw(NEWLINES)
    lines = [draw(TEXT).replace(b"\n", b" ").replace(b"\r", b" ") for _ in range(3)]
    block = [BEGIN, b"[general]", b"a", END]
    at = draw(st.integers(0, 3))
    return nl.join([*lines[:at], near, *lines[at:], *block]) + nl


@given(near_miss_prompt())
def test_a_near_miss_marker_never_makes_a_second_block_appear(data):
    with pytest.raises(MarkerError):  # a near miss, or (a BOM before the first line's marker) two pairs
        find_markers(data)
    with workspace(["a"], data) as (root, prompt):
        assert quietly("inject", "--root", root, "--prompt-file", prompt)[0] == 2
        assert prompt.read_bytes() == data


PREAMBLES = st.one_of(st.none(), st.from_regex(r"[A-Za-z][A-Za-z .,:()-]{0,60}[A-Za-z.]", fullmatch=True))


@given(TEXT, PREAMBLES, PREAMBLES, st.lists(NAMES, max_size=5, unique=True))
def test_the_preamble_is_written_once_and_a_second_inject_changes_no_byte(data, first, later, names):
    skills = _skills(names)
    once = Drift(data, skills, preamble=first).updated
    assert once.startswith(data)
    if first:
        assert (first.encode() + newline_of(data) * 2 + BEGIN) in once
    again = Drift(once, skills, preamble=later)
    assert again.updated == once
    assert again.current


def _skills(names):
    with tempfile.TemporaryDirectory() as folder:
        make_tree(Path(folder), names)
        return scan_roots([folder]).skills
