"""skill-lint's error, said once a pre-commit run (``hooks/batches.py``): each run is a real process, as pre-commit
starts one per batch of files; the batches of one run are children of one process (here, the test's)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillmem_hook.hooks.batches import MARK_SECONDS, SAID_ABOVE

from ..helpers import skill_md, write_skill

ERROR = "skill-lint: the lint baseline '.lint/base.json' does not exist"
HOOK = "from skillmem_hook.hooks.lint import skill_lint; raise SystemExit(skill_lint())"


@pytest.fixture
def clone(env):
    """A repository whose .skillmem.yaml names a baseline that is not there, as a fresh clone has it."""
    subprocess.run(["git", "init", "-q"], check=True)
    write_skill(Path("skills"), "a", skill_md("a", "Does a"))
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: .lint/base.json}\n")
    subprocess.run(["git", "add", "-A"], check=True)
    return {**env, "PRE_COMMIT": "1"}


def batch(env: dict[str, str], *files: str, through_shell: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", HOOK, *files]
    if through_shell:  # another parent: another run
        command = ["sh", "-c", '"$@"; exit $?', "sh", *command]
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)


def test_the_batches_of_one_run_say_the_error_once(clone):
    first, second, third = batch(clone, "skills/a/SKILL.md"), batch(clone), batch(clone)
    assert [run.returncode for run in (first, second, third)] == [2, 2, 2]  # each batch still fails
    assert first.stderr.startswith(ERROR) and "write it again: skillmem lint --write-baseline" in first.stderr
    assert second.stderr == third.stderr == f"skill-lint: {SAID_ABOVE}\n"


def test_another_run_or_a_run_by_hand_says_it_all(clone):
    assert batch(clone).stderr.startswith(ERROR)
    assert batch(clone, through_shell=True).stderr.startswith(ERROR)  # another pre-commit run: another parent
    by_hand = {key: value for key, value in clone.items() if key != "PRE_COMMIT"}
    assert batch(by_hand).stderr.startswith(ERROR)
    assert batch(by_hand).stderr.startswith(ERROR)


def test_another_error_of_the_same_run_is_said(clone):
    assert batch(clone).stderr.startswith(ERROR)
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: other.json}\n")
    assert batch(clone).stderr.startswith("skill-lint: the lint baseline 'other.json' does not exist")


def test_a_mark_older_than_a_run_lasts_is_removed_and_the_error_said_again(clone):
    assert batch(clone).stderr.startswith(ERROR)
    said = Path(clone["XDG_CACHE_HOME"], "skillmem", "said")
    [mark] = said.iterdir()
    assert oct(said.stat().st_mode & 0o777) == "0o700"
    old = time.time() - MARK_SECONDS - 60
    os.utime(mark, (old, old))
    assert batch(clone).stderr.startswith(ERROR)
    assert [path.stat().st_mtime > old for path in said.iterdir()] == [True]  # the old mark went, a new one came
