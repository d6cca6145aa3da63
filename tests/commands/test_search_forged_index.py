"""A current stored search index forged with a recomputed checksum: a bad index on every path, ignored and replaced.

Whoever can write ``.git/skillmem-search.json`` (an archive shipping a ``.git``) can forge a row among the hits,
or the JSON document, and recompute the checksum. ``search`` (JSON, text, --domain), the route hook and
``route --explain`` then treat the index as absent, never as "a bug in skillmem", and a new one replaces it.
"""

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

from ..helpers import backdate, keep_sealed, kept_unsealed, make_git_dir

SKILLMEM = [sys.executable, "-m", "skillmem_hook"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "skills"
PROMPT = "please parse these csv and tsv files into clean tables, and detect the delimiters and the headers"
BEST = "csv-to-table"


def parts(data: bytes) -> tuple[list[bytes], dict[str, object], list[bytes]]:
    header, payload = data.split(b"\n", 1)
    meta, rest = payload.split(b"\n", 1)
    document = json.loads(meta)
    blocks, start = [], 0
    for size in document["blocks"]:
        blocks.append(rest[start : start + size])
        start += size + 1
    return header.split(b" "), document, blocks


def joined(words: list[bytes], meta: bytes, blocks: list[bytes]) -> bytes:
    payload = b"\n".join([meta, *blocks])
    words[-1] = f"{len(payload)}-{zlib.crc32(payload):08x}".encode()
    return b" ".join(words) + b"\n" + payload


def forged_row(data: bytes, row: bytes) -> bytes:
    """The stored index with the best hit's row replaced by ``row``, its sizes and checksum made to match."""
    words, document, blocks = parts(data)
    rows = blocks[0].split(b"\n")
    (number,) = [n for n, kept in enumerate(rows) if json.loads(kept)[0] == BEST]
    rows[number] = row
    blocks[0] = b"\n".join(rows)
    document["blocks"] = [len(block) for block in blocks]
    return joined(words, json.dumps(document, separators=(",", ":")).encode(), blocks)


def forged_document(data: bytes, change) -> bytes:
    words, document, blocks = parts(data)
    meta = change(document)
    return joined(words, meta if isinstance(meta, bytes) else json.dumps(document).encode(), blocks)


BODY = 5  # the blocks: the rows, the extra, then the fields (name, description, sections, body)


def forged_blocks(data: bytes, change) -> bytes:
    """The stored index after ``change(document, blocks)``, its sizes and checksum made to match."""
    words, document, blocks = parts(data)
    change(document, blocks)
    document["blocks"] = [len(block) for block in blocks]
    return joined(words, json.dumps(document, separators=(",", ":")).encode(), blocks)


def forged_postings(line: bytes):
    """A change that puts ``line`` for the body's line of "csv" (b'csv\t2,1': the best hit's, once in 9 words)."""

    def change(document, blocks):
        assert b"\ncsv\t2,1\n" in blocks[BODY]
        blocks[BODY] = blocks[BODY].replace(b"\ncsv\t2,1\n", b"\n" + line + b"\n")

    return change


def a_free_number_with_a_length(document, blocks):
    """A sixteenth number no skill has (a patched index's free one) given words, and a posting in the body."""
    for field in document["fields"]:
        field["lengths"].append(5)
    blocks[BODY] = blocks[BODY].replace(b"\ncsv\t2,1\n", b"\ncsv\t2,1,15,5\n")


def a_scanned_field_out_of_order(document, blocks):
    """The name field as a scanned text whose skills but the first start in reverse order (a word given to another)."""
    names = [json.loads(row)[0].encode() for row in blocks[0].split(b"\n")]
    blocks[2] = b"\n".join(names)
    starts = [sum(len(name) + 1 for name in names[:n]) for n in range(len(names))]
    document["fields"][0] = {**document["fields"][0], "kind": "scanned", "starts": [0, *starts[:0:-1]]}


POSTINGS = {
    "a count not a number": forged_postings(b"csv\t2,x"),
    "a list where a count is": forged_postings(b"csv\t2,[1,2]"),
    "a skill past the last": forged_postings(b"csv\t99,1"),
    "a negative skill": forged_postings(b"csv\t-1,1"),
    "a negative count": forged_postings(b"csv\t2,-9"),
    "a count past the skill's words": forged_postings(b"csv\t2,99999"),
    "half a pair": forged_postings(b"csv\t2,1,3"),
    "a field not starting with a line break": lambda document, blocks: blocks.__setitem__(BODY, blocks[BODY][1:]),
    "a free number with a length": a_free_number_with_a_length,
    "a scanned field out of order": a_scanned_field_out_of_order,
}


ROWS = {
    "another shape": b'{"a":1}',
    "a root not among the roots": b'["csv-to-table","/etc","x",["data-parsing","name","csv"],"Parse CSV files"]',
    "a folder leaving its root": b'["csv-to-table","skills","../../root/.ssh",["data-parsing","name","csv"],"csv"]',
    "an absolute folder": b'["csv-to-table","skills","/etc",["data-parsing","name","csv"],"Parse CSV files"]',
}


def set_field_length(document):
    document["fields"][0]["lengths"][0] = 2**70


DOCUMENTS = {
    "a number at infinity": lambda document: document["numbers"].__setitem__(0, float("inf")),
    "a length past 64 bits": set_field_length,
    "brackets past json's depth": lambda document: b"[" * 100_000 + b"]" * 100_000,
    "a knob of another type": lambda document: document["tuning"].__setitem__("k1", "x"),
    "a knob not a number": lambda document: document["tuning"].__setitem__("k1", float("nan")),
    "a negative k1": lambda document: document["tuning"].__setitem__("k1", -0.5),
    "a b below 0": lambda document: document["tuning"].__setitem__("description_b", -0.01),
    "a b past 1": lambda document: document["tuning"].__setitem__("body_b", 1.01),
    "a name b past 1": lambda document: document["tuning"].__setitem__("name_b", 5),
    "a weight at infinity": lambda document: document["fields"][0].__setitem__("w", float("inf")),
    "a negative length": lambda document: document["fields"][1]["lengths"].__setitem__(0, -5),
}


def stored_examples(tmp_path):
    """A repository of the example skills whose search index `skillmem search` has stored: (folder, env)."""
    folder = tmp_path / "repo"
    make_git_dir(folder / ".git")
    shutil.copytree(EXAMPLES, folder / "skills")
    (folder / ".skillmem.yaml").write_text("roots: [skills]\n")
    backdate(folder)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    run(folder, env, "search", "csv")  # stores the index
    return folder, env


@pytest.fixture
def repo(tmp_path):
    return stored_examples(tmp_path)


def run(repo: Path, env: dict[str, str], *arguments: str, data: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*SKILLMEM, *arguments], cwd=repo, env=env, input=data, capture_output=True, timeout=60)


