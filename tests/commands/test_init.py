"""``skillmem init`` in-process, with the real git: what it finds, writes, keeps, and a second run's nothing.

The end-to-end runs (the real pre-commit and a first commit, on the shared
collections too) are in tests/e2e/test_init.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from skillmem_hook import __version__
from skillmem_hook.adopt.attributes import driver_command
from skillmem_hook.adopt.source import SOURCE_URL, installed_source

from ..helpers import SEED_BLOCK, run_cli, seed_tree, skill_md, write_skill


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def tree_state(top: Path) -> dict[str, bytes]:
    """Every file's bytes, .git/config included, so a run that changes nothing is seen to change nothing."""
    files = {str(path.relative_to(top)): path.read_bytes() for path in top.rglob("*") if path.is_file()}
    return {path: data for path, data in files.items() if not path.startswith(".git/") or path == ".git/config"}


@pytest.fixture
def repo():
    git("init", "-q")
    seed_tree(Path("skills"))
    return Path.cwd()


def init(capsys, *args):
    return run_cli(capsys, "init", "--no-install", *args)


def test_a_fresh_repository_gets_every_file_and_the_block(repo, capsys):
    run = init(capsys)
    assert run.code == 0, run.err
    assert run.data["roots"] == ["skills"]
    assert run.data["prompt_files"] == ["AGENTS.md"]
    assert {item["path"]: item["action"] for item in run.data["files"]} == {
        ".skillmem.yaml": "created",
        ".skillmem-lint-baseline.json": "created",  # the seed's beta-heading has no frontmatter
        ".pre-commit-config.yaml": "created",
        ".gitattributes": "created",
        "AGENTS.md": "created",
    }
    assert yaml.safe_load(Path(".skillmem.yaml").read_text()) == {
        "roots": ["skills"],
        "prompt_files": ["AGENTS.md"],
        "lint": {"baseline": ".skillmem-lint-baseline.json"},
    }
    entry = yaml.safe_load(Path(".pre-commit-config.yaml").read_text())["repos"][0]
    # Pinned to what this skillmem was installed from (tests/adopt/test_source.py covers each way).
    installed = installed_source(__version__)
    assert (entry["repo"], entry["rev"]) == (installed.repo, installed.rev)
    assert Path(".gitattributes").read_text() == "/AGENTS.md merge=skillmem\n"
    assert SEED_BLOCK in Path("AGENTS.md").read_bytes()
    assert git("config", "--get", "merge.skillmem.driver").strip() == driver_command(sys.executable)
    assert run.data["next"].startswith(
        "git add .skillmem.yaml .skillmem-lint-baseline.json .pre-commit-config.yaml .gitattributes AGENTS.md skills"
    )
    assert run.data["hooks_installed"] == "skipped (--no-install)"
    assert [note for note in run.data["notes"] if note in installed.notes] == installed.notes  # the pin's source
    assert any(note.startswith("error: skills/beta-heading/SKILL.md:1:1: SK101 ") for note in run.data["notes"])


def test_a_second_run_changes_nothing(repo, capsys):
    first = init(capsys)
    before = tree_state(repo)
    run = init(capsys)
    assert run.code == 0
    assert {item["action"] for item in run.data["files"]} == {"unchanged"}
    assert run.data["next"] == first.data["next"]  # nothing committed yet: the commit is still the step left
    # the baseline it names is kept as it is, and listed so: the next line, which names it, names nothing unlisted
    assert run.data["kept"] == [".skillmem.yaml", ".skillmem-lint-baseline.json"]
    assert "  kept .skillmem-lint-baseline.json as it is (init never rewrites it)" in init(capsys, "--text").out
    assert run.data["git_config"] == []
    assert tree_state(repo) == before
    commit_everything()
    assert init(capsys).data["next"] == "nothing: every file was already in place"  # not a commit with nothing in it


def commit_everything() -> None:
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--no-verify", "-m", "adopt")


