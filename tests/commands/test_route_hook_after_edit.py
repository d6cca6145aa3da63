"""The route hook right after a skill changed: the stale search index patched in memory, a build's hint at once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ..helpers import backdate, make_git_dir, skill_md, write_skill

ROUTE = [sys.executable, "-m", "skillmem_hook", "route"]
SEARCH = [sys.executable, "-m", "skillmem_hook", "search", "--top", "1", "csv"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "skills"
PROMPT = (
    "please parse these csv and tsv files into clean tables, and detect the delimiters, the headers and the encodings"
    " of each file"
)


def route(repo: Path, env: dict[str, str]) -> bytes:
    data = json.dumps({"prompt": PROMPT, "cwd": str(repo), "hook_event_name": "UserPromptSubmit"}).encode()
    result = subprocess.run(ROUTE, input=data, capture_output=True, env=env, timeout=60, check=True)
    assert result.stderr == b"", result.stderr
    return result.stdout


def settled(repo: Path) -> None:
    """Until no build of the search index runs."""
    deadline = time.monotonic() + 60
    while (repo / ".git" / "skillmem-search.json.building").exists():
        assert time.monotonic() < deadline, "the background build never ended"
        time.sleep(0.1)


def test_right_after_an_edit_the_hint_is_a_fresh_builds_and_the_patch_is_not_stored(tmp_path):
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    shutil.copytree(EXAMPLES, repo / "skills")
    for number in range(20):  # the examples and unrelated notes: a collection where csv words are rare
        name = f"filler-{number:02d}"
        write_skill(repo / "skills", name, skill_md(name, f"Notes on topic {number}", f"Topic {number} notes."))
    (repo / ".skillmem.yaml").write_text("roots: [skills]\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    backdate(repo)
    subprocess.run(SEARCH, cwd=repo, env=env, capture_output=True, check=True)  # stores the index, settled
    before = route(repo, env)
    assert b"csv-to-table" in before
    stored = (repo / ".git" / "skillmem-search.json").read_bytes()

    # One skill edited now, inside the racy window: the stored index is stale and no build may store it yet.
    write_skill(
        repo / "skills",
        "log-parser",
        skill_md(
            "log-parser", "Parse CSV and TSV files into clean tables, detecting delimiters, headers and encodings."
        ),
    )
    patched = route(repo, env)
    explain = [*ROUTE, "--explain", PROMPT]  # says what the hook did: the hint of its patch
    said = json.loads(subprocess.run(explain, cwd=repo, env=env, capture_output=True, check=True).stdout)
    settled(repo)
    assert (repo / ".git" / "skillmem-search.json").read_bytes() == stored  # neither the hook nor the racy build

    # The same prompt over a fresh full build of the edited collection.
    (repo / ".git" / "skillmem-search.json").unlink()
    backdate(repo)
    subprocess.run(SEARCH, cwd=repo, env=env, capture_output=True, check=True)
    fresh = route(repo, env)
    assert fresh != before  # the edit changed the hint: the stale index's would be wrong
    assert patched == fresh
    line = json.loads(fresh)["hookSpecificOutput"]["additionalContext"]
    assert said["hint"] == ["csv-to-table", "log-parser"] and all(f'"{label}"' in line for label in said["hint"])
