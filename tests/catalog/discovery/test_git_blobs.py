"""catalog/discovery/git_blobs.py with the real git: reading blobs through one ``cat-file --batch`` process."""

from __future__ import annotations

import shutil

import pytest

from skillmem_hook.catalog.discovery.git import tracked_entries
from skillmem_hook.catalog.discovery.git_blobs import read_blobs

from ..git_repo import git, repository

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.usefixtures("git_identity"),
]


def test_many_blobs_come_back_whole_and_in_order_past_a_pipe_buffer():
    repository()
    oids = sorted(entry.oid for entry in tracked_entries(["skills"]))
    asked = oids * 3000  # some 250 KB of ids: more than a pipe holds, so writing and reading must overlap
    answers = list(read_blobs(asked, 1 << 20))
    assert [oid for oid, _ in answers] == asked
    expected = {oid: git("cat-file", "blob", oid).encode() for oid in oids}
    assert all(data == expected[oid] for oid, data in answers)


def test_the_limit_cuts_each_blob_and_the_next_answer_still_lines_up():
    repository()
    oids = [entry.oid for entry in tracked_entries(["skills"])]
    answers = list(read_blobs(oids * 2, 5))
    assert [data for _, data in answers] == [b"---\nn"] * 4


def test_stopping_after_the_first_answer_ends_git_and_the_writer():
    repository()
    oids = [entry.oid for entry in tracked_entries(["skills"])] * 20000
    blobs = read_blobs(oids, 1 << 20)
    assert next(blobs)[0] == oids[0]
    blobs.close()  # would hang if the writer thread stayed blocked on a full pipe
