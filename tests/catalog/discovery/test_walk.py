"""The file-system walk under hostile trees: link graphs, vanishing files, locales, read boundaries."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.discovery import git as git_module
from skillmem_hook.catalog.discovery import walk as walk_module
from skillmem_hook.catalog.discovery.head_read import HEAD_CHUNK, read_skill_head
from skillmem_hook.catalog.discovery.links import INTO_GIT_DIRECTORY, UNTRACKED_TARGET
from skillmem_hook.catalog.discovery.walk import find_skill_files
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skillfile.declared import HEADING_WINDOW
from skillmem_hook.catalog.skillfile.head import head_length

from ...helpers import isolate_git, run_git, seed_tree, skill_md, write_skill


def test_symlink_diamonds_walk_each_real_folder_once(tmp_path):
    root = tmp_path / "root"
    depth = 16
    for level in range(depth + 1):
        write_skill(root, f"d{level}", skill_md(f"skill-{level}"))
    for level in range(depth):
        for link in ("x", "y"):
            (root / f"d{level}" / link).symlink_to(root / f"d{level + 1}")
    calls = []
    real_scandir = os.scandir
    walk_module.os.scandir = lambda path: calls.append(path) or real_scandir(path)  # type: ignore[attr-defined]
    try:
        found, skipped = find_skill_files(str(root))
    finally:
        walk_module.os.scandir = real_scandir  # type: ignore[attr-defined]
    assert len(found) == depth + 1
    assert len(calls) == depth + 2  # the root and each real folder, once
    assert len(skipped) == 2 * depth
    assert {reason for _, reason in skipped} == {"symlink leads to a folder walked already"}
    assert len(scan_roots([str(root)]).duplicates) == 0


def test_two_folders_linking_to_each_other_are_skipped_and_reported(tmp_path):
    write_skill(tmp_path / "a", ".", skill_md("a"))
    write_skill(tmp_path / "b", ".", skill_md("b"))
    (tmp_path / "a" / "tob").symlink_to("../b")
    (tmp_path / "b" / "toa").symlink_to("../a")
    catalog = scan_roots([str(tmp_path)])
    assert sorted(skill.name for skill in catalog.skills) == ["a", "b"]
    assert sorted(item["path"] for item in catalog.skipped) == ["a/tob", "b/toa"]


def test_a_skill_md_linking_to_itself_is_a_loop_not_dangling(tmp_path):
    (tmp_path / "self").mkdir()
    (tmp_path / "self" / "SKILL.md").symlink_to("SKILL.md")
    ((path, reason),) = find_skill_files(str(tmp_path))[1]
    assert (path, reason) == ("self", "symlink loop: the link leads back to itself")


def test_a_link_that_vanishes_during_the_walk_is_absent(tmp_path, monkeypatch):
    write_skill(tmp_path, "kept", skill_md("kept"))
    (tmp_path / "gone").symlink_to(tmp_path / "kept")
    real_stat = os.stat

    def vanishing_stat(path, *args, **kwargs):
        if os.fsencode(path).endswith(b"/gone"):
            os.unlink(path)  # a concurrent checkout removes it now
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(walk_module.os, "stat", vanishing_stat)
    found, skipped = find_skill_files(str(tmp_path))
    assert [item.relative for item in found] == ["kept"]
    assert skipped == []


def test_a_skill_file_that_vanishes_before_it_is_read_is_absent(tmp_path):
    path = write_skill(tmp_path, "gone", skill_md("gone"))
    os.unlink(path)
    assert read_skill_head(str(path)) is None


def test_the_same_root_named_twice_is_read_once(tmp_path):
    write_skill(tmp_path / "skills", "a", skill_md("a"))
    os.chdir(tmp_path)
    catalog = scan_roots(["skills", "./skills", str(tmp_path / "skills")])
    assert [skill.name for skill in catalog.skills] == ["a"]
    assert catalog.duplicates == []


def test_folder_names_decode_the_same_under_every_locale(tmp_path):
    write_skill(tmp_path, "café-folder", "# heading\n")
    write_skill(tmp_path, "naïve", skill_md())
    script = (
        "import json, sys; from skillmem_hook.catalog.scan import scan_roots; "
        "print(json.dumps(sorted(s.name for s in scan_roots([sys.argv[1]]).skills)))"
    )
    outputs = set()
    ascii_locale = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}  # file names decode as ASCII
    for environment in ({"LC_ALL": "C.UTF-8"}, ascii_locale):
        env = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "LANG", "PYTHON"))}
        result = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path)], env={**env, **environment}, capture_output=True, check=True
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop()) == ["café-folder", "naïve"]


def test_a_closing_line_cut_by_the_read_boundary_is_not_taken_for_one(tmp_path):
    # '---x' straddles the first read's end: its first three bytes must not close the frontmatter
    filler = "f" * (HEAD_CHUNK - len("---\nlicense: \n") - 3)
    text = f"---\nlicense: {filler}\n---x: not a closing line\nname: real\n---\n# Body\n"
    assert text.index("---x") + 3 == HEAD_CHUNK
    write_skill(tmp_path, "straddle", text)
    (skill,) = scan_roots([str(tmp_path)]).skills
    assert skill.name == "real"


def test_head_length_needs_complete_lines_before_it_decides():
    assert head_length(b"---", at_end=False) is None
    assert head_length(b"---\nname: a\n---", at_end=False) is None
    assert head_length(b"---\nname: a\n---\n", at_end=False) == len(b"---\nname: a\n---\n") + HEADING_WINDOW
    assert head_length(b"# no frontmatter\n", at_end=False) == HEADING_WINDOW


@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(["l1", "l2", "l3"])), min_size=0, max_size=12
    )
)
def test_any_graph_of_links_walks_each_real_folder_once_and_always_gives_the_same_answer(links):
    """Folders f0..f5, each a skill, with links between them (loops, diamonds, self-links) named l1..l3."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        root = os.path.join(folder, "root")
        for number in range(6):
            write_skill(Path(root), f"f{number}", skill_md(f"s{number}"))
        for source, target, name in links:
            link = os.path.join(root, f"f{source}", name)
            if not os.path.lexists(link):
                os.symlink(os.path.join(root, f"f{target}"), link)
        calls = []
        real_scandir = os.scandir
        walk_module.os.scandir = lambda path: calls.append(path) or real_scandir(path)  # type: ignore[attr-defined]
        try:
            first = find_skill_files(root)
        finally:
            walk_module.os.scandir = real_scandir  # type: ignore[attr-defined]
        assert len(calls) == 7  # the root and six real folders, each once, however the links point
        assert sorted(item.relative for item in first[0]) == [f"f{number}" for number in range(6)]
        copy = os.path.join(folder, "copy")
        shutil.copytree(root, copy, symlinks=True)
        for source, _, name in links:  # the same graph, pointing inside the copy
            link = os.path.join(copy, f"f{source}", name)
            target = os.readlink(link)
            if target.startswith(root):
                os.unlink(link)
                os.symlink(copy + target[len(root) :], link)
        second = find_skill_files(copy)
        assert [item.relative for item in first[0]] == [item.relative for item in second[0]]
        assert first[1] == second[1]


