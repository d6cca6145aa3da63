from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from skillmem_hook.catalog.store import trust

from .helpers import PROMPT_HEAD, open_to_everyone, seed_tree

# Enough examples to mean something within CI's time (SKILLMEM_HYPOTHESIS_EXAMPLES
# raises it). In CI the examples are derandomised, so a red run is reproducible
# and never a roll of the dice; local runs keep exploring new examples.
settings.register_profile(
    "default",
    max_examples=int(os.environ.get("SKILLMEM_HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _in_tmp_cwd(tmp_path, monkeypatch):
    """Run each test from an empty folder, so no .skillmem.yaml or layout leaks in."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)


@pytest.fixture(autouse=True)
def _fresh_notes(monkeypatch):
    """Nothing said yet, stderr not silenced: an in-process route run silences it for good (``trust.keep_quiet``),
    and a note is said once a process, so an earlier test in the same worker hid a later test's note."""
    monkeypatch.setattr(trust, "_said", set())
    monkeypatch.setattr(trust, "_quiet", [False])


@pytest.fixture(autouse=True)
def _private_user_cache(tmp_path, monkeypatch):
    """The user's cache folder (search and route indexes) is the test's own, never the machine's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))


@pytest.fixture(autouse=True)
def _stderr_notes_said_afresh(monkeypatch):
    """The notes said once a process (a refused file or folder) are said again in each test: an in-process route
    hook run silences them for the rest of its process, and a test after it in that worker saw none."""
    monkeypatch.setattr(trust, "_quiet", [False])
    monkeypatch.setattr(trust, "_said", set())


@pytest.fixture
def tree(tmp_path):
    """The seed skills (``helpers.seed_tree``) in tmp_path/skills."""
    return seed_tree(tmp_path / "skills")


@pytest.fixture
def prompt(tmp_path):
    """tmp_path/AGENTS.md holding ``helpers.PROMPT_HEAD``, whose every byte a write must keep."""
    path = tmp_path / "AGENTS.md"
    path.write_bytes(PROMPT_HEAD)
    return path


@pytest.fixture
def seeded_cwd():
    """The seed skills in ./skills and ./AGENTS.md beside them, as ``--text`` names them; the root's arguments."""
    seed_tree(Path("skills"))
    Path("AGENTS.md").write_text("# Agents\n")
    return ["--root", "skills"]


@pytest.fixture
def env(tmp_path):
    """The environment of a child process (a route hook, say): this one's, with a user cache folder of the test's."""
    return {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg-cache")}


@pytest.fixture
def reachable_tmp_path():
    """A test folder that 'nobody' can reach, for the tests that drop to it (helpers.run_unprivileged).

    Not under ``tmp_path``: every pytest session that starts (another run on
    the same machine, CI's next job) makes pytest-of-<user> private again
    (mode 0o700), so a child that drops to 'nobody' could be shut out of the
    folder in the middle of a test and see "Permission denied" for a reason
    the test does not mean. A folder of its own in the temporary directory
    is left alone.
    """
    folder = Path(tempfile.mkdtemp(prefix="skillmem-test-"))
    try:
        yield open_to_everyone(folder)
    finally:
        shutil.rmtree(folder)
