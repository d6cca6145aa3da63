"""The content cache, with the real git: an entry is served only to the parser that wrote it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.scan import scan_roots

from ..test_git_view import _git_identity, git, repository  # noqa: F401 - the fixture applies here too

# No snapshot: it would answer before the cache is asked (test_snapshot.py covers it).
TRACKED = CatalogOptions(tracked=True)


def cache_file() -> Path:
    return Path(git("rev-parse", "--git-path", "skillmem/cache.json").strip())


def rewrite_cache(**header: str) -> None:
    """Every entry now says what another parser read; the header gets the given fields."""
    content = json.loads(cache_file().read_bytes())
    content.update(header)
    for entry in content["entries"].values():
        entry[1] = "what an old parser read"
    cache_file().write_text(json.dumps(content))
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
    assert json.loads(cache_file().read_bytes())[field] != "0ld0ld00"  # rebuilt for this parser