@pytest.mark.parametrize("left", ["untracked", "staged", "modified"])
def test_a_second_run_before_the_commit_says_the_first_runs_line(repo, capsys, monkeypatch, left):
    """adopt4: from the top after a first run from docs/ (`?? .skillmem.yaml`, `M CLAUDE.md`), init said "next:
    nothing: every file was already in place", and a newcomer took adoption as done."""
    Path("docs").mkdir()
    git("config", "status.showUntrackedFiles", "no")  # git status's own view hides untracked files: init's must not
    git("add", "skills")
    monkeypatch.chdir("docs")
    first = init(capsys).data["next"]
    monkeypatch.chdir("..")
    if left != "untracked":  # all but one of init's files committed: the one left is said
        commit_everything()
        Path(".gitattributes").write_text(Path(".gitattributes").read_text() + "*.png binary\n")
        if left == "staged":
            git("add", ".gitattributes")
    else:
        assert first.startswith("git add ../.skillmem.yaml ../.skillmem-lint-baseline.json")
    run = init(capsys)
    assert {item["action"] for item in run.data["files"]} == {"unchanged"}
    if left == "untracked":
        assert run.data["next"] == first.replace("../", "")  # the same line, from the top
    else:  # only what is left to add: not the files committed, nor the root of committed skills
        assert run.data["next"] == "git add .gitattributes && git commit -m 'Keep the skill index with skillmem'"
    subprocess.run(
        ["bash", "-c", run.data["next"].replace("git commit", "git -c user.name=t -c user.email=t@e commit")]
    )
    assert init(capsys).data["next"] == "nothing: every file was already in place"


def test_the_next_line_names_only_what_is_left_to_add(repo, capsys):
    """Newcomer W: a second run named the skills root committed long before, and a baseline it had not written."""
    git("add", "skills")
    commit_everything()  # the skills are committed before init
    dry = init(capsys, "--dry-run")  # what a run would write is named, though nothing is written yet
    run = init(capsys)
    assert dry.data["next"] == run.data["next"]
    assert run.data["next"].startswith(
        "git add .skillmem.yaml .skillmem-lint-baseline.json .pre-commit-config.yaml .gitattributes AGENTS.md &&"
    )
    git("add", ".skillmem.yaml", ".skillmem-lint-baseline.json", "AGENTS.md")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--no-verify", "-m", "part")
    again = init(capsys)
    assert again.data["kept"] == [".skillmem.yaml", ".skillmem-lint-baseline.json"]
    assert again.data["next"].startswith("git add .pre-commit-config.yaml .gitattributes &&")
    skill = Path("skills/alpha-tool/SKILL.md")
    skill.write_bytes(skill.read_bytes() + b"more\n")  # a skill edited since is left to add too
    assert init(capsys).data["next"].startswith("git add .pre-commit-config.yaml .gitattributes skills &&")


def test_a_dry_run_lists_every_file_and_writes_none(repo, capsys):
    before = tree_state(repo)
    run = init(capsys, "--dry-run")
    assert run.code == 0
    assert run.data["dry_run"] is True
    assert [item["path"] for item in run.data["files"]] == [
        ".skillmem.yaml",
        ".skillmem-lint-baseline.json",
        ".pre-commit-config.yaml",
        ".gitattributes",
        "AGENTS.md",
    ]
    assert run.data["git_config"] == ["merge.skillmem.name", "merge.skillmem.driver"]
    assert tree_state(repo) == before


def test_repo_and_rev_set_the_hook_source(repo, capsys):
    run = init(capsys, "--repo", "https://example.com/fork.git", "--rev", "0123abc")
    entry = yaml.safe_load(Path(".pre-commit-config.yaml").read_text())["repos"][0]
    assert (entry["repo"], entry["rev"]) == ("https://example.com/fork.git", "0123abc")
    assert not any("pinned" in note for note in run.data["notes"])  # a rev given is the user's: nothing to say


