from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap

import pytest

from skillmem_hook.errors import FileAccessError, UsageError
from skillmem_hook.files import (
    FileTooLarge,
    NotARegularFile,
    check_output_target,
    check_replaceable,
    read_regular_file,
    read_regular_file_with_status,
)

from .helpers import ChildError, run_unprivileged, unshare_available


def read_in_a_child(path, limit=None):
    """read_regular_file in a subprocess, so that a hang fails the test instead of stalling it."""
    code = textwrap.dedent(
        f"""
        from skillmem_hook.files import read_regular_file
        try:
            print(len(read_regular_file({str(path)!r}, {limit!r})))
        except OSError as error:
            print(type(error).__name__, error.strerror)
        """
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20).stdout.strip()


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    assert read_in_a_child(tmp_path / "pipe") == "NotARegularFile a FIFO (named pipe)"


def test_a_link_to_an_endless_device_is_refused_not_read(tmp_path):
    (tmp_path / "zero").symlink_to("/dev/zero")
    assert read_in_a_child(tmp_path / "zero", 1000) == "NotARegularFile a character device"


def test_a_folder_is_not_a_regular_file(tmp_path):
    with pytest.raises(NotARegularFile) as raised:
        read_regular_file(str(tmp_path))
    assert raised.value.kind == "a folder"


@pytest.mark.parametrize(("size", "limit", "refused"), [(10, 10, False), (11, 10, True), (0, 0, False)])
def test_the_limit_is_a_number_of_bytes(tmp_path, size, limit, refused):
    path = tmp_path / "f"
    path.write_bytes(b"a" * size)
    if refused:
        with pytest.raises(FileTooLarge):
            read_regular_file(str(path), limit)
    else:
        assert read_regular_file(str(path), limit) == b"a" * size


def test_the_status_is_taken_after_the_read(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    data, status = read_regular_file_with_status(str(path))
    assert (data, status.st_size, status.st_ino) == (b"abc", 3, path.stat().st_ino)


def test_a_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_regular_file(str(tmp_path / "none"))


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_only_a_regular_file_or_nothing_may_be_replaced(tmp_path, kind):
    path = tmp_path / "target"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/null")
    with pytest.raises(FileAccessError, match="not a place for the index"):
        check_replaceable(str(path), "the index", label="target")
    assert check_replaceable(str(tmp_path / "new"), "the index", label="new") is None


def test_a_read_only_file_may_not_be_replaced_even_by_root(tmp_path):
    path = tmp_path / "target"
    path.write_bytes(b"x")
    path.chmod(0o444)
    with pytest.raises(FileAccessError, match="read-only") as raised:
        check_replaceable(str(path), "the index", label="target")
    assert "chmod u+w target" in raised.value.hint


def test_a_file_others_own_is_checked_for_the_user_who_runs(reachable_tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root to act as another user")
    path = reachable_tmp_path / "target"
    path.write_bytes(b"x")
    path.chmod(0o644)
    with pytest.raises(ChildError, match="read-only"):
        run_unprivileged(lambda: check_replaceable(str(path), "the index", label="target"))


def test_a_read_only_mount_gets_its_own_hint_not_chmod(tmp_path):
    if not unshare_available():
        pytest.skip("needs root and unshare to mount a read-only file system")
    mount = tmp_path / "ro"
    mount.mkdir()
    script = textwrap.dedent(
        f"""
        mount -t tmpfs tmpfs {mount} && echo text > {mount}/AGENTS.md && mount -o remount,ro {mount} &&
        {sys.executable} -c '
        from skillmem_hook.files import check_replaceable
        from skillmem_hook.errors import FileAccessError
        try:
            check_replaceable("{mount}/AGENTS.md", "the index", label="AGENTS.md")
        except FileAccessError as error:
            print(error.message, "|", error.hint)
        '
        """
    )
    result = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=30)
    assert "read-only file system | remount it read-write" in result.stdout, result.stderr
    assert "chmod" not in result.stdout


def test_an_empty_output_path_is_a_usage_error_that_names_no_folder(tmp_path):
    with pytest.raises(UsageError) as raised:
        check_output_target("", "the wrapper script", signature=b"#!", protected=(), force=False)
    assert raised.value.message == "the path for the wrapper script is empty"
    assert str(tmp_path) not in raised.value.message + raised.value.hint


def test_output_goes_through_a_link_to_its_target(tmp_path):
    (tmp_path / "real").write_bytes(b"#! old")
    (tmp_path / "link").symlink_to("real")
    target, old = check_output_target(str(tmp_path / "link"), "x", signature=b"#!", protected=(), force=False)
    assert (target, old) == (str(tmp_path / "real"), b"#! old")


def test_output_refuses_a_prompt_file_even_through_a_link_and_with_force(tmp_path):
    (tmp_path / "AGENTS.md").write_bytes(b"#! looks generated")
    (tmp_path / "link").symlink_to("AGENTS.md")
    with pytest.raises(FileAccessError, match="is a configured prompt file"):
        check_output_target(
            str(tmp_path / "link"), "x", signature=b"#!", protected=[str(tmp_path / "AGENTS.md")], force=True
        )


@pytest.mark.parametrize(
    ("content", "force", "allowed"),
    [(b"", False, True), (b"mine", False, False), (b"mine", True, True), (b"SIG and more", False, True)],
)
def test_output_replaces_only_what_skillmem_wrote_unless_forced(tmp_path, content, force, allowed):
    path = tmp_path / "out"
    path.write_bytes(content)
    if allowed:
        assert check_output_target(str(path), "x", signature=b"SIG", protected=(), force=force)[1] == content
    else:
        with pytest.raises(FileAccessError, match="not x written by skillmem"):
            check_output_target(str(path), "x", signature=b"SIG", protected=(), force=force)
    assert stat.S_ISREG(path.stat().st_mode)
