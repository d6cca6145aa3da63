"""The skill-lint hook through a real ``git commit`` with the real pre-commit: what a commit breaks, it lints.

pre-commit never passes the files a commit deletes, so the hook asks git
which paths the commit changes and lints each skill that owns one.
"""

from __future__ import annotations

import sys

import pytest

from ..helpers import skill_md, write_skill
from .repos import empty_repo, hooks_config, run

pytestmark = pytest.mark.precommit

DOCX_BODY = "Accept tracked changes:\n\n```sh\npython scripts/accept_changes.py in.docx\n```\n"
# The line of scripts/accept_changes.py in docx's SKILL.md, and its column.
AT = "skills/docx/SKILL.md:8:8"


@pytest.fixture
def repo(hook_repo, tmp_path):
    """skills/docx runs a tracked script; template/ (outside the roots) breaks the spec; all committed."""
    repo = empty_repo(hook_repo, tmp_path / "user")
    docs = "Convert DOCX files. Use when a .docx must be edited."
    write_skill(repo.path / "skills", "docx", skill_md("docx", docs, DOCX_BODY))
    (repo.path / "skills" / "docx" / "scripts").mkdir()
    (repo.path / "skills" / "docx" / "scripts" / "accept_changes.py").write_text("print('ok')\n")
    write_skill(repo.path / "skills", "pdf", skill_md("pdf", "Read PDF files. Use when a PDF is given."))
    write_skill(repo.path, "template", skill_md("template-skill", "A template"))  # SK116, but not a root
    (repo.path / "README.md").write_text("# Skills\n")
    (repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-lint\n        args: [--root, skills]\n")
    )
    repo.git("add", "-A")
    assert repo.pre_commit("install").returncode == 0
    first = repo.commit("initial")
    assert first.returncode == 0, first.stdout + first.stderr
    return repo


def output(result):
    return result.stdout + result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["rm", "-q", "skills/docx/scripts/accept_changes.py"], "is not in the skill's folder"),
        (["mv", "skills/docx/scripts/accept_changes.py", "skills/docx/scripts/accept.py"], "is not in the skill's"),
        (
            ["rm", "-q", "--cached", "skills/docx/scripts/accept_changes.py"],
            "exists but git does not track it; git add skills/docx/scripts/accept_changes.py",
        ),
    ],
    ids=["delete", "rename", "untrack"],
)
def test_a_commit_that_breaks_a_reference_without_touching_the_skill_file_is_stopped(repo, change, message):
    repo.git(*change)
    stopped = repo.commit("break docx")
    assert stopped.returncode != 0
    assert f"{AT}: SK201 'scripts/accept_changes.py' {message}" in output(stopped)
    assert "skill-lint: 1 of 2 SKILL.md files checked, 1 error, 0 warnings" in output(stopped)


def test_a_commit_that_touches_no_skill_checks_none(repo):
    (repo.path / "README.md").write_text("# Skills, edited\n")
    repo.git("add", "README.md")
    shown = repo.pre_commit("run", "skill-lint", "--verbose")  # pre-commit shows a passing hook's text only so
    assert "skill-lint: no skill to check among the changes (2 SKILL.md files in all)" in output(shown)
    result = repo.commit("edit readme")
    assert result.returncode == 0, output(result)


def test_the_hook_checks_what_the_cli_checks_and_a_part_says_it_is_one(repo):
    everything = repo.pre_commit("run", "skill-lint", "--all-files", "--verbose")
    assert everything.returncode == 0, output(everything)
    assert "template/SKILL.md" not in output(everything)  # outside the roots, as `skillmem lint` leaves it
    assert "skill-lint: 2 SKILL.md files checked, 0 errors, 0 warnings" in output(everything)
    part = repo.pre_commit("run", "skill-lint", "--files", "skills/pdf/SKILL.md", "--verbose")
    assert "skill-lint: 1 of 2 SKILL.md files checked" in output(part)


