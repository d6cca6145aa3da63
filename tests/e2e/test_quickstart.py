"""End-to-end: the README's quick start, run as written, passes its first commit (newuser-3's M1).

The commands are the README's first shell block, taken from the README
itself; only the placeholder of the checkout's path is filled in, with a
fresh clone of this repository. They run in one shell, in a new repository,
with a new virtualenv as ``~/.skillmem`` (HOME is the test's own). To keep
it fast, that virtualenv also sees the running interpreter's site-packages
(a ``.pth`` line): pre-commit and PyYAML are there already, so pip installs
only skillmem itself, from the clone. The first ``git commit`` then runs
the real pre-commit, which must fetch the hooks from the source init pinned.
"""

from __future__ import annotations

import os
import re
import site
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ..helpers import REPO, seed_tree
from .repos import run

pytestmark = pytest.mark.precommit

PLACEHOLDER = "/path/to/skillmem-hook"


def quick_start() -> str:
    """The README's first ``sh`` block, as written."""
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Quick start") :]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


def prepared_virtualenv(home: Path) -> None:
    """``~/.skillmem`` made ahead of the README's own ``python3 -m venv`` (which keeps it), seeing our packages."""
    venv = home / ".skillmem"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    found = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
        capture_output=True,
        text=True,
        check=True,
    )
    Path(found.stdout.strip(), "running-interpreter.pth").write_text("\n".join(site.getsitepackages()) + "\n")


def test_the_readmes_quick_start_runs_as_written_and_the_first_commit_passes(hook_repo, tmp_path):
    hook_root, rev, env = hook_repo
    block = quick_start()
    assert block.count(PLACEHOLDER) == 1
    checkout = tmp_path / "skillmem-hook"
    run(["git", "clone", "-q", str(hook_root), str(checkout)], tmp_path, env)  # a fresh clone, as a newcomer's
    home = tmp_path / "home"
    home.mkdir()
    prepared_virtualenv(home)
    user = tmp_path / "my-repository"
    user.mkdir()
    run(["git", "init", "-q", "-b", "main"], user, env)
    seed_tree(user / ".claude" / "skills")  # one of the seed's skills has a lint finding: the baseline holds it
    (user / "CLAUDE.md").write_text("# Claude\n")
    # pre-commit's script is beside the running interpreter; the new virtualenv's bin comes first once activated.
    path = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    shell_env = {**env, "HOME": str(home), "PATH": path}
    shell_env.pop("VIRTUAL_ENV", None)
    script = "set -e\n" + block.replace(PLACEHOLDER, str(checkout))
    result = subprocess.run(["bash", "-c", script], cwd=user, env=shell_env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "skill index (re-inject into prompt files)" in result.stdout + result.stderr
    log = run(["git", "log", "--format=%s"], user, env).stdout
    assert log == "Keep the skill index with skillmem\n"
    assert run(["git", "status", "--porcelain"], user, env).stdout == ""
    # Pinned to a source pre-commit could fetch: the clone's remote (this checkout's commit) at its HEAD.
    entry = yaml.safe_load((user / ".pre-commit-config.yaml").read_text())["repos"][0]
    assert (entry["repo"], entry["rev"]) == (str(hook_root), rev)
    assert entry["hooks"][2] == {"id": "skill-lint"}  # lint on every commit, from day one
    assert "<<<SKILL_INDEX_BEGIN>>>" in (user / "CLAUDE.md").read_text()
