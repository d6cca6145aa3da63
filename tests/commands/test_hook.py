"""``skillmem hook --out``: the wrapper script, and what it may write over."""

from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
from pathlib import Path

import pytest

from ..helpers import make_device_node, make_git_dir, run_cli, seed_tree, skill_md, snapshot, write_skill


@pytest.fixture
def args(tmp_path):
    tree = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    prompt.write_bytes(b"# prompt\n")
    return ["hook", "--root", str(tree), "--prompt-file", str(prompt)]


def test_an_empty_out_names_no_folder_of_this_machine(capsys, args):
    run = run_cli(capsys, *args, "--out", "")
    assert run.code == 2
    assert run.error["error"] == "the path for the wrapper script is empty"
    assert os.getcwd() not in run.err


@pytest.mark.parametrize("umask", [0o177, 0o077, 0o022, 0o777])
def test_the_wrapper_is_executable_by_its_owner_whatever_the_umask(capsys, args, umask):
    old = os.umask(umask)
    try:
        assert run_cli(capsys, *args, "--out", "wrapper.sh").code == 0
    finally:
        os.umask(old)
    mode = stat.S_IMODE(Path("wrapper.sh").stat().st_mode)
    assert mode == (0o777 & ~umask) | 0o700


def test_the_prompt_file_is_never_overwritten_by_the_wrapper(capsys, args, tmp_path):
    before = snapshot(tmp_path / "AGENTS.md")
    run = run_cli(capsys, *args, "--out", tmp_path / "AGENTS.md", "--force")
    assert run.code == 2
    assert "is a configured prompt file" in run.error["error"]
    assert snapshot(tmp_path / "AGENTS.md") == before


def test_a_read_only_file_is_refused_and_keeps_its_mode(capsys, args):
    Path("wrapper.sh").write_bytes(b"#!/usr/bin/env bash\n# Written by 'skillmem hook'.\n")
    Path("wrapper.sh").chmod(0o444)
    run = run_cli(capsys, *args, "--out", "wrapper.sh")
    assert run.code == 2
    assert "read-only" in run.error["error"]
    assert stat.S_IMODE(Path("wrapper.sh").stat().st_mode) == 0o444


def test_only_a_wrapper_skillmem_wrote_is_replaced_without_force(capsys, args):
    assert run_cli(capsys, *args, "--out", "wrapper.sh").code == 0
    assert run_cli(capsys, *args, "--out", "wrapper.sh").code == 0  # its own wrapper: replaced
    Path("deploy.sh").write_bytes(b"#!/bin/sh\nmake deploy\n")
    run = run_cli(capsys, *args, "--out", "deploy.sh")
    assert run.code == 2
    assert run.error["error"] == "'deploy.sh' already exists and is not the wrapper script written by skillmem"
    assert Path("deploy.sh").read_bytes() == b"#!/bin/sh\nmake deploy\n"
    assert run_cli(capsys, *args, "--out", "deploy.sh", "--force").code == 0
    assert b"Written by 'skillmem hook'" in Path("deploy.sh").read_bytes()


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_device_is_refused_and_left_as_it_is(capsys, args, kind):
    out = Path("out")
    if kind == "fifo":
        os.mkfifo(out)
    else:
        make_device_node(out)
    run = run_cli(capsys, *args, "--out", out, "--force")
    assert run.code == 2
    assert "not a place for the wrapper script" in run.error["error"]
    assert not stat.S_ISREG(out.stat().st_mode)


def test_the_wrapper_is_written_through_a_link(capsys, args):
    Path("bin").mkdir()
    Path("reindex").symlink_to("bin/reindex.sh")
    assert run_cli(capsys, *args, "--out", "reindex").code == 0
    assert Path("reindex").is_symlink()
    assert Path("bin/reindex.sh").read_bytes().startswith(b"#!/usr/bin/env bash\n")


def test_the_wrapper_can_be_committed_and_run_from_another_checkout_and_folder(tmp_path, capsys, monkeypatch):
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from ..helpers import run_cli, seed_tree

    first = tmp_path / "first"
    make_git_dir(first / ".git")
    seed_tree(first / "skills")
    (first / "AGENTS.md").write_text("# Agents\n")
    (first / "tools").mkdir()
    monkeypatch.chdir(first)
    run = run_cli(capsys, "hook", "--root", "skills", "--prompt-file", "AGENTS.md", "--out", "tools/reindex.sh")
    assert run.code == 0, run.err
    script = (first / "tools" / "reindex.sh").read_text()
    assert str(tmp_path) not in script  # nothing of this machine: a teammate's checkout runs it as it is
    assert "--root skills --prompt-file AGENTS.md" in script
    second = tmp_path / "elsewhere" / "second"
    shutil.copytree(first, second)
    monkeypatch.chdir(tmp_path)
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(["bash", str(second / "tools" / "reindex.sh")], capture_output=True, env=env)
    assert result.returncode == 0, result.stderr
    assert b"<<<SKILL_INDEX_BEGIN>>>" in (second / "AGENTS.md").read_bytes()
    assert (first / "AGENTS.md").read_text() == "# Agents\n"


