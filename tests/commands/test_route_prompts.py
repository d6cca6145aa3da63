"""Which prompts get a route hint, over the example skills: what must hold whatever the score rule's threshold.

A hint is noise on an everyday prompt of a coding session, even one that
shares words with a skill ("why does this test fail?" and pytest-fixer), so
none of these ever fires; a prompt that names a skill always gets that skill,
before any skill the search would score higher. These pin behaviour, never
the constant: a threshold may change as long as they hold (docs/route.md).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from skillmem_hook.commands.route import route_hook_input

from ..helpers import make_git_dir

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples" / "skills"

# Everyday prompts of benchmarks/route_threshold.py (NEUTRAL), the ones that share words with an example
# skill: the search scores each above zero, so only the score rule's threshold keeps it silent.
EVERYDAY = [
    "fix the typo on line 3",
    "why does this test fail?",
    "make the error message friendlier and add a test for it",
    "please review the changes in this file and tell me what you think about the code",
    "帮我把这段代码写得更清楚一点",
]

NAMING = [
    ("please run csv-to-table on data.csv", "csv-to-table"),
    ("use log-parser on the nginx logs", "log-parser"),
    ("use csv-to-table to parse the log file", "csv-to-table"),  # the search would rank log-parser higher
    ("先做一次代码审查", "代码审查"),
    ("/seo-brief for the landing page", "seo-brief"),
]


@pytest.fixture
def project(tmp_path, monkeypatch):
    folder = tmp_path / "project"
    make_git_dir(folder / ".git")
    shutil.copytree(EXAMPLES, folder / "skills")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return folder


def hint_for(prompt: str, project: Path) -> str | None:
    output = route_hook_input(json.dumps({"prompt": prompt, "cwd": str(project)}).encode(), [])
    return json.loads(output)["hookSpecificOutput"]["additionalContext"] if output else None


def test_the_everyday_prompts_do_share_words_with_a_skill():
    """Else the test below would pass under any threshold and prove nothing."""
    from skillmem_hook.catalog.scan import scan_roots
    from skillmem_hook.search.rank import search

    skills = scan_roots([str(EXAMPLES)]).skills
    assert all(search(skills, prompt, top=1) for prompt in EVERYDAY)


@pytest.mark.parametrize("prompt", EVERYDAY)
def test_an_everyday_prompt_gets_no_hint(project, prompt):
    assert hint_for(prompt, project) is None


@pytest.mark.parametrize(("prompt", "skill"), NAMING)
def test_a_prompt_that_names_a_skill_gets_that_skill_first(project, prompt, skill):
    hint = hint_for(prompt, project)
    assert hint is not None
    first = re.search(r'skills? "((?:[^"\\]|\\.)*)"', hint).group(1)  # the first skill the line names, quoted
    assert first == skill, hint
