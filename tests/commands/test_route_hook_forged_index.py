"""A stored search index forged with a recomputed checksum: the route hook and ``--explain`` refuse it, never a bug."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from ..helpers import backdate, keep_sealed, kept_unsealed, make_git_dir, skill_md, write_skill

ROUTE = [sys.executable, "-m", "skillmem_hook", "route"]
SEARCH = [sys.executable, "-m", "skillmem_hook", "search", "--top", "1", "csv"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "skills"
PROMPT = "please parse these csv and tsv files into clean tables, and detect the delimiters and the headers"


def forged(data: bytes, row: bytes) -> bytes:
    """The stored index with its first skill's row replaced by ``row``, its sizes and checksum made to match."""
    header, payload = data.split(b"\n", 1)
    meta, rest = payload.split(b"\n", 1)
    document = json.loads(meta)
    rows = rest[: document["blocks"][0]].split(b"\n")
    rest = rest[document["blocks"][0] :]
    rows[0] = row
    document["blocks"][0] = len(b"\n".join(rows))
    payload = json.dumps(document, separators=(",", ":")).encode() + b"\n" + b"\n".join(rows) + rest
    words = header.split(b" ")
    words[-1] = f"{len(payload)}-{zlib.crc32(payload):08x}".encode()
    return b" ".join(words) + b"\n" + payload


ROWS = [
    b"[1,2]",
    b'[1,"r","p",["a","b","c"],"d"]',  # five fields, a name that is not text
    b'["a","b","c",["x"],"d"]',
    b"{}",
    b"[" * 100_000 + b"]" * 100_000,  # json's RecursionError
]


@pytest.mark.parametrize("row", ROWS, ids=[f"row{number}" for number in range(len(ROWS))])  # a short id: pytest puts
# it in the environment (PYTEST_CURRENT_TEST), where the deep row's 200,000 bytes overflow exec's limit (E2BIG)
def test_a_forged_row_on_the_patch_path_is_refused_as_a_bad_index_and_built_anew(tmp_path, row):
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    shutil.copytree(EXAMPLES, repo / "skills")
    (repo / ".skillmem.yaml").write_text("roots: [skills]\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    backdate(repo)
    subprocess.run(SEARCH, cwd=repo, env=env, capture_output=True, check=True)  # stores the index
    stored = repo / ".git" / "skillmem-search.json"
    keep_sealed(stored, forged(kept_unsealed(stored), row))
    new = write_skill(
        repo / "skills", "log-parser", skill_md("log-parser", "Parse CSV and TSV files into clean tables.")
    )
    past = (repo / ".skillmem.yaml").stat().st_mtime
    for path in (new, new.parent, repo / "skills"):  # stale by one skill (the patch path), and settled: the
        os.utime(path, (past, past))  # build it starts is stored

    data = json.dumps({"prompt": PROMPT, "cwd": str(repo), "hook_event_name": "UserPromptSubmit"}).encode()
    marker = repo / ".git" / "skillmem-search.json.building"
    marker.touch()  # a build under way: none starts, so the forged index is still there for --explain
    hook = subprocess.run(ROUTE, input=data, capture_output=True, env=env, timeout=60, check=True)
    assert (hook.stdout, hook.stderr) == (b"", b"")  # no hint, as for a bad index: no TypeError said
    explain = subprocess.run([*ROUTE, "--explain", PROMPT], cwd=repo, env=env, capture_output=True, timeout=60)
    assert explain.returncode == 0 and explain.stderr == b"", explain.stderr
    said = json.loads(explain.stdout)
    assert said["hint"] == [] and said["reason"].startswith("no current stored search index")
    marker.unlink()
    subprocess.run(ROUTE, input=data, capture_output=True, env=env, timeout=60, check=True)  # starts the build

    deadline = time.monotonic() + 60  # the build the hook started: a new index in place of the forged one
    while (repo / ".git" / "skillmem-search.json.building").exists() or row in stored.read_bytes().split(b"\n"):
        assert time.monotonic() < deadline, "the forged index was never built anew"
        time.sleep(0.1)
    again = subprocess.run(ROUTE, input=data, capture_output=True, env=env, timeout=60, check=True)
    assert b"csv-to-table" in again.stdout and again.stderr == b""


def _unpacked_at_the_same_path(repo: Path) -> None:
    """``tar -cpf`` the repository and ``tar -xpf`` it where it was: every (mtime, size) and mode kept, each file and
    folder a new inode changed now. Unpacked beside the tree while it still holds its inodes, then moved into place:
    a tree removed first frees inode numbers the unpacking may take again, which no archive from elsewhere can."""
    archive = repo.parent / "archive.tar"
    subprocess.run(["tar", "-cpf", str(archive), "-C", str(repo), "."], check=True)
    unpacked = repo.parent / "unpacked"
    unpacked.mkdir()
    subprocess.run(["tar", "-xpf", str(archive), "-C", str(unpacked)], check=True)
    shutil.rmtree(repo)
    os.rename(unpacked, repo)


def _copied_into_place(stored: Path) -> None:
    """``cp -p`` of the kept file renamed over it: its bytes, times and mode, another inode; the tree untouched, so
    the snapshot's root stamps hold and only the seal can tell."""
    subprocess.run(["cp", "-p", str(stored), f"{stored}.copy"], check=True)
    os.replace(f"{stored}.copy", stored)


@pytest.mark.skipif(shutil.which("tar") is None, reason="tar is not installed")
@pytest.mark.parametrize("how", ["archive", "copy", "archive, its snapshot empty"])
def test_a_route_index_an_archive_ships_in_its_git_directory_is_never_served(tmp_path, how):
    """fixh30: a route index forged where the archive was made (a row's folder another than the tree's, under the
    checksum and seal its maker's skillmem gives) is served there; unpacked here it is not sealed to this file."""
    from skillmem_hook.agents.route_index import RouteIndex

    from ..helpers import hint_of, run_route

    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    write_skill(repo / "skills", "pdf", skill_md("pdf", "Extract text from PDF files"))
    (repo / ".skillmem.yaml").write_text("roots: [skills]\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    backdate(repo)
    stored = repo / ".git" / "skillmem-route.json"
    run_route("use the pdf skill", repo, env)
    deadline = time.monotonic() + 60
    while not stored.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    index = RouteIndex.from_bytes(kept_unsealed(stored))
    index.rows = [(label, root, "evil", keys) for label, root, _, keys in index.rows]
    if how.endswith("empty"):  # current on every machine: the seal alone refuses it (tidy10: no root stamp vouches)
        index.snapshot_text = b"{}"
    keep_sealed(stored, index.to_bytes())
    assert "evil" in hint_of(run_route("use the pdf skill", repo, env))  # the control: where it was written
    if how.startswith("archive"):
        _unpacked_at_the_same_path(repo)
    else:
        _copied_into_place(stored)
    assert b'"evil"' in stored.read_bytes()  # the forged index is there
    hint = hint_of(run_route("use the pdf skill", repo, env))
    assert "skills/pdf/SKILL.md" in hint and "evil" not in hint
