"""The vector cache: keyed by content, read back exactly, rebuilt (never trusted) when damaged."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the [semantic] extra is not installed")

from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.vector_cache import (  # noqa: E402
    FORMAT,
    cached_vectors,
    load_vectors,
    save_vectors,
    vector_cache_path,
)

from ..helpers import keep_sealed, kept_unsealed, skill_md, write_skill  # noqa: E402

TEXTS = ["deploy containers", "bake bread", "file taxes"]


class Counting:
    """The real encoder, counting the texts it is asked to encode."""

    def __init__(self, encoder):
        self.encoder = encoder
        self.texts: list[str] = []

    def __call__(self, texts):
        self.texts += texts
        return self.encoder.encode(texts)


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "git" / "skillmem" / "vectors.bin")


def test_vectors_are_encoded_once_then_read_back_exactly(encoder, path):
    first = Counting(encoder)
    vectors = cached_vectors(TEXTS, "m", first, path)
    assert sorted(first.texts) == sorted(TEXTS)
    stamp = os.stat(path)
    again = Counting(encoder)
    assert np.array_equal(cached_vectors(TEXTS, "m", again, path), vectors)
    assert again.texts == []
    assert os.stat(path).st_mtime_ns == stamp.st_mtime_ns  # nothing new: not written again
    assert os.stat(path).st_ino == stamp.st_ino


def test_an_edited_text_is_encoded_alone_and_the_order_follows_the_texts(encoder, path):
    cached_vectors(TEXTS, "m", Counting(encoder), path)
    edited = ["file taxes", "bake sourdough bread", "deploy containers"]
    counting = Counting(encoder)
    vectors = cached_vectors(edited, "m", counting, path)
    assert counting.texts == ["bake sourdough bread"]
    assert np.allclose(vectors, encoder.encode(edited), atol=1e-5)


def test_another_model_never_reads_these_vectors(encoder, path):
    cached_vectors(TEXTS, "m", Counting(encoder), path)
    assert load_vectors(path, "other-model") == {}
    assert len(load_vectors(path, "m")) == 3


def damage_flip(data):
    return data[:-5] + bytes([data[-5] ^ 0xFF]) + data[-4:]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        damage_flip,  # a flipped byte: the checksum no longer matches
        lambda data: b"",
        lambda data: b"not json\n" + data,
        lambda data: data.replace(FORMAT.encode(), b"skillmem-vectors-0"),
        lambda data: data.replace(b'"count":3', b'"count":-1'),
    ],
)
def test_a_damaged_file_is_ignored_and_rebuilt(encoder, path, damage):
    vectors = cached_vectors(TEXTS, "m", Counting(encoder), path)
    damaged = damage(kept_unsealed(Path(path)))
    if b"\n" in damaged:  # sealed here: the damage, not the seal, is what is refused
        keep_sealed(Path(path), damaged)
    else:
        Path(path).write_bytes(damaged)
    assert load_vectors(path, "m") == {}
    counting = Counting(encoder)
    assert np.allclose(cached_vectors(TEXTS, "m", counting, path), vectors, atol=1e-5)
    assert sorted(counting.texts) == sorted(TEXTS)
    assert len(load_vectors(path, "m")) == 3  # written whole again


def test_a_vector_that_is_not_finite_is_never_used(path):
    save_vectors(path, "m", {b"k" * 16: np.array([np.nan, 1.0], dtype=np.float32)}, keep={b"k" * 16})
    assert load_vectors(path, "m") == {}


def test_a_link_or_a_fifo_in_its_place_is_not_read(encoder, path, tmp_path):
    cached_vectors(TEXTS, "m", Counting(encoder), path)
    elsewhere = tmp_path / "elsewhere.bin"
    os.replace(path, elsewhere)
    os.symlink(elsewhere, path)
    assert load_vectors(path, "m") == {}
    os.unlink(path)
    os.mkfifo(path)
    assert load_vectors(path, "m") == {}  # returns at once: no writer needed


def test_the_cache_lives_in_the_git_directory_inside_a_repository(tmp_path, monkeypatch):
    repository = tmp_path / "repo"
    write_skill(repository / "skills", "a", skill_md("a", "Alpha"))
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    monkeypatch.chdir(repository)
    catalog = scan_roots(["skills"])
    found = vector_cache_path(catalog)
    assert found is not None
    assert os.path.realpath(found) == os.path.realpath(repository / ".git" / "skillmem" / "vectors.bin")
    assert vector_cache_path(catalog, cache=False) is None


def test_outside_a_repository_the_cache_is_the_users(tmp_path, monkeypatch):
    write_skill(tmp_path / "skills", "a", skill_md("a", "Alpha"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    catalog = scan_roots([str(tmp_path / "skills")])
    assert vector_cache_path(catalog) == str(tmp_path / "cache" / "skillmem" / "vectors.bin")


@pytest.mark.parametrize("xdg", ["", "relative/cache"])
def test_without_a_home_there_is_no_user_cache_rather_than_a_tilde_folder(tmp_path, monkeypatch, xdg):
    write_skill(tmp_path / "skills", "a", skill_md("a", "Alpha"))
    monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    monkeypatch.delenv("HOME")
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # what it gives when no home can be found
    catalog = scan_roots([str(tmp_path / "skills")])
    assert vector_cache_path(catalog) is None


@pytest.mark.parametrize(
    "header",
    [
        b"[" * 4000,  # nested past the JSON parser's depth: RecursionError, not ValueError
        b'{"format":"%s","model":"m","dimension":1000000000000000000000000000000,"count":0,"crc":0}' % FORMAT.encode(),
    ],
)
def test_a_header_no_writer_makes_is_ignored_not_raised(path, header):
    # "Damaged ... is ignored and rebuilt, never an error": these headers passed the checks and then raised.
    os.makedirs(os.path.dirname(path))
    with open(path, "wb") as file:
        file.write(header + b"\n")
    assert load_vectors(path, "m") == {}


def test_vectors_copied_here_from_elsewhere_are_never_used(encoder, path, tmp_path):
    """fixh30: vectors an archive ships in its .git (a forged vector moves a ranking) are not sealed to this file:
    ignored, and the texts encoded again."""
    vectors = cached_vectors(TEXTS, "m", Counting(encoder), path)
    copy = tmp_path / "copy.bin"
    subprocess.run(["cp", "-p", path, str(copy)], check=True)  # its bytes, times and mode: another inode
    os.replace(copy, path)
    assert load_vectors(path, "m") == {}
    counting = Counting(encoder)
    assert np.allclose(cached_vectors(TEXTS, "m", counting, path), vectors, atol=1e-5)
    assert sorted(counting.texts) == sorted(TEXTS)
    assert len(load_vectors(path, "m")) == 3  # written anew, sealed here
