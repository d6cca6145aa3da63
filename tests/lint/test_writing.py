"""``lint --fix`` writes where the hooks write: in the work tree, outside .git, through a link only onto a tracked file.

Real git, real files, real links. A fix refused is reported (``not_fixed``)
and changes not one byte; the other files are still fixed. (The hook lints
what git's view holds, where a SKILL.md link is no skill: it never gets one.)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillmem_hook.hooks.lint import skill_lint

from ..helpers import isolate_git, run_cli, run_git, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

OWNED = "---\nname: {}\ndescription: my own workflow\nowner: alice\n---\nbody\n"
FIXED = "---\nname: {}\ndescription: my own workflow\nmetadata:\n  owner: alice\n---\nbody\n"


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)


def commit_all() -> None:
    run_git("add", "-A")
    run_git("commit", "-q", "-m", "a commit", "--no-verify")


@pytest.fixture
def repository():
    """skills/plain to fix; the user's own ignored skill in .claude/; a config; all committed."""
    run_git("init", "-q")
    write_skill(Path("skills"), "plain", OWNED.format("plain"))
    Path(".gitignore").write_text(".claude/\n")
    private = write_skill(Path(".claude/skills"), "private", OWNED.format("private"))
    Path(".skillmem.yaml").write_text("roots: [skills]\n")
    return private


def link(folder: str, target: str) -> None:
    Path("skills", folder).mkdir(parents=True)
    os.symlink(target, Path("skills", folder, "SKILL.md"))


def test_a_committed_link_onto_an_ignored_file_is_not_fixed_and_the_others_are(capsys, repository):
    link("evil", "../../.claude/skills/private/SKILL.md")  # H4-4's hostile commit
    commit_all()
    run = run_cli(capsys, "lint", "--fix", ".")
    assert run.data["fixed"] == ["skills/plain/SKILL.md"]
    assert run.data["not_fixed"] == []  # the read rule (H4-7) already skips the link: it is no skill of the tree
    run = run_cli(capsys, "lint", "--fix", "skills/evil")  # named by the user, it is read, and still not written
    [refused] = run.data["not_fixed"]
    assert refused["path"] == "skills/evil/SKILL.md"
    assert refused["reason"] == (
        "SKILL.md 'skills/evil/SKILL.md' (through the symlink 'skills/evil/SKILL.md' -> "
        "'../../.claude/skills/private/SKILL.md') lands on '.claude/skills/private/SKILL.md', "
        "which git does not track; lint --fix writes only where git diff shows it"
    )
    assert repository.read_text() == OWNED.format("private")
    assert Path("skills/plain/SKILL.md").read_text() == FIXED.format("plain")
    assert run_git("status", "--short") == " M skills/plain/SKILL.md\n"  # what changed, git shows


def test_a_link_into_the_git_directory_is_not_fixed(capsys, repository):
    commit_all()
    Path(".git", "notes.md").write_text(OWNED.format("notes"))
    link("inside", "../../.git/notes.md")
    run_git("add", "-A")
    run = run_cli(capsys, "lint", "--fix", "skills/inside")
    assert run.data["fixed"] == []
    assert "resolves to " in run.data["not_fixed"][0]["reason"]
    assert run.data["not_fixed"][0]["reason"].endswith(
        ", inside the git directory; lint --fix writes only where git diff shows it"
    )
    assert Path(".git", "notes.md").read_text() == OWNED.format("notes")


def test_a_link_onto_a_tracked_file_is_fixed_where_git_diff_shows_it(capsys, repository):
    write_skill(Path("shared"), "tool", OWNED.format("tool"))
    link("tool", "../../shared/tool/SKILL.md")
    commit_all()
    run = run_cli(capsys, "lint", "--fix", "skills/tool")
    assert (run.data["fixed"], run.data["not_fixed"]) == (["skills/tool/SKILL.md"], [])
    assert run_git("status", "--short") == " M shared/tool/SKILL.md\n"


def test_the_users_own_ignored_file_named_itself_is_fixed(capsys, repository):
    commit_all()
    run = run_cli(capsys, "lint", "--fix", ".claude/skills/private")
    assert run.data["fixed"] == [".claude/skills/private/SKILL.md"]
    assert repository.read_text() == FIXED.format("private")


@pytest.mark.parametrize(
    ("made", "named"),
    [
        (("skills/evil", "../.claude/skills/private"), "skills/evil"),  # the skill's folder is the link
        (("skills/pack", "../.claude/skills"), "skills/pack/private"),  # a folder above it is (one level down)
    ],
)
def test_a_committed_folder_link_onto_an_ignored_skill_is_not_fixed(capsys, repository, made, named):
    # Issue 34's fourth habit: the file-link case above, one and two folders up.
    os.symlink(made[1], made[0])
    commit_all()
    run = run_cli(capsys, "lint", "--fix", named)
    assert run.data["fixed"] == []
    [refused] = run.data["not_fixed"]
    assert "which git does not track" in refused["reason"]
    assert repository.read_text() == OWNED.format("private")
    assert run_git("status", "--short") == ""


@pytest.mark.parametrize("named", [".", "vendored/skills/inner"])
def test_a_skill_file_in_a_submodule_is_not_fixed_and_the_others_are(capsys, repository, named):
    """fixh10: the hooks and inject refuse a prompt file in a submodule; lint --fix wrote a SKILL.md there, a file
    this repository's commits cannot hold. Left out now with the submodule named, as the index notes it."""
    Path(".skillmem.yaml").write_text("roots: [skills, vendored/skills]\n")
    inner = write_skill(Path("vendored/skills"), "inner", OWNED.format("inner"))
    run_git("init", "-q", "vendored")  # a folder with a .git of its own: a submodule's work tree, or a clone
    run = run_cli(capsys, "lint", "--fix", named)
    assert "vendored/skills/inner/SKILL.md" not in run.data["fixed"]
    [refused] = run.data["not_fixed"]
    assert refused["path"] == "vendored/skills/inner/SKILL.md"
    assert refused["reason"].startswith("SKILL.md 'vendored/skills/inner/SKILL.md' lies in 'vendored', a git submodule")
    assert refused["reason"].endswith("; lint --fix writes only where git diff shows it")
    assert inner.read_text() == OWNED.format("inner")
    assert (Path("skills/plain/SKILL.md").read_text() == FIXED.format("plain")) is (named == ".")


