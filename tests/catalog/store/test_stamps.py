"""Snapshots of the skill folders: any change that can change the catalog makes a snapshot stale."""

from __future__ import annotations

import json
import os

import pytest

from skillmem_hook.catalog.store.stamps import StatSnapshot, take_snapshot

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
    assert StatSnapshot.from_json(StatSnapshot.of({"/x": (1, 2), "x": (3, 4), "a/b": (5, 6)}).as_json()).stamps == {
        "/x": (1, 2),
        "x": (3, 4),
        "a/b": (5, 6),
    }
    with pytest.raises(ValueError, match="snapshot"):
        StatSnapshot.from_json([])
    for malformed in ({"a/": [["path", 1]]}, {"a/": [[1, 2, 3]]}, {"a/": 3}, {"a/": [["path", None, None]]}):
        assert not StatSnapshot.from_json(malformed).is_current()


def test_the_kept_text_reads_back_as_the_snapshot_whatever_its_folder_names():
    # UTF-8 for a Chinese name (escapes made a route prompt's parse slower), surrogates for one that is not UTF-8.
    snapshot = StatSnapshot.of({"skills/数据/SKILL.md": (3, 4), "skills/\udcff-x/SKILL.md": (1, 2), "/x": (-1, -1)})
    text = snapshot.as_text()
    assert "数据".encode() in text
    assert StatSnapshot.from_json(json.loads(text)).stamps == snapshot.stamps
    assert StatSnapshot.of(dict(reversed(snapshot.stamps.items()))).as_text() == text  # the same stamps, the same bytes
