from __future__ import annotations

import os
import re
import tarfile
from pathlib import Path

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from skillmem_hook.catalog.skillfile.frontmatter import (
    UnclosedFrontmatter,
    first_heading,
    frontmatter_span,
    read_fields,
    read_simple_mapping,
)
from skillmem_hook.catalog.skillfile.lenient_yaml import read_leniently

from ...helpers import REPO


@pytest.mark.parametrize(
    ("data", "yaml_text", "body"),
    [
        (b"---\nname: a\n---\nbody", b"name: a\n", b"body"),
        (b"---\r\nname: a\r\n---\r\nbody", b"name: a\r\n", b"body"),
        (b"\xef\xbb\xbf---\nname: a\n---\n", b"name: a\n", b""),
        (b"---\nname: a\n---", b"name: a\n", b""),
        (b"---  \nname: a\n---\t\nx", b"name: a\n", b"x"),
        (b"---\n---\nx", b"", b"x"),
        (b"---\ndescription: |\n  a\n  ---\n  b\n---\nx", b"description: |\n  a\n  ---\n  b\n", b"x"),
    ],
)
def test_frontmatter_span_finds_the_yaml_and_the_body(data, yaml_text, body):
    start, end, body_start = frontmatter_span(data)
    assert data[start:end] == yaml_text
    assert data[body_start:] == body


@pytest.mark.parametrize("data", [b"", b"# Title\n", b"----\nname: a\n----\n", b"text\n---\nname: a\n---\n", b"---"])
def test_no_frontmatter(data):
    assert frontmatter_span(data) is None


@pytest.mark.parametrize("data", [b"---\nname: a\n", b"---\nname: a\n--", b"--- \n", b"---\ndescription: |\n  ---\n"])
def test_unclosed_frontmatter_is_reported(data):
    with pytest.raises(UnclosedFrontmatter):
        frontmatter_span(data)


# The closing line as a MULTILINE search found it, before bytes.find skipped to each line starting with ---.
_CLOSING_AS_A_SEARCH = re.compile(rb"^---[ \t]*(?:\r?\n|\Z)", re.MULTILINE)


def _span_by_search(data: bytes) -> tuple[int, int, int] | str | None:
    opening = re.compile(rb"---[ \t]*\r?\n").match(data, 3 if data.startswith(b"\xef\xbb\xbf") else 0)
    if opening is None:
        return None
    closing = _CLOSING_AS_A_SEARCH.search(data, opening.end())
    return "unclosed" if closing is None else (opening.end(), closing.start(), closing.end())


def _span_or_unclosed(data: bytes) -> tuple[int, int, int] | str | None:
    try:
        return frontmatter_span(data)
    except UnclosedFrontmatter:
        return "unclosed"


@given(
    st.lists(st.sampled_from([b"---", b"-", b"--", b"\n", b"\r", b"\r\n", b" ", b"\t", b"a", b"\xef\xbb\xbf"])).map(
        b"".join
    )
)
def test_the_closing_line_is_where_a_multiline_search_finds_it(data):
    assert _span_or_unclosed(data) == _span_by_search(data)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: yes\ndescription: no\n", {"name": "yes", "description": "no"}),
        ("name: 1.10\n", {"name": "1.10"}),
        ("name: ~\n", {"name": "~"}),
        ("name: 'quoted: value'\n", {"name": "quoted: value"}),
        ("name: 'it''s'\n", {"name": "it's"}),
        ('name: "# not a comment "\n', {"name": "# not a comment "}),
        ('name: "a, b: \\"c\\""\n', {"name": 'a, b: "c"'}),
        ("description: >\n  folded\n  text\n", {"description": "folded text\n"}),
        ("description: |\n  literal\n  text\n", {"description": "literal\ntext\n"}),
        ("name: a\r\ndescription: b\r\n", {"name": "a", "description": "b"}),
        ("name: [a, b]\n", {"name": ["a", "b"]}),
        ("name: {x: 1}\n", {"name": {"x": "1"}}),
        ("description: 123\n", {"description": "123"}),
    ],
)
def test_read_fields_keeps_every_scalar_a_string(text, expected):
    fields, warnings = read_fields(text)
    assert fields == expected
    assert warnings == []


def test_invalid_yaml_falls_back_to_line_reading_with_a_warning():
    fields, warnings = read_fields("name: colon-skill\ndescription: Use when: the user asks\n")
    assert fields == {"name": "colon-skill", "description": "Use when: the user asks"}
    assert len(warnings) == 1
    assert "invalid YAML" in warnings[0]