def test_a_fifo_skill_file_is_skipped_not_waited_on(tmp_path):
    seed_tree(tmp_path)
    (tmp_path / "fifo-skill").mkdir()
    os.mkfifo(tmp_path / "fifo-skill" / "SKILL.md")
    catalog = scan_roots([str(tmp_path)])
    assert len(catalog.skills) == 3
    assert catalog.skipped == [
        {"root": str(tmp_path), "path": "fifo-skill", "reason": "SKILL.md is not a regular file"}
    ]


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _hostile_repository(monkeypatch, tmp_path) -> None:
    """H4-7: the root "." with committed links onto .git/config and onto a gitignored .env, beside a real skill."""
    isolate_git(monkeypatch, tmp_path)
    run_git("init", "-q")
    run_git("config", "remote.origin.url", "https://alice:ghp_SECRETTOKEN@github.com/acme/x.git")
    write_skill(Path("tools"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path(".gitignore").write_text(".env\n")
    Path(".env").write_text("# Deploy notes\nAWS_SECRET=abc123\n")
    for folder, target in (("setup-guide", "../.git/config"), ("env-guide", "../.env")):
        Path(folder).mkdir()
        os.symlink(target, f"{folder}/SKILL.md")
    run_git("add", "-A")


@needs_git
def test_a_link_onto_the_git_config_or_an_ignored_file_is_skipped_with_its_reason(monkeypatch, tmp_path):
    _hostile_repository(monkeypatch, tmp_path)
    found, skipped = find_skill_files(".")
    assert [item.relative for item in found] == ["tools/pdf"]
    assert skipped == [("env-guide", UNTRACKED_TARGET), ("setup-guide", INTO_GIT_DIRECTORY)]


@needs_git
def test_links_onto_tracked_files_and_into_a_tracked_hidden_folder_are_followed(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)
    run_git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf"))
    write_skill(Path("skills/.vendored"), "csv", skill_md("csv"))
    write_skill(Path("skills/.drafts"), "half-done", skill_md("half-done"))  # on disk, never added
    Path("skills/alias").mkdir()
    os.symlink("../pdf/SKILL.md", "skills/alias/SKILL.md")
    os.symlink(".vendored", "skills/vendored")
    os.symlink(".drafts", "skills/drafts")
    run_git("add", "skills/pdf", "skills/.vendored", "skills/alias", "skills/vendored", "skills/drafts")
    found, skipped = find_skill_files("skills")
    assert [item.relative for item in found] == ["alias", "pdf", "vendored/csv"]
    assert skipped == [("drafts/half-done", UNTRACKED_TARGET)]


def test_outside_git_a_link_stays_out_of_any_git_directory_below_the_root(tmp_path):
    """A user's skills folder holding a cloned pack: its .git/config is no skill, whatever links there."""
    root = tmp_path / "mine"
    write_skill(root, "pack/pdf", skill_md("pdf"))
    (root / "pack" / ".git").mkdir()
    (root / "pack" / ".git" / "config").write_text("[remote]\n\turl = https://token@host/x\n")
    (root / "peek").mkdir()
    (root / "peek" / "SKILL.md").symlink_to("../pack/.git/config")
    (root / "git").symlink_to("pack/.git")
    (root / "same").mkdir()
    (root / "same" / "SKILL.md").symlink_to("../pack/pdf/SKILL.md")
    found, skipped = find_skill_files(str(root))
    assert [item.relative for item in found] == ["pack/pdf", "same"]
    assert ("peek", INTO_GIT_DIRECTORY) in skipped


@needs_git
def test_a_tree_without_links_asks_git_nothing_and_a_linked_pack_asks_once(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)
    run_git("init", "-q")
    for number in range(30):
        write_skill(Path("skills"), f"s{number}", skill_md(f"s{number}"))
        write_skill(Path("skills/.pack"), f"p{number}", skill_md(f"p{number}"))
    run_git("add", "-A")
    calls = []
    real_run_git = git_module.run_git
    monkeypatch.setattr(git_module, "run_git", lambda *a, **k: calls.append(a[0][0]) or real_run_git(*a, **k))
    assert len(find_skill_files("skills")[0]) == 30
    assert calls == []
    os.symlink(".pack", "skills/pack")  # a vendored pack, kept hidden and linked in
    run_git("add", "skills/pack")
    assert len(find_skill_files("skills")[0]) == 60
    assert calls == ["rev-parse", "ls-files"]
