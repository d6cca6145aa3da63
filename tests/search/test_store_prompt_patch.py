"""The route hook's in-memory patch of a stale stored index: a build's hints, within its bound, never stored."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skillmem_hook.agents.route import best_scored
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.store.stamps import take_snapshot
from skillmem_hook.config_file import CONFIG_FILE
from skillmem_hook.decisive import decisive_files
from skillmem_hook.search import store
from skillmem_hook.search.store import PROMPT_PATCH_SKILLS, build, load_or_build_at, load_stale, patched_for_prompt

from ..helpers import backdate, make_git_dir, skill_md, write_skill

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "skills"
ROOTS = ["skills"]
LOCATION = ".git/skillmem-search.json"
FILLERS = 80  # with the 15 examples, enough that PROMPT_PATCH_SKILLS + 1 changes still pay as a patch
PROMPTS = (
    "our suppliers mail us PDF invoices; can you pull the line items and the totals out of each of them please?",
    "the pytest suite fails on a fixture after the upgrade, find why the fixture breaks and fix the failing tests",
    "write the changelog for this release from the merged commits and group the entries by kind of change",
    "帮我审查这段代码的安全问题，看看有没有注入漏洞，然后给出修改建议和测试用例",
    "convert this csv export of orders into a markdown table with the totals per customer and per month",
)


def lay_out(folder: Path) -> list[str]:
    """A copy of the examples and the fillers, settled and indexed and stored; the skills' folders by name."""
    os.chdir(folder)
    make_git_dir(folder / ".git")
    shutil.copytree(EXAMPLES, folder / "skills")
    for number in range(FILLERS):
        name = f"filler-{number:02d}"
        write_skill(folder / "skills", name, skill_md(name, f"Notes on topic {number} 笔记", f"Topic {number} notes."))
    (folder / CONFIG_FILE).write_text("roots: [skills]\n")
    backdate(folder / "skills", folder / CONFIG_FILE)
    load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, decisive_files(os.getcwd(), tracked=False))
    return sorted(str(path.parent.relative_to(folder / "skills")) for path in (folder / "skills").rglob("SKILL.md"))


def patched_now():
    """The hook's patch of the stored index for the disk as it is, and the snapshot text it was given."""
    now = take_snapshot(ROOTS, decisive_files(os.getcwd(), tracked=False)).as_text()
    stale = load_stale(ROOTS, CatalogOptions(), {}, LOCATION, now)
    assert stale is not None and stale[1] is not None, "the stored index should be stale"
    return patched_for_prompt(ROOTS, CatalogOptions(), {}, (stale[0], stale[1]), now)


def hints(index):
    return [[(target.label, target.path) for target in best_scored(prompt, index)] for prompt in PROMPTS]


def ranked(index):
    return [[(hit.skill.label, round(hit.score, 9)) for hit in index.query(prompt, top=5)] for prompt in PROMPTS]


def change(folder: str, how: str, number: int) -> None:
    path = Path("skills", folder, "SKILL.md")
    if how == "remove":
        shutil.rmtree(path.parent)
    elif how == "body":  # the body alone: name and description as they were, so only the stamp tells
        with path.open("a", encoding="utf-8") as file:
            file.write(f"\nInvoices, totals and line items; csv tables {number}. 审查代码的注入漏洞。\n")
    else:
        name = Path(folder).name
        write_skill(Path("skills"), folder, skill_md(name, f"Pull line items and totals out of PDF invoices {number}"))


@settings(max_examples=12, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 14), st.sampled_from(["body", "description", "remove"])),
        max_size=3,
        unique_by=lambda pair: pair[0],
    ),
    st.integers(0, 3),
)
def test_the_patched_index_hints_and_ranks_as_a_fresh_build(changes, added):
    assume(changes or added)
    here = os.getcwd()
    folder = Path(tempfile.mkdtemp())
    try:
        names = [name for name in lay_out(folder) if not name.startswith("filler-")]
        for place, how in changes:
            change(names[place], how, place)
        for number in range(added):
            name = f"new-{number}"
            write_skill(Path("skills"), name, skill_md(name, "Extract the totals of PDF invoices", "csv tables"))
        patched = patched_now()
        assert patched is not None
        built = build(ROOTS, CatalogOptions(), {})
        assert hints(patched) == hints(built)
        assert ranked(patched) == ranked(built)
        assert sorted(skill.label for skill in patched.skills) == sorted(skill.label for skill in built.skills)
    finally:
        os.chdir(here)
        shutil.rmtree(folder)