def test_tabs_in_indentation_fall_back_to_line_reading():
    fields, warnings = read_fields("name: tabbed\n\tdescription: x: y\n")
    assert fields["name"] == "tabbed"
    assert warnings


def test_duplicate_keys_take_the_last_value_and_warn():
    fields, warnings = read_fields("name: first\nname: second\nlicense: x y\nother: [a]\n")
    assert fields["name"] == "second"
    assert warnings == ["key 'name' is given more than once; the last one is used"]


def test_lenient_reader_handles_block_scalars_and_quotes():
    text = "name: 'odd: name'\ndescription: >-\n  first line\n  second: line\n\nother: x\n"
    assert read_leniently(text) == {"name": "odd: name", "description": "first line second: line"}


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("name: pdf-tool # main name", "pdf-tool"),
        ("name: pdf-tool\t# main name", "pdf-tool"),
        ("name: 'it''s-mine'", "it's-mine"),
        ("name: 'it''s-mine' # note", "it's-mine"),
        ('name: "say \\"hi\\"" # note', 'say "hi"'),
        ('name: "caf\\u00e9"', "café"),
        ("name: c#-tool", "c#-tool"),
        ("name: # only a comment", ""),
        ("name: 'unclosed", "'unclosed"),
        ("name: 'a' then text", "'a' then text"),
    ],
)
def test_lenient_reader_drops_comments_and_undoes_quotes_as_yaml_would(line, value):
    assert read_leniently(line + "\ndescription: a: b\n")["name"] == value


@pytest.mark.parametrize("escape", ["\\ud800", "\\ud83d\\ude00", "\\udc00"])
@pytest.mark.parametrize("loader", ["CBaseLoader", "BaseLoader"])
def test_a_surrogate_escape_is_invalid_yaml_whichever_loader_pyyaml_has(escape, loader, monkeypatch):
    if not hasattr(yaml, loader):
        pytest.skip("PyYAML without libyaml")
    if loader == "BaseLoader":
        monkeypatch.delattr(yaml, "CBaseLoader", raising=False)
    text = f'name: x\ndescription: "{escape}"\n'
    assert read_simple_mapping(text) is None
    fields, warnings = read_fields(text)
    assert fields["name"] == "x"
    assert fields["description"] == escape.encode().decode("unicode_escape")  # kept, so it is reported
    assert len(warnings) == 1
    assert "invalid YAML" in warnings[0]


def test_lenient_reader_literal_block_keeps_line_breaks():
    assert read_leniently("description: |\n  a: b\n  c\n")["description"] == "a: b\nc"


@pytest.mark.parametrize(
    ("body", "heading"),
    [
        ("# Title\n", "Title"),
        ("intro\n\n## Sub\n# Real title #\n", "Real title"),
        ("#NoSpace\n", None),
        ("", None),
        ("#   \n# Second\n", "Second"),
    ],
)
def test_first_heading(body, heading):
    assert first_heading(body) == heading


@pytest.mark.parametrize(
    "text",
    [
        "name: a: b\n",
        "name: 'q' x\n",
        "name: 'it's'\n",
        'name: "a\\qb"\n',
        'name: "a"b"\n',
        'name: "tab\tinside"\n',
        "name: -x\n",
        "name: a #c\n",
        "  name: a\n",
        "name: a\nname: b\n",
        "name:\tx\n",
        "name: a\u2028b\n",
        "# comment\n",
        "name: x:\n",
        "name:\n",
        "description: >\n  a\n\n  b\n",
        "description: >\n  a\n    b\n",
        "description: >\n    a\n  b\n",
        "description: >\n   \n",
        "description: >+\n  a\n",
        "description: >\nname: x\n",
    ],
)
def test_fast_path_leaves_anything_unusual_to_pyyaml(text):
    assert read_simple_mapping(text) is None


