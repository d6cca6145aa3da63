"""Two prompt files where only one changed, is absent, is ignored or is a link: verify, inject and both hooks.

The commands and the hooks share one comparison, but each decides its exit
code from the list of files: a slip from "any file" to "all files" passes a
stale block in CI (mutants-4's survivor 06). So every case has one file that
differs from the other, and every front end is asked.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillmem_hook.block.tracking import ABSENT_IGNORED, SPARSE, absent_ignored_here, left_out_note
from skillmem_hook.hooks.index import skill_index, skill_verify

from ..helpers import isolate_git, run_cli, run_git, seed_tree, skill_md, write_skill

TOUCH_B = "(absent here, and git ignores it: `touch B.md` once to have its block written here)"


@pytest.fixture
def two_files(monkeypatch, tmp_path, capsys):
    """A committed repository whose A.md and B.md both hold a current block."""
    isolate_git(monkeypatch, tmp_path / "home")
    run_git("init", "-q")
    seed_tree(Path("skills"))
    for name in ("A.md", "B.md"):
        Path(name).write_bytes(f"# {name}\n".encode())
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [A.md, B.md]\n")
    assert run_cli(capsys, "inject").code == 0
    run_git("add", "-A")
    run_git("commit", "-qm", "two prompt files")
    return Path("A.md"), Path("B.md")


def add_skill(name: str = "new-one") -> None:
    write_skill(Path("skills"), name, skill_md(name, "Deploy containers with Docker"))
    run_git("add", "skills")


def test_verify_fails_when_one_of_two_files_drifted_and_says_which(two_files, capsys):
    a, b = two_files
    add_skill()
    assert run_cli(capsys, "inject", "--prompt-file", "A.md").code == 0  # only A is brought up to date
    run = run_cli(capsys, "verify")
    assert run.code == 3
    assert run.data["ok"] is False
    assert {item["prompt_file"]: item["drift"] for item in run.data["files"]} == {"A.md": False, "B.md": True}
    assert run.data["missing"] == ["new-one"]
    assert run_cli(capsys, "verify", "--strict").code == 3


def test_inject_writes_only_the_file_that_drifted(two_files, capsys):
    a, b = two_files
    add_skill()
    assert run_cli(capsys, "inject", "--prompt-file", "A.md").code == 0
    before = a.stat().st_mtime_ns, a.read_bytes()
    run = run_cli(capsys, "inject")
    assert run.code == 0
    assert {item["prompt_file"]: item["changed"] for item in run.data["files"]} == {"A.md": False, "B.md": True}
    assert (a.stat().st_mtime_ns, a.read_bytes()) == before
    assert b"\nnew-one\n" in b.read_bytes()


@pytest.mark.parametrize(("hook", "verb"), [(skill_verify, "is out of date"), (skill_index, "was updated")])
def test_each_hook_fails_on_the_one_file_that_drifted_and_names_only_it(two_files, capsys, hook, verb):
    a, _ = two_files
    add_skill()
    assert run_cli(capsys, "inject", "--prompt-file", "A.md").code == 0
    a_before = a.read_bytes()
    assert hook([]) == 3
    err = capsys.readouterr().err
    assert f"B.md: the skill index {verb}" in err
    assert "A.md" not in err
    assert a.read_bytes() == a_before


def test_one_file_absent_stops_every_front_end_before_any_write(two_files, capsys):
    a, b = two_files
    add_skill()  # A drifts too, so a front end that wrote before checking B would change it
    b.unlink()
    before = a.read_bytes()
    for command in ("verify", "inject"):
        run = run_cli(capsys, command)
        assert run.code == 2
        assert "'B.md' does not exist" in run.error["error"]
    for hook in (skill_verify, skill_index):
        assert hook([]) == 2
        assert "'B.md' does not exist" in capsys.readouterr().err
    assert a.read_bytes() == before


def test_one_file_ignored_and_absent_is_left_out_by_the_hooks_and_the_other_still_checked(two_files, capsys):
    a, b = two_files
    Path(".gitignore").write_text("B.md\n")
    run_git("rm", "-q", "--cached", "B.md")
    b.unlink()
    run_git("add", ".gitignore")
    run_git("commit", "-qm", "B.md is personal")
    assert skill_verify([]) == 0
    assert "B.md: left out " + TOUCH_B in capsys.readouterr().err  # how to have it here, as verify says (en3)
    add_skill()
    assert skill_verify([]) == 3
    err = capsys.readouterr().err
    assert "A.md: the skill index is out of date" in err
    assert skill_index([]) == 3
    assert b"\nnew-one\n" in a.read_bytes()
    assert not b.exists()
    run = run_cli(capsys, "verify")  # the CLI leaves it out too, saying how to have it here (first4)
    assert (run.code, run.data["left_out"]) == (0, ["B.md"])


def make_personal(*paths: Path) -> None:
    """Git ignores each file from now on, and it is absent here: a fresh clone of a repository that ignores it."""
    Path(".gitignore").write_text("".join(f"{path}\n" for path in paths))
    for path in paths:
        run_git("rm", "-q", "--cached", str(path))
        path.unlink()
    run_git("add", ".gitignore")
    run_git("commit", "-qm", "personal files")


def test_verify_tracked_leaves_out_an_absent_ignored_file_as_the_hooks_do(two_files, capsys):
    # The documented CI command (docs/pre-commit.md "In CI") makes the hooks' comparison: a fresh clone without
    # its ignored AGENTS.md passed the hook and failed CI with "does not exist" (task ignored1).
    a, b = two_files
    make_personal(b)
    run = run_cli(capsys, "verify", "--strict", "--tracked")
    assert (run.code, skill_verify([])) == (0, 0)
    assert [item["prompt_file"] for item in run.data["files"]] == ["A.md"]
    assert run.data["left_out"] == ["B.md"]
    assert "B.md: left out " + TOUCH_B in run.data["notes"]
    add_skill()
    run = run_cli(capsys, "verify", "--strict", "--tracked")
    assert (run.code, skill_verify([])) == (3, 3)
    assert run.data["missing"] == ["new-one"]


def test_the_hooks_and_verify_tracked_write_one_note_for_a_file_left_out(two_files, capsys):
    """One function builds the note: the hook's line on stderr is verify --tracked's note, word for word."""
    _, b = two_files
    make_personal(b)
    assert skill_index([]) == 0
    hook_lines = capsys.readouterr().err.splitlines()
    run = run_cli(capsys, "verify", "--tracked")
    note = left_out_note("B.md", ABSENT_IGNORED)
    assert note == "B.md: left out " + TOUCH_B
    assert note in hook_lines
    assert note in run.data["notes"]
    assert not b.exists()
    plain = run_cli(capsys, "verify", "--strict")  # the disk's view leaves it out too, and says to create it (first4)
    assert (plain.code, plain.data["notes"]) == (0, [left_out_note("B.md", absent_ignored_here("B.md"))])
    assert plain.data["notes"][0].endswith("git ignores it: `touch B.md` once to have its block written here)")


def test_verify_tracked_still_refuses_an_absent_file_git_does_not_ignore(two_files, capsys):
    a, b = two_files
    make_personal(b)
    Path(".gitignore").write_text("")  # B.md is absent and no longer ignored: a file the commit should hold
    run = run_cli(capsys, "verify", "--strict", "--tracked")
    assert run.code == 2
    assert "'B.md' does not exist" in run.error["error"]
    assert skill_verify([]) == 2


@pytest.mark.parametrize("a_present", [False, True], ids=["both-absent", "A-present"])
def test_verify_tracked_refuses_as_the_hooks_do_when_no_prompt_file_is_in_the_commit(two_files, capsys, a_present):
    # Every prompt file absent and ignored, or the one left present ignored too: a green would have checked nothing.
    a, b = two_files
    kept = a.read_bytes()
    make_personal(a, b)
    if a_present:
        a.write_bytes(kept)
    run = run_cli(capsys, "verify", "--strict", "--tracked")
    assert run.code == 2
    assert "no prompt file it checks is in the commit" in run.error["error"]
    assert "B.md (absent here, and git ignores it)" in run.error["error"]
    assert ("A.md (git ignores it)" in run.error["error"]) is a_present
    assert skill_verify([]) == 2


def test_one_file_ignored_and_present_is_kept_current_and_only_the_other_fails(two_files, capsys):
    a, b = two_files
    Path(".gitignore").write_text("B.md\n")
    run_git("rm", "-q", "--cached", "B.md")
    run_git("add", ".gitignore")
    run_git("commit", "-qm", "B.md is personal")
    add_skill()
    assert run_cli(capsys, "inject", "--prompt-file", "A.md").code == 0
    run_git("add", "A.md")
    assert skill_verify([]) == 0  # B.md is out of date, but the commit holds no B.md
    assert skill_index([]) == 0
    assert "B.md: the skill index was updated (git ignores this file: nothing to stage)" in capsys.readouterr().err
    assert b"\nnew-one\n" in b.read_bytes()


def test_a_second_name_that_links_to_the_first_is_one_file(two_files, capsys):
    a, b = two_files
    b.unlink()
    os.symlink("A.md", "B.md")
    run_git("add", "B.md")
    run_git("commit", "-qm", "B.md is A.md")
    add_skill()
    run = run_cli(capsys, "verify")
    assert (run.code, [item["prompt_file"] for item in run.data["files"]]) == (3, ["A.md"])
    assert skill_verify([]) == 3
    assert capsys.readouterr().err.count("the skill index is out of date") == 1
    assert skill_index([]) == 3
    assert Path("B.md").is_symlink() and a.read_bytes().count(b"\nnew-one\n") == 1
    assert skill_index([]) == skill_verify([]) == 0


def test_one_file_linked_onto_an_untracked_file_stops_every_front_end_before_any_write(two_files, capsys):
    a, b = two_files
    add_skill()  # A drifts, so a front end that wrote A before refusing B would change it
    Path("private.md").write_bytes(b"# private\n")
    b.unlink()
    os.symlink("private.md", "B.md")
    run_git("add", "B.md")  # the link is tracked; what it lands on is not
    before = a.read_bytes(), Path("private.md").read_bytes()
    for command in ("verify", "inject"):
        run = run_cli(capsys, command)
        assert run.code == 2
        assert "private.md" in run.error["error"]
    for hook in (skill_verify, skill_index):
        assert hook([]) == 2
        assert "private.md" in capsys.readouterr().err
    assert (a.read_bytes(), Path("private.md").read_bytes()) == before


STATES = {
    "current": lambda data: data,
    "stale": lambda data: data.replace(b"alpha-tool\n", b""),  # a skill on disk the block lacks
    "reordered": lambda data: data.replace(b"alpha-tool\ncrlf-skill\n", b"crlf-skill\nalpha-tool\n"),  # strict only
}


@pytest.mark.parametrize("b_state", sorted(STATES))
@pytest.mark.parametrize("a_state", sorted(STATES))
def test_verify_and_the_skill_verify_hook_agree_on_every_mix_of_two_files(two_files, capsys, a_state, b_state):
    # A differential test (issue 34, habit 5): the CI gate and the commit gate read the same tree the same way.
    for path, state in zip(two_files, (a_state, b_state)):
        path.write_bytes(STATES[state](path.read_bytes()))
    strict = run_cli(capsys, "verify", "--strict")
    capsys.readouterr()
    hook = skill_verify([])
    hook_said = capsys.readouterr().err
    assert hook == strict.code == (0 if (a_state, b_state) == ("current", "current") else 3)
    for path, state in zip(two_files, (a_state, b_state)):
        assert (str(path) in hook_said) is (state != "current"), hook_said
    loose = run_cli(capsys, "verify")
    assert loose.code == (3 if "stale" in (a_state, b_state) else 0)


@pytest.mark.parametrize("exists", [False, True])
def test_a_prompt_file_inside_the_git_directory_is_refused_by_every_command_even_when_ignored(
    two_files, capsys, exists
):
    """The git directory is what the rule protects: refused before any ignore rule could leave the file out."""
    Path(".gitignore").write_text(".git/B.md\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [A.md, .git/B.md]\n")
    if exists:
        Path(".git/B.md").write_text("# B\n")
    refusal = "the prompt file '.git/B.md' resolves to "
    for words in (["inject"], ["verify"], ["verify", "--tracked"]):
        run = run_cli(capsys, *words)
        assert run.code == 2, words
        assert run.error["error"].startswith(refusal), words
        assert run.error["error"].endswith(", inside the git directory"), words
    for hook in (skill_verify, skill_index):
        assert hook([]) == 2
        err = capsys.readouterr().err
        assert refusal in err
        assert ", inside the git directory" in err
        assert "left out" not in err
    run = run_cli(capsys, "init", "--dry-run", "--no-install")
    assert run.code == 2
    assert ".git/B.md' resolves to " in run.error["error"]
    assert run.error["error"].endswith(", inside the git directory")
    assert Path(".git/B.md").exists() is exists


def test_inject_and_verify_leave_out_a_prompt_file_outside_a_sparse_checkout_as_the_hooks_do(
    monkeypatch, tmp_path, capsys
):
    """H7-4a: with sub/AGENTS.md outside the cone, inject and verify exited 2 with "touch sub/AGENTS.md" (the
    folder is absent), and once it was made, inject wrote a file without the committed heading and git dropped
    its skip-worktree bit, so a `git commit -a` would commit the loss. It is left out, with the hooks' note."""
    isolate_git(monkeypatch, tmp_path / "home")
    run_git("init", "-q")
    seed_tree(Path("skills"))
    Path("sub").mkdir()
    Path("CLAUDE.md").write_bytes(b"# Claude\n")
    Path("sub/AGENTS.md").write_bytes(b"# Committed heading\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [CLAUDE.md, sub/AGENTS.md]\n")
    assert run_cli(capsys, "inject").code == 0
    run_git("add", "-A")
    run_git("commit", "-qm", "blocks")
    run_git("sparse-checkout", "set", "skills")
    assert not Path("sub").exists()
    note = left_out_note("sub/AGENTS.md", SPARSE)
    for command in ("verify", "inject"):
        run = run_cli(capsys, command)
        assert run.code == 0, run.err
        assert [item["prompt_file"] for item in run.data["files"]] == ["CLAUDE.md"]
        assert run.data["left_out"] == ["sub/AGENTS.md"] and run.data["notes"] == [note]
    add_skill()
    assert run_cli(capsys, "verify").code == 3  # CLAUDE.md, in the cone, is still checked
    assert run_cli(capsys, "inject").data["files"][0]["changed"] is True
    assert run_cli(capsys, "verify").code == 0
    assert not Path("sub").exists()
    assert run_git("ls-files", "-t", "sub/AGENTS.md") == "S sub/AGENTS.md\n"
    os.chdir("skills")  # from a subfolder: the same reading, the paths from there
    assert run_cli(capsys, "verify").data["left_out"] == ["../sub/AGENTS.md"]
    os.chdir("..")
    run_git("sparse-checkout", "disable")
    Path("sub/AGENTS.md").unlink()  # absent, not outside a cone: still an error, with the command to create it
    run = run_cli(capsys, "inject")
    assert run.code == 2 and run.error["hint"].endswith("touch sub/AGENTS.md")


