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


def test_a_pattern_that_is_exactly_a_skill_s_name_is_that_name_even_with_a_slash(tmp_path):
    """newcomer-ad 13: `quiet: ["Tailwind v4 + shadcn/ui Stack"]` was read as a folder, so that skill could not be
    quieted; a name that exists wins over the folder, which the last '/' still names."""
    root = str(tmp_path / "skills")
    title = _skill("Tailwind v4 + shadcn/ui Stack", root, "tailwind-v4-shadcn")
    below = _skill("zz", str(tmp_path / "Tailwind v4 + shadcn"), "ui Stack/zz")  # in the folder of that path
    skills = [title, below]
    quiet = Quiet(["Tailwind v4 + shadcn/ui Stack"], str(tmp_path), skills)
    assert quiet.skill(title) and not quiet.skill(below)
    assert quiet.names_over_folders([(below.root, below.path)], str(tmp_path)) == ["Tailwind v4 + shadcn/ui Stack"]
    folder = Quiet(["Tailwind v4 + shadcn/ui Stack/"], str(tmp_path), skills)
    assert folder.skill(below) and not folder.skill(title)
    unknown = Quiet(["Tailwind v4 + shadcn/ui Stack"], str(tmp_path), [below])  # no skill of that name: a folder
    assert unknown.skill(below)
    assert Quiet(["Tailwind v4 + shadcn/ui Stack"], str(tmp_path)).skill(below)  # without the skills: as before


def test_a_folder_s_name_no_skill_has_quiets_the_skill_in_it(tmp_path):
    """newcomer-ad 13: `quiet: [ai-sdk-core]` named no skill; it is the folder of the skill "AI SDK Core"."""
    root = str(tmp_path / "skills")
    core = _skill("AI SDK Core", root, "ai-sdk-core")
    deep = _skill("AI SDK Core", root, "vendor/ai-sdk-core")  # one level down: still the folder's name
    ui = _skill("AI SDK UI", root, "ai-sdk-ui")
    named = _skill("ai-sdk-ui", root, "elsewhere")  # a skill named as the other's folder
    quiet = Quiet(["ai-sdk-core", "ai-sdk-ui"], ".", [core, deep, ui, named])
    assert quiet.skill(core) and quiet.skill(deep)
    assert quiet.skill(named) and not quiet.skill(ui)  # a name that exists wins over a folder's name
    assert not Quiet(["ai-sdk-core"], ".").skill(core)  # without the skills: names only, as before
    assert not Quiet(["AI-SDK-core"], ".", [core]).skill(core)  # compared as written, as quiet's names are
