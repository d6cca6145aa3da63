"""The catalog snapshot, with the real git: a warm run is served by it; whatever decides the catalog invalidates it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog import scan as scan_module
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery import git_blobs as blobs_module
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.store import cache as cache_module
from skillmem_hook.catalog.store import snapshot as snapshot_module
from skillmem_hook.catalog.store.records import read_records, write_records_quietly

from ...helpers import skill_md, write_skill
from ..git_repo import git, repository

pytestmark = pytest.mark.usefixtures("git_identity")

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
    write_records_quietly(str(snapshot_file()), header, [shared, found])


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

    monkeypatch.setattr(blobs_module, "read_blobs", unreachable)
    monkeypatch.setattr(cache_module, "ContentCache", unreachable)
    warm = scan_roots(["skills"], options)
    assert described(warm) == fresh
    assert warm.work_tree is not None


PARSING = [
    "skillmem_hook.catalog.reading",
    "skillmem_hook.catalog.skillfile.declared",
    "skillmem_hook.catalog.skillfile.frontmatter",
    "skillmem_hook.catalog.skillfile.sections",
    "skillmem_hook.catalog.discovery.walk",
    "skillmem_hook.catalog.discovery.tracked",
    "skillmem_hook.catalog.store.cache",
]
LOADED = """
import json, sys
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.scan import scan_roots
before = set(sys.modules)
names = [skill.name for skill in scan_roots(["skills"], CatalogOptions(tracked=True)).skills]
print(json.dumps([names, sorted(set(sys.modules) - before)]))
"""


def test_a_warm_run_loads_none_of_the_parsers():
    """The snapshot serves the catalog, so the modules that read SKILL.md files (some 12 million instructions of a
    warm hook run's 96 beyond the interpreter's) are never imported; a cold run loads them."""
    varied_repository()
    cold = json.loads(subprocess.run([sys.executable, "-c", LOADED], capture_output=True, check=True).stdout)
    warm = json.loads(subprocess.run([sys.executable, "-c", LOADED], capture_output=True, check=True).stdout)
    assert warm[0] == cold[0] and cold[0]
    assert set(PARSING) <= set(cold[1])
    assert set(PARSING) & set(warm[1]) == {"skillmem_hook.catalog.store.cache"}  # for the parser's fingerprint


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


def rewrite_cache_keeping_its_size() -> None:
    """Another run, or damage, changes the cache's bytes but not its size: the snapshot no longer matches it."""
    data = cache_file().read_bytes()
    header, *records, trailer = data.splitlines(keepends=True)
    reordered = header + b"".join(reversed(records)) + trailer
    assert reordered != data and len(reordered) == len(data)
    cache_file().write_bytes(reordered)


@pytest.mark.parametrize("change", [edit, rename, new_skill, delete_cache, rewrite_cache_keeping_its_size])
def test_a_change_to_the_index_or_the_cache_invalidates_the_snapshot(change):
    repository()
    scan_roots(["skills"], TRACKED)
    tamper()
    assert scan_roots(["skills"], TRACKED).skills == []  # the tampered snapshot is the one read
    change()
    expected = described(scan_roots(["skills"], CatalogOptions(tracked=True, cache=False)))
    assert expected["skills"]
    assert described(scan_roots(["skills"], TRACKED)) == expected


