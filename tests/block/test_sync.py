"""Writing several prompt files: all or none when the disk fills, and an exact account otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from ..helpers import run_cli, seed_tree, snapshot, two_roots_two_files, unshare_available


def test_a_full_disk_on_the_second_file_leaves_both_untouched(tmp_path):
    if not unshare_available():
        pytest.skip("needs root and unshare to mount a small file system")
    root = seed_tree(tmp_path / "skills")
    disk = tmp_path / "disk"
    disk.mkdir()
    script = textwrap.dedent(
        f"""
        set -e
        mount -t tmpfs -o size=1m tmpfs {disk}
        printf 'first\\n' > {disk}/AGENTS.md
        head -c 400000 /dev/zero | tr '\\0' 'x' > {disk}/CLAUDE.md
        head -c 300000 /dev/zero > {disk}/filler
        cp {disk}/AGENTS.md {disk}/CLAUDE.md {tmp_path}/
        set +e
        {sys.executable} -m skillmem_hook inject --root {root} --prompt-file {disk}/AGENTS.md \\
            --prompt-file {disk}/CLAUDE.md
        echo "exit $?" >&2
        cmp {disk}/AGENTS.md {tmp_path}/AGENTS.md && cmp {disk}/CLAUDE.md {tmp_path}/CLAUDE.md && echo same >&2
        ls -a {disk} >&2
        """
    )
    result = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    lines = result.stderr.splitlines()
    assert "exit 2" in lines, result.stderr
    assert "No space left on device" in json.loads(lines[0])["error"]
    assert "same" in lines  # neither file changed
    assert not [line for line in lines if line.endswith(".skillmem-tmp")]


def test_when_a_later_file_cannot_be_replaced_the_error_names_the_files_written(capsys, tmp_path, monkeypatch):
    args, files = two_roots_two_files(tmp_path)
    real_replace = os.replace

    def editor_saves_the_second_file_meanwhile(source, target):
        real_replace(source, target)
        with open(files[1], "ab") as editor:
            editor.write(b"typed meanwhile\n")

    monkeypatch.setattr(os, "replace", editor_saves_the_second_file_meanwhile)
    run = run_cli(capsys, "inject", *args)
    assert run.code == 2
    assert run.error["error"] == (
        f"{str(files[1])!r} changed while skillmem was updating it; skillmem left it as it is now;"
        f" already updated: {str(files[0])!r}"
    )
    assert b"<<<SKILL_INDEX_BEGIN>>>" in files[0].read_bytes()
    assert files[1].read_bytes() == b"x\ntyped meanwhile\n"


def test_a_file_deleted_meanwhile_is_not_brought_back(capsys, tmp_path, monkeypatch):
    args, files = two_roots_two_files(tmp_path)
    real_replace = os.replace

    def the_user_deletes_the_second_file_meanwhile(source, target):
        real_replace(source, target)
        if files[1].exists():
            files[1].unlink()

    monkeypatch.setattr(os, "replace", the_user_deletes_the_second_file_meanwhile)
    run = run_cli(capsys, "inject", *args)
    assert run.code == 2
    assert "changed while skillmem was updating it" in run.error["error"]
    assert not files[1].exists()
    assert not list(tmp_path.glob(".*.skillmem-tmp"))


def test_the_hook_reports_the_files_it_wrote_as_well(tmp_path, monkeypatch, capsys):
    from skillmem_hook.hooks.index import skill_index

    args, files = two_roots_two_files(tmp_path)
    before = snapshot(files[1])
    real_replace = os.replace
    calls = []

    def second_rename_fails(source, target):
        calls.append(target)
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", second_rename_fails)
    assert skill_index(args) == 2
    error = capsys.readouterr().err.splitlines()[0]  # the hooks speak plain text
    written, failed = str(files[0]), str(files[1])
    assert error == f"skill-index: cannot write {failed!r}: Input/output error; already updated: {written!r}"
    assert snapshot(files[1]) == before
    assert [name for name in os.listdir(tmp_path) if name.endswith(".skillmem-tmp")] == []


def test_an_edit_found_in_any_file_leaves_every_file_as_it_was(capsys, tmp_path, monkeypatch):
    args, files = two_roots_two_files(tmp_path)
    first = snapshot(files[0])
    real_fsync = os.fsync
    synced = []

    def editor_saves_the_second_file_while_it_is_staged(descriptor):
        synced.append(descriptor)
        if len(synced) == 2:
            with open(files[1], "ab") as editor:
                editor.write(b"typed meanwhile\n")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", editor_saves_the_second_file_while_it_is_staged)
    run = run_cli(capsys, "inject", *args)
    assert run.code == 2
    assert run.error["error"].endswith("changed while skillmem was updating it; skillmem left it as it is now")
    assert snapshot(files[0]) == first
    assert files[1].read_bytes() == b"x\ntyped meanwhile\n"
