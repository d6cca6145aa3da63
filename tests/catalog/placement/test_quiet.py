"""quiet:'s patterns: names and prefixes as exclude: reads them, and folders (a pattern holding '/') below which
every skill and every SKILL.md left out is quiet."""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.placement.quiet import Quiet
from skillmem_hook.catalog.skills import Skill

_PARTS = st.lists(st.sampled_from(["a", "ab", "b", "vendor", "vendor-x", "."]), min_size=1, max_size=4)


def _skill(name: str, root: str, path: str) -> Skill:
    return Skill(name=name, description="d", path=path, root=root, warnings=[])


@given(folder=_PARTS, path=_PARTS, slash=st.booleans(), base=st.sampled_from([".", "sub", "/tmp/x"]))
def test_a_folder_quiets_exactly_the_skills_in_or_below_it(folder, path, slash, base):
    pattern = "/".join(folder) + ("/" if slash else "")
    if "/" not in pattern:
        pattern = "./" + pattern
    quiet = Quiet([pattern], base)
    skill_path = "/".join(path)
    root = os.path.join(base, "")  # the root the configuration's folder itself
    at = os.path.normpath(os.path.join(os.path.abspath(base), skill_path)).split(os.sep)
    named = os.path.normpath(os.path.join(os.path.abspath(base), pattern)).split(os.sep)
    below = at[: len(named)] == named
    assert quiet.skill(_skill("n", root, skill_path)) is below
    assert quiet.left_out({"root": root, "path": skill_path}) is below
    assert quiet.unmatched_folders([(root, skill_path)]) == ([] if below else [pattern])


def test_names_and_prefixes_still_quiet_by_name_and_a_folder_pattern_is_no_name():
    quiet = Quiet(["vendor-*", "exact", "pack/"], ".")
    assert quiet.skill(_skill("vendor-a", "skills", "x"))
    assert quiet.skill(_skill("exact", "skills", "y"))
    assert not quiet.skill(_skill("pack", "skills", "pack"))  # skills/pack is not ./pack
    assert quiet.skill(_skill("other", "pack", "z/w"))
    assert quiet.left_out({"root": "skills", "path": "deep/exact"})  # a left-out folder named exactly
    assert not quiet.left_out({"root": "skills", "path": "deep/pack"})


def test_an_owners_label_is_a_name_not_a_folder(tmp_path):
    """docs1: `quiet: [@acme/pdf]` (the docs' `@owner/name`) was read as the folder <config>/@acme/pdf, so it never
    matched the skill below a root; a label, or its prefix, is a name, and `@acme/` is still the owner's folder."""
    root = str(tmp_path / ".claude" / "skills")
    pdf = _skill("pdf", root, "@acme/pdf/SKILL.md")
    other = _skill("pdf", root, "@other/pdf/SKILL.md")
    for pattern in ("@acme/pdf", "@acme/*"):
        quiet = Quiet([pattern], str(tmp_path))
        assert quiet.skill(pdf) and not quiet.skill(other), pattern
    owners_folder = Quiet([".claude/skills/@acme/"], str(tmp_path))
    assert owners_folder.skill(pdf) and not owners_folder.skill(other)