def test_an_existing_configuration_is_kept_and_used_even_forced(repo, capsys):
    write_skill(Path("tools"), "zeta", skill_md("zeta", "z"))
    Path(".skillmem.yaml").write_text("# mine\nroots: [tools]\nprompt_files: [CLAUDE.md]\n")
    Path("CLAUDE.md").write_text("# Claude\n")
    run = init(capsys)
    assert run.data["kept"] == [".skillmem.yaml"]
    assert (run.data["roots"], run.data["prompt_files"]) == (["tools"], ["CLAUDE.md"])
    assert Path(".skillmem.yaml").read_text() == "# mine\nroots: [tools]\nprompt_files: [CLAUDE.md]\n"
    assert b"zeta" in Path("CLAUDE.md").read_bytes()
    assert not Path("AGENTS.md").exists()
    forced = init(capsys, "--force")  # re-pins skillmem's hooks; the configuration is the person's (adopt1)
    assert (forced.data["roots"], forced.data["kept"]) == (["tools"], [".skillmem.yaml"])
    assert Path(".skillmem.yaml").read_text() == "# mine\nroots: [tools]\nprompt_files: [CLAUDE.md]\n"


def test_a_claude_md_importing_agents_md_is_left_out(repo, capsys):
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Claude\n\n@AGENTS.md\n")
    run = init(capsys)
    assert run.data["prompt_files"] == ["AGENTS.md"]
    assert Path("CLAUDE.md").read_text() == "# Claude\n\n@AGENTS.md\n"


def test_both_prompt_files_are_kept_when_neither_imports_the_other(repo, capsys):
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Claude\n")
    assert init(capsys).data["prompt_files"] == ["AGENTS.md", "CLAUDE.md"]


def test_ignored_skills_choose_no_root_and_stay_out_of_the_block(capsys):
    # The Chinese collection's shape: /skills/ is ignored, the skills are under a nested folder.
    git("init", "-q")
    Path(".gitignore").write_text("/skills/\ndrafts/\n")
    write_skill(Path("skills"), "ignored-one", skill_md("ignored-one", "x"))
    nested = Path("反重力 - 超强技能 - 中文/skills")
    write_skill(nested / "数据库", "pg-tuning", skill_md("pg-tuning", "Tune PostgreSQL"))
    write_skill(nested / "drafts", "wip", skill_md("wip", "not ready"))
    run = init(capsys)
    assert run.data["roots"] == ["反重力 - 超强技能 - 中文/skills"]
    agents = Path("AGENTS.md").read_text()
    assert "pg-tuning" in agents
    assert "wip" not in agents
    assert "ignored-one" not in agents
    assert "'反重力 - 超强技能 - 中文/skills'" in run.data["next"]


def test_no_skill_and_no_repository_are_usage_errors_that_say_what_to_do(capsys):
    outside = init(capsys)
    assert outside.code == 2
    assert "git init" in outside.error["hint"]
    git("init", "-q")
    empty = init(capsys)
    assert empty.code == 2
    assert "skills/pdf/SKILL.md" in empty.error["hint"]


