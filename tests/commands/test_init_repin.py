"""``skillmem init`` run again on a repository that adopted it: nothing of the person's is lost.

A newcomer's report (adopt1): ``init --force --repo URL --rev REV``, the
documented re-pin, also rewrote ``.skillmem.yaml`` (``prompt_files``,
``quiet`` and ``max_block_tokens`` dropped: the block grew by 239 lines);
``init --dry-run`` refused a configured prompt file git ignores, which the
hooks accept; and the note suggesting ``lint --fix`` did not say it edits and
renames a vendored pack's skills. Real git, real files; the last test runs on
the shared English collection, the newcomer's pack.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from ..helpers import REPO, run_cli, seed_tree, skill_md, write_skill

URL = "https://github.com/skillmem/skillmem-hook"
REV = "0123456789abcdef0123456789abcdef01234567"
COLLECTIONS = Path(os.environ.get("SKILLMEM_COLLECTIONS", REPO.parent / "shared" / "data" / "collections"))


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def init(capsys, *args):
    return run_cli(capsys, "init", "--no-install", *args)


def files_of(top: Path) -> dict[str, bytes]:
    """Every file's bytes outside .git, so a run is seen to change exactly what it says."""
    return {str(p.relative_to(top)): p.read_bytes() for p in top.rglob("*") if p.is_file() and ".git" not in p.parts}


def actions(run) -> dict[str, str]:
    return {item["path"]: item["action"] for item in run.data["files"]}


@pytest.fixture
def adopted(capsys):
    """The newcomer's shape: .claude/skills, a hand-written CLAUDE.md, AGENTS.md ignored, init run once."""
    git("init", "-q")
    seed_tree(Path(".claude/skills"))
    Path("CLAUDE.md").write_text("# My project\n\nHand-written.\n")
    Path(".gitignore").write_text("AGENTS.md\n")
    assert init(capsys).code == 0
    return Path.cwd()


def own_settings(*, with_ignored: bool) -> str:
    """The person's own .skillmem.yaml: init's keys edited, and keys init never writes."""
    files = '["CLAUDE.md", "AGENTS.md"]' if with_ignored else '["CLAUDE.md"]'
    return (
        "# mine: keep this comment\n"
        'roots: [".claude/skills"]\n'
        f"prompt_files: {files}\n"
        "lint: {baseline: .skillmem-lint-baseline.json}\n"
        "quiet: [beta-heading, last30days]\n"
        "max_block_tokens: 2000\n"
    )


@pytest.mark.parametrize("with_ignored", [True, False], ids=["ignored-agents-md-configured", "claude-md-only"])
def test_force_re_pins_only_repo_and_rev_and_keeps_the_configuration_and_baseline(adopted, capsys, with_ignored):
    Path(".skillmem.yaml").write_text(own_settings(with_ignored=with_ignored))
    if with_ignored:
        Path("AGENTS.md").write_text("# mine\n")  # inject keeps an ignored prompt file current when it exists
    # A skill with a lint finding today's baseline lacks: a baseline rewritten would swallow it.
    write_skill(Path(".claude/skills"), "gamma", skill_md("Gamma Tool", "Deploy with Docker"))
    assert run_cli(capsys, "inject").code == 0
    before = files_of(adopted)
    run = init(capsys, "--force", "--repo", URL, "--rev", REV)
    assert run.code == 0, run.err
    assert actions(run)[".pre-commit-config.yaml"] == "updated"
    assert {path for path, action in actions(run).items() if action != "unchanged"} == {".pre-commit-config.yaml"}
    assert run.data["kept"] == [".skillmem.yaml", ".skillmem-lint-baseline.json"]  # the baseline it names, kept too
    after = files_of(adopted)
    assert {path for path in after if after[path] != before.get(path)} == {".pre-commit-config.yaml"}
    old_lines = before[".pre-commit-config.yaml"].decode().splitlines()
    new_lines = after[".pre-commit-config.yaml"].decode().splitlines()
    changed = [(old, new) for old, new in zip(old_lines, new_lines) if old != new]
    assert [new.strip() for _, new in changed] == [f"- repo: {URL}", f"rev: {REV}"]
    assert len(old_lines) == len(new_lines)
    again = init(capsys, "--force", "--repo", URL, "--rev", REV)
    assert set(actions(again).values()) == {"unchanged"}