def test_an_excluded_skill_is_not_linted_by_the_hook(repo):
    (repo.path / ".skillmem.yaml").write_text("exclude: [docx]\n")
    repo.git("rm", "-q", "skills/docx/scripts/accept_changes.py")
    repo.git("add", ".skillmem.yaml")
    result = repo.commit("drop the script of an excluded skill")
    assert result.returncode == 0, output(result)


def test_quiet_mutes_a_named_skills_known_warnings_in_the_index_hook(hook_repo, tmp_path):
    repo = empty_repo(hook_repo, tmp_path / "quiet")
    write_skill(repo.path / "skills", "vendored", skill_md("vendored", "Use when: it breaks"))  # invalid YAML
    write_skill(repo.path / "skills", "ours", skill_md("ours", "Use when: it breaks too"))
    (repo.path / "AGENTS.md").write_text("# Agents\n")
    (repo.path / ".skillmem.yaml").write_text("quiet: [vendored]\n")
    (repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-index\n        args: [--root, skills, --prompt-file, AGENTS.md]\n")
    )
    repo.git("add", "-A")
    assert repo.pre_commit("install").returncode == 0
    stopped = output(repo.commit("first"))
    assert "1 SKILL.md file with warnings" in stopped
    assert "skills/ours/SKILL.md: invalid YAML" in stopped
    assert "skills/vendored/SKILL.md" not in stopped


def test_the_warning_of_the_skill_a_commit_adds_comes_before_a_packs_known_ones(hook_repo, tmp_path):
    """newcomer-aa item 3: 61 known warnings of a vendored pack hid the new skill's invalid YAML past the cap."""
    repo = empty_repo(hook_repo, tmp_path / "pack")
    for index in range(12):  # more than the report's 10, each filed under a domain of the pack's own
        name = f"pack-{index:02}"
        frontmatter = f"---\nname: {name}\ndescription: d{index}\nmetadata:\n  domain: x\n---\n"
        write_skill(repo.path / "skills", name, frontmatter)
    (repo.path / "AGENTS.md").write_text("# Agents\n")
    (repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-index\n        args: [--root, skills, --prompt-file, AGENTS.md]\n")
    )
    repo.git("add", "-A")
    assert repo.pre_commit("install").returncode == 0
    assert repo.commit("first").returncode != 0  # the block was written
    repo.git("add", "-A")
    assert repo.commit("first").returncode == 0
    write_skill(repo.path / "skills", "zz-new", skill_md("zz-new", "Deploy a preview: runs pnpm build"))  # invalid
    repo.git("add", "-A")
    stopped = output(repo.commit("add zz-new"))
    report = stopped[stopped.index("13 SKILL.md files with warnings") :]
    lines = report.splitlines()
    assert lines[0].startswith("13 SKILL.md files with warnings, the 1 this commit changes first")
    assert lines[1].startswith("  skills/zz-new/SKILL.md: invalid YAML")
    assert lines[2] == "  skills/pack-00/SKILL.md: metadata domain 'x' is not a domain, so the table decides"
    assert "  ... and 3 more" in lines
    assert report.count("(the domains: ") == 1  # said once, under the list


def test_the_hook_fixes_only_when_its_args_say_so(repo, hook_repo):
    hook_root, rev, _ = hook_repo
    skill = repo.path / "skills" / "pdf" / "SKILL.md"
    skill.write_text("---\nname: pdf\ndescription: Read PDF files. Use when a PDF is given.\nversion: 2\n---\n")
    repo.git("add", "-A")
    stopped = repo.commit("add a version")
    assert "skills/pdf/SKILL.md:4:1: SK105 unknown field 'version'" in output(stopped)
    assert b"version: 2\n---" in skill.read_bytes()  # not fixed: the hook never writes unless asked
    (repo.path / ".pre-commit-config.yaml").write_text(
        hooks_config(hook_repo, "      - id: skill-lint\n        args: [--root, skills, --fix]\n")
    )
    repo.git("add", "-A")
    fixed = repo.commit("add a version")
    assert fixed.returncode != 0  # pre-commit stops a commit whose files a hook changed
    assert "skills/pdf/SKILL.md: fixed" in output(fixed)
    assert skill.read_bytes().endswith(b"metadata:\n  version: 2\n---\n")
    repo.git("add", "-A")
    assert repo.commit("add a version").returncode == 0


