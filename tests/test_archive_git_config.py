"""hostile12: an unpacked archive carries its own git directory, so its own ``config`` and ``index``.

``core.worktree`` there moves git's top above the folder holding ``.git`` (F1, F2): every read and write a
repository names would be confined to ``~`` or ``/``. The top is held to the folder holding ``.git``; a wider
one is refused (exit 2, the reason named) on every path: read, search, index, inject, lint, init, the route
hook and MCP. A top the user names in the environment (``GIT_DIR``, ``GIT_WORK_TREE``) is honoured. Real
archives, real git, real processes where a hook is concerned.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skillmem_hook.agents.library import SkillLibrary
from skillmem_hook.agents.route import RouteInputError
from skillmem_hook.catalog.discovery.git import GIT_ENVIRONMENT
from skillmem_hook.commands.route import route_hook_input
from skillmem_hook.errors import UsageError

from .helpers import isolate_git, run_cli, run_git, skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SECRET = "AKIA-SECRET-42"
KEY_LINE = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIattacker"
MOVED = "core.worktree"


def _archive(tmp_path: Path, layout: str, where: str) -> tuple[Path, Path]:
    """The h12 archive unpacked at ``home/src/repo``; ``layout``: a ``.git`` folder or ``gitdir: ./meta``;
    ``where``: core.worktree relative (to the git directory) or absolute. The home and the repository."""
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(f"[default]\naws_secret_access_key = {SECRET}\n")
    (home / ".ssh").mkdir()
    (home / ".ssh" / "authorized_keys").write_text("ssh-rsa AAAA-users-own user@host\n")
    repo = home / "src" / "repo"
    repo.mkdir(parents=True)
    os.chdir(repo)
    if layout == "gitdir":
        run_git("init", "-q", f"--separate-git-dir={repo / 'meta'}", ".")
        Path(".git").write_text("gitdir: ./meta\n")
        git_dir = repo / "meta"
    else:
        run_git("init", "-q", ".")
        git_dir = repo / ".git"
    run_git("config", "-f", str(git_dir / "config"), MOVED, "../../.." if where == "relative" else str(home))
    write_skill(Path(".claude/skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    Path("evil").mkdir()
    os.symlink("../../../.aws/credentials", "evil/SKILL.md")
    Path("AGENTS.md").write_text("# A\n")
    Path(".skillmem.yaml").write_text("roots: [../.., .claude/skills]\nprompt_files: [../../.ssh/authorized_keys]\n")
    run_git("add", "-f", "../../.aws/credentials", "../../.ssh/authorized_keys")  # the forged index
    assert Path(run_git("rev-parse", "--show-toplevel").strip()).resolve() == home.resolve()
    return home, repo


ARCHIVES = [(layout, where) for layout in ("dotgit", "gitdir") for where in ("relative", "absolute")]


@pytest.fixture(params=ARCHIVES, ids=["-".join(archive) for archive in ARCHIVES])
def archive(request, monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return _archive(tmp_path, *request.param)


def _refused(run) -> None:
    assert run.code == 2
    assert MOVED in run.error["error"]
    assert "folder holding its .git" in run.error["error"]
    assert SECRET not in run.out + run.err


@pytest.mark.parametrize(
    "command",
    [["read", "evil"], ["read", "pdf"], ["search", "evil"], ["index"], ["index", "--tracked"], ["lint"], ["budget"]],
)
def test_every_read_is_refused_naming_the_setting(capsys, archive, command):
    _refused(run_cli(capsys, *command))


def test_inject_and_init_write_nothing_outside(capsys, archive):
    home, repo = archive
    keys = home / ".ssh" / "authorized_keys"
    before = keys.read_bytes()
    _refused(run_cli(capsys, "inject", "--prompt-file", "AGENTS.md"))  # the user's own prompt file, same tree
    _refused(run_cli(capsys, "inject"))
    _refused(run_cli(capsys, "verify"))
    _refused(run_cli(capsys, "init", "--dry-run"))
    _refused(run_cli(capsys, "init"))
    assert keys.read_bytes() == before
    assert not (home / ".pre-commit-config.yaml").exists()
    assert not (repo / ".pre-commit-config.yaml").exists()


def test_the_route_hook_and_mcp_refuse(archive):
    prompt = json.dumps({"prompt": "please use the evil skill", "cwd": os.getcwd()}).encode()
    with pytest.raises(RouteInputError, match=MOVED):  # the hook's one-line reason, and no hint
        route_hook_input(prompt, [])
    with pytest.raises(UsageError, match=MOVED):
        SkillLibrary().read("evil")


def test_the_hooks_refuse_in_a_process(archive):
    for hook in ("skillmem-index-hook", "skillmem-lint-hook"):
        module = "skillmem_hook.hooks.index" if "index" in hook else "skillmem_hook.hooks.lint"
        function = "skill_index" if "index" in hook else "skill_lint"
        code = f"import sys; from {module} import {function}; sys.exit({function}(sys.argv[1:]))"
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        assert result.returncode == 2, (hook, result.stdout, result.stderr)
        assert MOVED in result.stdout + result.stderr
        assert SECRET not in result.stdout + result.stderr


def test_a_top_the_user_names_is_honoured(capsys, monkeypatch, tmp_path):
    """The user's GIT_DIR and GIT_WORK_TREE (docs/pre-commit.md) name the top: the check is not the user's."""
    isolate_git(monkeypatch, tmp_path)
    home, repo = _archive(tmp_path, "dotgit", "relative")
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(home))
    run = run_cli(capsys, "index", "--root", ".claude/skills")
    assert run.code == 0, run.err
    assert [skill["name"] for skill in run.data["skills"]] == ["pdf"]


def test_a_narrower_top_and_a_submodule_stay_served(capsys, monkeypatch, tmp_path):
    """core.worktree at the folder holding .git (a submodule's git directory sets it so) or below it is kept."""
    isolate_git(monkeypatch, tmp_path)
    inner = tmp_path / "lib"
    inner.mkdir()
    os.chdir(inner)
    run_git("init", "-q")
    write_skill(Path(".claude/skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    run_git("add", "-A")
    run_git("commit", "-q", "-m", "lib")
    outer = tmp_path / "app"
    outer.mkdir()
    os.chdir(outer)
    run_git("init", "-q")
    run_git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "lib")
    assert run_git("config", "-f", ".git/modules/lib/config", MOVED).strip()  # git set it
    os.chdir(outer / "lib")
    run = run_cli(capsys, "index")
    assert run.code == 0, run.err
    assert [skill["name"] for skill in run.data["skills"]] == ["pdf"]
    os.chdir(inner)
    run_git("config", MOVED, str(inner / ".claude"))  # narrower: inside the folder holding .git
    os.chdir(inner / ".claude")
    run = run_cli(capsys, "index", "--root", "skills")
    assert run.code == 0, run.err
    assert [skill["name"] for skill in run.data["skills"]] == ["pdf"]


def _missing_blob(tmp_path: Path, promisor: str | None) -> Path:
    """The h12 F3/F4 archive: its index names a SKILL.md by a blob the store lacks (``tracked: true``); with
    ``promisor``, its config makes it a partial clone whose fetch runs a command: over ssh
    (``core.sshCommand``) or a ``file://`` remote's ``uploadpack``. The marker file the command would write."""
    repo = tmp_path / "un"
    repo.mkdir()
    os.chdir(repo)
    run_git("init", "-q")
    write_skill(Path(".claude/skills"), "x", skill_md("x", "merge pdf files"))
    Path(".skillmem.yaml").write_text("tracked: true\n")
    run_git("add", "-A")
    run_git("commit", "-q", "-m", "x")
    marker = tmp_path / "ran"
    command = f"sh -c 'echo RAN >> {marker}'"
    if promisor is not None:
        run_git("config", "core.repositoryformatversion", "1")
        run_git("config", "extensions.partialClone", "origin")
        run_git("config", "remote.origin.promisor", "true")
        for protocol in ("ssh", "file", "ext"):  # the archive allows them all, as its config may
            run_git("config", f"protocol.{protocol}.allow", "always")
        if promisor == "ssh":
            run_git("config", "remote.origin.url", "ssh://example.invalid/x")
            run_git("config", "core.sshCommand", command)
        else:
            run_git("config", "remote.origin.url", f"file://{tmp_path / 'nowhere'}")
            run_git("config", "remote.origin.uploadpack", command)
    run_git("update-index", "--cacheinfo", f"100644,{'1234567890' * 4},.claude/skills/x/SKILL.md")
    return marker


@pytest.mark.parametrize("promisor", ["ssh", "file"])
@pytest.mark.parametrize("alone", ["both", "GIT_NO_LAZY_FETCH", "GIT_ALLOW_PROTOCOL"])
def test_a_promisor_in_the_archive_runs_nothing(capsys, monkeypatch, tmp_path, promisor, alone):
    """F3: a lazy fetch of the missing blob would run the archive's command; skillmem's git fetches nothing.

    Each of the two variables holds alone (``alone``: the other taken out): GIT_NO_LAZY_FETCH on a git that
    knows it (2.44, and the 2.39.4+ security releases), GIT_ALLOW_PROTOCOL on every git since 2.6.1."""
    isolate_git(monkeypatch, tmp_path)
    for name in list(GIT_ENVIRONMENT):
        if alone not in ("both", name):
            monkeypatch.delitem(GIT_ENVIRONMENT, name)
    marker = _missing_blob(tmp_path, promisor)
    result = subprocess.run(["git", "cat-file", "-p", "1234567890" * 4], capture_output=True, check=False)
    assert result.returncode != 0
    assert marker.exists(), "the layout is no attack: git itself ran nothing"
    marker.unlink()
    for command in (["read", "x"], ["search", "pdf"], ["index"], ["index", "--tracked"]):
        run = run_cli(capsys, *command)
        assert run.code == 2
        assert not marker.exists(), command
    prompt = json.dumps({"prompt": "merge two pdf files", "cwd": os.getcwd()}).encode()
    with pytest.raises(RouteInputError):
        route_hook_input(prompt, [])
    assert not marker.exists()


def test_a_missing_blob_is_named_never_a_bug(capsys, monkeypatch, tmp_path):
    """F4: a blob git's index names but the store lacks is the repository's, said with the file's path."""
    isolate_git(monkeypatch, tmp_path)
    _missing_blob(tmp_path, None)
    path = os.path.join(".claude", "skills", "x", "SKILL.md")
    for command in (["read", "x"], ["search", "pdf"], ["index"]):
        run = run_cli(capsys, *command)
        assert run.code == 2
        assert path in run.error["error"]
        assert "lacks" in run.error["error"]
        assert "bug" not in run.error["hint"]
    prompt = json.dumps({"prompt": "merge two pdf files", "cwd": os.getcwd()}).encode()
    with pytest.raises(RouteInputError, match="lacks"):
        route_hook_input(prompt, [])
    with pytest.raises(UsageError.__mro__[1], match="lacks"):  # SkillmemError: MCP's tool error
        SkillLibrary().search("pdf", 5)