def test_the_text_says_the_configuration_is_kept_and_how_force_treats_it(adopted, capsys):
    run = init(capsys, "--text", "--dry-run", "--force")
    assert "kept .skillmem.yaml as it is (init never rewrites it)" in run.out
    assert "--force rewrites" not in run.out


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_prompt_file_with_an_existing_configuration_is_refused_and_names_the_key(adopted, capsys, force):
    before = files_of(adopted)
    run = init(capsys, *force, "--prompt-file", "GEMINI.md")
    assert run.code == 2
    assert "never rewrites it" in run.error["error"]
    assert "prompt_files: in .skillmem.yaml" in run.error["hint"]
    assert files_of(adopted) == before


@pytest.mark.parametrize(
    ("ignore", "ignored", "rule"),
    [("AGENTS.md\n", "AGENTS.md", ".gitignore:1:AGENTS.md"), ("docs/\n", "docs/AGENTS.md", ".gitignore:1:docs/")],
)
@pytest.mark.parametrize("present", [True, False], ids=["present", "absent"])
def test_a_configured_prompt_file_git_ignores_is_left_out_with_a_note(adopted, capsys, ignore, ignored, rule, present):
    Path(".gitignore").write_text(ignore)
    Path(".skillmem.yaml").write_text(f'roots: [".claude/skills"]\nprompt_files: ["CLAUDE.md", "{ignored}"]\n')
    if present:
        Path(ignored).parent.mkdir(exist_ok=True)
        Path(ignored).write_text("# mine\n")
    before = files_of(adopted)
    dry = init(capsys, "--dry-run")
    assert dry.code == 0, dry.err
    assert dry.data["prompt_files"] == ["CLAUDE.md"]
    assert ignored not in actions(dry)
    assert f"{ignored}: left out (git ignores it: {rule})" in " ".join(dry.data["notes"])
    (note,) = [note for note in dry.data["notes"] if note.startswith(f"{ignored}: left out")]
    touch = f"`touch {ignored}` once"  # first4: skillmem never creates it, and a teammate's clone lacks it
    assert (f"a teammate runs {touch} after cloning" in note) is present
    assert (f"keep it current once it exists ({touch} to have it here)" in note) is not present
    assert files_of(adopted) == before
    assert dry.data["local_prompt_files"] == ([ignored] if present else [])
    run = init(capsys)
    assert run.code == 0, run.err
    assert ignored not in Path(".gitattributes").read_text()
    assert (Path(ignored).read_text() == "# mine\n") if present else not Path(ignored).exists()


@pytest.mark.parametrize("present", [True, False], ids=["present", "absent"])
def test_init_again_after_following_its_note_reads_the_prompt_files_as_they_are_now(adopted, capsys, present):
    """adopt4: after `touch AGENTS.md` and AGENTS.md added to prompt_files (init's note), init again said "prompt
    files: CLAUDE.md" and the same note ("... or add it to prompt_files"); the commit then filled AGENTS.md."""
    write_skill(Path(".claude/skills/business"), "pdf", skill_md("pdf", "Extract text from PDF files"))  # 2 deep
    Path(".skillmem.yaml").write_text('roots: [".claude/skills"]\nprompt_files: ["CLAUDE.md", "AGENTS.md"]\n')
    if present:
        Path("AGENTS.md").write_text("# mine\n")
    run = init(capsys, "--text")
    first = run.out.splitlines()[0]
    local = "; on this machine only (ignored by git; the hooks write the block): AGENTS.md"
    assert first == f"skills roots: .claude/skills; prompt files: CLAUDE.md{local if present else ''}"
    (left_out,) = [line for line in run.out.splitlines() if line.startswith("note: AGENTS.md: left out")]
    assert ("the hooks write its block on each commit" in left_out) is present
    (agents,) = [line for line in run.out.splitlines() if "finds it natively" in line]
    assert "add it to prompt_files" not in agents  # it is there already
    if present:
        assert "Codex learns of it from the block in AGENTS.md (on this machine only: git ignores it)" in agents
    else:
        assert "once you create it (touch AGENTS.md: skillmem never creates a prompt file)" in agents
    assert Path("AGENTS.md").read_text() == "# mine\n" if present else not Path("AGENTS.md").exists()


