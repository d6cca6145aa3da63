"""Snapshots of the skill folders: any change that can change the catalog makes a snapshot stale."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog.store.stamps import StatSnapshot, retake_snapshot, take_snapshot

from ...helpers import skill_md, write_skill


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "skills"
    write_skill(folder, "a", skill_md("a", "first"))
    write_skill(folder, "group/b", skill_md("b", "second"))
    return folder


def bump(path):
    """Move a file's mtime on by a second, as a later edit would (coarse file systems included)."""
    status = os.stat(path)
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))


def test_a_snapshot_is_current_until_something_changes(root):
    assert take_snapshot([str(root)]).is_current()


@pytest.mark.parametrize(
    "change",
    [
        lambda root: write_skill(root, "group/c", skill_md("c")),  # a skill added deep down
        lambda root: write_skill(root, "a", skill_md("a", "edited, same folder")),  # an edit that changes the size
        lambda root: bump(root / "a" / "SKILL.md"),  # an edit that keeps the size
        lambda root: os.remove(root / "group" / "b" / "SKILL.md"),
        lambda root: os.rename(root / "group", root / "renamed"),
        lambda root: (root / ".." / ".skillmem.yaml").write_text("roots: [other]\n"),  # the configuration appears
    ],
)
def test_every_change_that_can_change_the_catalog_is_noticed(root, change):
    snapshot = take_snapshot([str(root)], [str(root / ".." / ".skillmem.yaml")])
    change(root)
    assert not snapshot.is_current()


def test_hidden_folders_are_not_watched_as_the_scan_skips_them(root):
    (root / ".cache").mkdir()
    snapshot = take_snapshot([str(root)])
    write_skill(root / ".cache", "x", skill_md("x"))
    assert snapshot.is_current()
    assert not any("/.cache" in path for path in snapshot.stamps)


def test_a_snapshot_survives_json_and_refuses_what_it_did_not_write(root):
    snapshot = take_snapshot([str(root)])
    again = StatSnapshot.from_json(snapshot.as_json())
    assert again.stamps == snapshot.stamps
    stamps = {"/x": (1, 2), "x": (3, 4), "a/b": (5, 6)}
    assert StatSnapshot.from_json(StatSnapshot.of(stamps).as_json()).stamps == stamps
    with pytest.raises(ValueError, match="snapshot"):
        StatSnapshot.from_json([])
    for malformed in ({"a/": [["path", 1]]}, {"a/": [[1, 2, 3]]}, {"a/": 3}, {"a/": [["path", None, None]]}):
        assert not StatSnapshot.from_json(malformed).is_current()
    # A root's row as fixh27 stamped it (its change time and inode after the two stamps): another shape, not
    # current though its first two stamps hold, so a snapshot of that format is retaken, never trusted on half.
    folder, rows = next(iter(snapshot.as_json().items()))
    assert not StatSnapshot.from_json({folder: [[*row, 0, 0] for row in rows]}).is_current()


TREE_CHANGES = st.lists(
    st.tuples(
        st.sampled_from(["add", "edit", "remove", "rename", "link", "unlink", "hide", "empty"]),
        st.sampled_from(["a", "group", "group/b", "group/deep/c", "d", "group/deep"]),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TREE_CHANGES)
def test_a_snapshot_retaken_from_a_known_one_is_the_one_a_full_walk_takes(tmp_path_factory, changes):
    """Skills added, edited, removed, folders renamed, linked, hidden or left empty: the same stamps as a walk.

    Each changed path gets a stamp of its own (``bump``), as a change after the known snapshot was stored does.
    """
    base = tmp_path_factory.mktemp("tree")
    root = base / "skills"
    for folder in ("a", "group/b", "group/deep/c"):
        write_skill(root, folder, skill_md(folder.rsplit("/", 1)[-1], "text"))
    (base / "elsewhere").mkdir()
    roots, files = [str(root)], [str(base / ".skillmem.yaml")]
    known = take_snapshot(roots, files)
    for change, folder in changes:
        touched = _change(root, base, change, folder)
        for path in touched:
            if os.path.lexists(path):
                status = os.lstat(path)
                os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000), follow_symlinks=False)
    assert retake_snapshot(known, roots, files).grouped == take_snapshot(roots, files).grouped
    known = take_snapshot(roots, files)
    assert retake_snapshot(known, roots, files).grouped == known.grouped  # nothing changed: nothing listed


