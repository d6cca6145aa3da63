"""The content cache, with the real git: an entry is served only to the parser that wrote it."""

from __future__ import annotations

import json
import os
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from skillmem_hook.block.render import render_block
from skillmem_hook.catalog import skills as skills_module
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.discovery import checkout as checkout_module
from skillmem_hook.catalog.discovery import git_blobs as blobs_module
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.store import cache as cache_module
from skillmem_hook.catalog.store.records import read_records, write_records_quietly

from ...helpers import skill_md, write_skill
from ..git_repo import git, repository

pytestmark = pytest.mark.usefixtures("git_identity")

# No snapshot: it would answer before the cache is asked (test_snapshot.py covers it).
TRACKED = CatalogOptions(tracked=True)


def cache_file() -> Path:
    return Path(git("rev-parse", "--git-path", "skillmem/cache.json").strip())


def load_cache() -> tuple[dict[str, object], dict[bytes, object]]:
    """The cache file's header, and its entries by key, read through its checksum."""
    head = json.loads(cache_file().read_bytes().partition(b"\n")[0])
    records = [record.partition(b"\t") for record in read_records(str(cache_file()), head, 1 << 30)]
    return head, {key: json.loads(raw) for key, _, raw in records}


def save_cache(head: dict[str, object], entries: dict[bytes, object]) -> None:
    """Framed, checksummed and sealed as the cache writes itself: a test changes what it says, never its integrity."""
    lines = [key + b"\t" + json.dumps(entry).encode() for key, entry in entries.items()]
    write_records_quietly(str(cache_file()), head, lines)


def rewrite_cache(**header: str) -> None:
    """Every entry now says what another parser read; the header gets the given fields."""
    head, entries = load_cache()
    for entry in entries.values():
        entry[1] = "what an old parser read"
    save_cache({**head, **header}, entries)
    snapshot = cache_file().with_name("catalog.json")
    if snapshot.exists():
        snapshot.unlink()


def descriptions() -> dict[str, str | None]:
    return {skill.name: skill.description for skill in scan_roots(["skills"], TRACKED).skills}


def test_the_cache_serves_its_entries_to_the_parser_that_wrote_them():
    """The control for the test below: a rewritten entry with the header intact is what the catalog gives."""
    repository()
    assert descriptions() == {"alpha": "Parse CSV files", "beta": "Deploy with Docker"}
    rewrite_cache()
    assert descriptions() == {"alpha": "what an old parser read", "beta": "what an old parser read"}


@pytest.mark.parametrize("field", ["parser", "unicode"])
def test_entries_written_by_another_parser_or_unicode_version_are_never_served(field):
    repository()
    descriptions()
    rewrite_cache(**{field: "0ld0ld00"})
    assert descriptions() == {"alpha": "Parse CSV files", "beta": "Deploy with Docker"}
    assert load_cache()[0][field] != "0ld0ld00"  # rebuilt for this parser


def entry_with(**changes: object) -> Callable[[list], list]:
    fields = ["name", "description", "warnings", "metadata", "title", "placement", "sections"]
    return lambda entry: [changes.get(field, value) for field, value in zip(fields, entry)]


@pytest.mark.parametrize(
    "damage",
    [
        lambda entry: [*entry, "an eighth field"],
        lambda entry: entry[:6],
        entry_with(placement=["no-such-domain", "name", "x"]),
        entry_with(placement=["security", 5, "x"]),
        entry_with(title=None),
        entry_with(warnings=[1]),
        entry_with(metadata={"domain": 1}),
    ],
    ids=["eight fields", "six fields", "unknown domain", "placement field", "title", "warnings", "metadata"],
)
def test_an_entry_of_the_wrong_shape_is_read_again_never_an_error_never_a_wrong_block(damage):
    repository()
    expected = render_block(scan_roots(["skills"], TRACKED).skills)
    head, entries = load_cache()
    save_cache(head, {key: damage(entry) for key, entry in entries.items()})
    cache_file().with_name("catalog.json").unlink()  # the cache, not the catalog snapshot, serves the next run
    assert render_block(scan_roots(["skills"], TRACKED).skills) == expected


def oid_of(path: str) -> str:
    return git("rev-parse", f":{path}").strip()


def test_a_cache_grown_stale_keeps_only_what_this_run_used():
    """Skills come and go: entries no run uses any more are dropped once they outnumber the live ones."""
    repository()
    descriptions()
    head, entries = load_cache()
    entries.update({f"b:{number:040x}".encode(): "left by a skill long gone" for number in range(5000)})
    save_cache(head, entries)
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Edited"))
    git("add", "-A")
    assert descriptions() == {"alpha": "Edited", "beta": "Deploy with Docker"}
    kept = load_cache()[1]
    assert {key.decode() for key in kept} == {
        "b:" + oid_of("skills/alpha/SKILL.md"),
        "b:" + oid_of("skills/beta/SKILL.md"),
    }


def _walked_fingerprint(top: Path) -> str:
    """The fingerprint as first written: every .py file os.walk finds, in sorted(os.walk)'s order, read whole."""
    checksum = 0
    for folder, _, names in sorted(os.walk(top)):
        for name in sorted(names):
            if name.endswith(".py"):
                checksum = zlib.crc32((Path(folder) / name).read_bytes(), checksum)
    return f"{checksum:08x}"


