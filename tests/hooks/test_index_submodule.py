"""H6-4: a prompt file or a skills root inside a git submodule, whose files this repository's index never holds.

Real git, a real submodule (``git submodule add`` of a real upstream). A prompt
file there is refused before anything is written, by the hooks and the commands
that write or compare one; a root there is left out with its reason; no report
advises a ``git add`` that git refuses ("Pathspec ... is in submodule").
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillmem_hook.hooks.index import skill_index, skill_verify

from ..helpers import isolate_git, run_cli, run_git, skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def top(monkeypatch, tmp_path):
    """A repository with skills/pdf and AGENTS.md, and the submodule vendor/pack holding skills/zip and AGENTS.md."""
    isolate_git(monkeypatch, tmp_path)
    here = Path.cwd()
    pack = tmp_path / "pack"
    pack.mkdir()
    os.chdir(pack)
    run_git("init", "-q")
    write_skill(Path("skills"), "zip", skill_md("zip", "Compress files"))
    Path("docs").mkdir()
    Path("docs/AGENTS.md").write_bytes(b"# Pack docs\n")
    Path("AGENTS.md").write_bytes(b"# Pack\n")
    run_git("add", "-A")
    run_git("commit", "-qm", "pack")
    os.chdir(here)
    run_git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path("AGENTS.md").write_bytes(b"# Top\n")
    run_git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(pack), "vendor/pack")
    return run_git


def everything() -> dict[str, bytes]:
    """Every file of both work trees and both git directories (skillmem's own kept files aside)."""
    return {
        str(path): path.read_bytes()
        for path in sorted(Path().rglob("*"))
        if path.is_file() and not path.is_symlink() and "skillmem" not in path.parts
    }


@pytest.mark.parametrize("prompt_file", ["vendor/pack/AGENTS.md", "vendor/pack/docs/AGENTS.md"])
@pytest.mark.parametrize(
    "run", ["skill-index", "skill-verify", "inject", "verify", "verify --tracked", "init --dry-run"]
)
def test_a_prompt_file_in_a_submodule_is_refused_before_anything_is_written(top, capsys, prompt_file, run):
    Path(".skillmem.yaml").write_text(f"roots: [skills]\nprompt_files: [AGENTS.md, {prompt_file}]\n")
    top("add", "-A")
    before = everything()
    if run.startswith("skill-"):
        assert (skill_index if run == "skill-index" else skill_verify)([]) == 2
        error = capsys.readouterr().err
    else:
        result = run_cli(capsys, *run.split())
        assert result.code == 2
        error = result.error["error"] + "\n" + result.error["hint"]
    assert f"{prompt_file}' lies in 'vendor/pack', a git submodule" in error  # init names it absolute
    assert "git add" not in error
    assert everything() == before  # neither AGENTS.md written: all or none


def test_a_prompt_file_in_a_submodule_typed_on_the_command_line_is_the_users_own(top, capsys):
    run = run_cli(capsys, "inject", "--root", "skills", "--prompt-file", "vendor/pack/AGENTS.md")
    assert run.code == 0
    assert b"pdf" in Path("vendor/pack/AGENTS.md").read_bytes()


@pytest.mark.parametrize("root", ["vendor/pack/skills", "vendor/pack"])  # below the submodule's top, and at it
def test_a_root_in_a_submodule_is_left_out_with_why_and_no_git_add_is_advised(top, capsys, root):
    Path(".skillmem.yaml").write_text(f"roots: [skills, {root}]\nprompt_files: [AGENTS.md]\n")
    top("add", "-A")
    cli = run_cli(capsys, "inject")  # the disk's view lists the submodule's skill
    assert cli.data["untracked"] == ["zip"]
    assert cli.data["notes"] == [
        "in a git submodule, not tracked here: zip; the hooks leave them out (index them in its repository)"
    ]
    assert skill_index([]) == 3
    report = capsys.readouterr().err
    assert "  the root lies in a git submodule (1): zip\n" in report
    assert f"  {root}: the root lies in a git submodule: its skills are in its own repository" in report
    assert "git add" not in report and "not tracked" not in report and "tracks no SKILL.md" not in report
    top("add", "-A")
    assert skill_index([]) == skill_verify([]) == 0
    assert b"zip" not in Path("AGENTS.md").read_bytes()


def test_a_skill_of_a_submodule_below_a_root_is_stale_as_the_submodule_s_not_as_untracked(top, capsys):
    Path(".skillmem.yaml").write_text("roots: [skills, vendor]\nprompt_files: [AGENTS.md]\n")
    top("add", "-A")
    run_cli(capsys, "inject")
    assert skill_index([]) == 3
    report = capsys.readouterr().err
    assert "  a git submodule (1): zip\n    its skills are in its own repository, not in this one's index\n" in report
    assert "git add" not in report


def test_a_pack_of_several_skills_is_advised_once(top, capsys):
    for name in ("zap", "zed"):
        write_skill(Path("vendor/pack/skills"), name, skill_md(name, f"The {name} tool"))
    Path(".skillmem.yaml").write_text("roots: [skills, vendor/pack/skills]\nprompt_files: [AGENTS.md]\n")
    top("add", "-A")
    run_cli(capsys, "inject")
    assert skill_index([]) == 3
    report = capsys.readouterr().err
    assert "  the root lies in a git submodule (3): zap, zed, zip\n    its skills are in its own repository" in report
    assert report.count("its skills are in its own repository") == 2  # the list's advice, and the left-out line
