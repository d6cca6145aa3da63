"""Which skills the lint hook lints: each skill that owns a changed path, found in git's index."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from skillmem_hook.lint.changes import touched_skills

from ..helpers import skill_md, write_skill

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def repo():
    subprocess.run(["git", "init", "-q"], check=True)
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    write_skill(Path("skills"), "csv", skill_md("csv", "Parse CSV files"))
    (Path("skills") / "pdf" / "scripts").mkdir()
    (Path("skills") / "pdf" / "scripts" / "extract.py").write_text("print('pdf')\n")
    Path("README.md").write_text("# repo\n")
    subprocess.run(["git", "add", "-A"], check=True)


@pytest.mark.parametrize(
    ("changed", "linted"),
    [
        (["skills/pdf/SKILL.md"], ["skills/pdf/SKILL.md"]),
        # A changed script or reference can break what its SKILL.md says: that skill is linted too.
        (["skills/pdf/scripts/extract.py"], ["skills/pdf/SKILL.md"]),
        (["skills/pdf/scripts/gone.py", "skills/csv/notes.md"], ["skills/csv/SKILL.md", "skills/pdf/SKILL.md"]),
        (["README.md"], []),
    ],
)
def test_each_skill_owning_a_changed_path_is_linted_once(repo, changed, linted):
    touched = touched_skills(changed, ["skills"])
    assert touched.skill_files == linted
    assert touched.total == 2
