"""``skillmem lint`` from a subfolder of the repository: the baseline's paths are the configuration folder's.

The findings' paths are relative to the current folder, the baseline's to the folder of ``.skillmem.yaml`` (where
the hook runs): both are compared, and written, from that one folder, whatever folder lint runs from (tidy9).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ..helpers import isolate_git, run_cli, run_git, write_skill

UNKNOWN = "---\nname: {0}\ndescription: d\nversion: 1\n---\n"  # one SK105 finding each


@pytest.fixture
def repository(capsys, monkeypatch, tmp_path):
    """skills a and team/b, one known finding each in base.json, written from the top; a real git repository."""
    isolate_git(monkeypatch, tmp_path)
    run_git("init", "-q", ".")
    write_skill(Path("skills"), "a", UNKNOWN.format("a"))
    write_skill(Path("skills/team"), "b", UNKNOWN.format("b"))
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    assert run_cli(capsys, "lint", "--write-baseline", "base.json").data["recorded"] == 2
    return Path("base.json").resolve()


@pytest.mark.parametrize("where", ["skills", "skills/team/b"])
def test_lint_from_a_subfolder_knows_the_baseline_s_findings(capsys, monkeypatch, repository, where):
    monkeypatch.chdir(where)
    every = run_cli(capsys, "lint")
    assert (every.code, every.data["known"], every.data["findings"]) == (0, 2, [])
    named = run_cli(capsys, "lint", ".", str(Path.cwd()))  # as named from here, and absolute: the same skill(s)
    assert (named.code, named.data["findings"]) == (0, [])


def test_a_new_finding_from_a_subfolder_is_shown_from_there_and_the_rest_stay_known(capsys, monkeypatch, repository):
    Path("skills/team/b/SKILL.md").write_text("---\nname: b\ndescription: d\nversion: 1\nrisk: low\n---\n")
    monkeypatch.chdir("skills/team")
    run = run_cli(capsys, "lint")
    assert (run.code, run.data["known"]) == (1, 2)
    shown = [os.path.relpath(finding["path"]) for finding in run.data["findings"]]  # ../team/b: via the root
    assert shown == [os.path.join("b", "SKILL.md")]  # relative to here, as every lint report names a path


def test_write_baseline_from_a_subfolder_writes_the_configuration_folder_s_paths(capsys, monkeypatch, repository):
    before = repository.read_bytes()
    monkeypatch.chdir("skills/team")
    again = run_cli(capsys, "lint", "--write-baseline", str(repository))
    assert (again.data["written"], again.data["new"], again.data["dropped"]) == (False, [], 0)
    assert repository.read_bytes() == before
    run_cli(capsys, "lint", "--write-baseline", "../../other.json")
    rows = json.loads(Path("../../other.json").read_text())["findings"]
    assert [row["path"] for row in rows] == ["skills/a/SKILL.md", "skills/team/b/SKILL.md"]
