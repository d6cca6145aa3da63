"""The catalog snapshot, with the real git: a warm run is served by it; whatever decides the catalog invalidates it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillmem_hook.catalog import scan as scan_module
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery import git as git_module
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.store import snapshot as snapshot_module
from skillmem_hook.catalog.store.records import framed, read_records

from ...helpers import skill_md, write_skill
from ..test_git_view import _git_identity, git, repository  # noqa: F401 - the fixture applies here too

TRACKED = CatalogOptions(tracked=True)


def snapshot_file() -> Path:
    return Path(git("rev-parse", "--git-path", "skillmem/catalog.json").strip())


def cache_file() -> Path:
    return Path(git("rev-parse", "--git-path", "skillmem/cache.json").strip())


def described(catalog) -> dict[str, object]:
    """Every field of a catalog, so two catalogs compare in full."""

    def skill(item):
        return {name: getattr(item, name) for name in type(item).__slots__}

    return {
        "skills": [skill(item) for item in catalog.skills],
        "duplicates": [(skill(dropped), skill(kept)) for dropped, kept in catalog.duplicates],
        "excluded": [skill(item) for item in catalog.excluded],
        "skipped": catalog.skipped,
        "notices": catalog.notices,
    }


def varied_repository() -> None:
    """Skills of every kind a catalog keeps: an owner, a duplicate, an excluded one, a skipped one, a warning."""
    repository()
    write_skill(Path("skills"), "@team/gamma", skill_md("gamma", "Team skill"))
    write_skill(Path("skills"), "zz-copy", skill_md("alpha", "A second alpha"))
    write_skill(Path("skills"), "drafty", skill_md("drafty", "Excluded"))
    write_skill(Path("skills"), "mixed", skill_md("Mixed Case_Name", "Its slug differs from its name"))
    write_skill(Path("skills"), "broken", b"---\nname: [unclosed\n")
    write_skill(Path("skills"), "warned", b"---\nname: warned\ndescription: 5\n---\n# Title\n")
    git("add", "-A")


def tamper() -> None:
    """Rewrite the snapshot, key and checksum intact, to say there are no skills: only a hit can return that."""
    header = json.loads(snapshot_file().read_bytes().partition(b"\n")[0])
    shared, found = list(read_records(str(snapshot_file()), header, 1 << 30))[:2]  # the rows every skill shares
    snapshot_file().write_bytes(b"".join(framed(header, [shared, found])))


def test_a_warm_run_is_served_by_the_snapshot_and_equals_a_fresh_build(monkeypatch):
    varied_repository()
    options = CatalogOptions(tracked=True, exclude=["drafty"])
    fresh = described(scan_roots(["skills"], CatalogOptions(tracked=True, exclude=["drafty"], cache=False)))
    assert fresh["duplicates"] and fresh["excluded"] and fresh["skipped"]
    assert {"@team", ""} == {skill["owner"] for skill in fresh["skills"]}
    assert any(skill["slug"] != skill["name"] for skill in fresh["skills"])
    assert described(scan_roots(["skills"], options)) == fresh
    assert snapshot_file().is_file()

    def unreachable(*arguments, **options):
        raise AssertionError("a warm run built the catalog again")

    monkeypatch.setattr(git_module, "read_blobs", unreachable)
    monkeypatch.setattr(scan_module, "ContentCache", unreachable)
    warm = scan_roots(["skills"], options)
    assert described(warm) == fresh
    assert warm.work_tree is not None


def edit() -> None:
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Edited"))
    git("add", "-A")


def rename() -> None:
    git("mv", "skills/beta", "skills/beta-moved")


def new_skill() -> None:
    write_skill(Path("skills"), "delta", skill_md("delta"))
    git("add", "-A")


def delete_cache() -> None:
    cache_file().unlink()


@pytest.mark.parametrize("change", [edit, rename, new_skill, delete_cache])
def test_a_change_to_the_index_or_the_cache_invalidates_the_snapshot(change):
    repository()
    scan_roots(["skills"], TRACKED)
    tamper()
    assert scan_roots(["skills"], TRACKED).skills == []  # the tampered snapshot is the one read
    change()
    expected = described(scan_roots(["skills"], CatalogOptions(tracked=True, cache=False)))
    assert expected["skills"]
    assert described(scan_roots(["skills"], TRACKED)) == expected


def test_a_configuration_change_invalidates_the_snapshot():
    repository()
    scan_roots(["skills"], TRACKED)
    tamper()
    assert [skill.name for skill in scan_roots(["skills"], CatalogOptions(tracked=True, exclude=["beta"])).skills] == [
        "alpha"
    ]


def test_a_new_parser_fingerprint_invalidates_the_snapshot(monkeypatch):
    repository()
    scan_roots(["skills"], TRACKED)
    tamper()
    monkeypatch.setattr(snapshot_module, "parser_fingerprint", lambda: "another parser")
    assert [skill.name for skill in scan_roots(["skills"], TRACKED).skills] == ["alpha", "beta"]


def flipped(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


@pytest.mark.parametrize(
    "damage", ["empty", "garbage", "truncated", "flipped byte", "a letter changed", "a line cut", "no body"]
)
def test_a_damaged_snapshot_is_ignored_and_rewritten(damage):
    repository()
    expected = described(scan_roots(["skills"], TRACKED))
    data = snapshot_file().read_bytes()
    damaged = {
        "empty": b"",
        "garbage": b"\xff\xfe\x00{not json\n[",
        "truncated": data[: len(data) // 2],
        "flipped byte": flipped(data, len(data) - 5),
        # still valid JSON, so only the checksum tells: "Parse CSV files" becomes "Qarse CSV files"
        "a letter changed": flipped(data, data.index(b"Parse CSV")),
        "a line cut": b"\n".join(line for line in data.split(b"\n") if b"beta" not in line),
        "no body": data.partition(b"\n")[0],
    }[damage]
    assert damaged != data
    snapshot_file().write_bytes(damaged)
    assert described(scan_roots(["skills"], TRACKED)) == expected
    assert snapshot_file().read_bytes() == data


def test_a_tracked_symlink_is_resolved_on_disk_so_no_snapshot_is_kept():
    repository()
    Path("skills/link-to-alpha").symlink_to("alpha")
    git("add", "-A")
    scan_roots(["skills"], TRACKED)
    assert cache_file().is_file()
    assert not snapshot_file().exists()


def test_no_cache_keeps_no_snapshot():
    repository()
    scan_roots(["skills"], CatalogOptions(tracked=True, cache=False))
    assert not snapshot_file().exists()


def test_the_file_system_view_keeps_no_snapshot():
    repository()
    scan_roots(["skills"], CatalogOptions(tracked=False))
    assert not snapshot_file().exists()


def test_a_warm_hit_keeps_the_notices_about_roots(capsys):
    from skillmem_hook.hooks import skill_index

    repository()
    Path(".gitignore").write_text(".claude/\n")
    write_skill(Path(".claude/skills"), "hello", skill_md("hello"))
    Path("AGENTS.md").write_text("# A\n")
    for _ in range(2):  # the second run is served from the snapshot
        skill_index(["--root", ".claude/skills", "--root", "skills", "--prompt-file", "AGENTS.md"])
        assert "skills root .claude/skills: git ignores it" in capsys.readouterr().err
