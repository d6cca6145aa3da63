"""Claude Code's ``@path.md`` imports of a prompt file, as auto-detection and init read them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillmem_hook.block.imports import double_listing_warnings, imported_files


@pytest.mark.parametrize(
    ("text", "imported"),
    [
        (b"# Claude\n\n@AGENTS.md\n", {"AGENTS.md"}),
        (b"See @./docs/rules.md and @AGENTS.md.\n", {"docs/rules.md"}),  # 'AGENTS.md.' is no file name
        (b"Write `@AGENTS.md` to import it.\n", set()),
        (b"```markdown\n@AGENTS.md\n```\n@NOTES.md\n", {"NOTES.md"}),
        (b"  ~~~\n@AGENTS.md\n  ~~~\r\n@X.md\r\n", {"X.md"}),
        (b"mail@AGENTS.md\n", set()),
    ],
)
def test_the_imports_outside_code_are_read_as_paths_beside_the_file(text, imported):
    Path("CLAUDE.md").write_bytes(text)
    assert imported_files("CLAUDE.md") == {os.path.normpath(path) for path in imported}


def test_a_file_that_cannot_be_read_or_links_out_of_its_folder_imports_nothing(tmp_path):
    assert imported_files("MISSING.md") == set()
    (tmp_path / "outside.md").write_bytes(b"@AGENTS.md\n")
    Path("CLAUDE.md").symlink_to(tmp_path / "outside.md")
    assert imported_files("CLAUDE.md") == set()


def test_two_named_prompt_files_one_importing_the_other_are_warned_about():
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path("CLAUDE.md").write_bytes(b"@AGENTS.md\n")
    assert double_listing_warnings(["AGENTS.md"]) == []
    (warning,) = double_listing_warnings(["AGENTS.md", "CLAUDE.md"])
    assert warning.startswith("CLAUDE.md imports AGENTS.md (@AGENTS.md) and both hold the skill index")
