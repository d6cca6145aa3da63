"""The route hook's index file: what it holds, where it lives, when it is rebuilt."""

from __future__ import annotations

import json
import zlib

import pytest

from skillmem_hook.agents.route_index import (
    HEADER,
    RouteIndex,
    build_route_index,
    current_route_index,
)
from skillmem_hook.catalog.store.locations import route_index_location

from ..helpers import kept_unsealed, make_git_dir, write_skill

ALIASED = "---\nname: viking-memory-guide\ndescription: Memory\nmetadata:\n  aliases: 记忆, remember\n---\n".encode()


def test_the_index_holds_labels_paths_and_metadata_aliases_and_survives_its_bytes(tmp_path):
    write_skill(tmp_path / "skills", "memory", ALIASED)
    index = build_route_index([str(tmp_path / "skills")])
    ((target, keys),) = index.targets()
    assert (target.label, target.path, keys) == (
        "viking-memory-guide",
        f"{tmp_path}/skills/memory/SKILL.md",
        # a slug typed with spaces, its short CJK alias and its folder's name, which names no skill, need a mark
        ["!memory", "+viking-memory-guide", "=remember", "^记忆"],
    )
    again = RouteIndex.from_bytes(index.to_bytes())
    assert (again.roots, again.rows) == ([str(tmp_path / "skills")], index.rows)
    assert again.snapshot.stamps == index.snapshot.stamps
    assert (
        again.search.as_json()
        == index.search.as_json()
        == {
            "tracked": False,
            "cache": True,
            "exclude": [],
            "domains": {},
            "aliases": {},
        }
    )
    assert b"Memory" not in index.to_bytes()  # descriptions stay out of the file read on every prompt


def test_the_configuration_the_search_needs_is_kept_as_it_was_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_skill(tmp_path / "skills", "memory", ALIASED)
    (tmp_path / ".skillmem.yaml").write_text(
        "roots: [skills]\nexclude: [old-*]\ndomains: {viking-memory-guide: engineering}\n"
        "aliases: {viking-memory-guide: [recall]}\n"
    )
    index = RouteIndex.from_bytes(build_route_index(None).to_bytes())
    assert index.search.as_json() == {
        "tracked": False,
        "cache": True,
        "exclude": ["old-*"],
        "domains": {"viking-memory-guide": "engineering"},
        "aliases": {"viking-memory-guide": ["recall"]},
    }


def test_an_index_without_the_search_settings_is_refused(tmp_path):
    write_skill(tmp_path / "skills", "a", b"---\nname: a\n---\n")
    header, _, payload = build_route_index([str(tmp_path / "skills")]).to_bytes().partition(b"\n")
    document_text, _, snapshot_text = payload.partition(b"\n")  # the document, then the snapshot's text
    document = json.loads(document_text)
    del document["search"]
    payload = json.dumps(document).encode() + b"\n" + snapshot_text
    with pytest.raises(ValueError, match="no search settings"):
        RouteIndex.from_bytes(f"{HEADER} {len(payload)}-{zlib.crc32(payload):08x}\n".encode() + payload)


def damaged(data):
    return data[:-2] + bytes([data[-2] ^ 1]) + data[-1:]


@pytest.mark.parametrize(
    "change",
    [
        lambda data: b"",
        lambda data: b"[]",
        lambda data: data.replace(HEADER.encode(), b"skillmem-route-index 7", 1),
        # fixh27's format, whose roots' stamps held their change time and inode (tidy10 stamps two on every path).
        lambda data: data.replace(HEADER.encode(), b"skillmem-route-index 12", 1),
        damaged,
        lambda data: data[:-1],
        lambda data: b"\xff" + data,
    ],
)
def test_bytes_that_are_not_an_index_are_refused(tmp_path, change):
    write_skill(tmp_path / "skills", "a", b"---\nname: a\n---\n")
    data = build_route_index([str(tmp_path / "skills")]).to_bytes()
    assert RouteIndex.from_bytes(data).rows == [("a", str(tmp_path / "skills"), "a", ["=a"])]
    with pytest.raises(ValueError, match="damaged"):
        RouteIndex.from_bytes(change(data))


def test_the_index_is_kept_under_git_or_in_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    make_git_dir(tmp_path / "repo" / ".git")
    assert route_index_location(str(tmp_path / "repo"), []) == str(tmp_path / "repo" / ".git" / "skillmem-route.json")
    plain = route_index_location(str(tmp_path / "plain"), [])
    assert plain.startswith(str(tmp_path / "cache" / "skillmem" / "route-"))
    assert route_index_location(str(tmp_path / "plain"), ["other"]) != plain  # other roots, another index


