"""The exclude files git opens, looked at before a git that reads them runs: nothing waits on a FIFO there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillmem_hook.catalog.discovery.excludes import git_reads_attributes, git_reads_excludes
from skillmem_hook.catalog.discovery.git import ignored_paths
from skillmem_hook.errors import ExcludeFileWouldWait

from ...helpers import skill_md, write_skill

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")
COMMIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]


@pytest.fixture
def repo(env):
    """A committed repository without a configuration (so every command asks git what it ignores)."""
    subprocess.run(["git", "init", "-q"], check=True)
    write_skill(Path(".claude/skills"), "ok", skill_md("ok", "a fine skill for things"))
    Path("AGENTS.md").write_text("# A\n")
    subprocess.run(["git", "add", "-A"], check=True)
    subprocess.run(COMMIT, check=True)
    return env


def skillmem(env, *arguments: str, program: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real command in a child, with a timeout: a broken look would have it wait forever. In a session of its
    own, ended whole at the timeout: SIGKILL reaches no git child, which would wait on the FIFO for good."""
    command = [*(program or [sys.executable, "-m", "skillmem_hook"]), *arguments]
    child = subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    return subprocess.CompletedProcess(command, child.returncode, out, err)


IGNORED = """
import json, sys
from skillmem_hook.catalog.discovery.git import ignored_paths
from skillmem_hook.errors import SkillmemError
try:
    print(json.dumps(sorted(ignored_paths(sys.argv[1:]))))
except SkillmemError as error:
    print(json.dumps({"class": type(error).__name__, "error": error.message}))
"""


def ignored_in_a_child(env, *paths: str) -> object:
    """``ignored_paths`` run in a child with a timeout (a broken look would hang this test run): the paths git
    ignores, or the error's class and message."""
    return json.loads(skillmem(env, "-c", IGNORED, *paths, program=[sys.executable]).stdout)


def refused_on(run: subprocess.CompletedProcess[str], path: str) -> bool:
    error = json.loads(run.stderr.splitlines()[-1]) if run.stderr.startswith("{") else {"error": run.stderr}
    return run.returncode == 2 and f"git reads {path} for its ignore rules" in error["error"] and "FIFO" in run.stderr


@pytest.mark.parametrize("command", [["budget", "--text"], ["init", "--no-install", "--dry-run"]])
def test_a_fifo_gitignore_is_refused_naming_it_where_git_would_wait(repo, command):
    """h16 F2: budget and init --dry-run waited forever inside the git they start (check-ignore, ls-files)."""
    os.mkfifo(".gitignore")
    run = skillmem(repo, *command)
    assert refused_on(run, os.path.abspath(".gitignore")), run.stderr


def test_a_fifo_gitignore_on_the_way_to_a_path_asked_about_is_refused(repo):
    os.makedirs("docs/deep")
    os.mkfifo("docs/.gitignore")
    assert ignored_in_a_child(repo, "AGENTS.md") == []  # its way passes the top folder alone
    refused = ignored_in_a_child(repo, "docs/deep/notes.md")
    assert refused["class"] == ExcludeFileWouldWait.__name__
    assert f"git reads {os.path.abspath('docs/.gitignore')} " in refused["error"]


def test_a_fifo_gitignore_deep_in_a_folder_init_walks_is_refused(repo):
    os.makedirs("skills/a/deep")
    write_skill(Path("skills"), "a", skill_md("a", "another fine skill"))
    os.mkfifo("skills/a/deep/.gitignore")
    assert refused_on(skillmem(repo, "init", "--no-install", "--dry-run"), os.path.abspath("skills/a/deep/.gitignore"))


def test_a_fifo_in_a_nested_repository_or_the_git_directory_is_not_walked(repo):
    os.makedirs("vendor/pack/.git")
    subprocess.run(["git", "init", "-q", "vendor/pack"], check=True)
    os.mkfifo("vendor/pack/.gitignore")  # git lists vendor/pack/ and does not enter it
    os.mkfifo(".git/.gitignore")
    assert skillmem(repo, "init", "--no-install", "--dry-run").returncode == 0


@pytest.mark.parametrize("where", ["info", "config"])
def test_a_fifo_the_git_directory_or_config_names_is_refused(repo, tmp_path, where):
    fifo = tmp_path / "rules"
    os.mkfifo(fifo)
    if where == "info":
        os.makedirs(".git/info", exist_ok=True)
        Path(".git/info/exclude").unlink(missing_ok=True)
        os.symlink(fifo, ".git/info/exclude")
        named = os.path.abspath(".git/info/exclude")
    else:
        subprocess.run(["git", "config", "core.excludesFile", str(fifo)], check=True)
        named = str(fifo)
    assert refused_on(skillmem(repo, "budget", "--text"), named)