# Every option that changes the catalog, each against the default: (roots, exclude, domains).
CONFIGURATIONS = {
    "exclude by name": (["skills"], ["beta"], {}),
    "exclude by prefix": (["skills"], ["b*"], {}),
    "exclude by owner": (["skills"], ["@team/*"], {}),
    "domains by name": (["skills"], [], {"alpha": "security"}),
    "domains by prefix": (["skills"], [], {"a*": "security"}),
    "domains by owner": (["skills"], [], {"@team/gamma": "security"}),
    "another root": (["skills", "more"], [], {}),
}


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_a_configuration_change_invalidates_the_snapshot(configuration):
    repository()
    write_skill(Path("skills"), "@team/gamma", skill_md("gamma", "Team skill"))
    write_skill(Path("more"), "delta", skill_md("delta", "In another root"))
    git("add", "-A")
    scan_roots(["skills"], TRACKED)
    tamper()
    assert scan_roots(["skills"], TRACKED).skills == []  # the tampered snapshot is the one read
    roots, exclude, domains = CONFIGURATIONS[configuration]
    changed = CatalogOptions(tracked=True, exclude=exclude, domains=domains)
    expected = described(scan_roots(roots, CatalogOptions(tracked=True, exclude=exclude, domains=domains, cache=False)))
    assert expected["skills"]
    assert described(scan_roots(roots, changed)) == expected


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
    *lines, trailer = snapshot_file().read_bytes().splitlines()
    assert lines == data.splitlines()[:-1]  # all but the last line, which seals the file rewritten
    assert json.loads(trailer)["inode"] == snapshot_file().stat().st_ino


def test_a_tracked_symlink_is_resolved_on_disk_so_no_snapshot_is_kept():
    repository()
    Path("skills/link-to-alpha").symlink_to("alpha")
    git("add", "-A")
    scan_roots(["skills"], TRACKED)
    assert cache_file().is_file()
    assert not snapshot_file().exists()


@pytest.mark.parametrize("link", ["0-first-in-the-listing", "z-last-in-the-listing"])
def test_a_tracked_symlink_in_any_one_root_keeps_no_snapshot(link):
    repository()
    write_skill(Path("more"), "delta", skill_md("delta"))
    Path("more", link).symlink_to("delta")
    git("add", "-A")
    for roots in (["skills", "more"], ["more", "skills"]):
        scan_roots(roots, TRACKED)
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
    from skillmem_hook.hooks.index import skill_index

    repository()
    Path(".gitignore").write_text(".claude/\n")
    write_skill(Path(".claude/skills"), "hello", skill_md("hello"))
    Path("AGENTS.md").write_text("# A\n")
    for _ in range(2):  # the second run is served from the snapshot
        skill_index(["--root", ".claude/skills", "--root", "skills", "--prompt-file", "AGENTS.md"])
        assert "skills root .claude/skills: git ignores it" in capsys.readouterr().err


# Each key of .skillmem.yaml that decides what the hook writes, changed after a warm run: (its new
# value, the hook's exit code, the prompt file to read, a text it must then hold, one it must not).
YAML_CHANGES = {
    "exclude": ({"exclude": ["beta"]}, 3, "AGENTS.md", "alpha\n", "beta\n"),
    "exclude by owner": ({"exclude": ["@team/*"]}, 3, "AGENTS.md", "alpha\n", "gamma"),
    "domains": ({"domains": {"alpha": "security"}}, 3, "AGENTS.md", "[security]\nalpha\n", "[data-parsing]"),
    "domains by owner": ({"domains": {"@team/*": "security"}}, 3, "AGENTS.md", "[security]\n@team/gamma\n", None),
    "roots": ({"roots": ["skills", "more"]}, 3, "AGENTS.md", "\ndelta\n", None),
    "prompt files and preamble": (
        {"prompt_files": ["AGENTS.md", "CLAUDE.md"], "preamble": "Our skills, by domain."},
        3,
        "CLAUDE.md",
        "Our skills, by domain.\n\n<<<SKILL_INDEX_BEGIN>>>\n[data-parsing]\nalpha\n",
        None,
    ),
    "aliases, which only search reads": ({"aliases": {"alpha": ["tables"]}}, 0, "AGENTS.md", "alpha\n", "tables"),
    "cache off": ({"cache": False}, 0, "AGENTS.md", "alpha\n", None),
}


