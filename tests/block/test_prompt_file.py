from __future__ import annotations

import os
import stat

import pytest

from skillmem_hook.block.prompt_file import check_writable, read_prompt_file, write_if_changed
from skillmem_hook.errors import FileAccessError

from ..helpers import ChildError, run_cli, run_unprivileged, seed_tree


def leftovers(folder):
    return [name for name in os.listdir(folder) if name.endswith(".skillmem-tmp")]


def test_write_if_changed_writes_only_when_the_bytes_differ(tmp_path):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"same")
    os.utime(path, ns=(1, 1))
    assert write_if_changed(str(path), b"same", b"same") is False
    assert path.stat().st_mtime_ns == 1
    assert write_if_changed(str(path), b"same", b"new") is True
    assert path.read_bytes() == b"new"
    assert leftovers(tmp_path) == []


def test_write_keeps_the_permission_bits(tmp_path):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"x")
    path.chmod(0o640)
    write_if_changed(str(path), b"x", b"y")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_write_goes_through_a_symlink_to_its_target(tmp_path):
    target = tmp_path / "real.md"
    target.write_bytes(b"x")
    link = tmp_path / "AGENTS.md"
    link.symlink_to(target)
    write_if_changed(str(link), b"x", b"y")
    assert link.is_symlink()
    assert target.read_bytes() == b"y"


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o000])
def test_a_file_with_no_write_bit_is_refused_even_for_root(tmp_path, mode):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"x")
    path.chmod(mode)
    with pytest.raises(FileAccessError, match="read-only"):
        write_if_changed(str(path), b"x", b"y")
    path.chmod(0o644)
    assert path.read_bytes() == b"x"


def test_a_file_the_user_may_not_write_is_refused(reachable_tmp_path):
    folder = reachable_tmp_path
    path = folder / "AGENTS.md"
    path.write_bytes(b"x")
    path.chmod(0o644)  # owned by the test's user, writable by the owner only
    if os.geteuid() != 0:
        pytest.skip("needs another user than the file's owner")
    with pytest.raises(ChildError, match="read-only"):
        run_unprivileged(check_writable, str(path))
    assert path.read_bytes() == b"x"


def test_a_read_only_folder_is_refused_and_the_file_kept(reachable_tmp_path):
    folder = reachable_tmp_path / "ro"
    folder.mkdir()
    path = folder / "AGENTS.md"
    path.write_bytes(b"x")
    path.chmod(0o666)
    folder.chmod(0o555)
    try:
        with pytest.raises((ChildError, FileAccessError), match="cannot write in the folder"):
            run_unprivileged(write_if_changed, str(path), b"x", b"y")
    finally:
        folder.chmod(0o755)
    assert path.read_bytes() == b"x"
    assert leftovers(folder) == []


def test_a_failed_rename_leaves_the_file_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"original")

    def broken_replace(source, target):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(FileAccessError, match="Input/output error"):
        write_if_changed(str(path), b"original", b"changed")
    assert path.read_bytes() == b"original"
    assert leftovers(tmp_path) == []


def test_an_interrupt_during_the_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"original")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_if_changed(str(path), b"original", b"changed")
    assert path.read_bytes() == b"original"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "does not exist"),
        ("folder", "is a folder"),
        ("utf16", "UTF-16 or UTF-32"),
        ("nul", "NUL byte at offset 3"),
        ("dangling", "does not exist"),
    ],
)
def test_read_prompt_file_refuses_what_it_cannot_safely_edit(tmp_path, setup, message):
    path = tmp_path / "AGENTS.md"
    if setup == "folder":
        path.mkdir()
    elif setup == "utf16":
        path.write_bytes("# hi\n".encode("utf-16"))
    elif setup == "nul":
        path.write_bytes(b"abc\x00def")
    elif setup == "dangling":
        path.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileAccessError, match=message):
        read_prompt_file(str(path))


def test_an_unreadable_prompt_file_is_refused_with_its_reason(reachable_tmp_path):
    prompt = reachable_tmp_path / "AGENTS.md"
    prompt.write_text("x")
    prompt.chmod(0o000)
    try:
        with pytest.raises((ChildError, FileAccessError), match="Permission denied"):
            run_unprivileged(read_prompt_file, str(prompt))
    finally:
        prompt.chmod(0o644)


def test_a_fifo_prompt_file_is_refused_not_waited_on(capsys, tmp_path):
    root = seed_tree(tmp_path / "skills")
    os.mkfifo(tmp_path / "AGENTS.md")
    run = run_cli(capsys, "inject", "--root", root, "--prompt-file", tmp_path / "AGENTS.md")
    assert run.code == 2
    assert "not a regular file" in run.error["error"]
