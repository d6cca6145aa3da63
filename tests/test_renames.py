"""A rename is told as one: a name that left the block and one that arrived, paired through git's HEAD."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.hooks.index import skill_index, skill_verify
from skillmem_hook.renames import renamed

from .helpers import isolate_git, run_cli, run_git, skill_md, write_skill

DB = "Run database migrations safely, one step at a time, with a rollback for each step"


@pytest.fixture
def repo(monkeypatch, tmp_path, capsys):
    """db-migrate, csv-tool and pdf-tool committed, with a current block in AGENTS.md."""
    isolate_git(monkeypatch, tmp_path / "home")
    run_git("init", "-q")
    # A real skill's body: a rename that also rewrites the description leaves most of the file as it was.
    body = "## Steps\n\n" + "".join(
        f"{step}. Step {step} of the migration, checked before the next.\n" for step in range(12)
    )
    write_skill(Path("skills"), "db-migrate", skill_md("db-migrate", DB, body))
    write_skill(Path("skills"), "csv-tool", skill_md("csv-tool", "Parse CSV files"))
    write_skill(Path("skills"), "pdf-tool", skill_md("pdf-tool", "Extract text from PDF files"))
    Path("AGENTS.md").write_bytes(b"# Agents\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    assert run_cli(capsys, "inject").code == 0
    run_git("add", "-A")
    run_git("commit", "-qm", "skills")


def rename_skill(old: str, new: str, *, move: bool = True, stage: bool = True, description: str | None = None) -> None:
    folder = Path("skills") / (new if move else old)
    if move:
        run_git("mv", f"skills/{old}", str(folder))
    text = (folder / "SKILL.md").read_text().replace(f"name: {old}", f"name: {new}")
    if description is not None:
        text = text.replace(DB, description)
    (folder / "SKILL.md").write_text(text)
    if stage:
        run_git("add", "-A")


def pairs(*, tracked: bool) -> list[tuple[str, str]]:
    catalog = scan_roots(["skills"], CatalogOptions(tracked=tracked))
    listed = {line for line in Path("AGENTS.md").read_text().splitlines()}
    labels = {skill.label for skill in catalog.skills}
    return renamed(
        sorted(listed & {"db-migrate", "csv-tool", "pdf-tool"} - labels), sorted(labels - listed), catalog, ["skills"]
    )


@pytest.mark.parametrize(
    "how",
    [
        {"move": True},  # git mv, and the name changed: git sees the file renamed
        {"move": True, "description": "Apply schema migrations"},  # the description changed too: still git's rename
        {"move": False},  # only the name changed, in the same folder
    ],
)
@pytest.mark.parametrize("tracked", [True, False])
def test_a_renamed_skill_is_paired_in_both_views(repo, how, tracked):
    rename_skill("db-migrate", "schema-migrations", **how)
    assert pairs(tracked=tracked) == [("db-migrate", "schema-migrations")]


def test_a_folder_moved_without_git_is_paired_by_its_description_in_the_disk_view(repo):
    shutil.move("skills/db-migrate", "skills/schema-migrations")
    text = Path("skills/schema-migrations/SKILL.md").read_text().replace("db-migrate", "schema-migrations")
    Path("skills/schema-migrations/SKILL.md").write_text(text + "\n## More\n\nA longer body now. " * 20)
    assert pairs(tracked=False) == [("db-migrate", "schema-migrations")]


def test_a_skill_removed_and_an_unrelated_one_added_are_no_rename(repo):
    run_git("rm", "-rq", "skills/db-migrate")
    write_skill(Path("skills"), "docker-deploy", skill_md("docker-deploy", "Deploy containers with Docker"))
    run_git("add", "-A")
    assert pairs(tracked=True) == pairs(tracked=False) == []


def test_two_arrivals_with_the_gone_skill_s_description_are_no_rename(repo):
    run_git("rm", "-rq", "skills/db-migrate")
    for name in ("migrate-a", "migrate-b"):
        write_skill(Path("skills"), name, skill_md(name, DB, "# " + name * 40 + "\n"))
    run_git("add", "-A")
    assert pairs(tracked=True) == []


def test_no_rename_outside_a_work_tree_or_before_the_first_commit(tmp_path, monkeypatch):
    isolate_git(monkeypatch, tmp_path / "home")
    write_skill(Path("skills"), "b", skill_md("b", "x"))
    catalog = scan_roots(["skills"], CatalogOptions(tracked=False))
    assert renamed(["a"], ["b"], catalog, ["skills"]) == []
    run_git("init", "-q")
    run_git("add", "-A")
    assert renamed(["a"], ["b"], scan_roots(["skills"], CatalogOptions(tracked=True)), ["skills"]) == []


@pytest.mark.parametrize(("hook", "verb"), [(skill_index, "was updated"), (skill_verify, "is out of date")])
def test_the_hooks_say_renamed_and_neither_added_nor_removed(repo, capsys, hook, verb):
    rename_skill("db-migrate", "schema-migrations")
    write_skill(Path("skills"), "docker-deploy", skill_md("docker-deploy", "Deploy containers with Docker"))
    run_git("add", "-A")
    assert hook([]) == 3
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(f"AGENTS.md: the skill index {verb}")
    assert lines[1] == "  renamed (1): db-migrate -> schema-migrations"
    assert lines[2] in ("  added (1): docker-deploy", "  missing from the block (1): docker-deploy")
    assert not any("db-migrate" in line or "schema-migrations" in line for line in lines[2:])


def test_verify_and_inject_add_renamed_and_keep_missing_and_stale_as_they_were(repo, capsys):
    rename_skill("db-migrate", "schema-migrations")
    run = run_cli(capsys, "verify")
    assert run.code == 3
    assert (run.data["missing"], run.data["stale"]) == (["schema-migrations"], ["db-migrate"])
    assert run.data["renamed"] == [{"from": "db-migrate", "to": "schema-migrations"}]
    assert run.data["files"][0]["renamed"] == run.data["renamed"]
    text = run_cli(capsys, "verify", "--text").out
    assert "  renamed (1): db-migrate -> schema-migrations\n" in text
    assert "missing from the block" not in text and "stale" not in text
    run = run_cli(capsys, "inject", "--text")
    assert run.out.splitlines()[1:2] == ["  renamed (1): db-migrate -> schema-migrations"]
    assert "added" not in run.out and "removed" not in run.out
    assert run_cli(capsys, "verify").data["renamed"] == []


def test_a_skill_with_a_frontmatter_over_64_kib_is_paired_as_the_catalog_reads_it(repo):
    # HEAD's copy is read as the catalog reads a tracked file (up to its 1 MiB frontmatter), not cut shorter.
    folder = Path("skills/db-migrate")
    text = (folder / "SKILL.md").read_text()
    notes = "n" * (70 * 1024)
    (folder / "SKILL.md").write_text(text.replace(f"description: {DB}\n", f"description: {DB}\nnotes: {notes}\n"))
    run_git("commit", "-qam", "long frontmatter")
    shutil.move("skills/db-migrate", "skills/schema-migrations")
    moved = Path("skills/schema-migrations/SKILL.md")
    moved.write_text(moved.read_text().replace("name: db-migrate", "name: schema-migrations") + "\n## More\n" * 40)
    assert pairs(tracked=False) == [("db-migrate", "schema-migrations")]


@pytest.mark.parametrize("variable", ["clean", "process"])
def test_the_disk_view_runs_no_filter_the_archive_names(repo, tmp_path, variable):
    """hostile13 F1: an unpacked archive's config names a filter its .gitattributes applies, and every file is
    stat-dirty, so git diff against the work tree would run the filter on each: the rename is read with every
    filter off (git's -c, read last), the bytes on disk compared, and the command never runs."""
    marker = tmp_path / "ran"
    Path(".gitattributes").write_text("* filter=x\nskills/** filter=a.b\n")
    run_git("add", ".gitattributes")
    run_git("commit", "-qm", "attributes")
    rename_skill("db-migrate", "schema-migrations", description="Apply schema changes in order, each reversible")
    for name in ("x", "a.b"):
        run_git("config", f"filter.{name}.{variable}", f"sh -c 'echo ran >> {marker}; cat'")
        run_git("config", f"filter.{name}.required", "true")
    later = 2_000_000_000
    for path in Path().rglob("*"):
        if ".git" not in path.parts and path.is_file():
            os.utime(path, (later, later))  # stat-dirty, as every file of an unpacked archive is
    assert pairs(tracked=False) == [("db-migrate", "schema-migrations")]
    assert pairs(tracked=True) == [("db-migrate", "schema-migrations")]
    assert not marker.exists()


def test_a_filter_name_git_s_c_cannot_carry_tells_no_rename(repo, tmp_path):
    marker = tmp_path / "ran"
    Path(".gitattributes").write_text("* filter=a=b\n")
    run_git("add", ".gitattributes")
    run_git("commit", "-qm", "attributes")
    rename_skill("db-migrate", "schema-migrations", description="Apply schema changes in order, each reversible")
    run_git("config", "filter.a=b.clean", f"sh -c 'echo ran >> {marker}; cat'")
    Path("skills/schema-migrations/SKILL.md").touch()
    assert pairs(tracked=False) == []
    assert not marker.exists()


def test_the_commits_renames_are_read_by_position_whatever_the_paths_are_called(tmp_path, monkeypatch):
    """git's -z output gives a status, then one path (two for a rename or a copy): a path that reads like a status
    ("R100") or a commit's header ("commit 0123abcd") is a path where it stands (``skills_renamed``, for read)."""
    from skillmem_hook.renames import _committed_moves

    isolate_git(monkeypatch, tmp_path / "home")
    monkeypatch.chdir(tmp_path)
    run_git("init", "-q")
    for folder in ("R100", "commit 0123abcd", "old"):
        write_skill(tmp_path, folder, skill_md(folder.split()[0].lower(), "A folder named oddly"))
    run_git("add", "-A")
    run_git("commit", "-qm", "first")
    run_git("mv", "old", "new")
    write_skill(tmp_path, "R100", skill_md("r100", "Changed"))
    Path("commit 0123abcd/SKILL.md").unlink()
    run_git("add", "-A")
    run_git("commit", "-qm", "second")
    head = run_git("rev-parse", "HEAD").strip()
    assert sorted(_committed_moves(["."])) == [
        ("R100/SKILL.md", "R100/SKILL.md", head),
        ("old/SKILL.md", "new/SKILL.md", head),
    ]