def test_the_parser_fingerprint_reads_every_module_of_the_catalog_wing(tmp_path, monkeypatch):
    """Whichever module of catalog/ changes (a new frontmatter parser, a new domain rule), old entries go; and the
    fingerprint is the one every earlier version computed, so an upgrade that changes no parser keeps them."""
    wing = Path(cache_module.__file__).resolve().parent.parent
    copy = tmp_path / "catalog"
    shutil.copytree(wing, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "store" / "__pycache__").mkdir()
    (copy / "store" / "__pycache__" / "cache.cpython-313.pyc").write_bytes(b"bytecode, not source")
    monkeypatch.setattr(cache_module, "_CATALOG_FOLDER", str(copy))
    first = cache_module.parser_fingerprint()
    assert first == _walked_fingerprint(copy)
    modules = sorted(path for path in copy.rglob("*.py") if "__pycache__" not in path.parts)
    assert {copy / "skillfile" / "frontmatter.py", copy / "placement" / "domains.py"} <= set(modules)
    for path in modules:
        source = path.read_bytes()
        path.write_bytes(source + b"\n")
        assert cache_module.parser_fingerprint() not in (first, "unknown"), path
        path.write_bytes(source)
    (copy / "store" / "__pycache__" / "stale.py").write_bytes(b"not the wing's source")
    assert cache_module.parser_fingerprint() == first


@pytest.mark.parametrize(("seconds_ago", "kept"), [(0, False), (1, False), (2.5, False), (3600, True)])
def test_a_file_changed_within_the_racy_window_is_not_kept(tmp_path, seconds_ago, kept):
    """A coarse clock (1 s, FAT's 2 s) gives a later edit of the same size the same times: only old files are kept."""
    path = tmp_path / "cache.json"
    cache = cache_module.ContentCache(str(path))
    stamp = cache.started - int(seconds_ago * 1_000_000_000)
    cache.put("f:SKILL.md:10:1:1:1", "a reason the file cannot be used", times_ns=(stamp, stamp))
    cache.save()
    assert path.exists() is kept


def test_a_warm_cache_neither_reads_nor_places_a_skill_again(monkeypatch):
    """What each SKILL.md declares, where it is filed, and why a broken one is left out all come from the cache."""
    repository()
    write_skill(Path("skills"), "broken", b"---\nname: [unclosed\n")
    git("add", "-A")
    first = scan_roots(["skills"], TRACKED)
    assert [item["path"] for item in first.skipped] == ["broken"]
    cache_file().with_name("catalog.json").unlink()  # no snapshot: the cache must answer

    def unreachable(*arguments, **options):
        raise AssertionError("a warm cache read or placed a skill again")

    monkeypatch.setattr(blobs_module, "read_blobs", unreachable)
    # The broken skill is staged as it stands on disk, so a miss would read its work-tree copy, not git.
    monkeypatch.setattr(checkout_module, "read_checked_out", unreachable)
    monkeypatch.setattr(skills_module, "place", unreachable)
    warm = scan_roots(["skills"], TRACKED)
    assert [(skill.name, skill.placement) for skill in warm.skills] == [
        (skill.name, skill.placement) for skill in first.skills
    ]
    assert warm.skipped == first.skipped


HOOKS = CatalogOptions(tracked=True, sections=False)  # what the hooks build: the block needs no sections


def test_an_entry_kept_without_sections_serves_the_hooks_but_is_read_again_for_search(monkeypatch):
    """The hooks keep entries without the body's sections; search's first scan reads those files again, once."""
    repository()
    Path("skills/alpha/SKILL.md").write_bytes(skill_md("alpha", "Parse CSV", "\n## When to use\n\nFor tables.\n"))
    git("add", "-A")
    hooks = scan_roots(["skills"], HOOKS)
    assert [skill.sections for skill in hooks.skills] == [None, None]
    assert [entry[6] for entry in load_cache()[1].values()] == [None, None]
    cache_file().with_name("catalog.json").unlink()  # the cache, not the catalog snapshot, serves the next run
    search = scan_roots(["skills"], TRACKED)
    assert [skill.sections for skill in search.skills] == ["For tables.\nWhen to use", ""]
    assert [entry[6] for entry in load_cache()[1].values()] == ["For tables.\nWhen to use", ""]
    cache_file().with_name("catalog.json").unlink()

    def unreachable(*arguments, **options):
        raise AssertionError("an entry that has its sections was read again")

    monkeypatch.setattr(checkout_module, "read_checked_out", unreachable)
    monkeypatch.setattr(blobs_module, "read_blobs", unreachable)
    for options in (HOOKS, TRACKED):  # the whole entry serves both from now on
        assert [skill.sections for skill in scan_roots(["skills"], options).skills] == ["For tables.\nWhen to use", ""]


def test_the_shipped_fingerprint_covers_the_frontmatter_parser_and_the_domain_rules():
    # Mutant C07: the test above sets its own folder, so a fingerprint of catalog/store/ alone went unseen.
    sources = {Path(path).resolve() for path in cache_module._catalog_sources(cache_module._CATALOG_FOLDER)}
    wing = Path(cache_module.__file__).resolve().parent.parent
    assert {wing / "skillfile" / "frontmatter.py", wing / "placement" / "domains.py", wing / "dot_git.py"} <= sources
