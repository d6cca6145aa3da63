from __future__ import annotations

from skillmem_hook.block.drift import Drift
from skillmem_hook.catalog.skills import parse_skill

from .helpers import skill_md


def skill(name, description=""):
    return parse_skill(skill_md(name, description), path=name, folder=name, root="r")


def test_no_block_means_every_skill_is_missing():
    drift = Drift(b"# Prompt\n", [skill("b"), skill("a")])
    assert (drift.missing, drift.stale, drift.has_block, drift.current) == (["a", "b"], [], False, False)
    assert drift.is_drift(strict=False)


def test_missing_stale_and_moved():
    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\nkept\ngone\npdf\n<<<SKILL_INDEX_END>>>\n"
    drift = Drift(old, [skill("kept"), skill("new"), skill("pdf", "parse pdf files")])
    assert drift.missing == ["new"]
    assert drift.stale == ["gone"]
    assert drift.moved == ["pdf"]


def test_a_moved_skill_is_drift_only_when_strict():
    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\npdf\n<<<SKILL_INDEX_END>>>\n"
    drift = Drift(old, [skill("pdf", "parse pdf files")])
    assert not drift.is_drift(strict=False)
    assert drift.is_drift(strict=True)


def test_hand_reordered_lines_are_drift_only_when_strict():
    old = b"<<<SKILL_INDEX_BEGIN>>>\n[general]\nb\na\n<<<SKILL_INDEX_END>>>\n"
    drift = Drift(old, [skill("a"), skill("b")])
    assert (drift.missing, drift.stale, drift.moved) == ([], [], [])
    assert drift.is_drift(strict=True)
    assert not drift.is_drift(strict=False)


def test_a_current_block_is_not_drift():
    drift = Drift(b"x\n", [skill("a")])
    assert not Drift(drift.updated, [skill("a")]).is_drift(strict=True)
