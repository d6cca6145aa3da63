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
    stamps = {"/x": (1, 2, 3, 4), "x": (3, 4, 5, 6), "a/b": (5, 6, 7, 8)}
    assert StatSnapshot.from_json(StatSnapshot.of(stamps).as_json()).stamps == stamps
    with pytest.raises(ValueError, match="snapshot"):
        StatSnapshot.from_json([])
    malformed_rows = ({"a/": [["path", 1]]}, {"a/": [[1, 2, 3]]}, {"a/": 3}, {"a/": [["path", None, None, None, None]]})
    for malformed in malformed_rows:
        assert not StatSnapshot.from_json(malformed).is_current()


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
    snapshot = StatSnapshot.of(
        {"skills/数据/SKILL.md": (3, 4, 5, 6), "skills/\udcff-x/SKILL.md": (1, 2, 3, 4), "/x": (-1, -1, -1, -1)}
    )
    text = snapshot.as_text()
    assert "数据".encode() in text
    assert StatSnapshot.from_json(json.loads(text)).stamps == snapshot.stamps
    assert StatSnapshot.of(dict(reversed(snapshot.stamps.items()))).as_text() == text  # the same stamps, the same bytes


def _unpacked_with_its_times(root: Path) -> None:
    """``root`` copied away, removed and put back as ``tar -xp`` puts it: the same names, sizes and modification
    times, each file and folder a new inode made now (so a new change time)."""
    kept = root.parent / "archive"
    shutil.copytree(root, kept, symlinks=True)  # copy2: times kept
    shutil.rmtree(root)
    shutil.copytree(kept, root, symlinks=True)
    for folder, _, names in os.walk(kept):
        for name in [".", *names]:
            source = os.path.join(folder, name)
            status = os.stat(source)
            os.utime(os.path.join(root, os.path.relpath(source, kept)), ns=(status.st_atime_ns, status.st_mtime_ns))


def test_a_tree_unpacked_with_its_times_and_sizes_is_not_the_snapshots(root):
    """h16 F1: an archive's .git shipped a search index whose snapshot of (mtime, size) held after ``tar -p``."""
    snapshot = take_snapshot([str(root)])
    before = snapshot.stamps
    _unpacked_with_its_times(root)
    after = take_snapshot([str(root)]).stamps
    assert {path: stamped[:2] for path, stamped in after.items()} == {p: s[:2] for p, s in before.items()}
    assert not snapshot.is_current()


@pytest.mark.parametrize("how", ["root", "configuration"])
def test_a_root_or_file_changed_with_its_modification_time_and_size_kept_is_seen(root, tmp_path, how):
    """A root and a file besides the roots carry the change time and inode: a chmod, or a file put in place
    with the old time and size (as ``tar -xp`` puts one), moves a stamp though mtime and size stay."""
    config = tmp_path / ".skillmem.yaml"
    config.write_text("roots: [skills]\n")
    snapshot = take_snapshot([str(root)], [str(config)])
    changed = root if how == "root" else config
    status = os.stat(changed)
    time.sleep(0.01)
    if how == "root":
        os.chmod(root, 0o700)
    else:
        other = tmp_path / "other"
        other.write_text("roots: [skilla]\n")  # the same size
        os.utime(other, ns=(status.st_atime_ns, status.st_mtime_ns))
        os.replace(other, config)
    assert (os.stat(changed).st_mtime_ns, os.stat(changed).st_size) == (status.st_mtime_ns, status.st_size)
    assert snapshot.stamps[str(changed)][:2] == (status.st_mtime_ns, status.st_size)
    assert not snapshot.is_current()


def test_a_snapshot_vouches_only_for_roots_it_stamps_as_they_are_here(root, tmp_path):
    """A missing path's stamp is (-1, -1, -1, -1) on every machine: a snapshot of such stamps alone proves nothing."""
    snapshot = take_snapshot([str(root)], [str(tmp_path / ".skillmem.yaml")])
    assert snapshot.vouches_for([str(root)])
    assert not snapshot.vouches_for([str(root), str(tmp_path / "other")])  # a root it does not stamp
    assert not StatSnapshot.from_json({}).vouches_for([str(root)])
    missing = take_snapshot([str(tmp_path / "none")], [str(tmp_path / ".skillmem.yaml")])
    assert missing.stamps == {str(tmp_path / "none"): (-1, -1, -1, -1), str(tmp_path / ".skillmem.yaml"): (-1,) * 4}
    assert missing.is_current()
    assert not missing.vouches_for([str(tmp_path / "none")])
    # A missing root beside a file that exists (a configuration naming a root not made yet) is a snapshot of here.
    (tmp_path / ".skillmem.yaml").write_text("roots: [none]\n")
    assert take_snapshot([str(tmp_path / "none")], [str(tmp_path / ".skillmem.yaml")]).vouches_for(
        [str(tmp_path / "none")]
    )
    for malformed in ({"x": 3}, {str(root.parent) + "/": [["skills"]]}, {str(root.parent) + "/": 3}):
        assert not StatSnapshot.from_json(malformed).vouches_for([str(root)])
    # A root stamped with the two stamps anyone can copy (mtime and size, kept by tar -p): not a snapshot of here.
    short = {folder: [row[:3] for row in rows] for folder, rows in snapshot.as_json().items()}
    assert not StatSnapshot.from_json(short).vouches_for([str(root)])
