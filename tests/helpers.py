"""Helpers shared by the tests: skill trees, CLI runs (a pseudo-terminal too), route hook processes, the docs."""

from __future__ import annotations

import configparser
import json
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from skillmem_hook.cli import main

BEGIN = b"<<<SKILL_INDEX_BEGIN>>>"
END = b"<<<SKILL_INDEX_END>>>"
REPO = Path(__file__).resolve().parent.parent


def docs_files() -> list[Path]:
    """The README, CONTRIBUTING.md and every page under docs/ (the notes too): what a user reads, and must not rot."""
    return [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").rglob("*.md"))]


def docs_text() -> str:
    """Every page of ``docs_files``, one after another, so a snippet or command is found wherever it moved."""
    return "\n\n".join(path.read_text(encoding="utf-8") for path in docs_files())


def skill_md(name: str | None = None, description: str | None = None, body: str = "") -> bytes:
    lines = ["---"]
    if name is not None:
        lines.append(f"name: {name}")
    if description is not None:
        lines.append(f"description: {description}")
    lines.append("---")
    return ("\n".join(lines) + "\n" + body).encode("utf-8")


def write_skill(root: Path, folder: str, content: bytes | str) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def seed_tree(root: Path) -> Path:
    """The tree of the issue's seed example."""
    write_skill(root, "alpha-tool", skill_md("alpha-tool", "Parse CSV and JSON files into tables"))
    write_skill(
        root,
        "crlf-skill",
        b"---\r\nname: crlf-skill\r\ndescription: Parse and convert XML, YAML and JSON data\r\n---\r\nbody\r\n",
    )
    write_skill(root, "beta-heading", "# Beta heading\n\nSome text.\n")
    return root


def two_roots_two_files(folder: Path) -> tuple[list[str], list[Path]]:
    """Skill 'a' in folder/one, 'b' in folder/two, and two prompt files: the arguments and the files."""
    write_skill(folder / "one", "a", skill_md("a"))
    write_skill(folder / "two", "b", skill_md("b"))
    files = [folder / "AGENTS.md", folder / "CLAUDE.md"]
    for path in files:
        path.write_text("x\n")
    args = ["--root", str(folder / "one"), "--root", str(folder / "two")]
    return [*args, "--prompt-file", str(files[0]), "--prompt-file", str(files[1])], files


# The head of the prompt file the CLI's tests write into: CRLF lines and a Latin-1 byte, kept byte for byte.
# newuser-3's B1: a valid Claude Code skill with Claude Code's own fields, which 0.4.1 called five errors and
# --fix broke (tests/lint/test_agent_fields.py, and end to end tests/e2e/test_lint_fields.py).
CLAUDE_CODE_SKILL = """---
name: deploy-prod
description: Deploy the app to production. Use when the user says ship it.
disable-model-invocation: true
argument-hint: "[environment]"
allowed-tools: Bash(git *) Read
model: claude-opus-4
user-invocable: true
context: fork
---
# Deploy
"""
PROMPT_HEAD = b"# My prompt\r\n\r\nHand-written \xe9 text (Latin-1 byte).\r\n"

SEED_BLOCK = (
    b"<<<SKILL_INDEX_BEGIN>>>\n[data-parsing]\nalpha-tool\ncrlf-skill\n[general]\nbeta-heading\n<<<SKILL_INDEX_END>>>"
)


class Run:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code = code
        self.out = out
        self.err = err

    @property
    def data(self) -> dict:
        lines = self.out.splitlines()
        assert len(lines) == 1, f"expected one JSON line on stdout, got {self.out!r}"
        return json.loads(lines[0])

    @property
    def error(self) -> dict:
        lines = self.err.splitlines()
        assert len(lines) == 1, f"expected one JSON line on stderr, got {self.err!r}"
        error = json.loads(lines[0])
        assert set(error) == {"tool", "error", "hint"}
        assert error["error"] and error["hint"]
        return error


def run_cli(capsys: pytest.CaptureFixture[str], *args: str | os.PathLike[str]) -> Run:
    capsys.readouterr()
    code = main([os.fspath(arg) for arg in args])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def not_json(text: str) -> bool:
    """Whether ``text`` is not a JSON document: what ``--text`` prints instead of one."""
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


def snapshot(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


NOBODY = 65534


def run_unprivileged(function, *args):
    """Call ``function(*args)`` as an ordinary user, even when the tests run as root.

    Root passes every permission check, so permission tests fork a child
    that drops to 'nobody' first. Returns the result, or re-raises the
    child's exception as (type name, message) in an AssertionError-free form.
    """
    if os.geteuid() != 0:
        return function(*args)
    import pickle

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read_end)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            outcome = ("ok", function(*args))
        except BaseException as error:  # noqa: BLE001 - everything goes back to the parent
            outcome = ("error", (type(error).__name__, getattr(error, "message", str(error))))
        with os.fdopen(write_end, "wb") as pipe:
            pickle.dump(outcome, pipe)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        kind, value = pickle.load(pipe)
    os.waitpid(pid, 0)
    if kind == "error":
        raise ChildError(*value)
    return value


class ChildError(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def open_to_everyone(path: Path) -> Path:
    """Let 'nobody' reach a test folder: every folder from / down to it gets o+x.

    Use it through the ``reachable_tmp_path`` fixture: pytest's own
    ``tmp_path`` lies under a folder that each new pytest session closes again.
    """
    for folder in [path, *path.parents]:
        mode = folder.stat().st_mode
        if not mode & 0o001:
            folder.chmod(mode | 0o001)
    return path


def spoil_kept_file(kept: Path, how: str, elsewhere: Path) -> bool:
    """Spoil a file kept in the user's cache as a stranger or an accident could: emptied, swapped for a link to
    ``elsewhere`` (which gets its bytes), or for a FIFO. False when ``how`` is none of these."""
    good = kept.read_bytes()
    if how == "empty":
        kept.write_bytes(b"")
    elif how == "a link":
        elsewhere.write_bytes(good)
        kept.unlink()
        kept.symlink_to(elsewhere)
    elif how == "a fifo":
        kept.unlink()
        os.mkfifo(kept)
    else:
        return False
    return True


def kept_unsealed(path: Path) -> bytes:
    """A kept file written whole (a search or route index, the vectors) without its seal's last line; ValueError
    unless it is sealed here."""
    from skillmem_hook.catalog.store.seal import read_sealed_file

    data, end = read_sealed_file(str(path), 1 << 30)
    return data[:end]


def keep_sealed(path: Path, data: bytes) -> None:
    """Write ``data`` at ``path`` as skillmem keeps a file, sealed to this place: what a forger on this machine
    (or on the machine an archive was made on) can write."""
    from skillmem_hook.catalog.store.seal import write_sealed_quietly

    write_sealed_quietly(str(path), data)
    assert path.is_file()


def appended(head: bytes, block: bytes, newline: bytes = b"\n") -> bytes:
    """A file that ends in a line break, with ``block`` appended as the first injection writes it."""
    from skillmem_hook.block.markers import DEFAULT_PREAMBLE

    return head + newline + DEFAULT_PREAMBLE.encode() + newline + newline + block.replace(b"\n", newline) + newline


def isolate_git(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """A git that reads no user or system configuration and no GIT_* variable of the caller, with an identity."""
    for key in ("GIT_AUTHOR", "GIT_COMMITTER"):
        monkeypatch.setenv(f"{key}_NAME", "Test")
        monkeypatch.setenv(f"{key}_EMAIL", "test@example.com")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / "gitconfig"))
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


def make_git_dir(path: Path) -> Path:
    """The least git takes for a git directory (its ``is_git_directory``: HEAD, objects, refs), without running git.

    skillmem keeps files only in a ``.git`` that passes that test (an empty ``mkdir .git`` keeps none).
    """
    for folder in ("objects", "refs"):
        (path / folder).mkdir(parents=True, exist_ok=True)
    (path / "HEAD").write_text("ref: refs/heads/main\n")
    return path


def run_git(*args: str) -> str:
    """git's output; the test fails with git's message when git does."""
    result = subprocess.run(["git", *args], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def root_above_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, credentials: str) -> Path:
    """F1's layout (fixh21, fixh22): ``roots: [../..]`` committed in ``home/src/repo``, whose ``evil/SKILL.md`` is a
    plain file for now, and ``home/.aws/credentials`` holding ``credentials``; git isolated, the current folder
    the repository."""
    isolate_git(monkeypatch, tmp_path)
    (tmp_path / "home" / ".aws").mkdir(parents=True)
    (tmp_path / "home" / ".aws" / "credentials").write_text(credentials)
    repo = tmp_path / "home" / "src" / "repo"
    (repo / "evil").mkdir(parents=True)
    (repo / "evil" / "SKILL.md").write_bytes(skill_md("evil", "Harmless at first"))
    (repo / ".skillmem.yaml").write_text("roots: [../..]\nprompt_files: [AGENTS.md]\n")
    (repo / "AGENTS.md").write_text("# Agents\n")
    monkeypatch.chdir(repo)
    _commit_all()
    return repo


def archive_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    """A committed repository ``tmp_path/un`` holding the ``pdf`` skill and ``files`` (path: text), as an unpacked
    archive would be; git isolated, the current folder the repository."""
    isolate_git(monkeypatch, tmp_path)
    repo = tmp_path / "un"
    repo.mkdir()
    monkeypatch.chdir(repo)
    write_skill(Path(".claude/skills"), "pdf", skill_md("pdf", "Merge PDF files"))
    for path, text in files.items():
        Path(path).write_text(text)
    _commit_all()
    return repo


def _commit_all() -> None:
    run_git("init", "-q", ".")
    run_git("add", "-A")
    run_git("commit", "-qm", "x")


def console_scripts() -> dict[str, str]:
    """setup.cfg's console scripts: each program's name and its ``module:function``."""
    setup = configparser.ConfigParser()
    setup.read(Path(__file__).resolve().parent.parent / "setup.cfg")
    lines = setup["options.entry_points"]["console_scripts"].strip().splitlines()
    return dict((name.strip(), target.strip()) for name, target in (line.split("=") for line in lines))


def backdate(*paths: Path) -> None:
    """Older than the racy window: a stored index is kept only for a disk that has settled."""
    past = time.time() - 60
    for top in paths:
        os.utime(top, (past, past))
        for folder, _, names in os.walk(top):
            for name in [".", *names]:
                os.utime(os.path.join(folder, name), (past, past))


def make_device_node(path: Path) -> None:
    """A real character device (the null device's numbers), or skip where the kernel refuses one."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("needs the right to create a device node")


def unshare_available() -> bool:
    """Whether this process may mount a file system of its own (root, and unshare works here)."""
    if os.geteuid() != 0:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    return probe.returncode == 0


SKILLMEM = [sys.executable, "-m", "skillmem_hook"]
TERMINAL = "terminal"  # on_terminal's stdin: the pseudo-terminal itself, as when a person types the command


class Terminal:
    """What a run printed: stdout as a terminal showed it (line ends as written), stderr, the exit code."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err


def on_terminal(
    *args: str,
    stdin: bytes | str | None = None,
    stderr_on_terminal: bool = False,
    env: dict[str, str] | None = None,
) -> Terminal:
    """Run ``skillmem *args`` with stdout on a pseudo-terminal; stderr to a pipe unless ``stderr_on_terminal``.

    ``stdin``: nothing (``/dev/null``), these bytes through a pipe, or ``TERMINAL``, the pseudo-terminal.
    """
    main_end, child = os.openpty()
    stderr = child if stderr_on_terminal else subprocess.PIPE
    given = child if stdin == TERMINAL else subprocess.DEVNULL if stdin is None else subprocess.PIPE
    process = subprocess.Popen([*SKILLMEM, *args], stdin=given, stdout=child, stderr=stderr, env=env)
    os.close(child)
    if process.stdin is not None:
        assert isinstance(stdin, bytes)
        process.stdin.write(stdin)
        process.stdin.close()
    shown = b""
    while True:
        try:
            data = os.read(main_end, 65536)
        except OSError:  # EIO: every end of the terminal the child held is closed
            break
        if not data:
            break
        shown += data
    os.close(main_end)
    err = process.stderr.read() if process.stderr else b""
    if process.stderr:
        process.stderr.close()
    code = process.wait(timeout=60)
    # The terminal turns each line end into CR LF (onlcr).
    return Terminal(code, shown.decode("utf-8").replace("\r\n", "\n"), err.decode("utf-8"))


ROUTE = [sys.executable, "-m", "skillmem_hook", "route"]


def route_input(prompt, cwd):
    return json.dumps({"prompt": prompt, "cwd": str(cwd), "hook_event_name": "UserPromptSubmit"}).encode()


def run_route(prompt, cwd, env, *flags, timeout=120):
    """One real ``skillmem route`` process on ``prompt`` typed in ``cwd``; the hook must always exit 0."""
    result = subprocess.run(
        [*ROUTE, *flags], input=route_input(prompt, cwd), capture_output=True, env=env, timeout=timeout
    )
    assert result.returncode == 0, result.stderr
    return result


def hint_of(result):
    """The line the route hook adds to the prompt, or "" when it printed nothing."""
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"] if result.stdout else ""


def stated(gates):
    """``ScoreRule.gates``' rows with each condition in the rule's own form, as ``route --explain``'s JSON holds it."""
    return [(way, str(condition), holds) for way, condition, holds in gates]


def fresh_settings(cwd):
    """What load_settings gives in ``cwd`` (in a child, so this process's cwd and modules stay as they are)."""
    code = (
        "import json, os, sys; os.chdir(sys.argv[1]); from skillmem_hook.config import load_settings;"
        "s = load_settings(); print(json.dumps({'config': s.config_path, 'roots': s.roots, 'exclude': s.exclude}))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(cwd)], capture_output=True, check=True).stdout
    return json.loads(out)


MCP_SERVER = [sys.executable, "-m", "skillmem_hook", "mcp"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


class RawClient:
    """JSON-RPC lines written to the server's stdin by hand, as a client with its own bugs would."""

    def __init__(self, repo, env=None):
        self.process = subprocess.Popen(
            MCP_SERVER,
            cwd=repo,
            env={**os.environ, **(env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.send(json.dumps(INITIALIZE).encode())
        assert self.answer()["id"] == 0
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line):
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def answer(self, seconds=30):
        """The next line the server writes; fails, rather than hang, when none comes."""
        lines = []
        reader = threading.Thread(target=lambda: lines.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(seconds)
        assert lines and lines[0], "the server gave no answer"
        return json.loads(lines[0])

    def call(self, number, tool, arguments):
        request = {
            "jsonrpc": "2.0",
            "id": number,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
        self.send(json.dumps(request).encode())
