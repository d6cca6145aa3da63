"""Where an invalid frontmatter's error is said: the file's line and column, alike in index's warning and lint's.

A newcomer read "release-notes-zh/SKILL.md: invalid YAML (frontmatter line 2, column 37)" from skill-index and
"SKILL.md:3:37" from skill-lint for one error: PyYAML counts the frontmatter's lines, not the file's.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog.skillfile.frontmatter import brief_warning
from skillmem_hook.catalog.skills import parse_skill
from skillmem_hook.lint.check import lint_skill_file

_PLACE = re.compile(r"line (\d+), column (\d+)")
_BEFORE = st.lists(st.sampled_from(["name: quoted", "version: '1.0'", "", "# a comment", "tags: [a, b]"]))


def _places(data: bytes) -> tuple[tuple[int, int], tuple[int, int]]:
    """(line, column) of the error as index's warning says it, and as lint's SK103 finding says it."""
    skill = parse_skill(data, path="quoted", folder="quoted", root="skills")
    said = [_PLACE.search(brief_warning(warning)) for warning in skill.warnings]
    index_place = next((int(found[1]), int(found[2])) for found in said if found)
    lint = lint_skill_file(data, path="quoted/SKILL.md", folder="quoted", subfolders=(), exists=lambda _: True)
    (finding,) = [finding for finding in lint.findings if finding.code == "SK103"]
    return index_place, (finding.line, finding.col)


@settings(max_examples=60, deadline=None)
@given(
    before=_BEFORE,
    after=st.lists(st.sampled_from(["metadata:", "  owner: me", "", "# after"]), max_size=3),
    quoted=st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=8),
    newline=st.sampled_from(["\n", "\r\n"]),
    bom=st.booleans(),
)
def test_the_line_given_is_the_files_line_holding_the_error(before, after, quoted, newline, bom):
    broken = f'description: "{quoted}"{quoted}'  # a value quoted, then more text: PyYAML stops after the quote
    lines = ["---", *before, broken, *after, "---", "# Body"]
    data = (b"\xef\xbb\xbf" if bom else b"") + newline.join(lines).encode() + newline.encode()
    index_place, lint_place = _places(data)
    assert index_place == lint_place
    line, column = index_place
    file_lines = data.decode("utf-8-sig").split(newline)
    assert file_lines[line - 1] == broken  # the file's line, counted from 1 with the '---' line as line 1
    assert column == len(f'description: "{quoted}"') + 1  # the character after the closing quote


def test_the_hook_says_the_files_line_not_the_frontmatters():
    data = '---\nname: release-notes-zh\ndescription: "发布说明"按版本整理\n---\n'.encode()
    assert _places(data) == ((3, 20), (3, 20))
    (warning,) = parse_skill(data, path="r", folder="r", root="s").warnings
    assert brief_warning(warning) == "invalid YAML (line 3, column 20); name and description read line by line"