@pytest.mark.parametrize("dot_git", ["fifo", "broken link", "other text", "gitdir: nowhere"])
def test_only_a_git_folder_or_gitdir_file_makes_a_submodule_that_lint_fix_leaves_alone(capsys, repository, dot_git):
    """fixh13: confinement asked only that something named .git be there, so a FIFO .git in skills/vendor3 made
    lint --fix refuse a SKILL.md "in a git submodule" that git add adds. One rule now (dot_git.holds_repository);
    a gitdir: file counts whatever it names (stricter than git: a submodule whose git directory is gone is one)."""
    vendored = write_skill(Path("skills"), "vendor3", OWNED.format("vendor3"))
    dot = vendored.parent / ".git"
    if dot_git == "fifo":
        os.mkfifo(dot)
    elif dot_git == "broken link":
        os.symlink("nowhere", dot)
    else:
        dot.write_text(dot_git + "\n")
    run = run_cli(capsys, "lint", "--fix", ".")
    submodule = dot_git.startswith("gitdir:")
    assert ("skills/vendor3/SKILL.md" in run.data["fixed"]) is not submodule
    assert vendored.read_text() == (OWNED if submodule else FIXED).format("vendor3")
    if not submodule:  # git agrees: the file is this repository's to add
        run_git("add", "skills/vendor3/SKILL.md")
        assert "skills/vendor3/SKILL.md" in run_git("ls-files", "skills/vendor3")


NAMED = "---\nname: {}\ndescription: a skill\n---\n"


@pytest.fixture
def taken():
    """Two folders called deploy; w/build, whose folder's name is z/tools's name; a folder name no one holds."""
    run_git("init", "-q")
    write_skill(Path("skills"), "team-a/deploy", OWNED.format("web-deploy"))
    write_skill(Path("skills"), "team-b/deploy", NAMED.format("Api Deploy"))  # SK114: "use 'deploy'"
    write_skill(Path("skills"), "z/tools", NAMED.format("build"))
    write_skill(Path("skills"), "w/build", NAMED.format("make"))
    write_skill(Path("skills"), "@acme/deploy", NAMED.format("acme-deploy"))  # another owner: 'deploy' is free
    Path(".skillmem.yaml").write_text("roots: [skills]\n")


def held(name: str, other: str) -> str:
    return (
        f"name left as it is: with 'name: {name}' the index would count this skill and skills/{other}/SKILL.md as"
        " one; rename the folder instead"
    )


def test_fix_sets_no_name_another_skill_holds_and_says_so(capsys, taken):
    run = run_cli(capsys, "lint", "--fix")
    fixed = ["skills/@acme/deploy/SKILL.md", "skills/team-a/deploy/SKILL.md", "skills/z/tools/SKILL.md"]
    assert run.data["fixed"] == fixed
    # w/build is judged by the names held before this run, as SK116's advice is: z/tools was named 'build'.
    assert run.data["not_fixed"] == [
        {"path": "skills/team-a/deploy/SKILL.md", "reason": held("deploy", "team-b/deploy")},
        {"path": "skills/team-b/deploy/SKILL.md", "reason": held("deploy", "team-a/deploy")},
        {"path": "skills/w/build/SKILL.md", "reason": held("build", "z/tools")},
    ]
    # team-a's unknown field is still moved; its name, and the others', stay; no fix made two skills one.
    assert Path("skills/team-a/deploy/SKILL.md").read_text() == FIXED.format("web-deploy")
    assert Path("skills/team-b/deploy/SKILL.md").read_text() == NAMED.format("Api Deploy")
    assert Path("skills/w/build/SKILL.md").read_text() == NAMED.format("make")
    assert Path("skills/@acme/deploy/SKILL.md").read_text() == NAMED.format("deploy")
    assert "SK301" not in {finding["code"] for finding in run.data["findings"]}
    again = run_cli(capsys, "lint", "--fix", "--text")  # z/tools is 'tools' now: 'build' is free; the text says it
    assert again.out.startswith(
        f"skills/w/build/SKILL.md: fixed\nskills/team-a/deploy/SKILL.md: not fixed: {held('deploy', 'team-b/deploy')}\n"
    )


def test_fix_of_files_named_and_the_hook_s_fix_ask_the_catalog_alike(capsys, taken):
    run = run_cli(capsys, "lint", "--fix", "skills/team-b/deploy", "skills/w/build")
    assert run.data["fixed"] == []
    assert [entry["reason"] for entry in run.data["not_fixed"]] == [
        held("deploy", "team-a/deploy"),
        held("build", "z/tools"),
    ]
    commit_all()
    Path("skills/team-b/deploy/SKILL.md").write_text(NAMED.format("Api Deploy") + "More.\n")
    run_git("add", "-A")
    capsys.readouterr()
    assert skill_lint(["--fix", "skills/team-b/deploy/SKILL.md"]) == 1
    assert f"skills/team-b/deploy/SKILL.md: not fixed: {held('deploy', 'team-a/deploy')}\n" in capsys.readouterr().err
    assert Path("skills/team-b/deploy/SKILL.md").read_text() == NAMED.format("Api Deploy") + "More.\n"