def test_an_excludes_file_of_dev_stdin_is_refused_not_fed_skillmems_paths(repo):
    """check-ignore --stdin would read skillmem's list of paths as its rules and answer that nothing is ignored."""
    Path(".gitignore").write_text("CLAUDE.md\n")
    Path("CLAUDE.md").write_text("# mine\n")
    assert ignored_paths(["CLAUDE.md"]) == {"CLAUDE.md"}
    subprocess.run(["git", "config", "core.excludesFile", "/dev/stdin"], check=True)
    with pytest.raises(ExcludeFileWouldWait, match=r"/dev/stdin.* a stream of the git that reads it"):
        ignored_paths(["CLAUDE.md"])
    subprocess.run(["git", "config", "core.excludesFile", os.devnull], check=True)  # reads as empty: no wait
    assert ignored_paths(["CLAUDE.md"]) == {"CLAUDE.md"}


def test_regular_exclude_files_and_links_to_them_are_read_as_git_reads_them(repo, tmp_path):
    (tmp_path / "global").write_text("*.log\n")
    subprocess.run(["git", "config", "core.excludesFile", str(tmp_path / "global")], check=True)
    Path("rules").write_text("CLAUDE.md\n")
    os.symlink("rules", ".gitignore")  # git 2.32 and later read no linked .gitignore, older ones follow it
    os.makedirs("docs")
    Path("docs/.gitignore").write_text("*.tmp\n")
    assert ignored_paths(["a.log", "docs/x.tmp", "docs/x.md"]) == {"a.log", "docs/x.tmp"}
    assert skillmem(repo, "budget", "--text").returncode == 0


@pytest.mark.parametrize(
    ("arguments", "read"),
    [
        (["check-ignore", "-z", "--stdin"], ("", [], False)),
        (["-C", "top", "check-ignore", "-v", "-z", "--stdin"], ("top", [], False)),
        (
            ["-C", "t", "ls-files", "-z", "--others", "--exclude-standard", "--", ":(glob)**/x"],
            ("t", [":(glob)**/x"], True),
        ),
        (["--no-optional-locks", "-C", "t", "status", "--porcelain", "--", "a", "b"], ("t", ["a", "b"], True)),
        (["-c", "x=y", "status"], ("", [], True)),
        (["ls-files", "--stage", "-z", "--", "a"], None),  # the index alone: no exclude file
        (["ls-files", "--others", "--", "a"], None),  # without --exclude-standard git reads no rule
        (["rev-parse", "--git-path", "info/exclude"], None),
        (["config", "--get", "core.excludesFile"], None),
        (["-C", "t"], None),
        (["-C", "a", "-C", "b", "status"], ("a/b", [], True)),  # each -C from the one before, as git reads them
        (["-c", "-C", "status"], ("", [], True)),  # -c's value, whatever it looks like
        (["-C"], None),  # an option without its value: no command
    ],
)
def test_the_git_commands_that_read_the_exclude_files(arguments, read):
    assert git_reads_excludes(arguments) == read