def test_the_note_on_an_ignored_prompt_file_says_what_still_fails_a_commit(adopted, capsys):
    Path(".gitignore").write_text("PERSONAL.md\n")
    Path(".skillmem.yaml").write_text('roots: [".claude/skills"]\nprompt_files: ["CLAUDE.md", "PERSONAL.md"]\n')
    dry = init(capsys, "--dry-run")
    assert dry.code == 0, dry.err
    (note,) = [note for note in dry.data["notes"] if note.startswith("PERSONAL.md: left out")]
    assert "never fail" not in note
    assert "fail a commit on it only if its markers break or it becomes a link out of the work tree" in note


@pytest.mark.parametrize("lands", ["outside", "ignored"])
def test_an_ignored_prompt_file_linked_where_the_hooks_refuse_it_is_refused_by_init(adopted, capsys, tmp_path, lands):
    """The hooks fail a commit on an ignored prompt file leading out or onto an untracked file: init says so first."""
    Path(".gitignore").write_text("PERSONAL.md\nlocal.md\n")
    Path(".skillmem.yaml").write_text('roots: [".claude/skills"]\nprompt_files: ["CLAUDE.md", "PERSONAL.md"]\n')
    target = tmp_path / "elsewhere.md" if lands == "outside" else Path("local.md")
    target.write_text("# mine\n")
    Path("PERSONAL.md").symlink_to(target)
    before = files_of(adopted)
    dry = init(capsys, "--dry-run")
    assert dry.code == 2
    assert "PERSONAL.md' (through the symlink " in dry.error["error"]
    assert ("outside the work tree" if lands == "outside" else "which git does not track") in dry.error["error"]
    assert files_of(adopted) == before


def test_every_configured_prompt_file_ignored_is_refused_naming_the_key(adopted, capsys):
    Path(".gitignore").write_text("AGENTS.md\ndocs/\n")
    Path(".skillmem.yaml").write_text('roots: [".claude/skills"]\nprompt_files: ["AGENTS.md", "docs/AGENTS.md"]\n')
    before = files_of(adopted)
    run = init(capsys, "--dry-run")
    assert run.code == 2
    assert ".gitignore:1:AGENTS.md" in run.error["error"] and ".gitignore:2:docs/" in run.error["error"]
    assert "under prompt_files: in .skillmem.yaml" in run.error["hint"]
    assert "--prompt-file" not in run.error["hint"]
    assert files_of(adopted) == before


def a_pack(root: Path) -> None:
    """Two skills lint --fix renames (a name not its folder's), one it only edits (a field no agent reads)."""
    write_skill(root, "pdf-official", skill_md("pdf", "Read and fill PDF forms"))
    write_skill(root, "docx", skill_md("Docx Files", "Write Word documents"))
    write_skill(root, "xlsx", b"---\nname: xlsx\ndescription: Edit spreadsheets\nversion: 2\n---\n")
    write_skill(root, "clean", skill_md("clean", "Nothing to fix here"))


def names_changed(diff: str) -> int:
    return sum(1 for line in diff.splitlines() if line.startswith("+name:"))