@pytest.mark.parametrize("change", YAML_CHANGES)
def test_a_yaml_change_after_a_warm_run_gives_the_block_a_cold_run_gives(change, capsys):
    import yaml

    from skillmem_hook.hooks.index import skill_index, skill_verify

    repository()
    write_skill(Path("skills"), "@team/gamma", skill_md("gamma", "Team skill"))
    write_skill(Path("more"), "delta", skill_md("delta", "In another root"))
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Claude\n")
    settings = {"roots": ["skills"], "prompt_files": ["AGENTS.md"]}
    Path(".skillmem.yaml").write_text(yaml.safe_dump(settings))
    git("add", "-A")
    assert skill_index([]) == 3
    assert skill_index([]) == 0  # warm: served by the snapshot
    assert snapshot_file().is_file()
    git("add", "-A")
    git("commit", "-q", "-m", "block")
    keys, code, prompt_file, held, absent = YAML_CHANGES[change]
    Path(".skillmem.yaml").write_text(yaml.safe_dump({**settings, **keys}))
    capsys.readouterr()
    assert skill_index([]) == code, capsys.readouterr().err
    text = Path(prompt_file).read_text()
    assert held in text, text
    assert absent is None or absent not in text, text
    snapshot_file().unlink(missing_ok=True)
    cache_file().unlink(missing_ok=True)
    assert skill_verify([]) == 0  # what the warm run wrote is what a cold run computes


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_a_record_is_the_bytes_json_dumps_gives_it(value):
    """The snapshot's one encoder writes what json.dumps with the compact separators writes, byte for byte."""
    expected = json.dumps(value, separators=(",", ":")).encode("ascii")
    assert snapshot_module._line(value) == expected


def test_a_snapshot_the_hooks_kept_without_sections_is_not_search_s_and_search_s_serves_the_hooks(monkeypatch):
    """The hooks' build skips the body's sections; search must not take that catalog, and the hooks take search's."""
    varied_repository()
    write_skill(Path("skills"), "sectioned", skill_md("sectioned", "Has one", "\n## When to use\n\nFor tables.\n"))
    git("add", "-A")
    hooks = CatalogOptions(tracked=True, exclude=["drafty"], sections=False)
    search = CatalogOptions(tracked=True, exclude=["drafty"])
    fresh = described(scan_roots(["skills"], CatalogOptions(tracked=True, exclude=["drafty"], cache=False)))
    assert "For tables.\nWhen to use" in [skill["sections"] for skill in fresh["skills"]]
    built = described(scan_roots(["skills"], hooks))
    assert {skill["sections"] for skill in built["skills"]} == {None}
    assert built == {**fresh, **described_without_sections(fresh)}
    assert described(scan_roots(["skills"], search)) == fresh  # not the hooks' snapshot

    def unreachable(*arguments, **options):
        raise AssertionError("a warm run built the catalog again")

    monkeypatch.setattr(blobs_module, "read_blobs", unreachable)
    monkeypatch.setattr(cache_module, "ContentCache", unreachable)
    assert described(scan_roots(["skills"], hooks)) == fresh  # search's snapshot, sections and all
    assert described(scan_roots(["skills"], search)) == fresh


def described_without_sections(described_catalog: dict[str, object]) -> dict[str, object]:
    def cut(skill):
        return {**skill, "sections": None}

    return {
        "skills": [cut(skill) for skill in described_catalog["skills"]],
        "duplicates": [(cut(dropped), cut(kept)) for dropped, kept in described_catalog["duplicates"]],
        "excluded": [cut(skill) for skill in described_catalog["excluded"]],
    }


def test_the_lint_hook_takes_the_catalog_the_index_hook_kept(monkeypatch):
    """Lint has no use for the body's sections either: after a cold skill-index it builds nothing again."""
    from skillmem_hook.hooks.index import skill_index
    from skillmem_hook.lint.files import Scope

    varied_repository()
    Path("AGENTS.md").write_text("# A\n")
    skill_index(["--root", "skills", "--prompt-file", "AGENTS.md"])  # writes the block, which it then explains
    git("add", "AGENTS.md")
    skill_index(["--root", "skills", "--prompt-file", "AGENTS.md"])  # current: the kept catalog is its own

    fresh = [skill.name for skill in scan_roots(["skills"], CatalogOptions(tracked=True, cache=False)).skills]

    def unreachable(*arguments, **options):
        raise AssertionError("lint built the catalog again")

    monkeypatch.setattr(scan_module, "_build", unreachable)  # lint's own reads use the content cache: not this
    assert [skill.name for skill in Scope(["skills"], tracked=True).catalog().skills] == fresh
