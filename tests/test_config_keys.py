"""Issue 17, the smaller findings: messages that name what is wrong (aliases keys, --top, a vanished skill)."""

from __future__ import annotations

import json

import pytest

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.errors import FileAccessError

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


def test_top_that_is_not_a_number_says_so_without_naming_a_function(capsys, tree):
    run = run_cli(capsys, "search", "--root", str(tree), "--top", "abc", "deploy")
    assert run.code == 2
    assert "_positive" not in run.error["error"]
    assert "must be a whole number, 1 or more, not 'abc'" in run.error["error"]


def test_a_skill_deleted_after_the_catalog_was_read_is_said_gone_not_a_permission_problem(tree):
    library = SkillLibrary([str(tree)])
    library.catalog()
    (tree / "k8s-deploy" / "SKILL.md").unlink()
    with pytest.raises(FileAccessError) as caught:
        library.read("k8s-deploy")
    assert "is gone" in caught.value.message
    assert "permissions" not in caught.value.hint
