from __future__ import annotations

import gc
import os
import tracemalloc

import pytest

from skillmem_hook.catalog import scan as scan_module
from skillmem_hook.catalog.discovery.head_read import read_skill_head
from skillmem_hook.catalog.discovery.walk import find_skill_files
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skillfile.declared import HEADING_WINDOW
from skillmem_hook.catalog.skillfile.head import MAX_FRONTMATTER
from skillmem_hook.errors import FileAccessError

from ..helpers import run_unprivileged, skill_md, write_skill


def paths(root):
    found, skipped = find_skill_files(str(root))
    return [found.relative for found in found], dict(skipped)


def test_finds_skills_at_any_depth_including_inside_other_skills(tmp_path):
    # Real collections nest skills in skills: game-development/2d-games/SKILL.md.
    write_skill(tmp_path, "a", skill_md("a"))
    write_skill(tmp_path, "group/sub/b", skill_md("b"))
    write_skill(tmp_path, "a/inner", skill_md("inner"))
    (tmp_path / "a" / "scripts").mkdir()
    (tmp_path / "group" / "README.md").write_text("not a skill")
    assert paths(tmp_path) == (["a", "a/inner", "group/sub/b"], {})


def test_skips_hidden_folders_below_the_root(tmp_path):
    root = tmp_path / ".claude" / "skills"
    write_skill(root, "visible", skill_md("visible"))
    write_skill(root, ".git/objects", skill_md("hidden"))
    write_skill(root, ".cache/x", skill_md("hidden2"))
    assert paths(root) == (["visible"], {})


def test_only_a_file_named_exactly_skill_md_counts(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "skill.md").write_text("---\nname: lower\n---\n")
    assert paths(tmp_path) == ([], {})


def test_paths_are_sorted_by_code_point_not_by_walk_order(tmp_path):
    for folder in ["b", "a-b", "a/b", "A", "é"]:
        write_skill(tmp_path, folder, skill_md(folder.replace("/", "-")))
    assert paths(tmp_path)[0] == sorted(["b", "a-b", "a/b", "A", "é"])


def test_root_that_is_a_skill_folder_is_indexed_as_one_skill(tmp_path):
    root = tmp_path / "solo"
    write_skill(tmp_path, "solo", "# Solo\n")
    catalog = scan_roots([str(root)])
    assert [(skill.name, skill.path) for skill in catalog.skills] == [("solo", ".")]


def test_symlink_policy(tmp_path):
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    write_skill(outside, "far", skill_md("far"))
    write_skill(root, "real", skill_md("real"))
    write_skill(root, "nested/deep", skill_md("deep"))
    (root / "link-inside").symlink_to(root / "nested")
    (root / "link-outside").symlink_to(outside / "far")
    (root / "dangling").symlink_to(tmp_path / "nowhere")
    (root / "nested" / "loop").symlink_to(root)
    (root / "file-link").mkdir()
    (root / "file-link" / "SKILL.md").symlink_to(outside / "far" / "SKILL.md")
    (root / "inside-file-link").mkdir()
    (root / "inside-file-link" / "SKILL.md").symlink_to(root / "real" / "SKILL.md")
    found, skipped = paths(root)
    assert found == ["inside-file-link", "nested/deep", "real"]
    assert skipped == {
        "dangling": "dangling symlink",
        "file-link": "symlink leads outside the root; only links inside the root are followed",
        "link-outside": "symlink leads outside the root; only links inside the root are followed",
        "link-inside": "symlink leads to a folder walked already",
        "nested/loop": "symlink loops back to a folder above it",
    }


def test_symlinked_root_is_followed(tmp_path):
    write_skill(tmp_path / "real", "a", skill_md("a"))
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    assert paths(tmp_path / "alias") == (["a"], {})


@pytest.mark.parametrize("make", ["missing", "file"])
def test_a_root_that_is_not_a_folder_is_an_error(tmp_path, make):
    root = tmp_path / "root"
    if make == "file":
        root.write_text("x")
    with pytest.raises(FileAccessError, match="does not exist" if make == "missing" else "is not a folder"):
        find_skill_files(str(root))


def test_an_unreadable_folder_is_skipped_and_the_rest_indexed(reachable_tmp_path):
    root = reachable_tmp_path / "root"
    write_skill(root, "ok", skill_md("ok"))
    write_skill(root, "locked/inner", skill_md("inner"))
    (root / "locked").chmod(0o000)
    try:
        found, skipped = run_unprivileged(find_skill_files, str(root))
    finally:
        (root / "locked").chmod(0o755)
    assert [item.relative for item in found] == ["ok"]
    assert skipped == [("locked", "cannot read the folder: Permission denied")]


def test_an_unreadable_skill_file_is_skipped_with_its_reason(reachable_tmp_path):
    root = reachable_tmp_path / "root"
    write_skill(root, "ok", skill_md("ok"))
    write_skill(root, "secret", skill_md("secret")).chmod(0o000)
    catalog = run_unprivileged(lambda: _summary(scan_roots([str(root)])))
    assert catalog == (["ok"], [("secret", "cannot read SKILL.md: Permission denied")])


