"""Files of records under one checksum: what goes in comes out, and any change to the bytes is caught."""

from __future__ import annotations

import json
import os
import shutil
import tracemalloc
import zlib
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.catalog.catalog import Catalog
from skillmem_hook.catalog.skillfile.declared import SkillText
from skillmem_hook.catalog.skills import make_skill
from skillmem_hook.catalog.store import records as records_module
from skillmem_hook.catalog.store import seal as seal_module
from skillmem_hook.catalog.store.cache import ContentCache
from skillmem_hook.catalog.store.records import (
    DamagedFile,
    framed,
    read_records,
    write_records_quietly,
)
from skillmem_hook.catalog.store.seal import SEALED_SECONDS
from skillmem_hook.catalog.store.snapshot import Snapshot

HEADER = {"format": "test-1"}
SECOND = 1_000_000_000
# A position in a file is drawn as any number, taken modulo its length: the seal's inode makes the length vary
# from run to run, and hypothesis needs the same draws for the same example.
RECORDS = st.lists(st.binary(max_size=40).map(lambda data: data.replace(b"\n", b"")), max_size=8)


def written(records: list[bytes], path: Path) -> Path:
    write_records_quietly(str(path), HEADER, records)
    return path


@settings(max_examples=40, deadline=None)
@given(records=RECORDS)
def test_records_come_back_as_written(records, tmp_path_factory):
    path = written(records, tmp_path_factory.mktemp("r") / "file")
    assert list(read_records(str(path), HEADER, 1 << 20)) == records


@settings(max_examples=60, deadline=None)
@given(
    records=st.lists(st.binary(max_size=40).map(lambda data: data.replace(b"\n", b"")), max_size=40),
    chunk=st.integers(1, 100),
)
def test_records_joined_into_chunks_are_the_bytes_of_one_line_each(records, chunk):
    """framed joins records into chunks to write fewer, larger pieces: the file's bytes stay those of a line each."""
    header = b'{"format":"test-1"}\n'
    running = zlib.crc32(header)
    for record in records:
        running = zlib.crc32(record + b"\n", running)
    expected = header + b"".join(record + b"\n" for record in records)
    expected += b'{"crc":%d,"records":%d,"inode":12,"changed":345}\n' % (zlib.crc32(b"12,345", running), len(records))
    with mock.patch.object(records_module, "_CHUNK", chunk):
        assert b"".join(framed(HEADER, iter(records), lambda: stat_result(inode=12, changed=345))) == expected


@settings(max_examples=40, deadline=None)
@given(records=RECORDS, data=st.data())
def test_one_changed_byte_anywhere_is_caught(records, data, tmp_path_factory):
    path = written(records, tmp_path_factory.mktemp("r") / "file")
    content = path.read_bytes()
    at = data.draw(st.integers(0, 1 << 16)) % len(content)
    path.write_bytes(content[:at] + bytes([content[at] ^ data.draw(st.integers(1, 255))]) + content[at + 1 :])
    with pytest.raises(DamagedFile):
        list(read_records(str(path), HEADER, 1 << 20))


@settings(max_examples=40, deadline=None)
@given(records=RECORDS, data=st.data())
def test_a_file_cut_short_or_grown_is_caught(records, data, tmp_path_factory):
    path = written(records, tmp_path_factory.mktemp("r") / "file")
    content = path.read_bytes()
    cut = data.draw(st.integers(0, 1 << 16)) % len(content)
    path.write_bytes(content[:cut] if data.draw(st.booleans()) else content + b"x\n")
    with pytest.raises(DamagedFile):
        list(read_records(str(path), HEADER, 1 << 20))


def test_another_header_is_refused_before_any_record(tmp_path):
    path = written([b"one"], tmp_path / "file")
    with pytest.raises(DamagedFile):
        next(read_records(str(path), {"format": "test-2"}, 1 << 20))


