"""The checks of .skillmem.yaml's keys: a key that is wrong is exit 2, and the message names it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import run_cli, skill_md, write_skill


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "skills"
    write_skill(root, "k8s-deploy", skill_md("k8s-deploy", "Deploy to Kubernetes"))
    return root


def _configure(tree, aliases) -> None:
    with open(".skillmem.yaml", "w", encoding="utf-8") as file:
        json.dump({"roots": [str(tree)], "aliases": aliases}, file)


@pytest.mark.parametrize("key", ["**p**", "*", "k8s*deploy", "a**", "  "])
def test_an_aliases_key_that_is_no_name_nor_prefix_is_exit_2_naming_it(capsys, tree, key):
    _configure(tree, {"k8s-deploy": ["helm"], key: ["x"]})
    run = run_cli(capsys, "search", "helm")
    assert run.code == 2
    assert f"has the key {key!r}" in run.error["error"]


@pytest.mark.parametrize("words", ["helm", [1], ["  "], [["nested"]]])
def test_a_malformed_list_of_alias_words_names_its_key(capsys, tree, words):
    _configure(tree, {"k8s-deploy": ["ok"], "k8s-*": words})
    run = run_cli(capsys, "search", "helm")
    assert run.code == 2
    assert "'aliases: k8s-*' must be a list of words" in run.error["error"]


def test_a_prefix_key_still_works(capsys, tree):
    _configure(tree, {"k8s-*": ["舵手"]})
    assert run_cli(capsys, "search", "舵手").data["results"][0]["name"] == "k8s-deploy"


@pytest.mark.parametrize("key", ["exclude", "quiet"])
@pytest.mark.parametrize("written", ["draft-*", "[draft-*]"])
def test_a_pattern_key_takes_one_text_as_a_list_of_one(capsys, key, written):
    """docs/configuration.md: `exclude: draft-*` reads as `exclude: [draft-*]`, as pre-commit's `files:` is one text."""
    write_skill(Path("skills"), "draft-a", skill_md("draft-a", "A draft skill"))
    write_skill(Path("skills"), "keep", skill_md("keep", "A kept skill"))
    Path(".skillmem.yaml").write_text(f"roots: skills\n{key}: {written}\n")
    run = run_cli(capsys, "index")
    assert run.code == 0, run.error
    listed = [skill["name"] for skill in run.data["skills"]]
    if key == "exclude":
        assert listed == ["keep"] and [skill["name"] for skill in run.data["excluded"]] == ["draft-a"]
    else:
        assert listed == ["draft-a", "keep"]  # quiet mutes warnings only; the skills stay listed
