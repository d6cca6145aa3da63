"""Lint's findings, its baseline and its per-path globs read the same from any folder (cn2's items 1, 2 and 4),
and a baseline git ignores is said where the tool knows it (item 3): the real CLI, in a git repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.hooks.lint import skill_lint

from ..helpers import run_cli, skill_md, write_skill

# y/dup2 and x/dup are one skill 'dup' (SK301), whose message names the other file; team-a/deploy and
# team-b/deploy are two folders 'deploy' whose names differ from it (SK116).
SKILLS = {
    "x/dup": skill_md("dup", "One"),
    "y/dup2": skill_md("dup", "Two"),
    "team-a/deploy": skill_md("web-deploy", "Deploy the web"),
    "team-b/deploy": skill_md("api-deploy", "Deploy the API"),
}
SK301 = "the index counts this skill and .agents/skills/x/dup/SKILL.md as one skill 'dup' (same owner and slug); "


def git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    top = tmp_path / "cwd"
    git("init", "-q")
    for folder, content in SKILLS.items():
        write_skill(top / ".agents" / "skills", folder, content)
    (top / ".skillmem.yaml").write_text("roots: [.agents/skills]\nlint: {baseline: base.json}\n")
    (top / "docs" / "deep").mkdir(parents=True)
    return top


def messages(path: Path) -> list[str]:
    return [row["message"] for row in json.loads(path.read_text())["findings"]]


@pytest.mark.parametrize("below", ["docs", "docs/deep"])
def test_a_baseline_written_at_the_top_is_known_below_and_written_there_is_the_same(repo, capsys, monkeypatch, below):
    assert run_cli(capsys, "lint", "--write-baseline", "base.json").code == 0
    written = (repo / "base.json").read_bytes()
    assert SK301 + "rename or remove one" in messages(repo / "base.json")
    monkeypatch.chdir(repo / below)
    here = run_cli(capsys, "lint")
    assert here.code == 0, here.out
    assert (here.data["known"], here.data["baseline_otherwise"]) == (4, [])
    up = "../" * below.count("/") + "../"
    again = run_cli(capsys, "lint", "--write-baseline", f"{up}base.json")
    assert again.data["written"] is False
    assert (repo / "base.json").read_bytes() == written
    named = run_cli(capsys, "lint", f"{up}.agents/skills/y")  # a file named from here: its message all the same
    assert [finding["message"] for finding in named.data["findings"]] == []
    assert named.data["known"] == 2


def test_a_baseline_written_below_by_0_5_0_reads_as_changed_messages_and_a_rewrite_prunes_them(repo, capsys):
    run_cli(capsys, "lint", "--write-baseline", "base.json")
    data = json.loads((repo / "base.json").read_text())
    for row in data["findings"]:  # what 0.5.0 wrote from docs/: the other file named from there
        if row["code"] == "SK301":
            row["message"] = row["message"].replace("and .agents/", "and ../.agents/")
    (repo / "base.json").write_text(json.dumps(data))
    stale = run_cli(capsys, "lint")
    assert stale.code == 1
    assert [entry["was"] for entry in stale.data["baseline_otherwise"]] == [
        SK301.replace("and .agents", "and ../.agents") + "rename or remove one"
    ]
    rewritten = run_cli(capsys, "lint", "--write-baseline", "base.json")
    assert (rewritten.data["dropped"], len(rewritten.data["new"])) == (1, 1)
    assert not any("../" in message for message in messages(repo / "base.json"))
    assert run_cli(capsys, "lint").code == 0


@pytest.mark.parametrize("below", ["docs", "docs/deep", ".agents/skills"])
def test_per_path_ignores_globs_are_read_from_the_configurations_folder(repo, capsys, monkeypatch, below):
    (repo / ".skillmem.yaml").write_text(
        "roots: [.agents/skills]\nlint: {per_path_ignores: {.agents/skills/team-*/deploy/SKILL.md: [SK116]}}\n"
    )
    monkeypatch.chdir(repo / below)
    codes = [finding["code"] for finding in run_cli(capsys, "lint").data["findings"]]
    assert sorted(codes) == ["SK116", "SK301"]  # y/dup2's SK116 and SK301; the two deploy folders' SK116 ignored


def test_sk116_advises_no_name_another_skill_has_or_would_get(repo, capsys):
    (repo / ".skillmem.yaml").write_text("roots: [.agents/skills]\n")
    write_skill(repo / ".agents" / "skills", "z/tools", skill_md("build", "Build it"))
    write_skill(repo / ".agents" / "skills", "w/build", skill_md("make", "Make it"))  # 'build' is z/tools's name
    found = {f["path"]: f["message"] for f in run_cli(capsys, "lint").data["findings"] if f["code"] == "SK116"}
    deploy = found[".agents/skills/team-a/deploy/SKILL.md"]
    assert "write 'name: deploy'" not in deploy
    assert deploy == (
        "name 'web-deploy' differs from its folder 'deploy'; rename the folder to 'web-deploy' (with 'name: deploy'"
        " the index would count this skill and .agents/skills/team-b/deploy/SKILL.md as one), or ignore SK116 for"
        " this file under lint: per_path_ignores"
    )
    assert "and .agents/skills/team-a/deploy/SKILL.md as one" in found[".agents/skills/team-b/deploy/SKILL.md"]
    assert "and .agents/skills/z/tools/SKILL.md as one" in found[".agents/skills/w/build/SKILL.md"]
    # A folder's name no other skill holds: the advice as before, so a baseline's entry still matches.
    assert found[".agents/skills/y/dup2/SKILL.md"] == (
        "name 'dup' differs from its folder 'dup2'; write 'name: dup2' or rename the folder to 'dup'"
    )
    assert found[".agents/skills/z/tools/SKILL.md"].endswith("write 'name: tools' or rename the folder to 'build'")


@pytest.mark.parametrize("below", ["", "docs"])
def test_a_missing_baseline_names_itself_in_the_hint_and_the_rule_when_git_ignores_it(repo, capsys, monkeypatch, below):
    (repo / ".skillmem.yaml").write_text("roots: [.agents/skills]\nlint: {baseline: .lint/base.json}\n")
    monkeypatch.chdir(repo / below)
    up = "../" if below else ""
    missing = run_cli(capsys, "lint")
    assert missing.code == 2
    assert missing.error["error"] == f"the lint baseline '{up}.lint/base.json' does not exist"
    assert missing.error["hint"] == f"write it again: skillmem lint --write-baseline {up}.lint/base.json"
    (repo / ".gitignore").write_text("# local\n*.tmp\n.lint/\n")
    ignored = run_cli(capsys, "lint")
    assert ignored.error["error"] == (
        f"the lint baseline '{up}.lint/base.json' does not exist: git ignores it (.gitignore:3:.lint/), so no clone"
        " has it"
    )
    assert f"git check-ignore -v {up}.lint/base.json" in ignored.error["hint"]
    (repo / ".gitignore").write_text(".lint/*\n!.lint/base.json\n")  # un-ignored by a negated rule: not ignored
    assert run_cli(capsys, "lint").error["hint"].startswith("write it again")


def test_write_baseline_says_once_that_git_ignores_it(repo, capsys, monkeypatch):
    (repo / ".gitignore").write_text(".lint/\n")
    (repo / ".lint").mkdir()
    monkeypatch.chdir(repo / "docs")
    run = run_cli(capsys, "lint", "--write-baseline", "../.lint/base.json")
    assert run.data["ignored"] == ".gitignore:1:.lint/"
    text = run_cli(capsys, "lint", "--write-baseline", "../.lint/base.json", "--text").out
    assert text.count("teammates and CI will not have it") == 1
    assert "note: git ignores ../.lint/base.json (.gitignore:1:.lint/)" in text
    assert run_cli(capsys, "lint", "--write-baseline", "../base.json").data["ignored"] is None


def test_sk116_reads_the_owner_below_the_root_so_a_root_under_an_at_folder_is_advised_alike(repo, capsys, monkeypatch):
    # The owner is the '@' folder of the skill's path below its root: vendor/@acme/skills holds skills of no owner,
    # whose two folders 'deploy' would be one skill; from docs/ the other file is named from the top all the same.
    for team in ("a", "b"):
        write_skill(repo / "vendor" / "@acme" / "skills", f"team-{team}/deploy", skill_md(f"{team}-deploy", "Deploy"))
    (repo / ".skillmem.yaml").write_text("roots: [vendor/@acme/skills]\n")
    monkeypatch.chdir(repo / "docs")
    found = {f["path"]: f["message"] for f in run_cli(capsys, "lint").data["findings"] if f["code"] == "SK116"}
    assert found["../vendor/@acme/skills/team-a/deploy/SKILL.md"] == (
        "name 'a-deploy' differs from its folder 'deploy'; rename the folder to 'a-deploy' (with 'name: deploy'"
        " the index would count this skill and vendor/@acme/skills/team-b/deploy/SKILL.md as one), or ignore SK116"
        " for this file under lint: per_path_ignores"
    )


NOT_SHARED = "note: git ignores {} (.gitignore:1:.lint/): teammates and CI will not have it"


@pytest.fixture
def ignored(repo, capsys):
    """The baseline in .lint/, which git ignores, written; the rest committed."""
    (repo / ".skillmem.yaml").write_text("roots: [.agents/skills]\nlint: {baseline: .lint/base.json}\n")
    (repo / ".gitignore").write_text(".lint/\n")
    (repo / ".lint").mkdir()
    assert run_cli(capsys, "lint", "--write-baseline", ".lint/base.json").data["ignored"] == ".gitignore:1:.lint/"
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "skills")
    return repo


def test_lint_reading_a_baseline_git_ignores_says_so_once_and_passes(ignored, capsys, monkeypatch):
    text = run_cli(capsys, "lint", "--text")
    assert (text.code, text.err) == (0, "")
    assert text.out.count(NOT_SHARED.format(".lint/base.json")) == 1
    plain = run_cli(capsys, "lint")
    assert (plain.code, plain.data["baseline_ignored"], plain.err) == (0, ".gitignore:1:.lint/", "")
    github = run_cli(capsys, "lint", "--format", "github")  # a machine's form on stdout: the note on stderr
    assert github.err.count(NOT_SHARED.format(".lint/base.json")) == 1
    assert "git ignores" not in github.out
    fixed = run_cli(capsys, "lint", "--fix", "--text")  # lints twice, says it once
    assert fixed.out.count("note: git ignores") == 1
    monkeypatch.chdir(ignored / "docs")
    assert NOT_SHARED.format("../.lint/base.json") in run_cli(capsys, "lint", "--text").out
    (ignored / ".gitignore").write_text("")  # not ignored (yet to be committed): nothing to say
    assert "git ignores" not in run_cli(capsys, "lint", "--text").out
    assert run_cli(capsys, "lint").data["baseline_ignored"] is None


def test_the_hook_reading_a_baseline_git_ignores_says_so_once_a_run(ignored, capsys):
    deploy = ignored / ".agents" / "skills" / "team-a" / "deploy" / "SKILL.md"
    deploy.write_bytes(deploy.read_bytes() + b"More.\n")
    git("add", "-A")
    capsys.readouterr()
    assert skill_lint([]) == 0
    said = capsys.readouterr().err
    assert said.count("note: git ignores") == 1
    assert NOT_SHARED.format(".lint/base.json") in said
    git("rm", "-rq", ".agents/skills/y")  # and a deletion the prune takes out of the baseline, which says it too
    assert skill_lint([]) == 0
    said = capsys.readouterr().err
    assert "from the baseline .lint/base.json (.agents/skills/y/dup2/SKILL.md): git ignores it" in said
    assert said.count("note: git ignores") == 1
