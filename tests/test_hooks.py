from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillmem_hook.hooks import skill_index, skill_verify

from .helpers import SEED_BLOCK, appended, seed_tree, skill_md, snapshot, two_roots_two_files, write_skill


@pytest.fixture
def repo():
    """A repository laid out as the hooks find it by default: skills/ and AGENTS.md."""
    seed_tree(Path("skills"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    return Path("AGENTS.md")


def test_skill_index_injects_then_exits_3_then_passes(repo, capsys):
    assert skill_index([]) == 3
    err = capsys.readouterr().err
    assert "AGENTS.md: the skill index was updated; stage it and commit again" in err
    assert "missing (on disk, not in the block): alpha-tool, beta-heading, crlf-skill" in err
    assert repo.read_bytes() == appended(b"# Agents\n", SEED_BLOCK)
    assert skill_index([]) == 0
    assert capsys.readouterr().err == ""


def test_skill_verify_reports_drift_and_never_writes(repo, capsys):
    before = snapshot(repo)
    assert skill_verify([]) == 3
    assert "the skill index is out of date" in capsys.readouterr().err
    assert snapshot(repo) == before
    skill_index([])
    assert skill_verify([]) == 0


def test_a_deleted_skill_is_reported_as_stale(repo, capsys):
    skill_index([])
    shutil.rmtree("skills/alpha-tool")
    assert skill_verify([]) == 3
    assert "stale (in the block, not on disk): alpha-tool" in capsys.readouterr().err


def test_a_moved_skill_or_hand_edit_is_explained(repo, capsys):
    skill_index([])
    write_skill(Path("skills"), "beta-heading", skill_md("beta-heading", "parse json"))
    assert skill_verify([]) == 3
    assert "moved to another domain: beta-heading" in capsys.readouterr().err
    skill_index([])
    repo.write_bytes(repo.read_bytes().replace(b"alpha-tool\nbeta-heading", b"beta-heading\nalpha-tool"))
    assert skill_verify([]) == 3
    assert "nothing missing or stale, but the block's lines differ" in capsys.readouterr().err


def test_hook_arguments_win_and_may_repeat(tmp_path, capsys):
    args, files = two_roots_two_files(tmp_path)
    assert skill_index(args) == 3
    assert all(b"[general]\na\nb\n" in path.read_bytes() for path in files)
    assert skill_verify(args) == 0


@pytest.mark.parametrize("hook", [skill_index, skill_verify])
def test_errors_are_one_json_line_with_exit_2(hook, capsys):
    assert hook([]) == 2
    error = json.loads(capsys.readouterr().err)
    assert error["tool"] in {"skill-index", "skill-verify"}
    assert "roots: [skills]" in error["hint"]


def test_malformed_markers_stop_both_hooks_and_touch_nothing(repo, capsys):
    repo.write_bytes(b"<<<SKILL_INDEX_BEGIN>>>\n")
    before = snapshot(repo)
    for hook in (skill_index, skill_verify):
        assert hook([]) == 2
        assert "line 1" in json.loads(capsys.readouterr().err)["error"]
    assert snapshot(repo) == before


def test_a_marker_error_in_one_file_leaves_the_others_untouched(tmp_path, capsys):
    seed_tree(tmp_path / "skills")
    good, bad = tmp_path / "AGENTS.md", tmp_path / "CLAUDE.md"
    good.write_text("x\n")
    bad.write_text("<<<SKILL_INDEX_END>>>\n")
    args = ["--root", str(tmp_path / "skills"), "--prompt-file", str(good), "--prompt-file", str(bad)]
    assert skill_index(args) == 2
    assert good.read_text() == "x\n"


def test_file_names_passed_by_pre_commit_are_accepted_and_change_nothing(repo, capsys):
    assert skill_index(["skills/alpha-tool/SKILL.md"]) == 3
    assert skill_index(["AGENTS.md", "skills/beta-heading/SKILL.md"]) == 0


def test_a_merge_conflict_in_the_block_is_described_as_one():
    from skillmem_hook.block.drift import Drift
    from skillmem_hook.catalog.skills import parse_skill
    from skillmem_hook.hooks import describe_drift

    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> topic\n<<<SKILL_INDEX_END>>>\n"
    skills = [parse_skill(skill_md(name), path=name, folder=name, root="r") for name in ("a", "b")]
    text = describe_drift("AGENTS.md", Drift(old, skills), written=True)
    assert "the block held a merge conflict; rebuilding the block from the skills on disk resolves it" in text
    assert "stale" not in text
    assert "<<<<<<<" not in text