def _summary(catalog):
    return [skill.name for skill in catalog.skills], [(item["path"], item["reason"]) for item in catalog.skipped]


def test_a_200_mb_skill_file_is_read_only_as_far_as_its_frontmatter(tmp_path):
    path = write_skill(tmp_path, "huge", skill_md("huge", "big file") + b"# Body\n")
    with open(path, "r+b") as file:
        file.truncate(200 * 1024 * 1024)  # sparse: costs no disk
    tracemalloc.start()
    data = read_skill_head(str(path))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert data.startswith(b"---\nname: huge")
    assert len(data) <= 2 * HEADING_WINDOW
    assert peak < 4 * HEADING_WINDOW


def test_an_unclosed_frontmatter_in_a_huge_file_stops_at_the_limit(tmp_path):
    path = write_skill(tmp_path, "open", b"---\nname: open\n")
    with open(path, "r+b") as file:
        file.truncate(50 * 1024 * 1024)
    catalog = scan_roots([str(tmp_path)])
    assert catalog.skills == []
    assert catalog.skipped == [
        {"root": str(tmp_path), "path": "open", "reason": "the frontmatter is not closed within the first 1 MiB"}
    ]


def test_a_long_frontmatter_below_the_limit_is_read_whole(tmp_path):
    description = "word " * (MAX_FRONTMATTER // 10)
    write_skill(tmp_path, "long", skill_md("long", description, body="# Heading\n"))
    (skill,) = scan_roots([str(tmp_path)]).skills
    assert skill.description == description.strip()


def test_heading_default_is_read_after_a_long_frontmatter(tmp_path):
    filler = "x" * (HEADING_WINDOW + 10)
    write_skill(tmp_path, "late", f"---\nname: late\nlicense: {filler}\n---\n# Late heading\n")
    (skill,) = scan_roots([str(tmp_path)]).skills
    assert skill.description == "Late heading"


def test_duplicates_span_roots_and_the_earlier_root_wins(tmp_path):
    write_skill(tmp_path / "one", "pdf", skill_md("pdf", "first"))
    write_skill(tmp_path / "two", "a/pdf", skill_md("PDF", "second"))
    catalog = scan_roots([str(tmp_path / "two"), str(tmp_path / "one")])
    assert [(skill.root, skill.description) for skill in catalog.skills] == [(str(tmp_path / "two"), "second")]
    ((dropped, kept),) = catalog.duplicates
    assert dropped.root == str(tmp_path / "one")


def test_nfd_folder_names_give_nfc_paths(tmp_path):
    write_skill(tmp_path, "cafe\u0301", "# x\n")
    (skill,) = scan_roots([str(tmp_path)]).skills
    assert skill.path == "caf\u00e9"
    assert skill.name == "caf\u00e9"


def test_skipped_files_do_not_stop_the_index(tmp_path):
    write_skill(tmp_path, "good", skill_md("good"))
    write_skill(tmp_path, "latin1", b"---\nname: caf\xe9\n---\n")
    write_skill(tmp_path, "utf16", "\ufeff---\nname: wide\n---\n".encode("utf-16"))
    write_skill(tmp_path, "empty", b"")
    catalog = scan_roots([str(tmp_path)])
    assert sorted(skill.name for skill in catalog.skills) == ["empty", "good"]
    assert sorted(item["path"] for item in catalog.skipped) == ["latin1", "utf16"]


def test_folder_names_that_are_not_utf8_are_skipped_with_a_reason(tmp_path):
    root = os.fsencode(tmp_path)
    os.makedirs(root + b"/caf\xff")
    with open(root + b"/caf\xff/SKILL.md", "wb") as file:
        file.write(b"# Heading\n")
    catalog = scan_roots([str(tmp_path)])
    assert catalog.skills == []
    assert [item["reason"] for item in catalog.skipped] == ["a folder name on the skill's path is not valid UTF-8"]


@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("fails", [False, True])
def test_the_cycle_collector_pauses_while_a_catalog_is_made(tmp_path, monkeypatch, enabled, fails):
    """Its full passes grew with the live skills (370 ms of a cold 100,000-skill run); nothing made here is a cycle."""
    write_skill(tmp_path, "alpha", skill_md("alpha", "Parse CSV files"))
    seen = []
    real = scan_module._build

    def build(*args):
        seen.append(gc.isenabled())
        if fails:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(scan_module, "_build", build)
    (gc.enable if enabled else gc.disable)()
    try:
        if fails:
            with pytest.raises(KeyboardInterrupt):
                scan_roots([str(tmp_path)])
        else:
            assert [skill.name for skill in scan_roots([str(tmp_path)]).skills] == ["alpha"]
        assert seen == [False]
        assert gc.isenabled() is enabled
    finally:
        gc.enable()