# Differential: wherever the fast path answers, PyYAML's base loaders (libyaml's and the pure one) must agree.
LOADERS = [yaml.BaseLoader] + ([yaml.CBaseLoader] if hasattr(yaml, "CBaseLoader") else [])
_KEYS = st.sampled_from(["name", "description", "license", "version", "y", "on", "a-b", "x_1"])
_VALUE_CHARS = st.characters(
    codec="utf-8", exclude_categories=("Cs",), include_characters="-?:,[]{}#&*!|>'\"%@`\t \u2028\u0085\ufeff"
)
# Mostly values the fast path takes (so the comparison runs), some with every
# character that matters to YAML (so its refusals are exercised too).
_PLAIN_CHARS = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp"), include_characters=" :#-'\"")
_QUOTED = st.tuples(st.sampled_from(["'", '"']), st.text(_VALUE_CHARS, max_size=20)).map(lambda q: q[0] + q[1] + q[0])
_ESCAPED = st.lists(
    st.one_of(
        st.text(_PLAIN_CHARS, max_size=5),
        st.sampled_from(
            [
                "\\\\",
                '\\"',
                "\\/",
                "\\n",
                "\\t",
                "\\r",
                "\\u00e9",
                "\\u4E2D",
                "\\x41",
                "\\",
                "\\q",
                "\\u12",
                "\\ud800",
                "\\uDFFF",
                "\\ud83d\\ude00",
                "\\uD7FF",
                "\\uE000",
                "\\U0001F600",
            ]
        ),
    ),
    max_size=6,
).map(lambda parts: '"' + "".join(parts) + '"')
_VALUES = st.one_of(
    st.text(_PLAIN_CHARS, min_size=1, max_size=30),
    _ESCAPED,
    st.text(_VALUE_CHARS, max_size=30),
    _QUOTED,
    _QUOTED.map(lambda value: value + "  "),
)


@given(st.lists(st.tuples(_KEYS, _VALUES), max_size=4, unique_by=lambda pair: pair[0]), st.sampled_from(["\n", "\r\n"]))
def test_fast_path_agrees_with_pyyaml(pairs, newline):
    text = "".join(f"{key}: {value}{newline}" for key, value in pairs)
    fast = read_simple_mapping(text.replace("\r\n", "\n"))
    if fast is not None:
        for loader in LOADERS:
            assert (yaml.load(text, Loader=loader) or {}) == fast


@given(st.lists(st.tuples(_KEYS, _VALUES), min_size=1, max_size=6))
def test_read_fields_agrees_with_pyyaml_when_pyyaml_accepts(pairs):
    text = "".join(f"{key}: {value}\n" for key, value in pairs)
    try:
        expected = [yaml.load(text, Loader=loader) for loader in LOADERS]
    except yaml.YAMLError:
        assume(False)
    fields, _ = read_fields(text)
    assert expected == [fields] * len(LOADERS)


# Block scalars: the fast path takes one-indentation folded and literal blocks.
_BLOCK_TEXT = st.one_of(
    st.from_regex(r"[A-Za-z0-9:#'\"|>-][A-Za-z0-9 :#'\",.|>é中-]{0,15}", fullmatch=True),
    st.text(_PLAIN_CHARS, max_size=15),
)
_BLOCK_LINE = st.tuples(st.sampled_from([0, 0, 0, 0, 0, 0, 1]), _BLOCK_TEXT)
_BLOCKS = st.tuples(
    st.sampled_from([">", "|", ">-", "|-", ">", "|", ">+", "|-1"]),
    st.integers(1, 3),
    st.lists(_BLOCK_LINE, min_size=1, max_size=4),
    st.sampled_from(["", "\n", "\n\n"]),
).map(lambda block: (block[0], "".join(" " * (block[1] + extra) + line + "\n" for extra, line in block[2]) + block[3]))


@given(
    st.lists(
        st.tuples(_KEYS, st.one_of(_VALUES.map(lambda v: ("", v)), _BLOCKS)), max_size=4, unique_by=lambda pair: pair[0]
    )
)
def test_fast_path_agrees_with_pyyaml_on_block_scalars(entries):
    text = "".join(f"{key}: {style}\n{body}" if style else f"{key}: {body}\n" for key, (style, body) in entries)
    fast = read_simple_mapping(text)
    if fast is not None:
        assert (yaml.load(text, Loader=yaml.BaseLoader) or {}) == fast


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("description: >\n  folded\n  lines\nname: x\n", {"description": "folded lines\n", "name": "x"}),
        ("description: >-\n  folded: with # marks\n\n", {"description": "folded: with # marks"}),
        ("description: |\n    literal\n    lines\n", {"description": "literal\nlines\n"}),
        ("description: |-\n  a\n  b\n", {"description": "a\nb"}),
    ],
)
def test_fast_path_reads_simple_block_scalars(text, expected):
    assert read_simple_mapping(text) == expected


# Maps below a key ("metadata:" and its fields): the fast path takes one indentation of one-line entries.
_INDENTS = st.sampled_from([2, 2, 2, 4, 1])
_SIMPLE_VALUES = st.one_of(
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 .é中-]{0,12}", fullmatch=True),
    st.from_regex(r"[A-Za-z0-9'\"][A-Za-z0-9 .:#'\"é中-]{0,12}", fullmatch=True),
)
_MAP_LINE = st.tuples(st.sampled_from([0] * 12 + [1, -1]), _KEYS, st.one_of(_SIMPLE_VALUES, _SIMPLE_VALUES, _VALUES))
_MAPS = st.tuples(
    _INDENTS,
    st.lists(_MAP_LINE, min_size=1, max_size=4, unique_by=lambda line: line[1]),
    st.sampled_from(["", "", "", "", "\n", "   \n"]),
).map(
    lambda nested: (
        "".join(f"{' ' * max(0, nested[0] + extra)}{key}: {value}\n" for extra, key, value in nested[1]) + nested[2]
    )
)


