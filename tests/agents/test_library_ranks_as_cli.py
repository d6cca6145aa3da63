"""The MCP library ranks as ``skillmem search`` does: the same index (bodies included), confidence and match."""

from __future__ import annotations

import pytest

from skillmem_hook.agents.library import SkillLibrary

from ..helpers import run_cli, skill_md, write_skill

QUERIES = [
    "parse a csv file into a table",
    "deploy containers with docker compose",
    "flaky retries",  # only a body holds these words
    "bake sourdough bread",  # no skill fits
    "审查代码",
]


@pytest.fixture
def lexical_only(monkeypatch):
    """The lexical leg alone, whether or not the [semantic] extra is installed (the CLI's plain search)."""
    monkeypatch.setattr("skillmem_hook.agents.library.semantic_installed", lambda: False)


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "skills"
    write_skill(folder, "csv-to-table", skill_md("csv-to-table", "Parse CSV files into tables"))
    write_skill(folder, "json-to-table", skill_md("json-to-table", "Parse JSON files into tables, like CSV"))
    write_skill(folder, "docker-deploy", skill_md("docker-deploy", "Deploy containers with Docker"))
    body = "## When a job fails\n\nRerun the flaky step with retries and backoff.\n"
    write_skill(folder, "ci-helper", skill_md("ci-helper", "Keep the build green", body))
    write_skill(folder, "代码审查", skill_md("代码审查", "审查代码 的 质量"))
    return folder


@pytest.mark.usefixtures("lexical_only")
@pytest.mark.parametrize("intent", QUERIES)
def test_search_answers_as_the_cli_does_names_order_confidence_and_match(capsys, root, intent):
    cli = run_cli(capsys, "search", "--root", str(root), "--top", "3", intent).data
    answer = SkillLibrary([str(root)], semantic_wait=None).answer(intent, 3)
    assert answer["match"] == cli["match"]
    ranked = [(hit["name"], hit["score"], hit["confidence"]) for hit in answer["results"]]  # type: ignore[union-attr]
    assert ranked == [(hit["name"], hit["score"], hit["confidence"]) for hit in cli["results"]]


@pytest.mark.usefixtures("lexical_only")
def test_a_word_only_a_skill_body_holds_finds_that_skill(root):
    answer = SkillLibrary([str(root)]).answer("flaky retries", 5)
    assert [hit["name"] for hit in answer["results"]] == ["ci-helper"]  # type: ignore[union-attr]


@pytest.mark.usefixtures("lexical_only")
def test_no_skill_fitting_is_said_with_match_none(root):
    found = SkillLibrary([str(root)]).answer("bake sourdough bread", 5)
    assert found == {"match": "none", "mode": "lexical", "results": []}


@pytest.mark.usefixtures("lexical_only")
def test_an_edited_body_is_searched_as_it_now_reads_after_the_rebuild(root):
    """The words a rebuild carries over are those of unchanged texts only: an edit is never hidden by them."""
    clock = Clock()
    library = SkillLibrary([str(root)], clock=clock)
    assert [hit["name"] for hit in library.search("flaky retries", 5)] == ["ci-helper"]
    body = "## When a job fails\n\nBisect the commit that broke the nightly build.\n"
    write_skill(root, "ci-helper", skill_md("ci-helper", "Keep the build green", body))
    clock.now += 10
    assert library.search("flaky retries", 5) == []
    assert [hit["name"] for hit in library.search("bisect nightly", 5)] == ["ci-helper"]


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now
