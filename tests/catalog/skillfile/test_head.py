from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.skillfile.declared import HEADING_WINDOW, read_located_text, read_skill_text
from skillmem_hook.catalog.skillfile.frontmatter import frontmatter_span
from skillmem_hook.catalog.skillfile.head import located_head, skill_head
from skillmem_hook.catalog.skillfile.names import SkillProblem

# Pieces of a SKILL.md where the frontmatter's start and end, the refusals and the head's cut could go wrong.
PIECES = [
    b"---",
    b"--- ",
    b"\n",
    b"\r\n",
    b"name: a\n",
    b"description: b c\n",
    b"name: [x\n",
    b"# Title\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"version https://git-lfs.github.com/spec/v1\n",
    b"\x00",
    b"\xc3",
    b"x" * (HEADING_WINDOW - 3),
]
FILES = st.lists(st.sampled_from(PIECES), max_size=12).map(b"".join)


def _read(read, *arguments):
    try:
        text = read(*arguments)
    except SkillProblem as problem:
        return str(problem)
    return (text.name, text.description, text.warnings, text.metadata, text.title, text.sections)


@given(FILES, st.booleans())
def test_a_head_located_once_reads_as_the_head_located_again(data, sections):
    """The blob path locates the frontmatter once where it located it twice: the same skill, or the same refusal."""
    try:
        head = skill_head(data)
    except SkillProblem as problem:
        refused = str(problem)
    else:
        refused = None
        assert located_head(data) == (head, frontmatter_span(head))
    if refused is not None:
        assert _read(located_head, data) == refused
        return
    assert _read(lambda: read_located_text(*located_head(data), sections=sections)) == _read(
        lambda: read_skill_text(head, sections=sections)
    )
