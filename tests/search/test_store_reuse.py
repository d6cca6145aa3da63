"""A stale stored index refreshed from the skills that changed: never a stale posting, whatever changed."""

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

from ..helpers import backdate, skill_md, write_skill

ROOTS = ["skills"]
LOCATION = ".git/skillmem-search.json"
BODY = "Roll out pods with helm. 先备份数据库，再迁移。 " * 20


@pytest.fixture
def tree():
    os.mkdir(".git")
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


def reindexed_alone() -> list[int] | None:
    """The places of the skills the next search re-indexes (None: it builds anew)."""
    stale, snapshot = _read_stale(LOCATION, index_key(ROOTS, CatalogOptions(), {}))
    skills = build(ROOTS, CatalogOptions(), {}).skills
    planned = changes(stale.skills, skills, snapshot, take_snapshot(ROOTS, [CONFIG_FILE]))
    return None if planned is None else planned[1]


def refreshed_equals_built():
    """The index the next search uses is the one a build from scratch gives, byte for byte; and it is stored."""
    refreshed = load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
    built = build(ROOTS, CatalogOptions(), {})
    assert [field.text for field in refreshed.fields] == [field.text for field in built.fields]
    assert [field.lengths for field in refreshed.fields] == [field.lengths for field in built.fields]
    assert [(skill.label, skill.description) for skill in refreshed.skills] == [
        (skill.label, skill.description) for skill in built.skills
    ]
    stored = load(ROOTS, CatalogOptions(), {}, LOCATION)
    assert stored is not None
    assert [field.text for field in stored.fields] == [field.text for field in built.fields]
    return refreshed


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
    assert reindexed_alone() == []  # the skills after it are only renumbered
    assert "skill-03" not in [hit.skill.name for hit in refreshed_equals_built().query("deploy service", 30)]
    os.rename("skills/skill-04", "skills/moved")
    settle("skills")
    assert reindexed_alone() == [0]  # "moved" sorts first: a new skill before every other
    assert [hit.skill.path for hit in refreshed_equals_built().query("service 4", 1)] == ["moved"]


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
    places = list(range(24))
    assert changes(index.skills, index.skills, before, before) == (places, [])
    edit("skill-09", "Deploy service 9 部署服务", "new body")
    now = take_snapshot(ROOTS, [CONFIG_FILE])
    assert changes(index.skills, index.skills, before, now) == (places, [9])
    assert changes(index.skills, index.skills[1:], before, now) == ([None, *range(23)], [8])
    assert changes(index.skills, index.skills[::-1], before, now) is None  # skills that stayed changed order


ON_DISK = st.lists(st.tuples(st.sampled_from(["add", "edit", "remove"]), st.integers(0, 29)), min_size=1, max_size=5)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ON_DISK)
def test_any_adds_edits_and_removals_on_disk_are_patched_to_a_builds_bytes(tree, changes):
    """Each change made in the folders, then a search: the stored index patched, and a build's bytes.

    The examples share one tree (the fixture runs once), so each starts where the last one left it.
    """
    for change, number in changes:
        name = f"skill-{number:02d}"
        if change == "remove":
            shutil.rmtree(f"skills/{name}", ignore_errors=True)
            settle("skills")
        else:
            edit(name, f"Deploy service {number} 部署服务 {change}", f"{BODY} {change} quokka{number}")
        assert reindexed_alone() is not None
        with patch.object(store, "build_from", wraps=store.build_from) as built:
            load_or_build_at(ROOTS, CatalogOptions(), {}, LOCATION, watched())
        assert not built.called or len(os.listdir("skills")) < store.PATCH_SHARE  # patched, not built
        refreshed_equals_built()
