"""The unified diff ``verify --diff`` shows: the file as it is, then as inject would write it."""

from __future__ import annotations

from skillmem_hook.block.diff import block_diff
from skillmem_hook.block.drift import Drift
from skillmem_hook.catalog.skills import parse_skill

from ..helpers import skill_md


def skills(*names):
    return [parse_skill(skill_md(name, "Parse CSV"), path=name, folder=name, root="r") for name in names]


def test_a_current_block_has_no_diff():
    drift = Drift(b"x\n", skills("a"))
    assert block_diff("AGENTS.md", Drift(drift.updated, skills("a"))) == ""


def test_the_diff_shows_the_name_added_and_the_name_removed():
    old = Drift(b"# A\n", skills("a")).updated
    diff = block_diff("docs/AGENTS.md", Drift(old, skills("b")))
    assert diff.startswith("--- a/docs/AGENTS.md\n+++ b/docs/AGENTS.md\n@@ ")
    assert "\n-a\n+b\n" in diff


def test_a_last_line_without_a_line_break_is_marked_as_diff_does():
    diff = block_diff("AGENTS.md", Drift(b"# A", skills("a")))
    assert "-# A\n\\ No newline at end of file\n+# A\n" in diff