def test_a_relative_cache_home_never_puts_the_index_into_the_project(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative-cache")  # the XDG specification says to ignore it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert route_index_location(str(tmp_path / "plain"), []).startswith(str(tmp_path / "home" / ".cache" / "skillmem"))
    monkeypatch.setenv("HOME", "relative-home")
    assert route_index_location(str(tmp_path / "plain"), []) is None


def test_a_current_index_is_read_back_and_a_stale_one_rebuilt(tmp_path):
    root = tmp_path / "skills"
    write_skill(root, "a", b"---\nname: a\n---\n")
    location = str(tmp_path / "index.json")
    first = current_route_index(location, [str(root)])
    stored = (tmp_path / "index.json").read_bytes()
    assert current_route_index(location, [str(root)]).rows == first.rows
    assert (tmp_path / "index.json").read_bytes() == stored
    write_skill(root, "b", b"---\nname: b\n---\n")
    assert [row[0] for row in current_route_index(location, [str(root)]).rows] == ["a", "b"]
    assert (tmp_path / "index.json").read_bytes() != stored


def test_an_index_that_cannot_be_stored_still_routes(tmp_path):
    write_skill(tmp_path / "skills", "a", b"---\nname: a\n---\n")
    (tmp_path / "file").write_text("not a folder")
    index = current_route_index(str(tmp_path / "file" / "index.json"), [str(tmp_path / "skills")])
    assert [row[0] for row in index.rows] == ["a"]


def test_a_well_sealed_index_of_another_shape_is_rebuilt(tmp_path):
    import zlib

    from skillmem_hook.agents.route_index import HEADER

    write_skill(tmp_path / "skills", "a", b"---\nname: a\n---\n")
    payload = b'{"skills": 3}'
    location = tmp_path / "index.json"
    location.write_bytes(f"{HEADER} {len(payload)}-{zlib.crc32(payload):08x}\n".encode() + payload)
    assert [row[0] for row in current_route_index(str(location), [str(tmp_path / "skills")]).rows] == ["a"]
    assert RouteIndex.from_bytes(kept_unsealed(location)).rows[0][0] == "a"


def forged(data: bytes, change) -> bytes:
    """``data`` with its document and snapshot changed by ``change``, under a checksum that matches: a forgery."""
    _, _, payload = data.partition(b"\n")
    document_text, _, snapshot_text = payload.partition(b"\n")
    document, snapshot = json.loads(document_text), json.loads(snapshot_text)
    change(document, snapshot)
    payload = json.dumps(document).encode() + b"\n" + json.dumps(snapshot).encode()
    return f"{HEADER} {len(payload)}-{zlib.crc32(payload):08x}\n".encode() + payload


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # A snapshot that stamps nothing, or not the roots, is the seal's to refuse where the file was not written
        # here (tidy10; test_route_hook's archive test forges one so): its stamps say only whether the disk changed.
        (lambda document, snapshot: document.update(roots=[]), "keeps no roots"),
        (lambda document, snapshot: document["skills"][0].__setitem__(2, "/home/victim"), "outside its roots"),
        (lambda document, snapshot: document["skills"][0].__setitem__(2, "a/../.."), "outside its roots"),
        (lambda document, snapshot: document["skills"][0].__setitem__(2, ".."), "outside its roots"),
        (lambda document, snapshot: document["skills"][0].__setitem__(1, "/home/victim"), "outside its roots"),
    ],
)
def test_a_forged_index_whose_checksum_matches_is_refused(tmp_path, change, message):
    """H6-3: a route index in a git directory inside the tree (an unpacked archive's .git file) can be anyone's."""
    write_skill(tmp_path / "skills", "a", b"---\nname: a\n---\n")
    data = build_route_index([str(tmp_path / "skills")]).to_bytes()
    assert RouteIndex.from_bytes(forged(data, lambda document, snapshot: None)).rows[0][2] == "a"
    with pytest.raises(ValueError, match=message):
        RouteIndex.from_bytes(forged(data, change))


def test_a_folder_whose_name_holds_two_dots_is_no_forgery(tmp_path):
    write_skill(tmp_path / "skills", "a..b", b"---\nname: a\n---\n")
    assert RouteIndex.from_bytes(build_route_index([str(tmp_path / "skills")]).to_bytes()).rows[0][2] == "a..b"
