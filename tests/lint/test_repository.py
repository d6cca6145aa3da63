"""SK116's taken-name advice (``lint/repository.py``): the same whichever way lint reads the skills, and from the
names lint read itself when it read every skill, without a second scan of the roots."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillmem_hook.hooks.lint import skill_lint
from skillmem_hook.lint import files

from ..helpers import run_cli, skill_md, write_skill

ROOT = ".agents/skills"
# Each (folder, name): the SK116 it gets, and the advice it should get, is in ADVICE below.
SKILLS = {
    "team-a/deploy": "web-deploy",  # two folders 'deploy': 'name: deploy' would make them one skill
    "team-b/deploy": "api-deploy",
    "x/dup": "dup",  # x/dup and y/dup2 are one skill; y/dup2 is the one the index leaves out
    "y/dup2": "dup",
    "z/dup2": "other",  # 'dup2' is the folder of the duplicate left out, which renamed would be listed again
    "q/legacy": "legacy",  # exclude: leaves it out, so its name is free
    "r/legacy": "new-legacy",
    "@acme/deploy": "acme-deploy",  # another owner: 'deploy' is free among @acme's skills
    "@acme/release": "ship",  # but 'ship' is taken there
    "@acme/ship": "send",
    "u/x-build": "make",  # '@x/build' (slug x-build) reads as an owner's label: the index skips that skill
    "v/label": "'@x/build'",  # (its own finding is SK114: the name is not in the spec's form)
}
WRITE = "write 'name: {folder}' or rename the folder to '{name}'"
TAKEN = (
    "rename the folder to '{name}' (with 'name: {folder}' the index would count this skill and {other} as one),"
    " or ignore SK116 for this file under lint: per_path_ignores"
)
ADVICE = {
    "team-a/deploy": TAKEN.format(name="web-deploy", folder="deploy", other=f"{ROOT}/team-b/deploy/SKILL.md"),
    "team-b/deploy": TAKEN.format(name="api-deploy", folder="deploy", other=f"{ROOT}/team-a/deploy/SKILL.md"),
    "y/dup2": TAKEN.format(name="dup", folder="dup2", other=f"{ROOT}/z/dup2/SKILL.md"),
    "z/dup2": TAKEN.format(name="other", folder="dup2", other=f"{ROOT}/y/dup2/SKILL.md"),
    "r/legacy": WRITE.format(name="new-legacy", folder="legacy"),
    "@acme/deploy": WRITE.format(name="acme-deploy", folder="deploy"),
    "@acme/release": WRITE.format(name="ship", folder="release"),
    "@acme/ship": TAKEN.format(name="send", folder="ship", other=f"{ROOT}/@acme/release/SKILL.md"),
    "u/x-build": WRITE.format(name="make", folder="x-build"),
}
NOT_UTF8 = b"w/caf\xe9"  # a folder whose name is not UTF-8: the index skips its skill, named 'build'


def git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


@pytest.fixture
def repo():
    git("init", "-q")
    for folder, name in SKILLS.items():
        write_skill(Path(ROOT), folder, skill_md(name, "Does a thing"))
    write_skill(Path(ROOT), "s/build", skill_md("compile", "Compiles"))
    os.makedirs(os.fsencode(ROOT) + b"/" + NOT_UTF8)
    with open(os.fsencode(ROOT) + b"/" + NOT_UTF8 + b"/SKILL.md", "wb") as file:
        file.write(skill_md("build", "Builds"))
    with open(".skillmem.yaml", "w") as file:
        file.write(f"roots: [{ROOT}]\nexclude: [legacy]\n")


def sk116(findings: list[dict]) -> dict[str, str]:
    return {
        finding["path"][len(ROOT) + 1 : -len("/SKILL.md")]: finding["message"].partition("; ")[2]
        for finding in findings
        if finding["code"] == "SK116" and finding["path"].isascii()
    }


def test_lint_advises_what_the_index_would_make_of_each_name(repo, capsys):
    advice = sk116(run_cli(capsys, "lint").data["findings"])
    assert advice == {**ADVICE, "s/build": WRITE.format(name="compile", folder="build")}


def test_lint_of_the_roots_builds_no_catalog_for_the_advice(repo, capsys, monkeypatch):
    def no_scan(*args, **kwargs):
        raise AssertionError("lint scanned the roots a second time")

    monkeypatch.setattr(files, "scan_roots", no_scan)
    assert sk116(run_cli(capsys, "lint").data["findings"])["team-a/deploy"] == ADVICE["team-a/deploy"]


def test_files_named_get_the_same_advice_from_the_catalog(repo, capsys):
    named = [f"{ROOT}/{folder}" for folder in ADVICE]
    assert sk116(run_cli(capsys, "lint", *named).data["findings"]) == ADVICE


def test_the_hook_on_staged_files_gives_the_same_advice(repo, capsys):
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "skills")
    staged = [f"{ROOT}/{folder}/SKILL.md" for folder in ("team-a/deploy", "z/dup2", "@acme/deploy", "u/x-build")]
    for path in staged:
        with open(path, "a") as file:
            file.write("More.\n")
    git("add", *staged)
    capsys.readouterr()
    assert skill_lint(staged) == 1
    report = capsys.readouterr().err
    assert report.count(": SK116 ") == len(staged)  # the commit's files only: the advice asks the catalog
    for path in staged:
        folder = path[len(ROOT) + 1 : -len("/SKILL.md")]
        assert f"{path}:2:7: SK116 name '{SKILLS[folder]}' differs from its folder" in report
        assert ADVICE[folder] + "\n" in report


FOLDERS = st.sampled_from(["deploy", "build", "web-deploy"])
NAMES = st.sampled_from([None, "deploy", "build", "web-deploy", "api"])
SKILL = st.tuples(st.sampled_from(["", "@acme/"]), st.sampled_from(["a", "b"]), FOLDERS, NAMES)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(skills=st.lists(SKILL, min_size=1, max_size=6, unique_by=lambda skill: skill[:3]), exclude=st.booleans())
def test_the_advice_is_the_same_read_from_the_roots_or_from_the_catalog(
    tmp_path_factory, capsys, monkeypatch, skills, exclude
):
    # The roots' own reading (lint over the roots) against the catalog's (each file named), on any small tree.
    top = tmp_path_factory.mktemp("tree")
    for owner, group, folder, name in skills:
        write_skill(top / "skills", f"{owner}{group}/{folder}", skill_md(name, "Does it"))
    (top / ".skillmem.yaml").write_text("roots: [skills]\n" + ("exclude: [build]\n" if exclude else ""))
    monkeypatch.chdir(top)
    whole = {f["path"]: f["message"] for f in run_cli(capsys, "lint").data["findings"] if f["code"] == "SK116"}
    named = run_cli(capsys, "lint", *(f"skills/{owner}{group}/{folder}" for owner, group, folder, _ in skills))
    each = {f["path"]: f["message"] for f in named.data["findings"] if f["code"] == "SK116"}
    assert whole == {path: message for path, message in each.items() if path in whole}