def _change(root: Path, base: Path, change: str, folder: str) -> list[Path]:
    """Make one change; the paths whose stamp it changed (the folder and its parent)."""
    path = root / folder
    if change in ("add", "edit"):
        write_skill(root, folder, skill_md(folder.rsplit("/", 1)[-1], f"{change} {time.time_ns()}"))
    elif change == "remove" and path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif change == "rename" and path.is_dir() and not path.is_symlink() and not (root / "moved").exists():
        path.rename(root / "moved")
        return [root / "moved", path.parent, root]
    elif change == "link" and not os.path.lexists(path) and path.parent.is_dir():
        path.symlink_to(base / "elsewhere")
    elif change == "unlink" and path.is_symlink():
        path.unlink()
    elif change == "hide" and path.is_dir() and not (path.parent / f".{path.name}").exists():
        path.rename(path.parent / f".{path.name}")
    elif change == "empty" and not os.path.lexists(path) and path.parent.is_dir():
        path.mkdir()
    return [path, path / "SKILL.md", *path.parents][: folder.count("/") + 3]


@pytest.mark.parametrize(
    "malformed", [{"": [["skills", 1]]}, {"": [[1, 2, 3]]}, {"": 3}, {"": [["skills", None, None]]}]
)
def test_a_snapshot_retaken_from_a_malformed_one_is_a_full_walk(root, malformed):
    roots = [str(root)]
    cut = roots[0].rfind("/") + 1
    shaped = {roots[0][:cut]: value for value in malformed.values()}
    assert retake_snapshot(StatSnapshot.from_json(shaped), roots).grouped == take_snapshot(roots).grouped


def test_a_link_whose_target_changed_is_stamped_again_and_never_walked_into(root, tmp_path):
    """A link's stamp is its target's: a skill added there changes it, not its folder's; a walk never enters a link."""
    (tmp_path / "elsewhere").mkdir()
    (root / "group" / "linked").symlink_to(tmp_path / "elsewhere")
    known = take_snapshot([str(root)])
    write_skill(tmp_path / "elsewhere", "x", skill_md("x"))
    bump(tmp_path / "elsewhere")
    retaken = retake_snapshot(known, [str(root)])
    assert retaken.grouped == take_snapshot([str(root)]).grouped
    assert retaken.stamps[str(root / "group" / "linked")] != known.stamps[str(root / "group" / "linked")]


def test_the_kept_text_reads_back_as_the_snapshot_whatever_its_folder_names():
    # UTF-8 for a Chinese name (escapes made a route prompt's parse slower), surrogates for one that is not UTF-8.
    snapshot = StatSnapshot.of({"skills/数据/SKILL.md": (3, 4), "skills/\udcff-x/SKILL.md": (1, 2), "/x": (-1, -1)})
    text = snapshot.as_text()
    assert "数据".encode() in text
    assert StatSnapshot.from_json(json.loads(text)).stamps == snapshot.stamps
    assert StatSnapshot.of(dict(reversed(snapshot.stamps.items()))).as_text() == text  # the same stamps, the same bytes


def test_every_path_keeps_two_stamps_the_roots_and_files_too(root, tmp_path):
    """Currency only (tidy10): where a kept index was written is its seal's to say, not the roots' inodes."""
    config = tmp_path / ".skillmem.yaml"
    config.write_text("roots: [skills]\n")
    snapshot = take_snapshot([str(root)], [str(config), str(tmp_path / "missing")])
    assert {len(row) for rows in snapshot.as_json().values() for row in rows} == {3}
    assert snapshot.stamps[str(root)] == (os.stat(root).st_mtime_ns, os.stat(root).st_size)
    assert snapshot.stamps[str(tmp_path / "missing")] == (-1, -1)


@pytest.mark.parametrize("how", ["renamed in", "linked"])
def test_a_root_that_is_another_folder_now_is_seen(root, tmp_path, how):
    """The root's path names another folder (one moved into its place, or a link pointed elsewhere) holding other
    skills: its stamps below and its own are that folder's, and differ."""
    other = tmp_path / "other"
    write_skill(other, "c", skill_md("c", "third"))
    if how == "linked":
        os.rename(root, tmp_path / "first")
        os.symlink(tmp_path / "first", root)
    snapshot = take_snapshot([str(root)])
    assert snapshot.is_current()
    if how == "linked":
        os.remove(root)
        os.symlink(other, root)
    else:
        os.rename(root, tmp_path / "first")
        os.rename(other, root)
    assert not snapshot.is_current()