def test_a_file_over_the_limit_is_refused(tmp_path):
    path = written([b"x" * 100], tmp_path / "file")
    with pytest.raises(DamagedFile):
        list(read_records(str(path), HEADER, 50))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "file")
    with pytest.raises(DamagedFile):
        list(read_records(str(tmp_path / "file"), HEADER, 1 << 20))


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="no O_NOFOLLOW here")
def test_a_link_in_the_files_place_is_not_followed_even_to_a_good_file_of_this_users(tmp_path):
    """A link swapped in after the folder was checked is refused, though its target is a good file of this user's."""
    target = written([b"chosen by whoever made the link"], tmp_path / "elsewhere")
    os.symlink(target, tmp_path / "file")
    assert list(read_records(str(target), HEADER, 1 << 20)) == [b"chosen by whoever made the link"]
    with pytest.raises(OSError):
        list(read_records(str(tmp_path / "file"), HEADER, 1 << 20))
    os.symlink("file", tmp_path / "chain")  # a link to a link: the last one is not followed either
    with pytest.raises(OSError):
        list(read_records(str(tmp_path / "chain"), HEADER, 1 << 20))


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="no O_NOFOLLOW here")
def test_a_link_in_the_place_of_the_cache_or_the_snapshot_is_read_as_none(tmp_path):
    """Through their own readers: a link's target, a good file of this user's, is not read; the file itself is."""
    (tmp_path / "store").mkdir()
    (tmp_path / "elsewhere").mkdir()
    cache = ContentCache(str(tmp_path / "store" / "cache.json"))
    text = SkillText("chosen", "a description chosen by whoever made the link", [], {}, title="t")
    cache.put("b:" + "0" * 40, text)
    cache.save()
    snapshot = Snapshot(cache.path or "", "key")
    snapshot.save(Catalog([make_skill(text, path="chosen", folder="chosen", root="skills")], [], []))
    kept = ContentCache(cache.path).get("b:" + "0" * 40)
    assert kept is not None and kept.description == text.description and Snapshot(cache.path or "", "key").load()
    for path in (Path(cache.path or ""), Path(snapshot.path)):
        os.replace(path, tmp_path / "elsewhere" / path.name)
        os.symlink(tmp_path / "elsewhere" / path.name, path)
    assert ContentCache(cache.path).get("b:" + "0" * 40) is None
    assert Snapshot(cache.path or "", "key").load() is None


def test_a_record_that_cannot_be_written_leaves_the_old_file(tmp_path):
    (tmp_path / "store").mkdir()
    path = written([b"old"], tmp_path / "store" / "file")

    def failing():
        yield b"new"
        raise ValueError("cannot encode")

    write_records_quietly(str(path), HEADER, failing())
    assert list(read_records(str(path), HEADER, 1 << 20)) == [b"old"]
    assert [entry.name for entry in path.parent.iterdir()] == ["file"]


def _peak_bytes(action) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_cache_and_the_snapshot_are_streamed_never_held_whole(tmp_path):
    """At 100,000 skills each file is some 40 MB: serialised whole, the text alone passed the memory budget."""
    (tmp_path / "store").mkdir()
    cache = ContentCache(str(tmp_path / "store" / "cache.json"))
    skills = []
    for number in range(3000):
        text = SkillText(f"skill-{number}", "Parse the files " + "d" * 300, [], {}, title="t")
        cache.put(f"b:{number:040x}", text)
        skills.append(make_skill(text, path=f"skill-{number}", folder=f"skill-{number}", root="skills"))
    snapshot = Snapshot(cache.path or "", "key")
    for path, action in ((cache.path, cache.save), (snapshot.path, lambda: snapshot.save(Catalog(skills, [], [])))):
        peak = _peak_bytes(action)
        size = os.path.getsize(path or "")
        assert size > 1_000_000
        assert peak < size / 4, (path, peak, size)
    assert [skill.name for skill in snapshot.load().skills] == [skill.name for skill in skills]


@settings(max_examples=60, deadline=None)
@given(records=RECORDS, block=st.integers(1, 64), data=st.data())
def test_records_split_across_blocks_come_back_and_a_change_is_still_caught(records, block, data, tmp_path_factory):
    """Files are read in blocks: a record or the trailer cut by a block's end must change nothing."""
    path = written(records, tmp_path_factory.mktemp("r") / "file")
    original, records_module._BLOCK = records_module._BLOCK, block
    try:
        assert list(read_records(str(path), HEADER, 1 << 20)) == records
        content = path.read_bytes()
        at = data.draw(st.integers(0, 1 << 16)) % len(content)
        path.write_bytes(content[:at] + bytes([content[at] ^ 0x20]) + content[at + 1 :])
        with pytest.raises(DamagedFile):
            list(read_records(str(path), HEADER, 1 << 20))
    finally:
        records_module._BLOCK = original


