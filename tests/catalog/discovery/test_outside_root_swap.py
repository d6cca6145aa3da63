"""``read`` re-checks a skill's file at read time knowing who named its root (fixh21): below a root outside
the work tree that the repository names, a SKILL.md swapped for a link after the catalog was built is refused,
as the walk refuses it; a root the user names keeps following a link inside it."""

from __future__ import annotations

import os
import shutil

import pytest

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.catalog.discovery.safe_read import read_skill_file
from skillmem_hook.catalog.discovery.walk import LINK_BELOW_NAMED_OUTSIDE
from skillmem_hook.errors import FileAccessError

from ...helpers import root_above_repository

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
SECRET = "aws_secret_access_key = AKIA-SECRET-42"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    return root_above_repository(tmp_path, monkeypatch, f"[default]\n{SECRET}\n")


def swap(repo):
    os.remove(repo / "evil" / "SKILL.md")
    (repo / "evil" / "SKILL.md").symlink_to("../../../.aws/credentials")


def test_mcp_refuses_a_link_swapped_in_after_the_catalog(repo):
    library = SkillLibrary(clock=lambda: 0.0)  # the catalog is built once and not checked again
    assert "Harmless" in library.read("evil")
    swap(repo)
    with pytest.raises(FileAccessError) as refused:
        library.read("evil")
    assert LINK_BELOW_NAMED_OUTSIDE in refused.value.message
    assert SECRET not in refused.value.message


def test_the_safe_reader_knows_who_named_the_root(repo):
    swap(repo)
    with pytest.raises(FileAccessError, match="no link is followed"):
        read_skill_file("../..", "src/repo/evil", user_root=False)
    assert SECRET.encode() in read_skill_file("../..", "src/repo/evil")  # --root ../..: the user's own root