@pytest.mark.parametrize(("edited", "patched"), [(PROMPT_PATCH_SKILLS - 1, True), (PROMPT_PATCH_SKILLS, True)])
def test_up_to_the_bound_a_stale_index_is_patched(tmp_path, edited, patched):
    lay_out(tmp_path)
    for number in range(edited):
        change(f"filler-{number:02d}", "body", number)
    assert (patched_now() is not None) is patched


def test_one_past_the_bound_the_prompt_gets_no_patch_and_reads_no_skill(tmp_path, monkeypatch):
    # Counted on the two snapshots before any scan: a checkout that changed many skills costs the prompt nothing.
    lay_out(tmp_path)
    for number in range(PROMPT_PATCH_SKILLS + 1):
        change(f"filler-{number:02d}", "body", number)
    from skillmem_hook.catalog import scan

    monkeypatch.setattr(scan, "scan_roots", lambda *_: pytest.fail("a scan past the bound"))
    assert patched_now() is None


def test_skills_that_went_count_toward_the_bound_before_any_scan(tmp_path, monkeypatch):
    # A removed skill's SKILL.md is in the stored snapshot alone, yet each is a change.
    lay_out(tmp_path)
    for number in range(PROMPT_PATCH_SKILLS):
        change(f"filler-{number:02d}", "remove", number)
    assert patched_now() is not None
    change(f"filler-{PROMPT_PATCH_SKILLS:02d}", "remove", 0)
    from skillmem_hook.catalog import scan

    monkeypatch.setattr(scan, "scan_roots", lambda *_: pytest.fail("a scan past the bound"))
    assert patched_now() is None


def test_the_patch_is_never_stored(tmp_path):
    lay_out(tmp_path)
    kept = Path(LOCATION).read_bytes()
    change("csv-to-table", "body", 1)
    assert patched_now() is not None
    assert Path(LOCATION).read_bytes() == kept
    assert store.load(ROOTS, CatalogOptions(), {}, LOCATION) is None


@pytest.mark.parametrize(("more", "patched"), [(-1, True), (0, True), (1, False)])
def test_only_a_collection_up_to_its_bound_is_patched_and_a_larger_one_is_not_scanned(
    tmp_path, monkeypatch, more, patched
):
    # The scan and the patch grow with the collection: past PROMPT_PATCH_COLLECTION the prompt gets no
    # score hint rather than spend its budget (at 19,120 skills the patch cost 1.4 s, with cache: false 3 s+).
    skills = len(lay_out(tmp_path))
    change("csv-to-table", "body", 1)
    monkeypatch.setattr(store, "PROMPT_PATCH_COLLECTION", skills - more)
    if not patched:
        from skillmem_hook.catalog import scan

        monkeypatch.setattr(scan, "scan_roots", lambda *_: pytest.fail("a scan past the bound"))
    assert (patched_now() is not None) is patched


def test_the_patch_reads_the_catalog_cache_and_never_writes_it(tmp_path, monkeypatch):
    # Inside the prompt: the build the hook starts writes it, outside the prompt's time (12.6 MB at 19,120 skills).
    from skillmem_hook.catalog.store import cache as cache_module

    monkeypatch.setattr(cache_module, "RACY_SECONDS", 0)  # the files' ctimes are new: kept all the same
    lay_out(tmp_path)
    cache = Path(".git", "skillmem", "cache.json")
    assert cache.is_file()
    cache.unlink()  # every SKILL.md parsed again: a scan that stores the cache would write it
    change("csv-to-table", "body", 1)
    assert patched_now() is not None
    assert not cache.exists()
    build(ROOTS, CatalogOptions(), {})  # a build's scan still stores it
    assert cache.is_file()
