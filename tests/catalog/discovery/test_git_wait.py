"""A git that waits on a FIFO is ended (exit 2, the cause named); a git that is merely slow is not (hostile19's F2).

Each row puts a FIFO where git opens a file with a blocking ``open()`` and runs a command or hook in a process of
its own, as a user would: it must end with exit 2, soon, naming a FIFO, and leave no git behind.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillmem_hook.catalog.discovery import git_wait

from ...helpers import console_scripts, skill_md, write_skill
from ..git_repo import git

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here"),
    pytest.mark.usefixtures("git_identity"),
]
LIMIT = 60  # seconds: far past what a run takes here; a run that reaches it waited for good


def run(program: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The console script ``program`` run in a process of its own from the current folder (this checkout's code)."""
    module, function = console_scripts()[program].split(":")
    code = f"import sys; sys.argv[0] = {program!r}; from {module} import {function}; sys.exit({function}(sys.argv[1:]))"
    return run_python(code, *args, env=env)


def run_python(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Python running ``code``; past LIMIT, what still runs in this folder (a git left waiting) is ended too."""
    try:
        return subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=LIMIT, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        for pid in left_running(Path.cwd()):
            os.kill(int(pid), 9)
        raise


def renamed_and_staged(folder: Path) -> Path:
    """h19's setup: the block names ``alpha`` while ``alpha2`` is staged (a stale and a missing name)."""
    folder.mkdir()
    os.chdir(folder)
    git("init", "-q")
    write_skill(Path(".claude/skills"), "alpha", skill_md("alpha", "Alpha converts PDF files to text."))
    Path("AGENTS.md").write_text("# proj\n")
    Path(".skillmem.yaml").write_text("roots: [.claude/skills]\nprompt_files: [AGENTS.md]\n")
    assert run("skillmem", "inject").returncode == 0
    git("add", "-A")
    git("commit", "-qm", "init")
    git("mv", ".claude/skills/alpha", ".claude/skills/alpha2")
    Path(".claude/skills/alpha2/SKILL.md").write_bytes(skill_md("alpha2", "Alpha converts PDF files to text."))
    git("add", "-A")
    return folder


def _include_path() -> None:
    os.mkfifo("inc")
    git("config", "include.path", "../inc")


def _include_if() -> None:
    os.mkfifo("inc")
    git("config", "includeIf.gitdir:/.path", "../inc")


def _config_worktree() -> None:
    git("config", "extensions.worktreeConfig", "true")
    os.mkfifo(".git/config.worktree")


def _index() -> None:
    os.unlink(".git/index")
    os.mkfifo(".git/index")


def _packed_refs() -> None:
    git("pack-refs", "--all")
    Path(".git/packed-refs").unlink()
    os.mkfifo(".git/packed-refs")


def _in_git_dir(path: str, *config: str):
    def put() -> None:
        if config:
            git("config", *config)
        os.mkfifo(os.path.join(".git", path))

    return put


def _gitmodules() -> None:
    head = git("rev-parse", "HEAD").strip()
    git("update-index", "--add", "--cacheinfo", f"160000,{head},.claude/skills/sub")
    os.mkfifo(".gitmodules")


LINT = ("skillmem-lint-hook", ".claude/skills/alpha2/SKILL.md")
ROWS = {  # h19's F2 table: where the FIFO lies, and a command that blocked there
    "include.path, verify --tracked": (_include_path, ("skillmem", "verify", "--tracked")),
    "include.path, lint": (_include_path, ("skillmem", "lint")),
    "include.path, index hook": (_include_path, ("skillmem-index-hook",)),
    "include.path, verify hook": (_include_path, ("skillmem-verify-hook",)),
    "include.path, budget hook": (_include_path, ("skillmem-budget-hook",)),
    "includeIf": (_include_if, ("skillmem-index-hook",)),
    "config.worktree": (_config_worktree, ("skillmem-verify-hook",)),
    "index": (_index, ("skillmem-index-hook",)),
    "packed-refs": (_packed_refs, ("skillmem", "verify")),
    "alternates": (_in_git_dir("objects/info/alternates"), ("skillmem", "inject")),
    "grafts": (_in_git_dir("info/grafts"), LINT),
    "shallow": (_in_git_dir("shallow"), ("skillmem", "init", "--dry-run")),
    "sparse-checkout": (_in_git_dir("info/sparse-checkout", "core.sparseCheckout", "true"), ("skillmem", "verify")),
    ".gitmodules": (_gitmodules, LINT),
}


@pytest.mark.skipif(not git_wait.can_look(), reason="no /proc: the look before git covers these (tested below)")
@pytest.mark.parametrize("row", sorted(ROWS))
def test_a_fifo_git_opens_ends_the_run_with_exit_2_naming_it(tmp_path, row):
    put, command = ROWS[row]
    renamed_and_staged(tmp_path / "repo")
    put()
    started = time.monotonic()
    result = run(*command)
    took = time.monotonic() - started
    assert result.returncode == 2, (row, result.stdout, result.stderr)
    assert "git waited to open a FIFO" in result.stdout + result.stderr
    assert "find . -type p" in result.stdout + result.stderr
    assert took < LIMIT / 2, took
    assert not left_running(tmp_path)


def left_running(folder: Path) -> list[str]:
    """The processes (but this one) still running in ``folder`` or below (a git left waiting there, say)."""
    found: list[str] = []
    if not os.path.isdir("/proc"):
        return found
    for pid in [each for each in os.listdir("/proc") if each.isdigit() and each != str(os.getpid())]:
        try:
            if os.readlink(f"/proc/{pid}/cwd").startswith(str(folder)):
                found.append(pid)
        except OSError:
            continue
    return found


def test_a_slow_git_is_not_ended(tmp_path):
    """A git that takes well past the first look, waiting on no FIFO (a wrapper that sleeps), answers as always."""
    renamed_and_staged(tmp_path / "repo")
    wrappers = tmp_path / "bin"
    wrappers.mkdir()
    slow = wrappers / "git"
    slow.write_text(f'#!/bin/sh\nsleep {git_wait.LOOK_AFTER * 3}\nexec {shutil.which("git")} "$@"\n')
    slow.chmod(0o755)
    plain = run("skillmem", "verify")
    slowed = run("skillmem", "verify", env={**os.environ, "PATH": f"{wrappers}{os.pathsep}{os.environ['PATH']}"})
    assert (slowed.returncode, slowed.stdout) == (plain.returncode, plain.stdout)
    assert plain.returncode == 3  # the rename is told: git answered


def test_a_fifo_that_gets_a_writer_is_not_a_wait_for_good(tmp_path):
    """``waits_on_fifo`` reads the kernel's wait: a process blocked in open() of a FIFO is seen, one asleep is not."""
    os.mkfifo(tmp_path / "pipe")
    sleeper = subprocess.Popen(["sleep", "30"])
    reader = subprocess.Popen(
        ["sh", "-c", f"sleep 0; cat {tmp_path / 'pipe'}"], stdout=subprocess.DEVNULL, start_new_session=True
    )
    try:
        if not git_wait.can_look():
            pytest.skip("no /proc")
        deadline = time.monotonic() + 10
        while not git_wait.waits_on_fifo(reader.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert git_wait.waits_on_fifo(reader.pid)
        assert not git_wait.waits_on_fifo(sleeper.pid)
        with open(tmp_path / "pipe", "w"):  # a writer: the open ends, and so does the wait
            pass
        reader.wait(timeout=10)
    finally:
        sleeper.kill()
        git_wait.end_group(reader.pid)  # the shell and the cat it started
        sleeper.wait()
        reader.wait()


@pytest.mark.parametrize("row", ["include.path", "includeIf", ".gitmodules", "included twice"])
def test_without_proc_the_look_before_git_names_the_file(tmp_path, row):
    """Where /proc tells no wait (macOS), every git is preceded by a look at ``.gitmodules`` and the config's
    includes: run here with the watch off, a FIFO there is exit 2 naming it, before any git waits."""
    renamed_and_staged(tmp_path / "repo")
    if row == ".gitmodules":
        _gitmodules()
        named = ".gitmodules"
    elif row == "included twice":  # an include of an include
        Path("one").write_text("[include]\n\tpath = two\n")
        os.mkfifo("two")
        git("config", "include.path", "../one")
        named = "two"
    else:
        (_include_path if row == "include.path" else _include_if)()
        named = "inc"
    code = (
        "import sys; from skillmem_hook.catalog.discovery import git_wait; git_wait._FOUND[:] = [False]; "
        "from skillmem_hook.cli import main; sys.exit(main(['verify']))"
    )
    result = run_python(code)
    assert result.returncode == 2, result.stderr
    assert named in result.stderr and "a FIFO" in result.stderr
