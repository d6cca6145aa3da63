"""Which skills the lint hook lints: each skill that owns a changed path, found in git's index."""

from __future__ import annotations

import posixpath
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lint.changes import commit_changes, owning_folders, touched_skills

from ..helpers import isolate_git, skill_md, write_skill

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


@pytest.mark.parametrize(
    ("changed", "owners"),
    [
        # review2's C8: a nested skill's change is its own, not its parent's too.
        (["skills/a/b/SKILL.md"], {"skills/a/b"}),
        (["skills/a/b/scripts/run.sh", "skills/a/notes.md"], {"skills/a/b", "skills/a"}),
        (["skills/ab/x.md"], {""}),  # a folder, not a prefix of letters: the top's
        # The top-level skill (folder "") owns what no nearer one holds, its own SKILL.md too.
        (["README.md", "SKILL.md"], {""}),
        ([], set()),
    ],
)
def test_a_changed_path_is_owned_by_its_nearest_skill_folder(changed, owners):
    assert owning_folders(changed, {"", "skills/a", "skills/a/b"}) == owners


def test_without_a_top_level_skill_a_path_outside_every_skill_is_no_ones():
    assert owning_folders(["README.md", "skills/c/SKILL.md"], {"skills/a"}) == set()


def _nearest(path: str, folders: set[str]) -> str | None:
    """The rule read plainly: the longest of ``folders`` that is the path or a folder above it."""
    above = [held for held in folders if held in ("", path) or path.startswith(held + "/")]
    return max(above, key=len, default=None)


_PARTS = st.sampled_from(["a", "b", "ab"])
_FOLDERS = st.lists(_PARTS, max_size=3).map("/".join)
_PATHS = st.builds(posixpath.join, _FOLDERS, st.sampled_from(["SKILL.md", "x", "a"]))


@given(st.lists(_PATHS), st.sets(_FOLDERS))
def test_owning_folders_is_each_paths_nearest_skill_however_the_walks_share_folders(paths, folders):
    """The walk keeps each folder's answer for the paths after it (hostile15's F1): the same set as each path
    read alone."""
    assert owning_folders(paths, folders) == {_nearest(path, folders) for path in paths} - {None}


def test_the_commit_s_own_deletions_are_its_staged_ones_and_a_range_has_none(repo, monkeypatch, tmp_path):
    # hostile17 F3: under a ref range (pre-push, `pre-commit run --from-ref --to-ref`) the range's deletions were
    # taken for the commit's own, so the baseline prune rewrote the work tree's file for commits already made.
    isolate_git(monkeypatch, tmp_path)
    subprocess.run(["git", "commit", "-qm", "x"], check=True)
    start = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["git", "rm", "-rq", "skills/csv"], check=True)
    subprocess.run(["git", "commit", "-qm", "drop csv"], check=True)
    end = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["git", "mv", "skills/pdf/scripts/extract.py", "skills/pdf/scripts/pull.py"], check=True)
    Path("README.md").write_text("# repo, edited\n")
    subprocess.run(["git", "add", "README.md"], check=True)
    staged = commit_changes()
    assert staged is not None
    assert sorted(staged.paths) == ["README.md", "skills/pdf/scripts/extract.py", "skills/pdf/scripts/pull.py"]
    assert staged.deleted == []  # a staged rename lists both paths and deletes neither (review3)
    subprocess.run(["git", "rm", "-qf", "skills/pdf/scripts/pull.py"], check=True)
    staged = commit_changes()
    assert staged is not None and staged.deleted == ["skills/pdf/scripts/extract.py"]  # now gone from this commit
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", start)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", end)
    ranged = commit_changes()
    assert ranged is not None
    assert (ranged.paths, ranged.deleted) == (["skills/csv/SKILL.md"], [])


def _diffs_traced(trace: Path) -> list[str]:
    """The ``git diff`` commands git's own trace (GIT_TRACE) logged."""
    return [line for line in trace.read_text().splitlines() if "built-in: git diff" in line]


def test_renames_are_asked_of_git_only_for_a_commit_that_deletes_and_adds(repo, monkeypatch, tmp_path):
    # git pairs a rename only from a deleted and an added path; finding renames opens the attribute files, which
    # fixh31 looks at first: an ordinary commit asks one diff, without renames.
    isolate_git(monkeypatch, tmp_path)
    subprocess.run(["git", "commit", "-qm", "x"], check=True)
    trace = tmp_path / "trace.log"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    Path("README.md").write_text("# repo, edited\n")
    subprocess.run(["git", "add", "README.md"], check=True)
    trace.unlink()
    changes = commit_changes()
    assert changes is not None and changes.paths == ["README.md"]
    diffs = _diffs_traced(trace)
    assert len(diffs) == 1 and "--no-renames" in diffs[0]
    subprocess.run(["git", "mv", "skills/csv", "skills/tables"], check=True)
    trace.unlink()
    changes = commit_changes()
    assert changes is not None and changes.deleted == []
    assert sorted(changes.paths) == ["README.md", "skills/csv/SKILL.md", "skills/tables/SKILL.md"]
    finding = [("--find-renames" in line) for line in _diffs_traced(trace)]
    assert finding[0] is False and finding[-1] is True and finding.count(True) == 1  # between: the look's listing
