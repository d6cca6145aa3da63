"""Atomic writes: edits made meanwhile, signals, long names, setuid bits."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from skillmem_hook.atomic import TargetChanged
from skillmem_hook.block.prompt_file import write_if_changed

from .helpers import NOBODY, seed_tree

BEGIN = b"<<<SKILL_INDEX_BEGIN>>>"


def leftovers(folder):
    return [name for name in os.listdir(folder) if name.endswith(".skillmem-tmp")]


@pytest.mark.parametrize(
    "edited",
    [
        b"# prompt\na line typed meanwhile\n",  # an append: the size changes
        b"# Prompt\n",  # a fixed typo: the same size, other bytes
    ],
)
def test_an_edit_made_during_the_write_is_kept_and_the_run_fails(tmp_path, monkeypatch, edited):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"# prompt\n")
    real_fsync = os.fsync

    def another_editor_saves(descriptor):
        with open(path, "r+b") as editor:  # a real write to the real file, after skillmem read it
            editor.write(edited)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", another_editor_saves)
    with pytest.raises(TargetChanged, match="changed while skillmem was updating it"):
        write_if_changed(str(path), b"# prompt\n", b"# prompt\nblock\n")
    assert path.read_bytes() == edited
    assert leftovers(tmp_path) == []


def test_a_file_that_already_holds_the_new_bytes_is_left_alone(tmp_path, monkeypatch):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"old")
    real_fsync = os.fsync

    def another_inject_finishes_first(descriptor):
        path.write_bytes(b"new")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", another_inject_finishes_first)
    inode = path.stat().st_ino
    assert write_if_changed(str(path), b"old", b"new") is False
    assert (path.read_bytes(), path.stat().st_ino) == (b"new", inode)
    assert leftovers(tmp_path) == []


def _inject_command(root, prompt):
    return [sys.executable, "-m", "skillmem_hook", "inject", "--root", str(root), "--prompt-file", str(prompt)]


def _injected(root, folder, original):
    """What inject makes of ``original`` in ``folder``, from a copy beside the file under test."""
    copy = folder / "EXPECTED.md"
    copy.write_bytes(original)
    subprocess.run(_inject_command(root, copy), check=True, capture_output=True)
    return copy.read_bytes()


def test_a_writer_holding_the_file_open_across_inject_sees_the_old_file_whole(tmp_path):
    """Deterministic: a program that opened the file before inject and writes after it is the race no rename
    can see (docs/guarantees.md), so its bytes land in the replaced file, whole; the new file is inject's, whole.
    A write in place instead of a rename would change the bytes the open descriptor reads."""
    root = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    original = b"# prompt\n" + b"x" * 1_000_000 + b"\n"
    injected = _injected(root, tmp_path, original)
    prompt.write_bytes(original)
    held = os.open(prompt, os.O_RDWR | os.O_APPEND)
    try:
        subprocess.run(_inject_command(root, prompt), check=True, capture_output=True)
        os.write(held, b"typed meanwhile\n")
        os.lseek(held, 0, os.SEEK_SET)
        replaced = b"".join(iter(lambda: os.read(held, 1 << 20), b""))
        assert os.fstat(held).st_ino != prompt.stat().st_ino
    finally:
        os.close(held)
    assert replaced == original + b"typed meanwhile\n"  # the old file: untouched by inject, the line not lost
    assert prompt.read_bytes() == injected
    with open(prompt, "ab") as editor:  # a writer that opens after the rename appends to the new file
        editor.write(b"typed later\n")
    assert prompt.read_bytes() == injected + b"typed later\n"
    assert leftovers(tmp_path) == []


def test_a_concurrent_writer_never_loses_a_line(tmp_path):
    """A real writer process appends while a real inject runs over a large file, at random moments.

    Whatever the moment, the file ends as one of the outcomes the code promises: inject's file made from the
    edited one (the writer came before inject read it); the writer's line kept after the original (inject saw
    the edit before its rename: exit 2); or inject's file whole with the line after it (the writer opened the new
    file) or without it (the writer opened the old file before the rename and wrote after it: its line is in the
    replaced file, as the inode the writer reports shows). None depends on the timing; a torn write fails.
    """
    root = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    original = b"x" * 30_000_000 + b"\n"
    injected = _injected(root, tmp_path, original)
    edited_first = _injected(root, tmp_path, original + b"typed meanwhile\n")
    writer = (
        "import os, sys, time\ntime.sleep(float(sys.argv[2]))\n"
        "descriptor = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)\n"
        "os.write(descriptor, b'typed meanwhile\\n')\nprint(os.fstat(descriptor).st_ino)\n"
    )
    rng = random.Random(13)
    for _ in range(6):
        prompt.write_bytes(original)
        inject = subprocess.Popen(_inject_command(root, prompt), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        edit = subprocess.Popen(
            [sys.executable, "-c", writer, str(prompt), str(rng.uniform(0.05, 0.4))], stdout=subprocess.PIPE
        )
        written_to = int(edit.communicate(timeout=60)[0])
        assert edit.returncode == 0
        _, error = inject.communicate(timeout=60)
        result = prompt.read_bytes()
        if inject.returncode == 2:
            assert b"changed while skillmem was updating it" in error
            assert result == original + b"typed meanwhile\n"
        elif written_to == prompt.stat().st_ino:
            assert (inject.returncode, result) == (0, injected + b"typed meanwhile\n"), error
        else:  # inject read the line (the writer came first), or the replaced file took it: the race
            assert inject.returncode == 0, error  # no rename can see
            assert result in (edited_first, injected)
        assert leftovers(tmp_path) == []


CHILD = textwrap.dedent(
    """
    import os, signal, sys, time
    from skillmem_hook.report import run_reporting_errors
    from skillmem_hook.block.prompt_file import write_if_changed

    def signalled_mid_write(descriptor):
        os.kill(os.getpid(), getattr(signal, sys.argv[2]))
        time.sleep(20)

    os.fsync = signalled_mid_write
    path = sys.argv[1]
    sys.exit(run_reporting_errors(lambda: "test", lambda: write_if_changed(path, b"old", b"new" * 1000)))
    """
)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGQUIT", "SIGINT"])
def test_a_terminating_signal_mid_write_removes_the_temporary_file(tmp_path, name):
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"old")
    result = subprocess.run([sys.executable, "-c", CHILD, str(path), name], capture_output=True, text=True, timeout=30)
    assert result.returncode == 130
    assert json.loads(result.stderr)["error"] == ("interrupted" if name == "SIGINT" else f"interrupted ({name})")
    assert path.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_sigterm_from_outside_during_a_large_write_leaves_nothing_behind(tmp_path):
    root = seed_tree(tmp_path / "skills")
    prompt = tmp_path / "AGENTS.md"
    original = b"y" * 150_000_000 + b"\n"
    prompt.write_bytes(original)
    command = [sys.executable, "-m", "skillmem_hook", "inject", "--root", str(root), "--prompt-file", str(prompt)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not leftovers(tmp_path) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.0005)
    if process.poll() is not None:
        pytest.skip("the write ended before the test saw its temporary file")
    process.send_signal(signal.SIGTERM)
    _, error = process.communicate(timeout=60)
    assert process.returncode == 130, error
    assert leftovers(tmp_path) == []
    assert prompt.read_bytes() == original


@pytest.mark.parametrize("name", ["a" * 230 + ".md", "b" * 255, "é" * 127])
def test_a_prompt_file_with_a_name_at_the_length_limit_can_be_updated(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"old")
    assert write_if_changed(str(path), b"old", b"new") is True
    assert path.read_bytes() == b"new"
    assert leftovers(tmp_path) == []


def test_setuid_setgid_and_the_owner_are_kept(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root to give the file another owner")
    path = tmp_path / "tool.md"
    path.write_bytes(b"old")
    os.chown(path, NOBODY, NOBODY)
    path.chmod(0o6755)
    write_if_changed(str(path), b"old", b"new")
    status = path.stat()
    assert (stat.S_IMODE(status.st_mode), status.st_uid, status.st_gid) == (0o6755, NOBODY, NOBODY)
    assert Path(path).read_bytes() == b"new"
