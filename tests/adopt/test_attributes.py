"""The .gitattributes lines that send the prompt files through the merge driver."""

from __future__ import annotations

from skillmem_hook.adopt.attributes import add_attributes, attribute_line


def test_a_line_per_prompt_file_anchored_at_the_top():
    assert add_attributes(b"", ["AGENTS.md", "docs/CLAUDE.md"]) == (
        b"/AGENTS.md merge=skillmem\n/docs/CLAUDE.md merge=skillmem\n"
    )


def test_existing_lines_are_kept_and_not_repeated():
    existing = b"*.png binary\r\n/AGENTS.md merge=skillmem\r\n"
    assert add_attributes(existing, ["AGENTS.md"]) == existing
    assert add_attributes(b"*.png binary", ["CLAUDE.md"]) == b"*.png binary\n/CLAUDE.md merge=skillmem\n"
    assert add_attributes(existing, ["CLAUDE.md"]) == existing + b"/CLAUDE.md merge=skillmem\r\n"


def test_a_path_with_a_space_is_quoted():
    assert attribute_line("my docs/AGENTS.md") == '"/my docs/AGENTS.md" merge=skillmem'
    assert attribute_line("./AGENTS.md") == "/AGENTS.md merge=skillmem"
