"""The work tree's copy of a tracked SKILL.md: used for git's view only when it holds the blob's very bytes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery.checkout import SUPPORTED, blob_id, read_checked_out
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skillfile.head import MAX_READ

from ...helpers import skill_md, write_skill

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(not SUPPORTED, reason="no descriptor-relative opening here: every file is left to git"),
]


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch, tmp_path):
    for key, value in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T"}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "t@e")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))


def git(*args: str, stdin: bytes | None = None) -> str:
    result = subprocess.run(["git", *args], input=stdin, capture_output=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.decode()


def committed(*names: str) -> dict[str, str]:
    """A repository of one skill per name, committed; each name's blob id."""
    git("init", "-q")
    for name in names:
        write_skill(Path("skills"), name, skill_md(name, f"Committed {name}"))
    git("add", "-A")
    git("commit", "-q", "-m", "skills")
    return {name: git("rev-parse", f"HEAD:skills/{name}/SKILL.md").strip() for name in names}


def logged_git(monkeypatch, tmp_path) -> Path:
    """Put a git on PATH that logs each subcommand, then runs the real one."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "git.log"
    real = shutil.which("git")
    wrapper = folder / "git"
    wrapper.write_text(
        f'#!/bin/sh\nfor a in "$@"; do case "$a" in -*|*=*) ;; *) echo "$a" >> "{log}"; break;; esac; done\n'
        f'exec "{real}" "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return log


def descriptions() -> dict[str, str]:
    catalog = scan_roots(["skills"], CatalogOptions(tracked=True, cache=False))
    return {skill.name: skill.description for skill in catalog.skills}


BYTES = [b"", b"---\nname: a\n---\n", b"a\r\nb\r\n", b"\xff\xfe not UTF-8", bytes(range(256)) * 40]


@pytest.mark.parametrize("data", BYTES)
@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_blob_id_is_the_id_git_gives_the_bytes(data, object_format, tmp_path):
    git("init", "-q", f"--object-format={object_format}", str(tmp_path / object_format))
    os.chdir(tmp_path / object_format)
    expected = git("hash-object", "--stdin", stdin=data).strip()
    assert blob_id(data, len(expected)) == expected


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell wrapper logs git's subcommands")
def test_a_clean_checkout_is_read_from_the_work_tree_and_git_is_asked_only_for_the_rest(monkeypatch, tmp_path):
    committed("alpha", "beta")
    log = logged_git(monkeypatch, tmp_path)
    assert descriptions() == {"alpha": "Committed alpha", "beta": "Committed beta"}
    assert log.read_text().split() == ["rev-parse", "ls-files"]  # no cat-file: every blob was in the work tree
    log.unlink()
    Path("skills/beta/SKILL.md").write_bytes(skill_md("beta", "Edited, not staged"))
    assert descriptions() == {"alpha": "Committed alpha", "beta": "Committed beta"}
    assert log.read_text().split() == ["rev-parse", "ls-files", "cat-file"]


def same_size_same_time(path: Path) -> None:
    """An edit git's stat check cannot see: same length, times put back."""
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b"Committed", b"Different"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def crlf(path: Path) -> None:
    """What core.autocrlf or an eol attribute leaves in the work tree: other bytes than the blob's."""
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


def lfs_like(path: Path) -> None:
    """The work tree holds a converted file (an LFS smudge, working-tree-encoding): other bytes again."""
    path.write_bytes(path.read_bytes().decode().encode("utf-16"))


@pytest.mark.parametrize("change", [same_size_same_time, crlf, lfs_like])
def test_a_work_tree_copy_whose_bytes_differ_from_the_blob_is_never_used(change):
    oids = committed("alpha")
    change(Path("skills/alpha/SKILL.md"))
    assert list(read_checked_out("skills", [("alpha", oids["alpha"])])) == []
    assert descriptions() == {"alpha": "Committed alpha"}


def test_a_copy_with_the_blob_bytes_is_used_exactly():
    oids = committed("alpha", "beta")
    found = dict(read_checked_out("skills", [("alpha", oids["alpha"]), ("beta", oids["beta"])]))
    assert found == {oid: Path(f"skills/{name}/SKILL.md").read_bytes() for name, oid in oids.items()}


def _folder_linked_outside(tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "alpha"
    shutil.copytree("skills/alpha", outside)
    shutil.rmtree("skills/alpha")
    os.symlink(outside, "skills/alpha")


def _file_linked(tmp_path: Path) -> None:
    copy = tmp_path / "copy.md"
    shutil.copy("skills/alpha/SKILL.md", copy)
    os.unlink("skills/alpha/SKILL.md")
    os.symlink(copy, "skills/alpha/SKILL.md")


def _fifo(tmp_path: Path) -> None:
    os.unlink("skills/alpha/SKILL.md")
    os.mkfifo("skills/alpha/SKILL.md")


def _too_large(tmp_path: Path) -> None:
    git("rm", "-q", "--cached", "skills/alpha/SKILL.md")
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Committed alpha") + b"x" * MAX_READ)
    git("add", "-A")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("setup", [_folder_linked_outside, _file_linked, _fifo, _too_large])
def test_links_fifos_and_large_files_are_left_to_git_even_with_the_blob_bytes(setup, tmp_path):
    committed("alpha")
    setup(tmp_path)
    oid = git("ls-files", "--stage", "skills/alpha/SKILL.md").split()[1]
    assert list(read_checked_out("skills", [("alpha", oid)])) == []  # returns at once: a FIFO never blocks it
    assert descriptions() == {"alpha": "Committed alpha"}


def test_a_root_that_is_the_current_folder_or_nested_deeper(tmp_path):
    oids = committed("alpha")
    os.chdir("skills")
    assert [oid for oid, _ in read_checked_out(".", [("alpha", oids["alpha"])])] == [oids["alpha"]]
    os.chdir("alpha")
    assert [oid for oid, _ in read_checked_out(".", [(".", oids["alpha"])])] == [oids["alpha"]]
    assert list(read_checked_out(".", [("../alpha", oids["alpha"])])) == []  # never climbs out of the root


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 65537, MAX_READ - 1, MAX_READ])
def test_a_file_is_read_whole_whatever_its_size_up_to_the_limit(tmp_path, size):
    """The first read asks for fstat's size and a byte more: a file of any size up to MAX_READ comes back whole."""
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "SKILL.md").write_bytes(data)
    assert list(read_checked_out(str(tmp_path), [("one", blob_id(data))])) == [(blob_id(data), data)]
