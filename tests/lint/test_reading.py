"""Lint reads and stats only inside the repository: links are followed step by step, and never out of it."""

from __future__ import annotations

import os

import pytest

from skillmem_hook.lint.check import MAX_SCANNED_BODY
from skillmem_hook.lint.files import lint_paths
from skillmem_hook.lint.options import lint_options
from skillmem_hook.lint.paths import MISSING, OUTSIDE, resolve_inside

SKILL = "---\nname: {name}\ndescription: Parse files. Use when asked.\n---\n{body}"


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def repo(tmp_path):
    """repo/ (the boundary, outside git) and outside/ beside it, holding a secret and a script."""
    write(tmp_path / "outside" / "creds.yml", "---\nname: ghp_SECRETTOKEN123456\npassword: hunter2\n---\n")
    write(tmp_path / "outside" / "scripts" / "run.py", "print()\n")
    (tmp_path / "repo" / "skills").mkdir(parents=True)
    return tmp_path


def codes(run):
    return [(finding.code, finding.message) for finding in run.findings]


def test_links_inside_are_followed_and_links_out_are_not(repo):
    inside = repo / "repo"
    write(inside / "shared" / "a.md", "x")
    os.symlink("../shared", inside / "skills" / "docs")
    os.symlink(str(repo / "outside"), inside / "skills" / "out")
    os.symlink("loop", inside / "skills" / "loop")
    assert resolve_inside(str(inside), str(inside / "skills" / "docs" / "a.md")) == str(inside / "shared" / "a.md")
    assert resolve_inside(str(inside), str(inside / "skills" / "docs" / "b.md")) == MISSING
    assert resolve_inside(str(inside), str(inside / "skills" / "out" / "creds.yml")) == OUTSIDE
    assert resolve_inside(str(inside), str(inside / "skills" / "loop" / "x")) == OUTSIDE
    assert resolve_inside(str(inside), str(repo / "outside" / "creds.yml")) == OUTSIDE


def test_a_skill_file_linked_out_of_the_repository_is_never_read(repo, monkeypatch):
    monkeypatch.chdir(repo / "repo")
    (repo / "repo" / "skills" / "evil").mkdir()
    os.symlink(str(repo / "outside" / "creds.yml"), repo / "repo" / "skills" / "evil" / "SKILL.md")
    run = lint_paths(["skills/evil/SKILL.md"], [], lint_options(None))
    [(code, message)] = codes(run)
    assert code == "SK204"
    assert "ghp_SECRET" not in message
    assert "password" not in message


def test_a_script_reached_through_a_link_out_of_the_repository_is_a_finding(repo, monkeypatch):
    monkeypatch.chdir(repo / "repo")
    write(repo / "repo" / "skills" / "a" / "SKILL.md", SKILL.format(name="a", body="Run `scripts/run.py`.\n"))
    os.symlink(str(repo / "outside" / "scripts"), repo / "repo" / "skills" / "a" / "scripts")
    for run in (lint_paths(["skills/a"], [], lint_options(None)), lint_paths([], ["skills"], lint_options(None))):
        [(code, message)] = codes(run)
        assert code == "SK201"
        assert "leads out of the repository through a link" in message


def test_a_percent_encoded_absolute_link_is_no_path_of_the_skill(repo, monkeypatch):
    monkeypatch.chdir(repo / "repo")
    body = f"[a]({'%2F'.join(['', *str(repo / 'outside' / 'creds.yml').split('/')[1:]])})\n"
    write(repo / "repo" / "skills" / "a" / "SKILL.md", SKILL.format(name="a", body=body))
    assert codes(lint_paths([], ["skills"], lint_options(None))) == []


def test_a_body_past_the_scan_cap_is_one_warning(repo, monkeypatch):
    monkeypatch.chdir(repo / "repo")
    body = "text\n" * (MAX_SCANNED_BODY // 5 + 10) + "Run `scripts/late.py`.\n"
    write(repo / "repo" / "skills" / "a" / "SKILL.md", SKILL.format(name="a", body=body))
    [(code, message)] = codes(lint_paths([], ["skills"], lint_options(None)))
    assert code == "SK203"
    assert "first 1024 KiB only" in message