def test_a_git_child_ends_with_skillmem_when_skillmem_is_terminated(tmp_path):
    """A git left waiting (on whatever) must not outlive a skillmem that is ended with SIGTERM."""
    fake = tmp_path / "bin"
    fake.mkdir()
    pid_file = tmp_path / "git.pid"
    (fake / "git").write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 120\n")
    (fake / "git").chmod(0o755)
    code = "from skillmem_hook.catalog.discovery.git import run_git; run_git(['rev-parse'])"
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not (pid_file.is_file() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    git = int(pid_file.read_text())
    try:
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) != 0
        deadline = time.monotonic() + 10
        while _alive(git) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(git)
    finally:  # a broken run leaves no fake git sleeping behind the test
        if _alive(git):
            os.kill(git, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie of init's: ended, not yet reaped
        with open(f"/proc/{pid}/stat") as status:
            return status.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return True


def test_a_fifo_in_a_separate_git_directorys_info_exclude_is_refused(env, tmp_path):
    """The git directory found from a ``.git`` file (``gitdir:``), as git finds it, without asking git."""
    subprocess.run(["git", "init", "-q", "--separate-git-dir", str(tmp_path / "store"), "."], check=True)
    (tmp_path / "store" / "info" / "exclude").unlink(missing_ok=True)
    os.mkfifo(tmp_path / "store" / "info" / "exclude")
    refused = ignored_in_a_child(env, "CLAUDE.md")
    assert refused["class"] == ExcludeFileWouldWait.__name__
    assert f"git reads {tmp_path / 'store' / 'info' / 'exclude'} " in refused["error"]


def hook(module: str, function: str) -> list[str]:
    """The real hook's entry point (setup.cfg's ``skillmem-<name>-hook``), as pre-commit runs it, with no files."""
    return [
        sys.executable,
        "-c",
        f"from skillmem_hook.hooks.{module} import {function}; raise SystemExit({function}())",
    ]


def refused_as_attributes(run: subprocess.CompletedProcess[str], path: str) -> bool:
    return run.returncode == 2 and f"git reads {path} for its attributes" in run.stderr and "FIFO" in run.stderr


@pytest.fixture
def renamed_skill(env):
    """A committed block naming 'alpha', whose skill was since renamed 'alpha2' with git mv (a stale and a missing
    name: verify and inject ask git diff -M which is which), as hostile18's F1 made it."""
    subprocess.run(["git", "init", "-q"], check=True)
    write_skill(Path(".claude/skills"), "alpha", skill_md("alpha", "Alpha converts PDF files to text, for PDFs"))
    Path("AGENTS.md").write_text("# A\n")
    Path(".skillmem.yaml").write_text("roots: [.claude/skills]\nprompt_files: [AGENTS.md]\n")
    assert skillmem(env, "inject").returncode == 0
    subprocess.run(["git", "add", "-A"], check=True)
    subprocess.run(COMMIT, check=True)
    subprocess.run(["git", "mv", ".claude/skills/alpha", ".claude/skills/alpha2"], check=True)
    skill = Path(".claude/skills/alpha2/SKILL.md")
    skill.write_text(skill.read_text().replace("name: alpha\n", "name: alpha2\n"))
    return env


@pytest.mark.parametrize(
    ("where", "command"),
    [
        (".gitattributes", "verify"),
        (".claude/skills/.gitattributes", "inject"),
        (".claude/skills/alpha2/.gitattributes", "verify"),
        (".git/info/attributes", "verify"),
        ("config", "inject"),
    ],
)
def test_a_fifo_attributes_file_a_work_tree_diff_opens_is_refused(renamed_skill, tmp_path, where, command):
    """hostile18 F1: git diff -M against the work tree opens .gitattributes on the way to each dirty file,
    info/attributes and core.attributesFile; a FIFO there had verify and inject wait until killed."""
    if where == "config":
        named = str(tmp_path / "attributes")
        os.mkfifo(named)
        subprocess.run(["git", "config", "core.attributesFile", named], check=True)
    else:
        Path(where).unlink(missing_ok=True)
        os.mkfifo(where)
        named = os.path.abspath(where)
    run = skillmem(renamed_skill, command)
    assert refused_as_attributes(run, named), run.stderr


def test_a_renamed_skill_is_still_told_when_the_attributes_files_are_plain(renamed_skill):
    Path(".gitattributes").write_text("*.md text\n")
    run = skillmem(renamed_skill, "verify")
    assert json.loads(run.stdout)["renamed"] == [{"from": "alpha", "to": "alpha2"}], run.stderr


def test_a_fifo_attributes_file_is_refused_by_init_which_runs_status_and_check_attr(renamed_skill):
    subprocess.run(COMMIT, check=True)
    os.mkfifo(".git/info/attributes")
    assert refused_as_attributes(
        skillmem(renamed_skill, "init", "--no-install", "--dry-run"), os.path.abspath(".git/info/attributes")
    )


def test_a_staged_rename_the_hooks_score_refuses_a_fifo_gitattributes_on_its_way(renamed_skill):
    """A diff --cached that finds renames scores each added and deleted file, reading its attributes: the
    skill-lint hook (the real hook program, as pre-commit runs it) refused, not left waiting."""
    subprocess.run(["git", "add", "-A"], check=True)
    os.mkfifo(".claude/.gitattributes")
    run = skillmem(renamed_skill, program=hook("lint", "skill_lint"))
    assert refused_as_attributes(run, os.path.abspath(".claude/.gitattributes")), run.stderr


@pytest.mark.parametrize("dot_git", ["empty folder", "file of other text", "gitdir naming no repository"])
def test_a_fifo_gitignore_beside_a_dot_git_that_is_no_repository_is_refused(repo, dot_git):
    """hostile18 F2: git walks into a folder whose .git is no repository, and the look skipped it."""
    os.makedirs("vendor/pack")
    if dot_git == "empty folder":
        os.makedirs("vendor/pack/.git")
    elif dot_git == "file of other text":
        Path("vendor/pack/.git").write_text("not a gitdir line\n")
    else:
        Path("vendor/pack/.git").write_text("gitdir: ../nowhere\n")
    os.mkfifo("vendor/pack/.gitignore")
    run = skillmem(repo, "init", "--no-install", "--dry-run")
    assert refused_on(run, os.path.abspath("vendor/pack/.gitignore")), run.stderr


def test_a_fifo_beside_a_gitdir_file_naming_a_repository_is_not_walked(repo, tmp_path):
    """A submodule's layout: its .git file names a git directory, and git lists the folder without entering."""
    subprocess.run(["git", "init", "-q", "--separate-git-dir", str(tmp_path / "store"), "vendor/pack"], check=True)
    os.mkfifo("vendor/pack/.gitignore")
    assert skillmem(repo, "init", "--no-install", "--dry-run").returncode == 0


def test_the_skill_index_hook_refuses_a_fifo_below_a_bogus_dot_git_in_a_repository_without_configuration(env):
    """The first-setup hint's walk (no .skillmem.yaml, no common layout): each commit waited there for good."""
    subprocess.run(["git", "init", "-q"], check=True)
    write_skill(Path("docs/skills"), "alpha", skill_md("alpha", "Alpha converts PDF files to text, for PDFs"))
    Path("AGENTS.md").write_text("hi\n")
    subprocess.run(["git", "add", "-A"], check=True)
    subprocess.run(COMMIT, check=True)
    os.makedirs("vendor/pack/.git")
    os.mkfifo("vendor/pack/.gitignore")
    run = skillmem(env, program=hook("index", "skill_index"))
    assert run.returncode == 2, run.stderr
    assert f"git reads {os.path.abspath('vendor/pack/.gitignore')} for its ignore rules" in run.stderr


@pytest.mark.parametrize(
    ("arguments", "read"),
    [
        (["diff", "-M", "HEAD", "--", "r"], ("", ["r"], "walk")),
        (["diff", "--cached", "-M", "HEAD", "--", "r"], ("", ["r"], "changed")),
        (["diff", "--cached", "--no-renames", "--name-only", "HEAD"], None),
        (["diff", "--no-renames", "--name-status", "a...b"], None),
        (["diff", "--name-status", "a", "b"], ("", [], "changed")),
        (["-C", "t", "check-attr", "-z", "merge", "--", "x"], ("t", ["x"], "paths")),
        (["ls-files", "--stage", "--", "x"], None),
        (["-C", "a", "--no-pager", "-C", "b", "diff", "--", "x"], ("a/b", ["x"], "walk")),
        (["-c", "-C", "check-attr", "merge", "--", "x"], ("", ["x"], "paths")),
        (["-c"], None),
    ],
)
def test_which_git_command_lines_read_attributes(arguments, read):
    assert git_reads_attributes(arguments) == read


def test_a_fifo_gitattributes_deep_in_a_folder_init_walks_is_refused(renamed_skill):
    """git status reads the attributes of each stat-dirty file it walks past: the one walk looks for both files."""
    subprocess.run(COMMIT, check=True)
    os.makedirs(".claude/skills/alpha2/deep")
    os.mkfifo(".claude/skills/alpha2/deep/.gitattributes")
    run = skillmem(renamed_skill, "init", "--no-install", "--dry-run")
    assert refused_as_attributes(run, os.path.abspath(".claude/skills/alpha2/deep/.gitattributes")), run.stderr


CHECK_ATTR = """
import sys
from skillmem_hook.catalog.discovery.git import run_git
from skillmem_hook.errors import SkillmemError
try:
    print(run_git(["check-attr", "-z", "merge", "--", sys.argv[1]])[0])
except SkillmemError as error:
    print(error.message)
"""


def test_a_fifo_gitattributes_on_the_way_to_a_path_check_attr_asks_about_is_refused(repo):
    """init's git check-attr (merge_setup) for a prompt file: each folder's .gitattributes on the way is opened."""
    os.makedirs("docs/deep")
    os.mkfifo("docs/.gitattributes")
    assert skillmem(repo, "-c", CHECK_ATTR, "AGENTS.md", program=[sys.executable]).stdout == "0\n"
    run = skillmem(repo, "-c", CHECK_ATTR, "docs/deep/AGENTS.md", program=[sys.executable])
    assert f"git reads {os.path.abspath('docs/.gitattributes')} for its attributes" in run.stdout