def test_a_linked_precommit_config_is_refused_and_nothing_is_written(repo, capsys, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("repos: []\n")
    Path(".pre-commit-config.yaml").symlink_to(outside)
    run = init(capsys)
    assert run.code == 2
    assert "symbolic link" in run.error["error"]
    assert not Path(".skillmem.yaml").exists()
    assert outside.read_text() == "repos: []\n"


def test_text_says_what_it_did_and_the_command_left(repo, capsys):
    run = init(capsys, "--text")
    assert run.code == 0
    assert "created .skillmem.yaml" in run.out
    assert "created AGENTS.md: the skill index block: 3 skills" in run.out
    assert run.out.splitlines()[-1].startswith("next: git add .skillmem.yaml")
    commit_everything()
    dry = init(capsys, "--text", "--dry-run", "--force")
    assert "would update .skillmem.yaml" not in dry.out  # same bytes: unchanged
    assert dry.out.splitlines()[-1] == "then: nothing: every file was already in place"


def test_a_prompt_file_linked_out_of_the_repository_is_refused(repo, capsys, tmp_path):
    outside = tmp_path / "bashrc"
    outside.write_text("# mine\n")
    Path("AGENTS.md").symlink_to(outside)
    run = init(capsys)
    assert run.code == 2
    assert "leads outside the repository" in run.error["error"]
    assert outside.read_text() == "# mine\n"
    assert not Path(".skillmem.yaml").exists()


def test_run_from_a_subfolder_it_works_on_the_whole_repository(repo, capsys, monkeypatch):
    Path("docs").mkdir()
    monkeypatch.chdir("docs")
    run = init(capsys)
    assert run.code == 0, run.err
    assert run.data["roots"] == ["skills"]
    monkeypatch.chdir("..")
    assert SEED_BLOCK in Path("AGENTS.md").read_bytes()
    assert Path(".skillmem.yaml").exists() and not Path("docs/.skillmem.yaml").exists()


def test_its_advice_from_a_subfolder_names_each_path_from_there(repo, capsys, monkeypatch):
    """H7-4b: init's `next: git add .skillmem.yaml ...` failed from sub/ (those paths are at the top), and its
    notes' `lint --write-baseline .skillmem-lint-baseline.json` would write a second baseline in sub/."""
    write_skill(Path("skills"), "pdf", "---\nname: pdf\ndescription: Read PDFs\nversion: 1\n---\n")  # fixable
    Path("sub").mkdir()
    monkeypatch.chdir("sub")
    run = init(capsys)
    adding = run.data["next"].split(" && ")[0]
    assert adding.startswith("git add ../.skillmem.yaml ../.skillmem-lint-baseline.json ../.pre-commit-config.yaml")
    subprocess.run(["bash", "-c", adding], check=True)
    assert ".skillmem.yaml" in git("diff", "--cached", "--name-only").splitlines()
    fix = next(note for note in run.data["notes"] if "lint --fix" in note)
    assert fix.endswith("skillmem lint --write-baseline ../.skillmem-lint-baseline.json to record what is left")


def test_a_failed_pre_commit_install_is_said_and_the_files_stay_written(repo, capsys, monkeypatch):
    import os
    import sys

    if not os.path.exists(os.path.join(os.path.dirname(sys.executable), "pre-commit")):
        pytest.skip("pre-commit is not installed beside this interpreter")
    monkeypatch.setenv("PATH", f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}")
    git("config", "core.hooksPath", "my-hooks")  # init runs no install over it (pre-commit would refuse too)
    run = run_cli(capsys, "init")
    assert run.code == 0, run.err
    assert run.data["hooks_installed"].startswith("'pre-commit install' not run: core.hooksPath is set (my-hooks)")
    assert Path(".skillmem.yaml").exists()
    git("config", "--unset", "core.hooksPath")
    Path(".git/hooks").chmod(0o500)  # pre-commit cannot write its hook: its failure is said
    try:
        run = run_cli(capsys, "init")
    finally:
        Path(".git/hooks").chmod(0o755)
    assert run.code == 0, run.err
    if os.geteuid() != 0:  # root writes anyway
        assert run.data["hooks_installed"].startswith("'pre-commit install' failed (")


def test_the_default_hook_source_is_the_packages_own_url():
    import configparser

    setup = configparser.ConfigParser()
    setup.read(Path(__file__).resolve().parents[2] / "setup.cfg")
    assert setup["metadata"]["url"] == SOURCE_URL
    assert f"Source = {SOURCE_URL}" in setup["metadata"]["project_urls"]


@pytest.mark.parametrize(
    ("config", "link", "victim"),
    [
        ("prompt_files: [.git/info/exclude]\n", None, ".git/info/exclude"),
        ("prompt_files: [.git/config]\n", None, ".git/config"),
        (None, ".git/config", ".git/config"),
    ],
)
def test_a_prompt_file_the_repository_leads_into_the_git_directory_is_refused(repo, capsys, config, link, victim):
    # A cloned repository is untrusted: its .skillmem.yaml or a committed link must not make init write into .git.
    if config is not None:
        Path(".skillmem.yaml").write_text("roots: [skills]\n" + config)
    if link is not None:
        Path("AGENTS.md").symlink_to(link)
    before = Path(victim).read_bytes()
    run = init(capsys)
    assert run.code == 2
    assert "inside the git directory" in run.error["error"]
    assert Path(victim).read_bytes() == before
    assert not Path(".pre-commit-config.yaml").exists()


def test_a_prompt_file_linked_to_an_ignored_file_is_refused(repo, capsys):
    # A committed AGENTS.md -> .env must not append the block to a secret file git never shows.
    Path(".gitignore").write_text(".env\n")
    Path(".env").write_text("SECRET=1\n")
    Path("AGENTS.md").symlink_to(".env")
    run = init(capsys)
    assert run.code == 2
    assert "which git does not track" in run.error["error"]
    assert Path(".env").read_text() == "SECRET=1\n"
    assert not Path(".skillmem.yaml").exists()


def test_text_shows_a_hostile_folder_name_escaped_on_its_own_line(capsys):
    # A cloned repository names the folders: an ESC sequence or a line break in one must not act on
    # the terminal or add a line ("FAKE: all good") to what init tells the person.
    git("init", "-q")
    folder = Path("x\x1b[2K\x1b[1A\nFAKE: all good\n") / "skills" / "a"
    write_skill(folder.parent, "a", skill_md("a", "a skill"))
    run = init(capsys, "--text", "--dry-run")
    assert run.code == 0, run.err
    assert "\x1b" not in run.out
    assert not any(line.startswith("FAKE") for line in run.out.splitlines())
    assert "x\\x1b[2K\\x1b[1A\\nFAKE: all good\\n/skills" in run.out


@pytest.mark.parametrize("own", [".pre-commit-config.yaml", ".gitattributes", "./.skillmem.yaml"])
def test_a_prompt_file_that_is_one_of_inits_own_files_is_refused_before_any_write(repo, capsys, own):
    # Two changes to one file cannot both be written: init wrote some files, then blamed "another edit".
    Path(".skillmem.yaml").write_text(f"roots: [skills]\nprompt_files: [AGENTS.md, {own}]\n")
    Path(".pre-commit-config.yaml").write_text("repos: []\n")
    before = tree_state(repo)
    run = init(capsys)
    assert run.code == 2
    assert "cannot also be a prompt file" in run.error["error"]
    assert tree_state(repo) == before


def test_force_with_rev_re_pins_skillmems_entry_in_place(repo, capsys):
    # newuser-3's M2: the recovery init printed ("--force --rev <a commit id>") left the pin as it was.
    init(capsys, "--repo", "https://example.com/hooks.git", "--rev", "v0.0.1")
    config = Path(".pre-commit-config.yaml").read_text()
    kept = init(capsys, "--rev", "0123abcd")  # without --force, the entry is the person's
    assert {item["path"]: item["action"] for item in kept.data["files"]}[".pre-commit-config.yaml"] == "unchanged"
    run = init(capsys, "--force", "--repo", "https://example.com/hooks.git", "--rev", "0123abcd")
    assert {item["path"]: item["action"] for item in run.data["files"]}[".pre-commit-config.yaml"] == "updated"
    assert Path(".pre-commit-config.yaml").read_text() == config.replace("rev: v0.0.1", "rev: 0123abcd")
    init(capsys, "--force", "--repo", "/elsewhere/skillmem-hook", "--rev", "0123abcd")
    entry = yaml.safe_load(Path(".pre-commit-config.yaml").read_text())["repos"][0]
    assert (entry["repo"], entry["rev"]) == ("/elsewhere/skillmem-hook", "0123abcd")


def test_force_with_rev_on_a_local_entry_says_what_to_set_and_writes_nothing(repo, capsys):
    Path(".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - {id: skill-index, name: i, entry: skillmem-index-hook, language: system}"
        "\n"
    )
    before = tree_state(repo)
    run = init(capsys, "--force", "--rev", "0123abcd")
    assert run.code == 2
    assert "'rev: 0123abcd'" in run.error["hint"]
    assert tree_state(repo) == before
    assert init(capsys, "--force").code == 0  # no --rev asked for: the local entry is kept as it is


def test_skill_lint_runs_on_commits_with_todays_findings_as_the_baseline(repo, capsys):
    # newuser-3's m10: skill-lint waited at the manual stage, so invalid YAML committed with a warning.
    run = init(capsys)
    hooks = yaml.safe_load(Path(".pre-commit-config.yaml").read_text())["repos"][0]["hooks"]
    assert hooks[2] == {"id": "skill-lint"}
    baseline = json.loads(Path(".skillmem-lint-baseline.json").read_text())
    assert [(row["path"], row["code"]) for row in baseline["findings"]] == [("skills/beta-heading/SKILL.md", "SK101")]
    assert (
        "lint findings the skills have today (1 error)"
        in {i["path"]: i["why"] for i in run.data["files"]}[".skillmem-lint-baseline.json"]
    )
    assert run_cli(capsys, "lint").code == 0  # the baseline, read through the configuration written
    write_skill(Path("skills"), "broken", "---\nname: broken\ndescription: a: b: c\n---\n")
    assert run_cli(capsys, "lint").code == 1  # a new finding is not in it


def test_a_few_findings_are_each_named_errors_first_and_none_recorded_unseen(capsys):
    """Newcomer en3: init said only 'lint findings the skills have today (1)' of a skill they had just written,
    linking a template.md that did not exist; the baseline then kept skill-lint quiet on it."""
    git("init", "-q")
    write_skill(
        Path("skills"), "release-notes", skill_md("release-notes", "Draft release notes", "See [t](template.md).")
    )
    write_skill(Path("skills"), "db-migrate", skill_md("db-migrate", "Write migrations", "See [x](../README.md)."))
    Path("skills/README.md").write_text("# Skills\n")
    run = init(capsys, "--text")
    assert "lint findings the skills have today (2: 1 error, 1 warning): skill-lint stops only new ones" in run.out
    notes = [line for line in run.out.splitlines() if line.startswith("note: ")]
    at = notes.index(
        "note: the baseline .skillmem-lint-baseline.json holds 1 error, which skill-lint would otherwise stop at a"
        " commit of its SKILL.md: in skills you own, fix it, then skillmem lint --write-baseline"
        " .skillmem-lint-baseline.json to drop it from the baseline"
    )
    assert (
        notes[at + 1].startswith("note: error: skills/release-notes/SKILL.md:")
        and "SK201 'template.md'" in notes[at + 1]
    )
    assert (
        notes[at + 2].startswith("note: warning: skills/db-migrate/SKILL.md:")
        and "SK202 '../README.md'" in notes[at + 2]
    )
    # Fixed, then the command the note gives: the baseline holds only the warning, and lint passes.
    Path("skills/release-notes/template.md").write_text("# Release notes\n")
    assert run_cli(capsys, "lint", "--write-baseline", ".skillmem-lint-baseline.json").code == 0
    kept = json.loads(Path(".skillmem-lint-baseline.json").read_text())["findings"]
    assert [row["code"] for row in kept] == ["SK202"]


def test_warnings_alone_are_named_as_allowed_and_many_errors_by_their_codes(capsys):
    git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Read PDF files", "See [x](../README.md)."))
    Path("skills/README.md").write_text("# Skills\n")
    notes = init(capsys).data["notes"]
    assert "the baseline .skillmem-lint-baseline.json records 1 warning, which skill-lint allows" in notes
    assert not any(" holds " in note and "error" in note for note in notes)
    for number in range(6):
        name = f"broken-{number}"
        write_skill(Path("skills"), name, skill_md(name, "Draft notes. Use when asked", "See [t](t.md)."))
    Path(".skillmem.yaml").unlink()
    notes = init(capsys).data["notes"]
    assert (
        "the baseline .skillmem-lint-baseline.json holds 6 errors (SK201 6; each is listed in"
        " .skillmem-lint-baseline.json), which skill-lint would otherwise stop at a commit of their SKILL.md files:"
    ) in " ".join(notes)
    assert not any(note.startswith(("error: ", "warning: ")) for note in notes)  # 7 findings: counted, not named


def test_findings_lint_can_fix_are_counted_in_a_note_that_says_what_fixing_edits(capsys):
    """new user 4: init recorded 7,859 fields --fix could move in a 2.1 MB baseline, and never said --fix;
    adopt1: on a vendored pack --fix edits third-party files, so the note says what it edits and when to keep
    the baseline (tests/commands/test_init_repin.py: the renames)."""
    git("init", "-q")
    write_skill(Path("skills"), "pdf", "---\nname: pdf\ndescription: Read PDFs\nversion: 1\nauthor: me\n---\n")
    write_skill(Path("skills"), "csv", skill_md("csv", "Parse CSV files"))
    notes = init(capsys).data["notes"]
    assert [note for note in notes if "lint --fix" in note] == [
        "2 of the 2 lint findings have a mechanical fix, and the baseline .skillmem-lint-baseline.json already keeps"
        " them from failing a commit: skillmem lint --fix would edit 1 SKILL.md file in place (fields no agent"
        " reads moved under metadata:). Keep the baseline for a pack you vendor (fixed, it diverges from"
        " upstream's); for skills you own, run skillmem lint --fix, then skillmem lint --write-baseline"
        " .skillmem-lint-baseline.json to record what is left"
    ]


def test_skills_with_no_findings_get_lint_on_commits_and_no_baseline(capsys):
    git("init", "-q")
    write_skill(Path("skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    init(capsys)
    assert not Path(".skillmem-lint-baseline.json").exists()
    assert "lint" not in yaml.safe_load(Path(".skillmem.yaml").read_text())
    assert yaml.safe_load(Path(".pre-commit-config.yaml").read_text())["repos"][0]["hooks"][2] == {"id": "skill-lint"}


def test_a_kept_configuration_without_a_baseline_leaves_lint_at_the_manual_stage_and_says_why(repo, capsys):
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    run = init(capsys)
    assert run.data["kept"] == [".skillmem.yaml"]
    hooks = yaml.safe_load(Path(".pre-commit-config.yaml").read_text())["repos"][0]["hooks"]
    assert hooks[2]["stages"] == ["manual"]
    assert any(
        note.startswith("skill-lint waits at the manual stage: the skills have 1 lint") for note in run.data["notes"]
    )
    assert not Path(".skillmem-lint-baseline.json").exists()


@pytest.mark.parametrize("kept", [False, True], ids=["written", "kept"])
def test_a_baseline_git_ignores_is_said_once_and_left_out_of_the_next_line(repo, capsys, monkeypatch, kept):
    """cn2 3: with the baseline ignored, the commit init asks for passed and every clone's skill-lint then stopped;
    `git add` of the next line refused the whole command for the one ignored file."""
    Path(".gitignore").write_text("*.json\n.lint/\n")
    write_skill(Path("skills/one"), "dup", skill_md("dup", "One"))  # SK301: its message names the other file
    write_skill(Path("skills/two"), "other", skill_md("dup", "Two"))
    if kept:
        Path(".lint").mkdir()
        Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: .lint/base.json}\n")
        assert run_cli(capsys, "lint", "--write-baseline", ".lint/base.json").code == 0
    Path("docs").mkdir()
    monkeypatch.chdir("docs")  # run from a subfolder: the rule is git's, named from the top
    run = init(capsys)
    assert run.code == 0, run.err
    rule = ".gitignore:2:.lint/" if kept else ".gitignore:1:*.json"
    said = [note for note in run.data["notes"] if "teammates and CI will not have it" in note]
    assert len(said) == 1 and f"git ignores it ({rule})" in said[0]
    assert "base.json" not in run.data["next"] and "lint-baseline" not in run.data["next"]
    subprocess.run(run.data["next"].split(" && ")[0], shell=True, check=True)  # git add takes every path named
    monkeypatch.chdir("..")
    assert run_cli(capsys, "lint").code == 0  # the baseline init wrote from docs/ is the one read at the top
