"""``resolve_inside``: a path's links followed one by one, never a step out of the boundary; its cost."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.lint.baseline import missing_paths
from skillmem_hook.lint.paths import MISSING, OUTSIDE, resolve_inside


def test_a_link_to_a_path_of_several_parts_is_followed_by_the_rest_in_order(tmp_path):
    # The parts of a link's target come before the parts after the link, each in order (a stack, read from its end).
    boundary = os.path.realpath(tmp_path)
    (tmp_path / "x" / "y" / "z").mkdir(parents=True)
    (tmp_path / "x" / "y" / "z" / "f").write_text("f")
    (tmp_path / "l").symlink_to("x/y")
    assert resolve_inside(boundary, f"{boundary}/l/z/f") == f"{boundary}/x/y/z/f"
    assert resolve_inside(boundary, f"{boundary}/l/y") == MISSING
    (tmp_path / "out").symlink_to("x/../..")
    assert resolve_inside(boundary, f"{boundary}/out/f") == OUTSIDE


def test_the_steps_kept_for_the_next_path_are_its_own_up_to_a_link(tmp_path):
    # Past a link the walk starts again from the boundary, along the link's target: those steps are not the path's.
    boundary = os.path.realpath(tmp_path)
    (tmp_path / "a" / "x" / "y").mkdir(parents=True)
    (tmp_path / "a" / "l").symlink_to("x")
    walked: list[str] = []
    assert resolve_inside(boundary, f"{boundary}/a/l/y", walked) == f"{boundary}/a/x/y"
    assert walked == ["a"]
    assert resolve_inside(boundary, f"{boundary}/a/a/x/y", walked) == MISSING
    assert resolve_inside(boundary, f"{boundary}/a/x/y", walked) == f"{boundary}/a/x/y"
    assert walked == ["a", "x", "y"]
    (tmp_path / "a" / "c" / "d").mkdir(parents=True)
    assert resolve_inside(boundary, f"{boundary}/a/c/d", walked) == f"{boundary}/a/c/d"
    assert walked == ["a", "c", "d"]  # cut where this path parts from the last one
    assert resolve_inside(boundary, f"{boundary}/a/x/y/c/d", walked) == MISSING


# A small tree of folders, files and links: each link to an entry made before it (so none loops, and no chain
# passes 40 links), or out of the tree; each entry in a folder reached through no link.
NAMES = st.sampled_from(["a", "b", "c"])
ENTRIES = st.lists(st.tuples(st.sampled_from(["dir", "file", "link", "out"]), NAMES, st.integers(0, 20)), max_size=12)
PATHS = st.lists(st.lists(NAMES, min_size=1, max_size=5), min_size=1, max_size=8)
MAX_LINKS = 8  # each of a path's 5 parts follows fewer than this many: under the 40 the kernel allows


def _build(top: str, entries: list[tuple[str, str, int]]) -> None:
    made: list[str] = []
    folders = [""]
    links = 0
    for kind, name, pick in entries:
        parent = folders[pick % len(folders)]
        relative = f"{parent}/{name}" if parent else name
        path = os.path.join(top, relative)
        if os.path.lexists(path) or (kind in ("link", "out") and (links >= MAX_LINKS or not made)):
            continue
        if kind == "dir":
            os.mkdir(path)
            folders.append(relative)
        elif kind == "file":
            Path(path).write_text("x")
        else:
            target = made[pick % len(made)] if kind == "link" else "../elsewhere"
            os.symlink(os.path.relpath(os.path.join(top, target), os.path.dirname(path)), path)
            links += 1
        made.append(relative)


@settings(max_examples=60, deadline=None)
@given(entries=ENTRIES, paths=PATHS)
def test_paths_resolved_in_turn_with_the_steps_kept_read_as_each_alone_and_as_the_system(
    tmp_path_factory, entries, paths
):
    # hostile17 F1: a caller resolving many paths keeps the steps found to be no link (`walked`); whatever the
    # order and the links, each answer is the one a fresh walk gives, and, for a path that stays inside, the
    # system's own: its real path when it exists, MISSING when not.
    tree = tmp_path_factory.mktemp("tree")
    boundary = os.path.realpath(tree / "top")
    os.mkdir(boundary)
    os.mkdir(os.path.join(tree, "elsewhere"))
    _build(boundary, entries)
    walked: list[str] = []
    for parts in paths:
        path = os.path.join(boundary, *parts)
        alone = resolve_inside(boundary, path)
        assert resolve_inside(boundary, path, walked) == alone
        real = os.path.realpath(path)
        if alone == OUTSIDE:  # only through the link out
            assert os.path.relpath(real, boundary).startswith("..")
        else:
            assert alone == (real if os.path.lexists(real) else MISSING)


def test_paths_below_one_deep_folder_stat_it_once_not_once_each(tmp_path, monkeypatch):
    # hostile17 F1: 3,000 baseline paths below a folder 1,500 deep took 538 s, an lstat of every step of each.
    boundary = os.path.realpath(tmp_path)
    deep = os.path.join(boundary, *["a"] * 30)
    os.makedirs(deep)
    Path(deep, "here").mkdir()
    Path(deep, "here", "SKILL.md").write_text("x")
    relative = os.path.relpath(deep, boundary)
    listed = [f"{relative}/gone{index}/SKILL.md" for index in range(50)] + [f"{relative}/here/SKILL.md"]
    calls = []
    lstat = os.lstat

    def counted(path, *args, **kwargs):
        calls.append(path)
        return lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", counted)
    known = Counter((path, "SK105", "m") for path in listed)
    assert missing_paths(known, boundary) == sorted(listed[:-1])
    assert len(calls) <= 30 + 50 + 2  # the folder's steps once, then each path's own; not 30 for each of 51