@pytest.fixture
def fresh_clone(monkeypatch, tmp_path, capsys):
    """newcomer-ad 19: a teammate's clone of a repository whose .gitignore lists AGENTS.md, a prompt file too.

    The origin commits CLAUDE.md with its block, and its own AGENTS.md, written, never; the current folder is the
    clone, which has no AGENTS.md.
    """
    isolate_git(monkeypatch, tmp_path / "home")
    origin = tmp_path / "origin"
    origin.mkdir()
    monkeypatch.chdir(origin)
    run_git("init", "-q")
    seed_tree(Path("skills"))
    Path("CLAUDE.md").write_bytes(b"# Claude\n")
    Path("AGENTS.md").write_bytes(b"# Mine\n")
    Path(".gitignore").write_text("AGENTS.md\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [CLAUDE.md, AGENTS.md]\n")
    assert run_cli(capsys, "inject").code == 0
    run_git("add", "-A")
    run_git("commit", "-qm", "skills, and CLAUDE.md's block")
    clone = tmp_path / "clone"
    run_git("clone", "-q", str(origin), str(clone))
    monkeypatch.chdir(clone)
    assert not Path("AGENTS.md").exists()
    return Path("CLAUDE.md")


TOUCH_NOTE = (
    "AGENTS.md: left out (absent here, and git ignores it: `touch AGENTS.md` once to have its block written here)"
)


