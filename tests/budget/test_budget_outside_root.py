"""``budget`` reads each skill's file knowing who named its root (fixh22): below a root outside the work tree
that the repository names, a SKILL.md swapped for a link after the catalog was built is refused, as the walk
refuses it, not read as a skill the agents would list."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import root_above_repository

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
SECRET = "aws_secret_access_key = AKIA-SECRET-42"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    return root_above_repository(tmp_path, monkeypatch, f"---\nname: creds\ndescription: {SECRET}\n---\n")


# Budget in a real process, its evil/SKILL.md swapped for a link to the credentials right after its catalog is
# built (as a concurrent checkout would), and a spy on its reader that prints, last on stderr, whether it read them.
SWAPPED = r"""
import os, sys
import skillmem_hook.budget.fields as fields
import skillmem_hook.commands.budget as budget
from skillmem_hook.cli import main
secret = sys.argv[1].encode()
read = []
built, reader = budget.scan_roots, fields.read_skill_file
def build_then_swap(*args, **kwargs):
    catalog = built(*args, **kwargs)
    os.remove("evil/SKILL.md")
    os.symlink("../../../.aws/credentials", "evil/SKILL.md")
    return catalog
def spied(*args, **kwargs):
    data = reader(*args, **kwargs)
    read.append(secret in data)
    return data
budget.scan_roots, fields.read_skill_file = build_then_swap, spied
code = main(sys.argv[2:])
sys.stderr.write("\nopened %d\n" % sum(read))
sys.exit(code)
"""


def opened_credentials(repo, tmp_path, *args: str) -> bool:
    package = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package, os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-c", SWAPPED, SECRET, "budget", *args]
    result = subprocess.run(command, cwd=repo, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert SECRET not in result.stdout
    return result.stderr.rstrip().rsplit("\n", 1)[-1] != "opened 0"


def test_budget_does_not_read_a_link_swapped_in_after_the_catalog(repo, tmp_path):
    assert not opened_credentials(repo, tmp_path)


def test_a_root_the_user_names_follows_the_link_as_before(repo, tmp_path):
    assert opened_credentials(repo, tmp_path, "--root", "../..")
