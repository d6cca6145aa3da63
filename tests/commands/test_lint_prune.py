"""The skill-lint hook's baseline prune (first3, newcomer-ad 17), and what hostile17 found in it, with the real git.

A commit that deletes a SKILL.md the baseline lists has the hook drop that path's entries and stop once. It
reads the baseline only when the commit itself deletes a SKILL.md (F1), never in a ref-range run (F3), writes
only where ``lint --fix`` writes (F2), and through a committed link onto the link's target (F4).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import skillmem_hook.commands.lint as lint_command
from skillmem_hook.hooks.lint import skill_lint

from ..helpers import isolate_git, run_cli, run_git, write_skill

UNKNOWN = "---\nname: {0}\ndescription: d\nversion: 1\n---\n"  # one SK105 finding each


@pytest.fixture
def committed(capsys, monkeypatch, tmp_path):
    """skills old, kept and earlier, each with one known finding in base.json; all committed with the real git."""
    isolate_git(monkeypatch, tmp_path)
    for name in ("old", "kept", "earlier"):
        write_skill(Path("skills"), name, UNKNOWN.format(name))
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    assert run_cli(capsys, "lint", "--write-baseline", "base.json").data["recorded"] == 3
    Path("README.md").write_text("# Skills\n")
    run_git("init", "-q", ".")
    run_git("add", "-A")
    run_git("commit", "-qm", "x")
    capsys.readouterr()
    return Path("base.json")


def commit_all(message: str) -> None:
    run_git("commit", "-qm", message)


@pytest.mark.parametrize("damage", ["{", None], ids=["damaged", "absent"])
def test_a_commit_that_deletes_no_skill_file_reads_no_baseline(capsys, committed, damage):
    # hostile17 F1: every commit read and resolved the whole baseline, so a damaged or absent one failed a
    # commit that touched no skill, and a baseline of deep paths stalled it for minutes.
    if damage is None:
        committed.unlink()
    else:
        committed.write_text(damage)
    run_git("add", "-A")
    commit_all("the baseline broken, without the hook")
    Path("README.md").write_text("# Skills, edited\n")
    Path("docs").mkdir()
    Path("docs/old.md").write_text("old\n")
    run_git("add", "-A")
    commit_all("docs")
    Path("README.md").write_text("# Skills, edited again\n")
    run_git("add", "README.md")
    assert skill_lint([]) == 0  # deletes nothing
    run_git("rm", "-q", "docs/old.md")
    assert skill_lint([]) == 0  # deletes a file, but no SKILL.md: no baseline entry can name it
    run_git("rm", "-rq", "skills/old")
    assert skill_lint([]) == 2  # deletes a SKILL.md: the baseline is read, and what is wrong with it said
    assert "the lint baseline 'base.json'" in capsys.readouterr().err


def test_only_the_deleted_skill_files_the_baseline_lists_are_looked_up(capsys, committed, monkeypatch):
    # hostile17 F1: each listed path was resolved, one lstat per step, before any deletion was looked for.
    run_git("rm", "-rq", "skills/earlier")
    commit_all("gone before: the hook was skipped")
    looked_up = []

    def recorded(boundary, path, walked=None):
        looked_up.append(os.path.relpath(path, boundary))
        return resolve_inside(boundary, path, walked)

    resolve_inside = lint_command.resolve_inside
    monkeypatch.setattr(lint_command, "resolve_inside", recorded)
    run_git("rm", "-rq", "skills/old")
    assert skill_lint([]) == 1
    assert looked_up == ["skills/old/SKILL.md"]  # not skills/earlier, gone too, nor skills/kept
    left = committed.read_text()
    assert "skills/old/" not in left and "skills/earlier/" in left and "skills/kept/" in left


def test_a_skill_file_the_commit_stops_tracking_but_keeps_on_disk_keeps_its_entries(committed):
    # `git rm --cached`: the file is still there, and `skillmem lint` by hand still finds its findings.
    before = committed.read_bytes()
    run_git("rm", "-rq", "--cached", "skills/old")
    assert skill_lint([]) == 0
    assert committed.read_bytes() == before


def test_a_renamed_skill_folder_is_no_deletion_and_its_known_findings_are_explained_not_pruned(capsys, committed):
    # review3: with renames not detected, `git mv` of a baselined skill was pruned as a deletion, and the failing
    # run's "a folder renamed brings its known findings back" could no longer be said.
    before = committed.read_bytes()
    run_git("mv", "skills/old", "skills/renamed")
    assert skill_lint([]) == 1  # the known finding is back under the new path: new, and said why
    err = capsys.readouterr().err
    assert "removed" not in err and "a folder renamed brings its known findings back" in err
    assert committed.read_bytes() == before


def test_a_ref_range_run_prunes_no_deletion_of_an_earlier_commit(capsys, committed, monkeypatch):
    # hostile17 F3: on pre-push (and `pre-commit run --from-ref --to-ref` in CI) a deletion made by an earlier
    # commit was pruned, the work tree's baseline rewritten and the run failed with advice about a commit.
    start = run_git("rev-parse", "HEAD").strip()
    before = committed.read_bytes()
    run_git("rm", "-rq", "skills/old")
    commit_all("drop old without the hook")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", start)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", run_git("rev-parse", "HEAD").strip())
    assert skill_lint([]) == 0
    assert committed.read_bytes() == before
    assert "removed" not in capsys.readouterr().err
    assert run_git("status", "--porcelain") == ""


@pytest.mark.parametrize(
    ("baseline", "layout", "reason"),
    [
        (".git/lint-baseline.json", None, "resolves to '{top}/.git/lint-baseline.json', inside the git directory"),
        (
            "g/lint-baseline.json",
            ("g", ".git"),
            "(through the symlink 'g' -> '.git') resolves to '{top}/.git/lint-baseline.json', inside the git directory",
        ),
        (
            "p/lint-baseline.json",
            ("p", "private"),
            "(through the symlink 'p' -> 'private') lands on 'private/lint-baseline.json', which git does not track",
        ),
    ],
    ids=["in-git-dir", "link-to-git-dir", "link-to-ignored"],
)
def test_the_prune_writes_only_where_lint_fix_writes(capsys, committed, baseline, layout, reason):
    # hostile17 F2: the prune rewrote a baseline inside .git, through a committed `g -> .git`, and through a link
    # onto an ignored folder, then advised a `git add` that git refuses.
    real = ".git/lint-baseline.json" if layout is None or layout[1] == ".git" else "private/lint-baseline.json"
    Path("private").mkdir()
    Path(".gitignore").write_text("private/\n")
    if layout is not None:
        os.symlink(layout[1], layout[0])
    os.replace(committed, real)
    Path(".skillmem.yaml").write_text(f"roots: [skills]\nlint: {{baseline: {baseline}}}\n")
    run_git("add", "-A")
    commit_all("the baseline moved")
    before = Path(real).read_bytes()
    run_git("rm", "-rq", "skills/old")
    assert skill_lint([]) == 0  # nothing written, nothing to stage: the entries match nothing, as before first3
    assert Path(real).read_bytes() == before
    err = capsys.readouterr().err
    top = os.getcwd()
    expected = (
        f"skill-lint: 1 finding of 1 deleted path not removed from the baseline (skills/old/SKILL.md): the lint"
        f" baseline '{baseline}' {reason.format(top=top)}; the hook writes only where git diff shows it\n"
    )
    assert expected in err


def test_a_baseline_that_is_a_committed_link_is_pruned_in_its_target_and_stays_a_link(capsys, committed):
    # hostile17 F4: the new file was renamed over the link, so the commit turned the link into a copy and the
    # target kept the deleted skill's entries.
    Path("meta").mkdir()
    os.replace(committed, "meta/base.json")
    os.symlink("meta/base.json", "base.json")
    run_git("add", "-A")
    commit_all("the baseline is a link")
    run_git("rm", "-rq", "skills/old")
    assert skill_lint([]) == 1
    assert os.readlink("base.json") == "meta/base.json"
    assert "skills/old/" not in Path("meta/base.json").read_text()
    assert "skills/kept/" in Path("meta/base.json").read_text()
    assert (
        "skill-lint: removed 1 finding of 1 deleted path from the baseline base.json -> meta/base.json"
        " (skills/old/SKILL.md): git add meta/base.json, then commit again\n"
    ) in capsys.readouterr().err
    run_git("add", "meta/base.json")  # as told: git takes it, and the link is unchanged
    assert run_git("status", "--porcelain").splitlines() == ["M  meta/base.json", "D  skills/old/SKILL.md"]
    assert skill_lint([]) == 0


def test_write_baseline_through_a_link_writes_its_target_and_keeps_the_link(capsys, committed):
    # hostile17 F4: --write-baseline, too, replaced the link by a regular file; both now write through it.
    Path("meta").mkdir()
    os.replace(committed, "meta/base.json")
    os.symlink("meta/base.json", "base.json")
    write_skill(Path("skills"), "new", UNKNOWN.format("new"))
    report = run_cli(capsys, "lint", "--write-baseline", "base.json").data
    assert (report["written"], report["recorded"]) == (True, 4)
    assert os.readlink("base.json") == "meta/base.json"
    assert "skills/new/SKILL.md" in Path("meta/base.json").read_text()


def test_a_baseline_git_ignores_is_pruned_and_the_commit_goes_on(capsys, committed):
    # tidy9: the hook asked to `git add` a baseline git ignores, which git refuses, and stopped the commit.
    Path(".gitignore").write_text("base.json\n")
    run_git("rm", "-q", "--cached", "base.json")
    run_git("add", ".gitignore")
    commit_all("the baseline is personal")
    run_git("rm", "-rq", "skills/old")
    assert skill_lint([]) == 0
    said = capsys.readouterr().err
    assert (
        "skill-lint: removed 1 finding of 1 deleted path from the baseline base.json (skills/old/SKILL.md):"
        " git ignores it, so there is nothing to stage\n" in said
    )
    # first5 (cn2 3): said once, plainly, what an ignored baseline means for everyone else.
    assert said.count("note: git ignores base.json (.gitignore:1:base.json): teammates and CI will not have it") == 1
    assert "skills/old/SKILL.md" not in committed.read_text() and "skills/kept/SKILL.md" in committed.read_text()