@pytest.mark.parametrize("command", ["verify", "inject"])
def test_a_fresh_clone_lacking_its_ignored_agents_md_passes_with_a_note_to_touch_it(fresh_clone, capsys, command):
    # The hooks and verify --tracked left it out; plain verify and inject stopped (exit 2), though budget's words
    # call its block one "on each machine that runs the hook or skillmem inject".
    before = fresh_clone.read_bytes()
    run = run_cli(capsys, command)
    assert run.code == 0, run.err
    assert [item["prompt_file"] for item in run.data["files"]] == ["CLAUDE.md"]
    assert run.data["left_out"] == ["AGENTS.md"]
    assert run.data["notes"] == [TOUCH_NOTE] == [left_out_note("AGENTS.md", absent_ignored_here("AGENTS.md"))]
    text = run_cli(capsys, command, "--text")
    assert text.code == 0
    assert text.out.splitlines()[0] == "CLAUDE.md: current"
    assert text.out.splitlines()[-1] == f"note: {TOUCH_NOTE}"
    assert not Path("AGENTS.md").exists()  # never created unasked
    assert fresh_clone.read_bytes() == before
    assert run_git("status", "--porcelain") == ""
    assert skill_verify([]) == skill_index([]) == 0  # as the hooks read it
    tracked = run_cli(capsys, "verify", "--strict", "--tracked")  # CI's command keeps the hooks' note
    assert (tracked.code, tracked.data["notes"]) == (0, [left_out_note("AGENTS.md", ABSENT_IGNORED)])


