"""Without a work tree (an unpacked archive, no .git), the folder holding the .skillmem.yaml bounds the roots it
names: ``roots: [../..]`` follows no link there (fixh20's rule held only in a work tree), and is said."""

from __future__ import annotations

import pytest

from skillmem_hook.catalog.discovery.walk import LINK_BELOW_NAMED_OUTSIDE
from skillmem_hook.catalog.listing import NAMED_OUTSIDE

from ...helpers import run_cli, skill_md, write_skill

SECRET = "aws_secret_access_key = AKIA-SECRET-42"


@pytest.fixture
def archive(tmp_path, monkeypatch):
    """``home/src/archive``: a .skillmem.yaml with ``roots: [../..]`` and ``evil/SKILL.md`` -> the credentials."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no repository above the test's folder
    (tmp_path / "home" / ".aws").mkdir(parents=True)
    (tmp_path / "home" / ".aws" / "credentials").write_text(f"[default]\n{SECRET}\n")
    folder = tmp_path / "home" / "src" / "archive"
    folder.mkdir(parents=True)
    (folder / ".skillmem.yaml").write_text("roots: [../..]\nprompt_files: [AGENTS.md]\n")
    (folder / "AGENTS.md").write_text("# Agents\n")
    (folder / "evil").mkdir()
    (folder / "evil" / "SKILL.md").symlink_to("../../../.aws/credentials")
    write_skill(tmp_path / "home" / "plain", "plain", skill_md("plain", "Plain deploy notes"))
    monkeypatch.chdir(folder)
    return folder


def test_no_link_is_followed_below_a_root_above_the_configuration(archive, capsys):
    read = run_cli(capsys, "read", "evil")
    assert read.code != 0
    assert SECRET not in read.out + read.err
    assert LINK_BELOW_NAMED_OUTSIDE in read.error["error"]
    found = run_cli(capsys, "search", "deploy", "notes")
    assert [hit["name"] for hit in found.data["results"]] == ["plain"]  # a plain file there is still read
    assert found.data["notices"] == [{"root": "../..", "notice": NAMED_OUTSIDE}]


def test_from_a_folder_below_the_configuration_the_same(archive, capsys, monkeypatch):
    (archive / "docs").mkdir()
    monkeypatch.chdir(archive / "docs")
    read = run_cli(capsys, "read", "evil")
    assert read.code != 0
    assert SECRET not in read.out + read.err


def test_a_root_the_user_names_follows_its_links(archive, capsys):
    read = run_cli(capsys, "read", "evil", "--root", "../..")
    assert read.code == 0
    assert SECRET in read.out


def test_a_root_inside_the_configurations_folder_follows_links_from_below_it(archive, capsys, monkeypatch):
    (archive / "skills" / "texts").mkdir(parents=True)  # a link inside the root: followed, inside a boundary
    (archive / "skills" / "texts" / "linked.md").write_bytes(skill_md("linked", "Linked release checklist"))
    (archive / "skills" / "linked").mkdir()
    (archive / "skills" / "linked" / "SKILL.md").symlink_to("../texts/linked.md")
    (archive / ".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    (archive / "docs").mkdir()
    monkeypatch.chdir(archive / "docs")
    found = run_cli(capsys, "search", "release", "checklist")
    assert [hit["name"] for hit in found.data["results"]] == ["linked"]
    assert "notices" not in found.data
