"""The one reader behind ``skillmem read`` and MCP's skill_read: nothing outside the root, nothing that blocks."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.catalog.discovery.safe_read import MAX_SKILL_BYTES, read_skill_file
from skillmem_hook.errors import FileAccessError

from ...helpers import isolate_git, run_git, skill_md, write_skill


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "skills"
    write_skill(folder, "kept", skill_md("kept", "A skill"))
    (tmp_path / "secret").write_text("root:x:0:0\n")
    return folder


def test_a_regular_skill_file_is_read_whole(root):
    assert read_skill_file(str(root), "kept") == skill_md("kept", "A skill")


def test_a_link_that_stays_inside_the_root_is_followed(root):
    (root / "linked").mkdir()
    os.symlink("../kept/SKILL.md", root / "linked" / "SKILL.md")
    os.symlink("kept", root / "folder-link")
    assert read_skill_file(str(root), "linked") == skill_md("kept", "A skill")
    assert read_skill_file(str(root), "folder-link") == skill_md("kept", "A skill")


@pytest.mark.parametrize("swap", ["file", "folder"])
def test_a_skill_swapped_for_a_link_out_of_the_root_is_refused(root, swap):
    if swap == "file":
        (root / "kept" / "SKILL.md").unlink()
        os.symlink(root.parent / "secret", root / "kept" / "SKILL.md")
    else:
        shutil.rmtree(root / "kept")
        (root.parent / "elsewhere").mkdir()
        (root.parent / "elsewhere" / "SKILL.md").write_text("private\n")
        os.symlink(root.parent / "elsewhere", root / "kept")
    with pytest.raises(FileAccessError, match="leads out of the skills root"):
        read_skill_file(str(root), "kept")


def test_the_library_refuses_a_swap_made_after_its_catalog_was_built(root):
    library = SkillLibrary([str(root)])
    library.catalog()
    (root / "kept" / "SKILL.md").unlink()
    os.symlink(root.parent / "secret", root / "kept" / "SKILL.md")
    # the catalog still names the skill until the watcher sees the change: the read itself must refuse
    with pytest.raises(FileAccessError, match="leads out"):
        library.read("kept")


def test_a_fifo_is_refused_without_blocking(root):
    (root / "kept" / "SKILL.md").unlink()
    os.mkfifo(root / "kept" / "SKILL.md")
    outcome: list[object] = []
    reader = threading.Thread(target=lambda: outcome.append(_attempt(root)), daemon=True)
    reader.start()
    reader.join(10)  # a generous bound for a hang, not a speed check
    assert outcome == ["a FIFO (named pipe), not a regular file"]


def _attempt(root) -> str:
    try:
        read_skill_file(str(root), "kept")
    except FileAccessError as error:
        return error.message.split(" is ", 1)[1]
    return "read"


def test_a_file_over_the_cap_is_refused(root):
    with pytest.raises(FileAccessError, match=r"larger than 10 bytes"):
        read_skill_file(str(root), "kept", limit=10)


def test_a_file_over_the_cap_is_refused_by_its_size_before_it_is_read(root, monkeypatch):
    """The message names the file's real size, and not one byte of it is read into memory."""
    (root / "kept" / "SKILL.md").write_bytes(b"x" * 300_000)
    reads = []
    monkeypatch.setattr(os, "read", lambda *args: reads.append(args) or b"")  # proves read is not called
    with pytest.raises(FileAccessError, match=r"larger than 100,000 bytes \(300,000 bytes\)"):
        read_skill_file(str(root), "kept", limit=100_000)
    assert reads == []


def test_a_folder_named_skill_md_is_not_a_file(root):
    (root / "odd").mkdir()
    (root / "odd" / "SKILL.md").mkdir()
    with pytest.raises(FileAccessError, match="a folder, not a regular file"):
        read_skill_file(str(root), "odd")


def test_a_missing_file_says_it_is_gone(root):
    with pytest.raises(FileAccessError, match="is gone"):
        read_skill_file(str(root), "nowhere")


@pytest.mark.parametrize(("size", "served"), [(99, True), (100, True), (101, False)])
def test_the_cap_is_inclusive_a_file_of_exactly_the_cap_is_served(root, size, served):
    """Survivor 15 of mutants-4: a file of exactly the cap's size was refused ("larger than ... (N bytes)")."""
    (root / "kept" / "SKILL.md").write_bytes(b"x" * size)
    if served:
        assert read_skill_file(str(root), "kept", limit=100) == b"x" * size
    else:
        with pytest.raises(FileAccessError, match=r"larger than 100 bytes \(101 bytes\)"):
            read_skill_file(str(root), "kept", limit=100)


def test_a_skill_md_of_exactly_one_mib_is_served_by_read(root):
    (root / "kept" / "SKILL.md").write_bytes(skill_md("kept", "A skill").ljust(MAX_SKILL_BYTES, b"x"))
    assert len(read_skill_file(str(root), "kept")) == MAX_SKILL_BYTES


@pytest.fixture
def repository(monkeypatch, tmp_path):
    """A work tree whose root is "." (a committed .skillmem.yaml could say so), its git config holding a token."""
    isolate_git(monkeypatch, tmp_path)
    run_git("init", "-q")
    run_git("config", "remote.origin.url", "https://alice:ghp_SECRETTOKEN@github.com/acme/x.git")
    write_skill(Path("."), "kept", skill_md("kept", "A skill"))
    write_skill(Path("."), "other", skill_md("other", "Another skill"))
    Path(".gitignore").write_text(".env\n")
    Path(".env").write_text("AWS_SECRET=abc123\n")
    run_git("add", "-A")
    return Path(".")


@pytest.mark.parametrize(
    ("target", "refusal"),
    [("../.git/config", "leads into a git directory"), ("../.env", "leads to a file git does not track")],
)
def test_a_swap_onto_the_git_config_or_an_ignored_file_is_refused_at_read_time(repository, target, refusal):
    """H4-7 in the race: the catalog (an MCP server's) still names the skill when its SKILL.md becomes a link."""
    library = SkillLibrary(["."])
    library.catalog()
    os.unlink("kept/SKILL.md")
    os.symlink(target, "kept/SKILL.md")
    with pytest.raises(FileAccessError, match=refusal):
        library.read("kept")
    with pytest.raises(FileAccessError, match=refusal):
        read_skill_file(".", "kept")


def test_a_link_onto_a_tracked_skill_is_served_in_a_work_tree(repository):
    Path("alias").mkdir()
    os.symlink("../other/SKILL.md", "alias/SKILL.md")
    os.symlink("other", "folder-alias")
    assert read_skill_file(".", "alias") == skill_md("other", "Another skill")
    assert read_skill_file(".", "folder-alias") == skill_md("other", "Another skill")
