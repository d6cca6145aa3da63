"""``skillmem lint --fix``: the mechanical fixes, byte-exact outside the fixed lines, idempotent, and then clean."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.skillfile.frontmatter import frontmatter_span
from skillmem_hook.lint.agent_fields import is_unknown
from skillmem_hook.lint.check import lint_skill_file
from skillmem_hook.lint.fix import UnprovenFix, fix_skill_file
from skillmem_hook.lint.spec import ALLOWED_FIELDS


def codes(data, folder):
    result = lint_skill_file(data, path="p", folder=folder, subfolders=[], exists=lambda _: True, quality=False)
    return [finding.code for finding in result.findings]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            b"---\nname: a\ndescription: d\nversion: 1.0\nrisk: low\n---\n# Body\nversion: 2\n",
            b"---\nname: a\ndescription: d\nmetadata:\n  version: 1.0\n  risk: low\n---\n# Body\nversion: 2\n",
        ),
        (  # CRLF and a BOM kept; an existing block metadata gets the keys at its own indent
            b"\xef\xbb\xbf---\r\nname: a\r\nsource: x  # where from\r\nmetadata:\r\n    author: me\r\n"
            b"description: d\r\n---\r\nBody\r\n",
            b"\xef\xbb\xbf---\r\nname: a\r\nmetadata:\r\n    author: me\r\n    source: x  # where from\r\n"
            b"description: d\r\n---\r\nBody\r\n",
        ),
        (  # a name written as a title, in a folder with a valid name
            b'---\nname: "API Fuzzing for Bug Bounty"\ndescription: d\n---\n',
            b"---\nname: api-fuzzing-bug-bounty\ndescription: d\n---\n",
        ),
    ],
)
def test_the_fix_changes_only_the_fixed_lines(before, after):
    folder = "api-fuzzing-bug-bounty" if b"Fuzzing" in before else "a"
    fixed, _ = fix_skill_file(before, folder)
    assert fixed == after
    assert fix_skill_file(fixed, folder) == (fixed, [])  # idempotent
    assert not {"SK105", "SK113", "SK114", "SK116"} & set(codes(fixed, folder))


@pytest.mark.parametrize(
    ("data", "folder"),
    [
        (b"---\nname: a\ndescription: d\ntags: [x, y]\n---\n", "a"),  # a list: metadata holds text only
        (b"---\nname: a\ndescription: d\nnotes: |\n  two\n  lines\n---\n", "a"),  # a block scalar
        (b"---\nname: a\ndescription: d\nmetadata: {author: me}\nrisk: low\n---\n", "a"),  # flow metadata
        (b"---\nname: a\ndescription: d\nmetadata:\n  risk: high\nrisk: low\n---\n", "a"),  # metadata has it
        (b"---\nname: Other Name\ndescription: d\n---\n", "数据库_设计"),  # the folder is no valid name
        (b"---\nname: a\ndescription: 'broken: [\n---\n", "a"),  # invalid YAML
    ],
)
def test_what_is_not_mechanical_is_left_for_a_person(data, folder):
    assert fix_skill_file(data, folder) == (data, [])


KEYS = st.sampled_from(["version", "risk", "source", "date_added", "author", "tags"])
VALUES = st.sampled_from(["1.0", "low", "'quoted: yes'", '"x"', "[a, b]", "plain words"])


@given(st.lists(st.tuples(KEYS, VALUES), max_size=6, unique_by=lambda pair: pair[0]), st.booleans(), st.booleans())
def test_fixing_twice_is_fixing_once_and_the_body_never_changes(extra, crlf, metadata):
    lines = ["name: a", "description: d", *(f"{key}: {value}" for key, value in extra)]
    if metadata:
        lines += ["metadata:", "  author: me"]
    newline = "\r\n" if crlf else "\n"
    body = f"# Body{newline}risk: not a field{newline}"
    data = newline.join(["---", *lines, "---", body]).encode()
    fixed, _ = fix_skill_file(data, "a")
    assert fix_skill_file(fixed, "a") == (fixed, [])
    assert fixed.endswith(body.encode())
    assert (b"\r\n" in fixed) == crlf
    # A list stays (metadata holds text only), and so does a key metadata already holds.
    moved = [key for key, value in extra if not value.startswith("[") and not (metadata and key == "author")]
    remaining = codes(fixed, "a")
    assert remaining.count("SK105") == len(extra) - len(moved)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (  # metadata's last entry is a block scalar: the field joins metadata, not the scalar's text (H4-5)
            b"---\nname: a\ndescription: d\nmetadata:\n  notes: |\n    keep this note\nowner: alice\n---\n",
            b"---\nname: a\ndescription: d\nmetadata:\n  notes: |\n    keep this note\n  owner: alice\n---\n",
        ),
        (  # its last entry is a nested list: the field is an entry beside it, still YAML (H4-5)
            b"---\nname: a\ndescription: d\nmetadata:\n  tags: a\n  list:\n    - x\nowner: alice\n---\n",
            b"---\nname: a\ndescription: d\nmetadata:\n  tags: a\n  list:\n    - x\n  owner: alice\n---\n",
        ),
        (  # a comment and a blank line in the block: the field goes after its last entry, at its first's indent
            b"---\nmetadata:\n    # kept\n    a: b\n\nname: a\nrisk: low\ndescription: d\n---\n",
            b"---\nmetadata:\n    # kept\n    a: b\n    risk: low\n\nname: a\ndescription: d\n---\n",
        ),
        (  # an empty metadata: the field is its first entry
            b"---\nname: a\ndescription: d\nmetadata:\nrisk: low\n---\n",
            b"---\nname: a\ndescription: d\nmetadata:\n  risk: low\n---\n",
        ),
    ],
)
def test_a_moved_field_becomes_an_entry_of_metadata_whatever_its_last_entry_holds(before, after):
    assert fix_skill_file(before, "a") == (after, ["SK105"])
    assert fix_skill_file(after, "a") == (after, [])


@pytest.mark.parametrize(
    "data",
    [
        # keep-chomping: the blank line belongs to the note; nothing can be added after it unchanged
        b"---\nname: a\ndescription: d\nmetadata:\n  notes: |+\n    keep\n\nowner: alice\n---\n",
        b"---\nname: a\ndescription: d\nowner: alice\n...\n---\n",  # a document end: metadata would follow it
        b"---\nname: a\ndescription: d\nmetadata:\n  {a: b}\nowner: x\n---\n",  # a flow mapping on its own line
        '---\nname: a\ndescription: d\nmetadata:\n  a: "x\u2028y"\nowner: x\n---\n'.encode(),  # a break YAML counts
    ],
)
def test_a_fix_that_would_not_read_back_as_the_same_data_is_refused(data):
    with pytest.raises(UnprovenFix):
        fix_skill_file(data, "a")


LF, CRLF = "\n", "\r\n"
ENDINGS = {
    "lf": [LF] * 7,
    "crlf": [CRLF] * 7,
    "mixed": [CRLF, LF, CRLF, LF, CRLF, LF, CRLF],
    "mixed-other": [LF, CRLF, LF, CRLF, LF, CRLF, LF],
}


@pytest.mark.parametrize("bom", ["", "\ufeff"], ids=["", "bom"])
@pytest.mark.parametrize("last", ["# Body\n", "# Body", ""], ids=["final-newline", "no-final-newline", "no-body"])
@pytest.mark.parametrize("endings", ENDINGS.values(), ids=ENDINGS.keys())
def test_a_new_metadata_line_ends_as_the_line_above_it(bom, last, endings):
    # mutants-4's 20: a bare LF "metadata:" line in a CRLF file
    lines = ["---", "name: a", "description: d", "license: MIT", "risk: low", "---"]
    data = (bom + "".join(map(str.__add__, lines, endings)) + last).encode()
    fixed, codes = fix_skill_file(data, "a")
    expected = [*lines[:4], "metadata:", "  risk: low", "---"]
    expected_endings = [*endings[:4], endings[3], endings[4], endings[5]]
    assert codes == ["SK105"]
    assert fixed == (bom + "".join(map(str.__add__, expected, expected_endings)) + last).encode()


@pytest.mark.parametrize("bom", ["", "\ufeff"], ids=["", "bom"])
@pytest.mark.parametrize("endings", ENDINGS.values(), ids=ENDINGS.keys())
def test_a_field_moved_under_metadata_keeps_its_own_line_ending(bom, endings):
    lines = ["---", "name: a", "metadata:", "  a: b", "risk: low", "description: d", "---"]
    data = (bom + "".join(map(str.__add__, lines, endings)) + "body").encode()
    fixed, _ = fix_skill_file(data, "a")
    expected = ["---", "name: a", "metadata:", "  a: b", "  risk: low", "description: d", "---"]
    assert fixed == (bom + "".join(map(str.__add__, expected, endings)) + "body").encode()


def test_a_closing_line_at_the_end_of_the_file_stays_there():
    data = b"---\r\nname: a\r\ndescription: d\r\nrisk: low\r\n---"
    assert fix_skill_file(data, "a") == (
        b"---\r\nname: a\r\ndescription: d\r\nmetadata:\r\n  risk: low\r\n---",
        ["SK105"],
    )


# Values as YAML writes them: one plain or quoted line, a flow list, block scalars of every chomping, a nested list.
SCALARS = st.sampled_from(["low", "1.0", "'a: b'", '"x"', "[a, b]", "yes", "two words"])
BLOCKS = st.sampled_from(["|\n{i}  one\n{i}  two", "|-\n{i}  kept", "|+\n{i}  kept\n", ">\n{i}  folded", "\n{i}  - x"])
ENTRY_VALUES = st.one_of(SCALARS, BLOCKS)
UNKNOWN_KEYS = st.sampled_from(["version", "risk", "owner", "source", "tags"])
AGENT_KEYS = st.sampled_from(["context", "model", "user-invokable", "disable-model-invocation"])


def entry(key, value, indent=""):
    return f"{indent}{key}: " + value.replace("{i}", indent)


@st.composite
def frontmatters(draw):
    """A frontmatter of random entries, one to move at least, around a block metadata most of the time; LF or CRLF."""
    entries = [entry("name", "a"), entry("description", "d")]
    keys = draw(st.lists(st.one_of(UNKNOWN_KEYS, AGENT_KEYS), unique=True, max_size=5))
    entries += [entry(key, draw(ENTRY_VALUES)) for key in keys]
    entries.insert(draw(st.integers(2, len(entries))), "maintainer: alice")  # always one field to move
    if draw(st.integers(0, 3)):
        indent = draw(st.sampled_from(["  ", "    "]))
        children = draw(st.lists(st.sampled_from(["a", "b", "notes", "list"]), unique=True, min_size=0, max_size=3))
        block = ["metadata:"] + [entry(child, draw(ENTRY_VALUES), indent) for child in children]
        if draw(st.booleans()):
            block.insert(1, indent + "# a comment")
        entries.insert(draw(st.integers(0, len(entries))), "\n".join(block))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = "\n".join(entries).replace("\n", newline)
    return f"---{newline}{text}{newline}---{newline}# Body{newline}risk: body text{newline}".encode()


def read_front(data):
    start, end, _ = frontmatter_span(data)
    return yaml.load(data[start:end].decode(), Loader=yaml.BaseLoader)


@given(frontmatters())
def test_a_fix_reads_back_as_the_data_before_with_only_unknown_fields_moved_or_is_refused(data):
    try:
        fixed, _ = fix_skill_file(data, "a")
    except UnprovenFix:
        # Only a keep-chomped block scalar ends a block with lines nothing can follow unchanged.
        assert b"|+" in data
        return
    assert fixed.endswith(data[data.index(b"# Body") :])
    before, after = read_front(data), read_front(fixed)
    moved = [key for key in before if key not in after]
    assert all(is_unknown(key, before[key], ALLOWED_FIELDS) for key in moved)
    expected = {key: value for key, value in before.items() if key not in moved}
    if moved:
        held = before.get("metadata")
        expected["metadata"] = {**(held if isinstance(held, dict) else {}), **{key: before[key] for key in moved}}
    assert after == expected
    assert fix_skill_file(fixed, "a") == (fixed, [])


def test_a_name_set_to_a_full_width_folders_name_is_its_nfkc_form_and_is_written():
    fixed, codes = fix_skill_file(b"---\nname: Full Width\ndescription: d\n---\n", "\uff46\uff55\uff4c\uff4c-width")
    assert (fixed, codes) == (b"---\nname: full-width\ndescription: d\n---\n", ["name"])