def test_in_the_fresh_clone_the_other_prompt_file_is_still_checked_and_written(fresh_clone, capsys):
    add_skill()
    assert run_cli(capsys, "verify").code == 3
    text = run_cli(capsys, "verify", "--text")
    assert text.code == 3
    assert "CLAUDE.md: out of date" in text.out and f"note: {TOUCH_NOTE}" in text.out
    run = run_cli(capsys, "inject")
    assert (run.code, run.data["changed"], run.data["left_out"]) == (0, True, ["AGENTS.md"])
    assert b"\nnew-one\n" in fresh_clone.read_bytes()
    assert run_cli(capsys, "verify", "--strict").code == 0
    assert not Path("AGENTS.md").exists()


def test_after_touching_it_as_the_note_says_inject_writes_its_block_and_verify_checks_it(fresh_clone, capsys):
    Path("AGENTS.md").touch()
    assert run_cli(capsys, "verify").code == 3  # no block yet: the file is now checked
    run = run_cli(capsys, "inject", "--text")
    assert run.code == 0
    assert "AGENTS.md: the skill index was updated" in run.out and "left out" not in run.out
    assert b"\nalpha-tool\n" in Path("AGENTS.md").read_bytes()
    run = run_cli(capsys, "verify", "--strict")
    assert (run.code, "left_out" in run.data) == (0, False)
    assert run_git("status", "--porcelain") == ""  # ignored: nothing to commit


