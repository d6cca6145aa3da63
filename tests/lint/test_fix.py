"""``skillmem lint --fix``: the mechanical fixes, byte-exact outside the fixed lines, idempotent, and then clean."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lint.check import lint_skill_file
from skillmem_hook.lint.fix import fix_skill_file


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