def test_a_range_run_lints_the_skills_the_range_breaks(repo):
    repo.git("rm", "-q", "skills/docx/scripts/accept_changes.py")
    repo.git("commit", "-q", "--no-verify", "-m", "delete a script docx runs")
    result = repo.pre_commit("run", "skill-lint", "--from-ref", "HEAD~1", "--to-ref", "HEAD")
    assert result.returncode == 1
    assert f"{AT}: SK201 'scripts/accept_changes.py' is not in the skill's folder" in output(result)


def test_a_commit_deleting_a_baselined_skill_prunes_its_entries_and_stops_once_to_stage_them(repo):
    # newcomer-ad 17: `git rm -r` of a skill the baseline knew passed, said nothing, and left its entries behind.
    write_skill(repo.path / "skills", "old", "---\nname: old\ndescription: d\nversion: 1\nowner: me\n---\n")
    (repo.path / ".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    run([sys.executable, "-m", "skillmem_hook", "lint", "--write-baseline", "base.json"], repo.path, repo.env)
    before = (repo.path / "base.json").read_text()
    assert before.count("skills/old/SKILL.md") == 2
    repo.git("add", "-A")
    assert repo.commit("add old").returncode == 0
    repo.git("rm", "-rq", "skills/old")
    stopped = repo.commit("drop old")
    assert stopped.returncode != 0
    assert (
        "skill-lint: removed 2 findings of 1 deleted path from the baseline base.json (skills/old/SKILL.md):"
        " git add base.json, then commit again" in output(stopped)
    )
    assert "skills/old/SKILL.md" not in (repo.path / "base.json").read_text()
    repo.git("add", "base.json")
    again = repo.commit("drop old")
    assert again.returncode == 0, output(again)


def test_a_commit_deleting_a_baselined_skill_prunes_an_ignored_baseline_and_goes_on(repo):
    # tidy9: the baseline git ignores (a personal one) was pruned, and the commit stopped asking to
    # `git add` it, which git refuses for an ignored file. A fixer's change to an ignored file is none
    # pre-commit sees: the commit goes on, and the hook says why (shown with --verbose).
    write_skill(repo.path / "skills", "old", "---\nname: old\ndescription: d\nversion: 1\nowner: me\n---\n")
    (repo.path / ".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    (repo.path / ".gitignore").write_text("base.json\n")
    run([sys.executable, "-m", "skillmem_hook", "lint", "--write-baseline", "base.json"], repo.path, repo.env)
    repo.git("add", "-A")
    assert repo.commit("add old").returncode == 0
    repo.git("rm", "-rq", "skills/old")
    passed = repo.commit("drop old")
    assert passed.returncode == 0, output(passed)
    assert "skills/old/SKILL.md" not in (repo.path / "base.json").read_text()
    assert repo.git("status", "--porcelain").stdout == ""
    write_skill(repo.path / "skills", "old", "---\nname: old\ndescription: d\nversion: 1\nowner: me\n---\n")
    run([sys.executable, "-m", "skillmem_hook", "lint", "--write-baseline", "base.json"], repo.path, repo.env)
    repo.git("add", "-A")
    assert repo.commit("add old again").returncode == 0
    repo.git("rm", "-rq", "skills/old")
    told = repo.pre_commit("run", "skill-lint", "--verbose")
    assert told.returncode == 0, output(told)
    assert (
        "skill-lint: removed 2 findings of 1 deleted path from the baseline base.json (skills/old/SKILL.md):"
        " git ignores it, so there is nothing to stage" in output(told)
    )
    assert output(told).count("note: git ignores base.json (.gitignore:1:base.json): teammates and CI will not") == 1


def test_a_baseline_written_in_a_subfolder_passes_the_hook_and_a_clone_names_the_rule_that_ignores_it(repo, tmp_path):
    # cn2 1 and 3: written from docs/, SK301's message named the other skill as ../skills/...: every commit then
    # failed at the top. And in an ignored folder the commit passed, then a fresh clone's hook said only "write it
    # again: skillmem lint --write-baseline FILE".
    write_skill(repo.path / "skills" / "one", "dup", skill_md("dup", "One"))
    write_skill(repo.path / "skills" / "two", "other", skill_md("dup", "Two"))
    (repo.path / ".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: .lint/base.json}\n")
    (repo.path / ".gitignore").write_text(".lint/\n")
    (repo.path / ".lint").mkdir()
    (repo.path / "docs").mkdir()
    command = [sys.executable, "-m", "skillmem_hook", "lint", "--write-baseline", "../.lint/base.json", "--text"]
    written = run(command, repo.path / "docs", repo.env)
    assert "teammates and CI will not have it" in written.stdout
    assert "and skills/one/dup/SKILL.md as one skill" in (repo.path / ".lint" / "base.json").read_text()
    repo.git("add", "-A")
    committed = repo.commit("two skills called dup")
    assert committed.returncode == 0, output(committed)
    clone = tmp_path / "clone"
    repo.git("clone", "-q", str(repo.path), str(clone))
    fresh = run([sys.executable, "-m", "pre_commit", "run", "skill-lint", "--all-files"], clone, repo.env, check=False)
    assert fresh.returncode != 0
    assert "the lint baseline '.lint/base.json' does not exist: git ignores it (.gitignore:1:.lint/)" in output(fresh)


def test_a_commit_that_deletes_no_skill_file_passes_whatever_the_baseline_holds(repo):
    # hostile17 F1: every commit read the baseline and resolved each path it lists, so a damaged one failed a
    # README-only commit, and one listing paths below a deep folder stalled every commit for minutes.
    (repo.path / ".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    (repo.path / "base.json").write_text("{")
    (repo.path / "notes.md").write_text("notes\n")
    repo.git("add", "-A")
    repo.git("commit", "-q", "--no-verify", "-m", "a damaged baseline")
    (repo.path / "README.md").write_text("# Skills, edited\n")
    repo.git("add", "README.md")
    edited = repo.commit("edit readme")
    assert edited.returncode == 0, output(edited)
    repo.git("rm", "-q", "notes.md")
    deleted = repo.commit("drop notes")
    assert deleted.returncode == 0, output(deleted)
    repo.git("rm", "-rq", "skills/pdf")
    stopped = repo.commit("drop pdf")  # a SKILL.md the baseline may list: read, and its damage said
    assert stopped.returncode != 0
    assert "the lint baseline 'base.json' is damaged" in output(stopped)


def test_a_range_run_prunes_nothing_an_earlier_commit_deleted(repo):
    # hostile17 F3: pre-push and `pre-commit run --from-ref --to-ref` in CI pruned an earlier commit's deletion,
    # rewrote the checkout's baseline and failed with "git add base.json, then commit again".
    write_skill(repo.path / "skills", "old", "---\nname: old\ndescription: d\nversion: 1\n---\n")
    (repo.path / ".skillmem.yaml").write_text("roots: [skills]\nlint: {baseline: base.json}\n")
    run([sys.executable, "-m", "skillmem_hook", "lint", "--write-baseline", "base.json"], repo.path, repo.env)
    repo.git("add", "-A")
    assert repo.commit("add old").returncode == 0
    before = (repo.path / "base.json").read_bytes()
    repo.git("rm", "-rq", "skills/old")
    repo.git("commit", "-q", "--no-verify", "-m", "drop old without the hook")
    ranged = repo.pre_commit("run", "skill-lint", "--from-ref", "HEAD~1", "--to-ref", "HEAD")
    assert ranged.returncode == 0, output(ranged)
    assert (repo.path / "base.json").read_bytes() == before
    assert repo.git("status", "--porcelain").stdout == ""