@given(
    st.lists(
        st.tuples(
            _KEYS,
            st.one_of(
                *(values.map(lambda value: ("value", value)) for values in (_SIMPLE_VALUES, _VALUES)),
                _MAPS.map(lambda map_: ("map", map_)),
                _MAPS.map(lambda map_: ("map", map_)),
            ),
        ),
        max_size=4,
        unique_by=lambda entry: entry[0],
    )
)
def test_fast_path_agrees_with_pyyaml_on_maps_below_a_key(entries):
    text = "".join(f"{key}:\n{body}" if kind == "map" else f"{key}: {body}\n" for key, (kind, body) in entries)
    fast = read_simple_mapping(text)
    if fast is not None:
        for loader in LOADERS:
            assert (yaml.load(text, Loader=loader) or {}) == fast


_PLAIN_ENTRY = st.tuples(_KEYS, st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 .é中-]{0,12}", fullmatch=True))


@given(
    _INDENTS,
    st.lists(_PLAIN_ENTRY, min_size=1, max_size=5, unique_by=lambda entry: entry[0]),
    st.lists(_PLAIN_ENTRY, max_size=2, unique_by=lambda entry: entry[0]),
)
def test_fast_path_takes_a_map_of_plain_entries_as_pyyaml_reads_it(indent, nested, after):
    after = [(key, value) for key, value in after if key != "metadata"]
    text = "metadata:\n" + "".join(f"{' ' * indent}{key}: {value}\n" for key, value in nested)
    text += "".join(f"{key}: {value}\n" for key, value in after)
    fast = read_simple_mapping(text)
    assert fast is not None
    for loader in LOADERS:
        assert yaml.load(text, Loader=loader) == fast


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "name: x\nmetadata:\n  author: me\n  version: '1.0'\n",
            {"name": "x", "metadata": {"author": "me", "version": "1.0"}},
        ),
        ("metadata:  \n    a: b\nname: x\n", {"metadata": {"a": "b"}, "name": "x"}),
    ],
)
def test_fast_path_reads_a_map_below_a_key(text, expected):
    assert read_simple_mapping(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "metadata:\n",
        "metadata:\nname: x\n",
        "metadata:\n  a: 1\n    b: 2\n",
        "metadata:\n    a: 1\n  b: 2\n",
        "metadata:\n  a: 1\n\n  b: 2\n",
        "metadata:\n  a: 1\n  a: 2\n",
        "metadata:\n  a: >\n    text\n",
        "metadata:\n  # note\n  a: 1\n",
        "metadata:\n  - a\n",
        "metadata:\n\ta: 1\n",
        "metadata:\n  a: 1\nmetadata:\n  b: 2\n",
        "metadata: x\nmetadata:\n  b: 2\n",
    ],
)
def test_fast_path_leaves_any_other_map_to_pyyaml(text):
    assert read_simple_mapping(text) is None


COLLECTIONS = Path(os.environ.get("SKILLMEM_COLLECTIONS", REPO.parent / "shared" / "data" / "collections"))


@pytest.mark.parametrize("name", ["skills-cn", "skills-en"])
def test_fast_path_agrees_with_pyyaml_on_every_frontmatter_of_the_shared_collections(name):
    archive = COLLECTIONS / f"{name}.tar.gz"
    if not archive.exists():
        pytest.skip(f"the shared collection {archive} is not beside this checkout (set SKILLMEM_COLLECTIONS)")
    taken = 0
    with tarfile.open(archive) as tar:
        for member in tar:
            if not (member.isfile() and member.name.endswith("/SKILL.md")):
                continue
            data = tar.extractfile(member).read()
            try:
                span = frontmatter_span(data)
                text = data[span[0] : span[1]].decode("utf-8").replace("\r\n", "\n") if span else None
            except (UnclosedFrontmatter, UnicodeDecodeError):
                continue
            fast = read_simple_mapping(text) if text is not None else None
            if fast is not None:
                taken += 1
                assert fast == (yaml.load(text, Loader=LOADERS[-1]) or {}), member.name
    assert taken > 400  # the fast path is the usual one, so the comparison is not vacuous
