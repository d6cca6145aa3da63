"""The clear lead (0.4.1): a stranger's skill, its description written for it, fires on short everyday turns.

Before 7d4b7ce no score hint could fire on a prompt typing fewer than 8 search words, whatever the repository's
skills said: that gate is what kept "change the default timeout to 30 seconds" silent. The clear lead needs 5
typed words and 2 held, so a skill whose description holds the words of ordinary short turns (and so leads
every other skill by far) is hinted on them. These turns come from benchmarks/data/everyday-en.txt, on which
docs/route.md says the rule never fires (for the collections it was measured on).

Accepted in 0.4.1, and kept here as strict xfails so a fix shows: the held-words way has the same exposure on
turns of 8 typed words or more (a description can hold any turn's words), the clear lead widens it to 5, and no
lexical rule can tell a description written for a turn from one written for a task (docs/route.md).
"""

from __future__ import annotations

import time

import pytest

from skillmem_hook.agents.route import best_scored
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.search.at_hand.shown import names_code
from skillmem_hook.search.confidence import ScoreRule
from skillmem_hook.search.store import build_from

from ..helpers import backdate, hint_of, make_git_dir, run_route, skill_md, write_skill

CRAFTED = (
    "Show me the diff of everything changed before I commit anything. Change the default timeout to 30 seconds."
    " Replace the magic number with a named constant. Show the last few lines of the log."
)
SHORT_EVERYDAY = [
    "change the default timeout to 30 seconds",
    "show me the last few lines of the log",
    "Show me the diff of everything you changed before I commit anything.",
]
TOPICS = [
    ("csv-to-table", "Parse CSV files into tables"),
    ("pdf-invoices", "Extract line items and totals from PDF invoices"),
    ("docker-compose", "Write docker compose files for local services"),
    ("k8s-helm", "Package Kubernetes apps as Helm charts"),
    ("react-forms", "Build accessible React forms with validation"),
    ("sql-tuning", "Speed up slow SQL queries with indexes"),
    ("pypi-release", "Publish a Python package to PyPI"),
    ("i18n-strings", "Translate user interface strings"),
    ("oauth-setup", "Configure OAuth login with an identity provider"),
    ("terraform-aws", "Provision AWS infrastructure with Terraform"),
    ("pandas-clean", "Clean messy data frames with pandas"),
    ("security-audit", "Audit a web app for OWASP vulnerabilities"),
]
# Real descriptions run to a few dozen words; a collection of one-line descriptions would penalise a longer one.
USE = (
    ". Use it when the user asks for this kind of work in a project, with examples, checklists and the steps"
    " to follow from start to finish."
)


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    for name, description in TOPICS:
        write_skill(repo / ".claude" / "skills", name, skill_md(name, description + USE))
    write_skill(repo / ".claude" / "skills", "session-helper", skill_md("session-helper", CRAFTED))
    backdate(repo)
    return repo


def warm(repo, env):
    run_route("hello there", repo, env)  # builds the route index and starts the search index's build
    deadline = time.monotonic() + 60
    while (
        not (repo / ".git" / "skillmem-search.json").exists()
        or (repo / ".git" / "skillmem-search.json.building").exists()
    ):
        assert time.monotonic() < deadline
        time.sleep(0.05)


@pytest.mark.xfail(
    strict=True,
    reason="the clear lead lets a repository's crafted skill fire on short everyday turns (5 typed words, 2 held), "
    "which the typed >= 8 gate kept silent before 7d4b7ce",
)
@pytest.mark.parametrize("prompt", SHORT_EVERYDAY)
def test_a_crafted_skill_is_hinted_on_a_short_everyday_turn(repo, env, prompt):
    assert [target.label for target in best_scored(prompt, skills_index(repo))] == ["session-helper"]
    assert_silent_before_the_clear_lead_and_now(repo, env, prompt)


def skills_index(repo):
    return build_from(scan_roots([str(repo / ".claude" / "skills")]).skills, {})


def assert_silent_before_the_clear_lead_and_now(repo, env, prompt):
    # c473e28's rule (no lead, near 0.6) stays silent on the same skills and prompt; the hook must too.
    assert best_scored(prompt, skills_index(repo), ScoreRule(near=0.6, lead=0)) == []
    warm(repo, env)
    assert hint_of(run_route(prompt, repo, env)) == ""


CRAFTED_ZH = (
    "帮我写提交信息, 看看从上次提交到现在改了什么, 把调试用的打印语句删掉, 给我看看日志最后几行, 把默认超时改成30秒"
)
SHORT_EVERYDAY_ZH = ["从上次提交到现在改了什么"]
# Opening on 把 and a verb of removing or changing: a change of what is there (0.5.0, thirty-fifth pass), the work
# at hand, which the score rule leaves alone whatever the crafted skill holds.
SHORT_CHANGES_ZH = ["把调试用的打印语句删掉", "把默认超时改成 30 秒"]


@pytest.mark.xfail(
    strict=True,
    reason="a Chinese turn of 8 characters types 5 to 7 words (bigrams): the clear lead lets a crafted skill fire "
    "on the short everyday-zh turns, which the typed >= 8 gate kept silent before 7d4b7ce",
)
@pytest.mark.parametrize("prompt", SHORT_EVERYDAY_ZH)
def test_a_crafted_chinese_skill_is_hinted_on_a_short_everyday_turn(repo, env, prompt):
    write_skill(repo / ".claude" / "skills", "session-helper", skill_md("session-helper", CRAFTED_ZH))
    for number in range(30):  # a collection of some size: the crafted words are rarer among its skills
        write_skill(
            repo / ".claude" / "skills", f"notes-{number}", skill_md(f"notes-{number}", f"Notes on topic {number}")
        )
    backdate(repo)
    assert_silent_before_the_clear_lead_and_now(repo, env, prompt)


@pytest.mark.parametrize("prompt", SHORT_CHANGES_ZH)
def test_a_crafted_chinese_skill_is_not_hinted_on_a_change_of_what_is_there(repo, env, prompt):
    write_skill(repo / ".claude" / "skills", "session-helper", skill_md("session-helper", CRAFTED_ZH))
    for number in range(30):
        write_skill(
            repo / ".claude" / "skills", f"notes-{number}", skill_md(f"notes-{number}", f"Notes on topic {number}")
        )
    backdate(repo)
    assert_silent_before_the_clear_lead_and_now(repo, env, prompt)


def test_a_typo_skill_is_not_hinted_on_fix_the_typo_on_line_three_in_chinese(repo, env):
    # 第三行 names a line as 第 3 行 does (found by the hostile tester of 0.4.1: the pattern wanted figures).
    write_skill(repo / ".claude" / "skills", "typo-helper", skill_md("typo-helper", "修一下拼写错误, 检查每一行"))
    backdate(repo)
    prompt = "修一下第三行的拼写错误"
    assert names_code(prompt) and names_code("修一下第 3 行的拼写错误") and names_code("fix the typo on line 3")
    warm(repo, env)
    assert hint_of(run_route(prompt, repo, env)) == ""


def test_the_crafted_skill_still_stays_off_the_shortest_turns(repo, env):
    # What held: under 5 typed words, or naming code, the lead never fires however the skill is written.
    warm(repo, env)
    for prompt in ("continue", "run the tests again", "fix the typo on line 3", "show me the diff", "undo that"):
        assert hint_of(run_route(prompt, repo, env)) == "", prompt