@pytest.mark.parametrize("command", ["verify", "inject"])
def test_in_the_clone_an_absent_prompt_file_git_does_not_ignore_is_still_an_error(fresh_clone, capsys, command):
    Path(".gitignore").write_text("")  # a committed file missing is real trouble
    run = run_cli(capsys, command)
    assert run.code == 2
    assert run.error["error"] == "the prompt file 'AGENTS.md' does not exist"
    assert run.error["hint"].endswith("touch AGENTS.md")


@pytest.mark.parametrize("command", ["verify", "inject"])
@pytest.mark.parametrize("named", ["configured", "typed"])
def test_a_clone_whose_only_prompt_file_is_absent_and_ignored_stops_rather_than_do_nothing(
    fresh_clone, capsys, command, named
):
    """Left out, it would leave nothing to write or compare, and a green run would have done nothing."""
    if named == "configured":
        Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    run = run_cli(capsys, command, *(["--prompt-file", "AGENTS.md"] if named == "typed" else []))
    assert run.code == 2
    assert run.error["error"] == "the prompt file 'AGENTS.md' does not exist"
    assert run.error["hint"].endswith("touch AGENTS.md")
    both = run_cli(capsys, command, "--prompt-file", "CLAUDE.md", "--prompt-file", "AGENTS.md")  # skillmem hook's
    assert (both.code, both.data["left_out"]) == (0, ["AGENTS.md"])
    assert not Path("AGENTS.md").exists()


def test_from_a_subfolder_the_note_says_the_touch_from_there(fresh_clone, capsys):
    os.chdir("skills")
    run = run_cli(capsys, "inject")
    assert run.data["left_out"] == ["../AGENTS.md"]
    assert run.data["notes"] == [TOUCH_NOTE.replace("AGENTS.md", "../AGENTS.md")]
