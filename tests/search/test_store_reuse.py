"""A stale stored index refreshed from the skills that changed: never a stale posting, a build's answers."""

from __future__ import annotations

import itertools
import os
import shutil
import time
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.store import stamps
from skillmem_hook.catalog.store.stamps import take_snapshot
from skillmem_hook.config_file import CONFIG_FILE
from skillmem_hook.decisive import decisive_files
from skillmem_hook.search import store
from skillmem_hook.search.store import (
    _read_stale,
    build,
    changes,
    index_key,
    load,
    load_or_build_at,
)
from skillmem_hook.search.stored import StoredSkills, row_bytes

from ..helpers import backdate, make_git_dir, skill_md, write_skill
from .sample_skills import answers, by_skill, english_skills

ROOTS = ["skills"]
LOCATION = ".git/skillmem-search.json"
BODY = "Roll out pods with helm. 先备份数据库，再迁移。 " * 20


@pytest.fixture
def tree():
    make_git_dir(Path(".git"))
    for number in range(24):  # enough that one changed skill is a patch, not a build
        name = f"skill-{number:02d}"
        write_skill(Path("skills"), name, skill_md(name, f"Deploy service {number} 部署服务", f"{BODY} {name}"))
    Path(CONFIG_FILE).write_text("roots: [skills]\n")
    settle()
    load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
    assert load(ROOTS, CatalogOptions(), {}, LOCATION) is not None


def watched() -> list[str]:
    """The files the callers hand in: every configuration file and layout root that decides the catalog."""
    return decisive_files(os.getcwd(), tracked=False)


def settle(*paths: str) -> None:
    """Out of the racy window, at a time of its own: only ``paths`` (else every path) get a new stamp."""
    if not paths:
        backdate(Path("skills"), Path(CONFIG_FILE))
    past = time.time() - 30 - next(_SECONDS)
    for path in paths:
        os.utime(path, (past, past))


_SECONDS = itertools.count()


def edit(name: str, description: str, body: str) -> None:
    write_skill(Path("skills"), name, skill_md(name, description, body))
    settle(f"skills/{name}/SKILL.md", f"skills/{name}", "skills")


def reindexed_alone() -> list[int]:
    """The places of the skills the next search re-indexes."""
    stale, snapshot = _read_stale(LOCATION, index_key(ROOTS, CatalogOptions(), {}), ROOTS)
    skills = build(ROOTS, CatalogOptions(), {}).skills
    return changes(stale, skills, snapshot, take_snapshot(ROOTS, [CONFIG_FILE]))[1]


QUERIES = ("deploy service", "quokkas 袋鼠", "helm pods", "备份数据库", "brand new 全新", "service 4", "csv chart")


def refreshed_equals_built():
    """The index the next search uses ranks as one built from scratch: its postings, its answers; and it is stored."""
    refreshed = load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
    built = build(ROOTS, CatalogOptions(), {})
    assert by_skill(refreshed) == by_skill(built)
    assert english_skills(refreshed) == english_skills(built)
    assert answers(refreshed, QUERIES) == answers(built, QUERIES)
    assert [(skill.label, skill.description) for skill in refreshed.skills] == [
        (skill.label, skill.description) for skill in built.skills
    ]
    stored = load(ROOTS, CatalogOptions(), {}, LOCATION)
    assert stored is not None
    rows = stored.skills_as_given
    assert isinstance(rows, StoredSkills)
    # Row for row, the bytes a build stores (the postings differ only in the numbers they give the skills).
    assert [rows.row(place) for place in range(len(stored.numbers))] == list(map(row_bytes, built.skills))
    assert english_skills(stored) == english_skills(built)
    assert answers(stored, QUERIES) == answers(built, QUERIES)
    return refreshed


def test_the_english_described_skills_are_kept_right_through_a_patch(tree):
    """Each skill's script is stored: an edit into Chinese, a new Chinese skill and a removal patch it as a build."""
    assert len(_read_stale(LOCATION, index_key(ROOTS, CatalogOptions(), {}), ROOTS)[0].english) == 24
    edit("skill-05", "部署服务到集群并在失败时回滚", BODY)
    edit("skill-98", "全新的中文技能", BODY)
    shutil.rmtree("skills/skill-07")
    settle("skills")
    assert reindexed_alone() == [5, 23]
    english = {path for _, path in english_skills(refreshed_equals_built())}
    assert len(english) == 22
    assert not english & {"skill-05", "skill-07", "skill-98"}


def test_an_edited_body_loses_its_old_words_and_gains_its_new_ones(tree):
    edit("skill-05", "Deploy service 5 部署服务", "Feed the quokkas 袋鼠")
    assert reindexed_alone() == [5]
    index = refreshed_equals_built()
    assert [hit.skill.name for hit in index.query("quokkas")] == ["skill-05"]
    assert [hit.skill.name for hit in index.query("袋鼠")] == ["skill-05"]
    assert "skill-05" not in [hit.skill.name for hit in index.query("helm", 30)]


def test_an_edited_description_and_two_edits_at_once(tree):
    edit("skill-00", "Chart CSV files", BODY)
    edit("skill-23", "Deploy service 23 部署服务", "")
    assert reindexed_alone() == [0, 23]
    assert [hit.skill.name for hit in refreshed_equals_built().query("csv chart")] == ["skill-00"]