def stored(repo: Path) -> Path:
    return repo / ".git" / "skillmem-search.json"


def strict_json(text: bytes) -> object:
    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


SEARCHES = {
    "json": ("search", "parse", "csv", "files", "into", "tables"),
    "text": ("search", "--text", "parse", "csv", "files", "into", "tables"),
    "domain": ("search", "--domain", "data-parsing"),
}


@pytest.mark.parametrize("how", list(SEARCHES))
@pytest.mark.parametrize("row", list(ROWS))
def test_search_on_a_current_index_with_a_forged_row_answers_and_replaces_it(repo, how, row):
    folder, env = repo
    good = kept_unsealed(stored(folder))
    keep_sealed(stored(folder), forged_row(good, ROWS[row]))
    done = run(folder, env, *SEARCHES[how])
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert BEST.encode() in done.stdout and b"/etc" not in done.stdout and b".ssh" not in done.stdout
    if how != "text":
        strict_json(done.stdout)
    assert kept_unsealed(stored(folder)) == good  # the bad index replaced by a good one, built anew


@pytest.mark.parametrize("change", list(DOCUMENTS))
def test_search_on_an_index_whose_document_is_forged_answers_in_json_and_replaces_it(repo, change):
    folder, env = repo
    good = kept_unsealed(stored(folder))
    keep_sealed(stored(folder), forged_document(good, DOCUMENTS[change]))
    done = run(folder, env, "search", "parse", "csv", "files")
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert strict_json(done.stdout)["results"][0]["name"] == BEST  # type: ignore[index]
    assert kept_unsealed(stored(folder)) == good


@pytest.mark.parametrize("how", list(SEARCHES)[:2])
@pytest.mark.parametrize("forgery", list(POSTINGS))
def test_search_on_an_index_whose_postings_are_forged_answers_and_replaces_it(repo, how, forgery):
    folder, env = repo
    good = kept_unsealed(stored(folder))
    keep_sealed(stored(folder), forged_blocks(good, POSTINGS[forgery]))
    done = run(folder, env, *SEARCHES[how])
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    if how == "json":
        assert strict_json(done.stdout)["results"][0]["name"] == BEST  # type: ignore[index]
    else:
        assert done.stdout.split(b"\n")[0].split()[1] == BEST.encode(), done.stdout
    assert kept_unsealed(stored(folder)) == good  # the bad index replaced by a good one, built anew


FORGERIES = {
    **{f"row: {name}": (lambda data, row=row: forged_row(data, row)) for name, row in ROWS.items()},
    **{f"postings: {name}": (lambda data, forge=forge: forged_blocks(data, forge)) for name, forge in POSTINGS.items()},
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_the_route_hook_and_explain_refuse_a_forged_index_and_the_build_replaces_it(repo, forgery):
    folder, env = repo
    good = kept_unsealed(stored(folder))
    data = json.dumps({"prompt": PROMPT, "cwd": str(folder), "hook_event_name": "UserPromptSubmit"}).encode()
    hinted = run(folder, env, "route", data=data)
    assert BEST.encode() in hinted.stdout  # the good index names it
    keep_sealed(stored(folder), FORGERIES[forgery](good))
    marker = folder / ".git" / "skillmem-search.json.building"
    marker.touch()  # a build under way: none starts, so the forged index is still there for --explain
    hook = run(folder, env, "route", data=data)
    assert (hook.returncode, hook.stdout, hook.stderr) == (0, b"", b"")  # silent: no hint, no "ValueError"
    explain = run(folder, env, "route", "--explain", PROMPT)
    assert (explain.returncode, explain.stderr) == (0, b""), explain.stderr
    said = strict_json(explain.stdout)
    assert said["hint"] == [] and said["reason"].startswith("no current stored search index")  # type: ignore[index]
    text = run(folder, env, "route", "--explain", PROMPT, "--text")
    assert (text.returncode, text.stderr) == (0, b"") and b"/etc" not in text.stdout
    marker.unlink()
    run(folder, env, "route", data=data)  # starts the build, which reads every row of the current index

    deadline = time.monotonic() + 60
    while marker.exists() or kept_unsealed(stored(folder)) != good:
        assert time.monotonic() < deadline, "the forged index was never replaced"
        time.sleep(0.1)
    again = run(folder, env, "route", data=data)
    assert BEST.encode() in again.stdout and again.stderr == b""