def stat_result(*, inode: int, changed: int) -> os.stat_result:
    """A status with this inode and change time (ns), all else zero: what the seal reads of a file's fstat."""
    return os.stat_result((0, inode, 0, 0, 0, 0, 0, 0, 0, changed // SECOND), {"st_ctime_ns": changed})


def trailer_of(path: Path) -> bytes:
    return path.read_bytes().splitlines(keepends=True)[-1]


def test_the_trailer_seals_the_file_with_its_own_inode_and_change_time(tmp_path):
    """The seal is the temporary file's, before its last line and its rename: the same inode, a change time at most
    that late."""
    path = written([b"one", b"two"], tmp_path / "file")
    status = os.stat(path)
    seal = json.loads(trailer_of(path))
    assert seal["inode"] == status.st_ino
    assert 0 <= status.st_ctime_ns - seal["changed"] <= SEALED_SECONDS * SECOND


def test_a_copy_of_a_sealed_file_is_refused_though_its_bytes_and_times_are_the_same(tmp_path):
    """fixh29: a copy (``cp -p``, an archive unpacked) is a new inode; changed at once, so the time alone would pass."""
    path = written([b"one", b"two"], tmp_path / "file")
    assert list(read_records(str(path), HEADER, 1 << 20)) == [b"one", b"two"]
    shutil.copy2(path, tmp_path / "copy")
    os.replace(tmp_path / "copy", path)
    assert os.stat(path).st_ctime_ns - json.loads(trailer_of(path))["changed"] < SEALED_SECONDS * SECOND
    with pytest.raises(DamagedFile):
        list(read_records(str(path), HEADER, 1 << 20))


@pytest.mark.parametrize(
    ("offset", "checksummed", "served"),
    [(-SEALED_SECONDS - 60, True, False), (-1, True, True), (-1, False, False), (SEALED_SECONDS * 60, True, False)],
)
def test_a_seal_on_the_same_inode_is_refused_when_the_file_changed_too_late_or_before_it(
    tmp_path, offset, checksummed, served
):
    """The inode the seal names, its change time ``offset`` seconds off the one it had, the checksum made anew
    (``checksummed``) or not: a reused inode under an archive unpacked later (too old a seal), a time set in the
    future to match any later change; a changed time the window would take, but the checksum covers."""
    path = written([b"one", b"two"], tmp_path / "file")
    trailer = trailer_of(path)
    seal = json.loads(trailer)
    before = zlib.crc32(path.read_bytes()[: -len(trailer)])
    changed = os.stat(path).st_ctime_ns + offset * SECOND
    forged = seal_module.trailer_line(before, 2, seal["inode"], changed)
    if not checksummed:
        forged = forged.replace(b'"crc":%d' % json.loads(forged)["crc"], b'"crc":%d' % seal["crc"])
    with path.open("r+b") as file:  # in place: the same inode, changed now
        file.seek(len(path.read_bytes()) - len(trailer))
        file.write(forged)
        file.truncate()
    if served:
        assert list(read_records(str(path), HEADER, 1 << 20)) == [b"one", b"two"]
    else:
        with pytest.raises(DamagedFile):
            list(read_records(str(path), HEADER, 1 << 20))


@pytest.mark.parametrize(
    ("changed", "sealed"),
    [
        (b"%d" % (100 * SECOND), True),  # the same change time
        (b"%d" % (100 * SECOND - SEALED_SECONDS * SECOND), True),  # the window's edge
        (b"%d" % (100 * SECOND - SEALED_SECONDS * SECOND - 1), False),  # a nanosecond past it
        (b"%d" % (100 * SECOND + 1), False),  # a seal later than the file's change
        # Within the window as int() reads them, but not as written: digits only.
        (b"99_000_000_000", False),
        (b" 99000000000", False),
        (b"+99000000000", False),
        (b"", False),  # int() would raise
        (b"x", False),
    ],
)
def test_the_seal_holds_within_its_window_and_not_a_nanosecond_past_it(changed, sealed):
    status = stat_result(inode=7, changed=100 * SECOND)
    crc = zlib.crc32(b"7," + changed, 5)
    trailer = b'{"crc":%d,"records":2,"inode":7,"changed":' % crc + changed + b"}\n"
    assert seal_module.trailer_sealed_here(trailer, 5, 2, status) is sealed
    assert not seal_module.trailer_sealed_here(trailer.replace(b'"inode":7', b'"inode":8'), 5, 2, status)
    assert not seal_module.trailer_sealed_here(trailer, 5, 3, status)
    assert not seal_module.trailer_sealed_here(trailer, 6, 2, status)
    assert not seal_module.trailer_sealed_here(trailer[:-2] + b"]\n", 5, 2, status)
    assert not seal_module.trailer_sealed_here(trailer[:-2] + b"}}\n", 5, 2, status)
