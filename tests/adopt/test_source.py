"""Where init pins the hooks: from the dist-info pip wrote (PEP 610), with real git checkouts behind it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.adopt.source import SOURCE_URL, checkout_source, installed_source, source_from_direct_url

VERSION = "9.8.7"


def git(folder: Path, *args: str) -> str:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    return subprocess.run(
        ["git", "-C", str(folder), *identity, *args], capture_output=True, text=True, check=True
    ).stdout


def checkout(folder: Path) -> str:
    """A git checkout with one commit; its HEAD."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main")
    (folder / "setup.cfg").write_text("[metadata]\nname = skillmem-hook\n")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "one")
    return git(folder, "rev-parse", "HEAD").strip()


def dist_info(site: Path, direct_url: dict[str, object] | None, version: str = VERSION, suffix: str = "dist-info"):
    info = site / f"skillmem_hook-{version}.{suffix}"
    info.mkdir(parents=True)
    (info / ("PKG-INFO" if suffix == "egg-info" else "METADATA")).write_text(
        f"Metadata-Version: 2.1\nName: skillmem-hook\nVersion: {version}\n"
    )
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))


def test_a_registry_install_pins_the_releases_tag(tmp_path):
    dist_info(tmp_path / "site", None)
    source = installed_source(VERSION, [str(tmp_path / "site")])
    assert (source.repo, source.rev, source.notes) == (SOURCE_URL, f"v{VERSION}", [])


@pytest.mark.parametrize("editable", [True, False])
def test_a_checkout_with_no_remote_is_pinned_at_its_path_and_head(tmp_path, editable):
    head = checkout(tmp_path / "hooks")
    url = (tmp_path / "hooks").as_uri()
    dist_info(tmp_path / "site", {"url": url, "dir_info": {"editable": True} if editable else {}})
    source = installed_source(VERSION, [str(tmp_path / "site")])
    assert (source.repo, source.rev) == (str(tmp_path / "hooks"), head)
    assert len(source.notes) == 1
    assert "only this machine can fetch it" in source.notes[0]
    # newcomer-aa item 1: the re-pin a team needs, with the commit (--repo alone pins the unpublished tag)
    assert f"then: skillmem init --force --repo URL --rev {head})" in source.notes[0]


def test_a_clone_whose_head_is_on_its_remote_is_pinned_at_the_remote(tmp_path):
    head = checkout(tmp_path / "upstream")
    subprocess.run(["git", "clone", "-q", str(tmp_path / "upstream"), str(tmp_path / "clone")], check=True)
    source = checkout_source(str(tmp_path / "clone"), VERSION)
    assert (source.repo, source.rev) == (str(tmp_path / "upstream"), head)
    assert "origin/main holds it" in source.notes[0]
    # A remote that is a folder of this machine (a newcomer's clone of a clone): no clone elsewhere reaches it.
    assert "only this machine can fetch it there" in source.notes[0]
    assert "elsewhere" not in source.notes[0]
    assert f"then: skillmem init --force --repo URL --rev {head})" in source.notes[0]


def test_a_relative_remote_is_made_absolute(tmp_path):
    checkout(tmp_path / "upstream")
    subprocess.run(["git", "clone", "-q", str(tmp_path / "upstream"), str(tmp_path / "clone")], check=True)
    git(tmp_path / "clone", "remote", "set-url", "origin", "../upstream")
    assert checkout_source(str(tmp_path / "clone"), VERSION).repo == str(tmp_path / "upstream")


def test_a_commit_no_remote_holds_is_pinned_at_the_checkout(tmp_path):
    checkout(tmp_path / "upstream")
    subprocess.run(["git", "clone", "-q", str(tmp_path / "upstream"), str(tmp_path / "clone")], check=True)
    git(tmp_path / "clone", "commit", "-q", "--allow-empty", "-m", "not pushed")
    source = checkout_source(str(tmp_path / "clone"), VERSION)
    assert (source.repo, source.rev) == (str(tmp_path / "clone"), git(tmp_path / "clone", "rev-parse", "HEAD").strip())


def test_uncommitted_changes_are_warned_about(tmp_path):
    head = checkout(tmp_path / "hooks")
    (tmp_path / "hooks" / "setup.cfg").write_text("changed\n")
    source = checkout_source(str(tmp_path / "hooks"), VERSION)
    assert source.rev == head
    assert any("has uncommitted changes" in note and head[:12] in note for note in source.notes)


def test_a_remote_url_loses_its_credentials_and_a_gone_remote_is_not_used(tmp_path):
    head = checkout(tmp_path / "hooks")
    git(tmp_path / "hooks", "remote", "add", "origin", "https://me:s3cret-token@example.com/hooks.git")
    git(tmp_path / "hooks", "update-ref", "refs/remotes/origin/main", head)
    source = checkout_source(str(tmp_path / "hooks"), VERSION)
    assert source.repo == "https://example.com/hooks.git"
    assert "s3cret" not in " ".join(source.notes)
    assert "a clone elsewhere fetches it there" in source.notes[0]
    git(tmp_path / "hooks", "remote", "set-url", "origin", str(tmp_path / "deleted"))
    assert checkout_source(str(tmp_path / "hooks"), VERSION).repo == str(tmp_path / "hooks")


def test_a_folder_that_is_no_checkout_pins_the_tag_and_says_why(tmp_path):
    (tmp_path / "unpacked").mkdir()
    source = source_from_direct_url({"url": (tmp_path / "unpacked").as_uri(), "dir_info": {}}, VERSION)
    assert (source.repo, source.rev) == (SOURCE_URL, f"v{VERSION}")
    assert "not a git checkout" in source.notes[0]


def test_a_git_url_install_pins_the_commit_pip_recorded():
    direct = {"url": "https://github.com/me/fork.git", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}
    source = source_from_direct_url(direct, VERSION)
    assert (source.repo, source.rev, source.notes) == ("https://github.com/me/fork.git", "abc123", [])


def test_a_wheel_file_install_pins_the_tag_and_says_so(tmp_path):
    direct = {"url": (tmp_path / "x.whl").as_uri(), "archive_info": {}}
    source = source_from_direct_url(direct, VERSION)
    assert (source.repo, source.rev) == (SOURCE_URL, f"v{VERSION}")
    assert "not from a git checkout" in source.notes[0]


def test_an_egg_info_of_the_same_version_in_front_does_not_hide_the_install(tmp_path):
    # A checkout's own skillmem_hook.egg-info is on sys.path first when python runs from the checkout.
    head = checkout(tmp_path / "hooks")
    dist_info(tmp_path / "cwd", None, suffix="egg-info")
    dist_info(tmp_path / "site", {"url": (tmp_path / "hooks").as_uri(), "dir_info": {}})
    source = installed_source(VERSION, [str(tmp_path / "cwd"), str(tmp_path / "site")])
    assert source.rev == head