def test_the_lint_fix_note_says_what_it_edits_and_renames_as_lint_fix_does(capsys):
    git("init", "-q")
    a_pack(Path(".claude/skills"))
    run = init(capsys)
    note = next(note for note in run.data["notes"] if "lint --fix" in note)
    assert "the baseline .skillmem-lint-baseline.json already keeps them from failing a commit" in note
    assert "would edit 3 SKILL.md files in place" in note
    assert "and rename 2 skills to their folder's name, which changes the names people and agents type" in note
    assert "Keep the baseline for a pack you vendor" in note
    # The note's figures are what lint --fix then does.
    git("add", "-A")
    assert run_cli(capsys, "lint", "--fix").code in (0, 1)
    assert len(git("diff", "--name-only").splitlines()) == 3
    assert names_changed(git("diff", "-U0")) == 2


def test_the_lint_fix_note_names_no_rename_when_none(capsys):
    git("init", "-q")
    write_skill(Path("skills"), "xlsx", b"---\nname: xlsx\ndescription: Edit spreadsheets\nversion: 2\n---\n")
    note = next(note for note in init(capsys).data["notes"] if "lint --fix" in note)
    assert "would edit 1 SKILL.md file in place (fields no agent reads moved under metadata:)." in note
    assert "rename" not in note


def test_the_lint_fix_note_agrees_in_number_with_one_finding_and_one_rename(capsys):
    # newcomer en3: "rename 1 skill to their folder's name".
    git("init", "-q")
    write_skill(Path("skills"), "pdf-official", skill_md("pdf", "Read and fill PDF forms"))
    note = next(note for note in init(capsys).data["notes"] if "lint --fix" in note)
    assert note.startswith(
        "1 of the 1 lint finding has a mechanical fix, and the baseline .skillmem-lint-baseline.json already keeps it"
        " from failing a commit: skillmem lint --fix would edit 1 SKILL.md file in place (fields no agent reads moved"
        " under metadata:), and rename 1 skill to its folder's name, which changes"
    )


def test_the_newcomers_pack_re_pinned_keeps_every_key_and_the_capped_block(capsys, tmp_path):
    """The English collection as a vendored .claude/skills, a hand-written CLAUDE.md, AGENTS.md ignored."""
    archive = COLLECTIONS / "skills-en.tar.gz"
    if not archive.exists():
        pytest.skip(f"the shared collection {archive} is not beside this checkout (set SKILLMEM_COLLECTIONS)")
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path, filter="data") if sys.version_info >= (3, 12) else tar.extractall(tmp_path)
    git("init", "-q")
    Path(".claude").mkdir()
    os.replace(tmp_path / "skills-en" / "skills", ".claude/skills")
    Path("CLAUDE.md").write_text("# My project\n\nHand-written.\n")
    Path(".gitignore").write_text("AGENTS.md\n")
    first = init(capsys)
    note = next(note for note in first.data["notes"] if "lint --fix" in note)
    Path(".skillmem.yaml").write_text(own_settings(with_ignored=True))
    Path("AGENTS.md").write_text("")
    assert run_cli(capsys, "inject").code == 0
    before = files_of(Path.cwd())
    dry = init(capsys, "--dry-run")  # exit 2 before: the ignored AGENTS.md was refused
    assert dry.code == 0, dry.err
    run = init(capsys, "--force", "--repo", URL, "--rev", REV)
    assert run.code == 0, run.err
    after = files_of(Path.cwd())
    assert {path for path in after if after[path] != before.get(path)} == {".pre-commit-config.yaml"}
    assert yaml.safe_load(Path(".skillmem.yaml").read_text())["max_block_tokens"] == 2000
    # The note's figures on a real pack are what lint --fix does to it.
    files, renamed = (
        int(note.split(word)[0].split()[-1].replace(",", "")) for word in (" SKILL.md", " skills to their")
    )
    git("add", "-A")
    run_cli(capsys, "lint", "--fix")
    assert len(git("diff", "--name-only").splitlines()) == files
    assert names_changed(git("diff", "-U0")) == renamed
