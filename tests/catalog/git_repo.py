"""A git repository of two committed skills, and git run in it: the catalog's tests of git's view build on these.

Run them under the ``git_identity`` fixture (``conftest.py``), so git has an
identity and reads no configuration of the machine's.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..helpers import skill_md, write_skill


def git(*args, cwd="."):
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def repository(path: Path = Path()) -> Path:
    git("init", "-q", str(path))
    write_skill(path / "skills", "alpha", skill_md("alpha", "Parse CSV files"))
    write_skill(path / "skills", "beta", skill_md("beta", "Deploy with Docker"))
    git("add", "-A", cwd=path)
    git("commit", "-q", "-m", "skills", cwd=path)
    return path