def test_an_added_a_removed_and_a_renamed_skill_are_patched_in(tree):
    edit("skill-99", "Brand new 全新", BODY)
    assert reindexed_alone() == [24]  # the new skill alone is read; the others keep their postings
    assert [hit.skill.name for hit in refreshed_equals_built().query("brand")] == ["skill-99"]
    shutil.rmtree("skills/skill-03")
    settle("skills")
    assert reindexed_alone() == []  # the skills after it keep their numbers: nothing is rewritten but its own
    assert "skill-03" not in [hit.skill.name for hit in refreshed_equals_built().query("deploy service", 30)]
    os.rename("skills/skill-04", "skills/moved")
    settle("skills")
    assert reindexed_alone() == [0]  # "moved" sorts first: a new skill before every other
    index = refreshed_equals_built()
    assert [hit.skill.path for hit in index.query("service 4", 1)] == ["moved"]
    assert index.numbers[:2] == [3, 0]  # the moved skill took the number skill-03 left free


def test_an_edit_within_the_racy_window_is_refreshed_but_not_stored(tree):
    write_skill(Path("skills"), "skill-07", skill_md("skill-07", "Deploy service 7 部署服务", "quokkas"))
    assert reindexed_alone() == [7]
    index = load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
    assert [hit.skill.name for hit in index.query("quokkas")] == ["skill-07"]
    assert load(ROOTS, CatalogOptions(), {}, LOCATION) is None
    settle("skills/skill-07/SKILL.md")
    assert reindexed_alone() == [7]
    refreshed_equals_built()


def test_only_the_skills_whose_file_changed_are_reindexed(tree):
    before = take_snapshot(ROOTS, [CONFIG_FILE])
    index = build(ROOTS, CatalogOptions(), {})
    numbers = list(range(24))
    assert changes(index, index.skills, before, before) == (numbers, [])
    edit("skill-09", "Deploy service 9 部署服务", "new body")
    now = take_snapshot(ROOTS, [CONFIG_FILE])
    assert changes(index, index.skills, before, now) == (numbers, [9])
    assert changes(index, index.skills[1:], before, now) == (numbers[1:], [8])  # skill-00 gone: no new number
    assert changes(index, index.skills[::-1], before, now) == (numbers[::-1], [14])  # any order: each its own


def test_a_refresh_makes_only_the_stored_skills_whose_row_the_scan_does_not_give(tree):
    """An edit, a removal and an addition: the edited and the removed skills' rows are parsed, no other."""
    edit("skill-05", "Chart CSV files", BODY)
    edit("skill-99", "Brand new 全新", BODY)
    shutil.rmtree("skills/skill-07")
    settle("skills")
    made = []
    original = StoredSkills.__getitem__

    def making(rows, number):
        made.append(number)
        return original(rows, number)

    with patch.object(StoredSkills, "__getitem__", making):
        load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
    assert sorted(made) == [5, 7]
    refreshed_equals_built()


def test_a_stale_index_lists_only_the_folders_whose_stamp_changed(tree):
    """After an edit, the refresh retakes the stored snapshot: of 25 folders it lists the two the edit stamped."""
    edit("skill-05", "Deploy service 5 部署服务", "Feed the quokkas")  # stamps skills/skill-05 and skills
    listed = []
    original = stamps._Walk._listed

    def listing(walk, folder, recorded):
        listed.append(folder)
        return original(walk, folder, recorded)

    with patch.object(store, "take_snapshot") as walked, patch.object(stamps._Walk, "_listed", listing):
        load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
    assert not walked.called
    assert sorted(listed) == ["skills", "skills/skill-05"]
    refreshed_equals_built()


def test_a_build_compacts_once_one_number_in_free_share_is_free(tree):
    """24 skills: three removals leave 3 of 24 numbers free (patched), a fourth 4 of 24 (a build numbers 0 to 19)."""
    for number in range(4):
        shutil.rmtree(f"skills/skill-{number:02d}")
        settle("skills")
        with patch.object(store, "build_from", wraps=store.build_from) as built:
            index = load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
        assert built.called == (number == 3)
        assert index.slots == (20 if number == 3 else 24)
    assert index.numbers == list(range(20))
    refreshed_equals_built()


ON_DISK = st.lists(
    st.tuples(st.sampled_from(["add", "edit", "remove", "move"]), st.integers(0, 29)), min_size=1, max_size=5
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ON_DISK)
def test_any_adds_edits_removals_and_moves_on_disk_rank_as_a_build(tree, changes):
    """Each change made in the folders, then a search: the stored index patched, and a build's answers.

    A move renames a skill's folder (``skill-07`` to ``moved-07`` and back). The
    examples share one tree (the fixture runs once), so each starts where the last one left it.
    """
    for change, number in changes:
        name = f"skill-{number:02d}"
        if change == "remove":
            shutil.rmtree(f"skills/{name}", ignore_errors=True)
            settle("skills")
        elif change == "move":
            moved = f"moved-{number:02d}"
            here, there = (name, moved) if os.path.isdir(f"skills/{name}") else (moved, name)
            if os.path.isdir(f"skills/{here}") and not os.path.exists(f"skills/{there}"):
                os.rename(f"skills/{here}", f"skills/{there}")
                settle("skills")
        else:
            edit(name, f"Deploy service {number} 部署服务 {change}", f"{BODY} {change} quokka{number}")
        # Free numbers never force a build here: every change is patched onto the last patch.
        with patch.object(store, "build_from", wraps=store.build_from) as built, patch.object(store, "FREE_SHARE", 1):
            load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
        assert not built.called or len(os.listdir("skills")) < store.PATCH_SHARE  # patched, not built
        refreshed_equals_built()