def test_a_missing_folder_for_the_wrapper_is_created(capsys, args):
    run = run_cli(capsys, *args, "--out", "scripts/nested/update-skills.sh")
    assert run.code == 0, run.err
    assert os.access("scripts/nested/update-skills.sh", os.X_OK)


def test_a_folder_that_is_a_file_is_named_and_left_alone(capsys, args):
    Path("scripts").write_text("a file, not a folder\n")
    run = run_cli(capsys, *args, "--out", "scripts/update-skills.sh")
    assert run.code == 2
    assert run.error["error"].endswith("Not a directory")
    assert "permissions" not in run.error["hint"]
    assert Path("scripts").read_text() == "a file, not a folder\n"


def test_hook_writes_a_wrapper_that_installs_then_reindexes(capsys, tmp_path):
    folder = tmp_path / 'it\'s a "dir" with spaces'
    skills = folder / "my skills"
    write_skill(skills, "a", skill_md("a"))
    prompt = folder / "AGENTS.md"
    prompt.write_text("x\n")
    wrapper = folder / "re index.sh"
    run = run_cli(capsys, "hook", "--root", skills, "--prompt-file", prompt, "--out", wrapper)
    assert run.code == 0
    assert os.access(wrapper, os.X_OK)
    new_skill = skills / "b" / "SKILL.md"
    content = "'---\\nname: b\\n---\\n'"
    installer = f"mkdir -p {shlex.quote(str(new_skill.parent))} && printf -- {content} > {shlex.quote(str(new_skill))}"
    result = subprocess.run([str(wrapper), "bash", "-c", installer], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ok"] is True
    assert b"\na\nb\n" in prompt.read_bytes()
    failed = subprocess.run([str(wrapper), "bash", "-c", "exit 7"], capture_output=True, text=True)
    assert failed.returncode == 7


def test_hook_refuses_a_folder_as_out(capsys, tree, prompt, tmp_path):
    run = run_cli(capsys, "hook", "--root", tree, "--prompt-file", prompt, "--out", tmp_path)
    assert run.code == 2
    assert "is a folder" in run.error["error"]


@pytest.mark.parametrize("which", ["--root", "--prompt-file"])
def test_a_path_that_is_not_utf8_is_named_with_escapes_not_a_bug(capsys, tmp_path, which):
    """Found beside hostile-4: 'hook --root <a folder named with a Latin-1 byte>' was UnicodeEncodeError, "a bug"."""
    latin1 = os.fsdecode(bytes(tmp_path) + b"/caf\xe9")
    os.makedirs(latin1)
    seed_tree(Path(latin1) / "skills")
    Path(latin1, "AGENTS.md").write_bytes(b"# prompt\n")
    paths = {"--root": str(tmp_path / "skills"), "--prompt-file": str(tmp_path / "AGENTS.md")}
    seed_tree(tmp_path / "skills")
    (tmp_path / "AGENTS.md").write_bytes(b"# prompt\n")
    paths[which] = os.path.join(latin1, "skills" if which == "--root" else "AGENTS.md")
    run = run_cli(capsys, "hook", *[word for pair in paths.items() for word in pair], "--out", str(tmp_path / "w.sh"))
    assert run.code == 2
    assert "caf\\xe9" in run.error["error"] and "not valid UTF-8" in run.error["error"]
    assert "bug" not in run.err
    assert not (tmp_path / "w.sh").exists()


@pytest.mark.parametrize("dot_git", ["fifo", "other text", "folder", "git directory"])
def test_the_wrapper_goes_to_the_work_tree_top_past_a_git_that_is_none(capsys, monkeypatch, tmp_path, dot_git):
    """fixh13: the wrapper's top was the nearest folder holding anything named .git (a FIFO in tools/), where
    every other part of skillmem (and git) goes on above it: one rule now, locations.work_tree_top. Since fixh19 a
    .git folder is a top only when it is a git directory (git's own test), so a bare `mkdir .git` is passed too."""
    top = tmp_path / "top"
    make_git_dir(top / ".git")
    seed_tree(top / "skills")
    (top / "AGENTS.md").write_text("# Agents\n")
    dot = top / "tools" / ".git"
    dot.parent.mkdir()
    if dot_git == "fifo":
        os.mkfifo(dot)
    elif dot_git == "folder":
        dot.mkdir()
    elif dot_git == "git directory":
        make_git_dir(dot)
    else:
        dot.write_text("other text\n")
    monkeypatch.chdir(top / "tools")
    run = run_cli(capsys, "hook", "--root", "../skills", "--prompt-file", "../AGENTS.md", "--out", "reindex.sh")
    assert run.code == 0, run.err
    script = (top / "tools" / "reindex.sh").read_text()
    if dot_git == "git directory":  # a work tree's top (the one skillmem's index is asked from)
        assert 'cd "$(dirname "$0")"/. ||' in script
    else:
        assert 'cd "$(dirname "$0")"/.. ||' in script
        assert "--root skills --prompt-file AGENTS.md" in script
