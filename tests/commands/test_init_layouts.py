"""``skillmem init`` on the layouts repositories have: every agent's folders and prompt files, ignored
prompt files, skills at the top, a large block, an empty agent folder. In-process, with the real git."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml

from ..helpers import run_cli, skill_md, write_skill
from .test_init import init, tree_state


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def empty_repo():
    git("init", "-q")
    return Path.cwd()


def a_skill(folder: str, name: str = "pdf") -> None:
    write_skill(Path(folder), name, skill_md(name, "Extract text from PDF files"))


@pytest.mark.parametrize("folder", [".github/skills", ".gemini/skills", ".agents/skills", ".claude/skills"])
def test_each_agents_skills_folder_is_a_root(empty_repo, capsys, folder):
    # issue 32: GitHub Copilot reads .github/skills, Gemini CLI .gemini/skills, both .agents/skills.
    a_skill(folder)
    run = init(capsys)
    assert run.code == 0, run.err
    assert run.data["roots"] == [folder]
    created = "CLAUDE.md" if folder == ".claude/skills" else "AGENTS.md"  # Claude Code alone: the file it reads
    assert b"pdf" in Path(created).read_bytes()
    assert run.data["prompt_files"] == [created]


@pytest.mark.parametrize(
    ("files", "chosen"),
    [
        ({"GEMINI.md": "# Gemini\n"}, ["GEMINI.md"]),
        ({".github/copilot-instructions.md": "# Copilot\n"}, [".github/copilot-instructions.md"]),
        ({"AGENTS.md": "# A\n", "GEMINI.md": "# Gemini\n\n@AGENTS.md\n"}, ["AGENTS.md"]),  # imports it: left out
        (
            {"AGENTS.md": "# A\n", "CLAUDE.md": "# C\n", ".github/copilot-instructions.md": "# Copilot\n"},
            ["AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md"],
        ),
    ],
)
def test_the_prompt_files_the_agents_read_are_offered_where_they_exist(empty_repo, capsys, files, chosen):
    a_skill("skills")
    for path, text in files.items():
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text)
    run = init(capsys)
    assert run.data["prompt_files"] == chosen
    assert not Path("AGENTS.md").exists() or "AGENTS.md" in chosen
    for path, text in files.items():
        assert Path(path).read_text().startswith(text)
        assert ("<<<SKILL_INDEX_BEGIN>>>" in Path(path).read_text()) == (path in chosen)


def test_a_prompt_file_linked_to_another_is_one_prompt_file(empty_repo, capsys):
    a_skill(".agents/skills")
    Path(".claude").mkdir()
    Path(".claude/skills").symlink_to("../.agents/skills")  # one skill set for Claude Code and Codex
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").symlink_to("AGENTS.md")
    git("add", "-A")
    run = init(capsys)
    assert run.code == 0, run.err
    assert run.data["roots"] == [".agents/skills"]  # the linked folder is the same root, not a second one
    assert run.data["prompt_files"] == ["AGENTS.md"]
    assert Path("AGENTS.md").read_text().count("pdf") == 1
    assert os.path.islink("CLAUDE.md")


def test_a_configured_pair_of_names_for_one_file_is_refused_before_any_write(empty_repo, capsys):
    a_skill("skills")
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").symlink_to("AGENTS.md")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md, CLAUDE.md]\n")
    git("add", "-A")
    before = tree_state(empty_repo)
    run = init(capsys)
    assert run.code == 2
    assert "are one file" in run.error["error"]
    assert tree_state(empty_repo) == before


def test_an_ignored_agents_md_sends_the_block_to_claude_md_and_says_so(empty_repo, capsys):
    # newuser-3's M3: init created an AGENTS.md that .gitignore lists, so the block was never committed.
    a_skill("skills")
    Path(".gitignore").write_text("AGENTS.md\n")
    run = init(capsys)
    assert run.data["prompt_files"] == ["CLAUDE.md"]
    assert "git ignores AGENTS.md (.gitignore:1:AGENTS.md): the block goes into CLAUDE.md" in run.data["notes"]
    assert not Path("AGENTS.md").exists()
    assert "CLAUDE.md" in run.data["next"]


CLAUDE_ONLY_NOTE = "the block goes into CLAUDE.md: the repository shows Claude Code"


@pytest.mark.parametrize(
    ("folder", "other", "created"),
    [
        (".claude/skills", None, "CLAUDE.md"),  # newcomer en3: Claude Code alone, and AGENTS.md was created
        (".claude/skills", ".gemini/settings.json", "CLAUDE.md"),  # Gemini CLI reads GEMINI.md, not AGENTS.md
        (".claude/skills", ".codex/config.toml", "AGENTS.md"),  # Codex reads AGENTS.md
        (".claude/skills", ".github/skills/csv/SKILL.md", "AGENTS.md"),  # so do Copilot and VS Code
        ("skills", ".claude/settings.json", "AGENTS.md"),  # .claude/ alone is no sign budget reads either
    ],
)
def test_a_repository_of_claude_code_alone_gets_the_block_in_claude_md(empty_repo, capsys, folder, other, created):
    a_skill(folder)
    if other:
        Path(other).parent.mkdir(parents=True, exist_ok=True)
        Path(other).write_bytes(skill_md("csv", "Parse CSV files") if other.endswith("SKILL.md") else b"{}\n")
    run = init(capsys)
    assert run.code == 0, run.err
    assert run.data["prompt_files"] == [created]
    assert b"pdf" in Path(created).read_bytes()
    assert not Path("AGENTS.md" if created == "CLAUDE.md" else "CLAUDE.md").exists()
    said = [note for note in run.data["notes"] if note.startswith(CLAUDE_ONLY_NOTE)]
    assert len(said) == (created == "CLAUDE.md")
    # budget, which advised it, now finds the block where Claude Code reads it, or Codex where the repo shows it.
    read_by = run_cli(capsys, "budget").data["block"]["read_by"]
    assert read_by["claude-code" if created == "CLAUDE.md" else "codex"] == [created]


def test_claude_code_alone_with_claude_md_ignored_gets_agents_md_and_says_why(empty_repo, capsys):
    a_skill(".claude/skills")
    Path(".gitignore").write_text("CLAUDE.md\n")
    run = init(capsys)
    assert run.data["prompt_files"] == ["AGENTS.md"]
    assert "git ignores CLAUDE.md (.gitignore:1:CLAUDE.md): the block goes into AGENTS.md" in run.data["notes"]
    assert not any(note.startswith(CLAUDE_ONLY_NOTE) for note in run.data["notes"])
    assert any(note.startswith("Claude Code (CLAUDE.md or .claude/CLAUDE.md) reads no") for note in run.data["notes"])


def test_a_hand_written_claude_md_is_kept_byte_for_byte_outside_the_markers(empty_repo, capsys):
    a_skill(".claude/skills")
    mine = b"# Ours\r\n\r\nWritten by hand: caf\xe9 in Latin-1.\r\n"
    Path("CLAUDE.md").write_bytes(mine)
    run = init(capsys)
    assert run.data["prompt_files"] == ["CLAUDE.md"]
    assert not any(note.startswith(CLAUDE_ONLY_NOTE) for note in run.data["notes"])  # found, not chosen
    written = Path("CLAUDE.md").read_bytes()
    assert written.startswith(mine) and b"pdf" in written[len(mine) :]
    assert not Path("AGENTS.md").exists()
    before = tree_state(empty_repo)
    assert {item["action"] for item in init(capsys).data["files"]} == {"unchanged"}
    assert tree_state(empty_repo) == before


def test_both_prompt_files_ignored_stops_before_any_write_naming_the_rules(empty_repo, capsys):
    # The Chinese collection's .gitignore lists both.
    a_skill("skills")
    Path(".gitignore").write_text("# personal\nAGENTS.md\nCLAUDE.md\n")
    Path("AGENTS.md").write_text("# mine, not the repository's\n")
    before = tree_state(empty_repo)
    run = init(capsys)
    assert run.code == 2
    assert ".gitignore:2:AGENTS.md" in run.error["error"] and ".gitignore:3:CLAUDE.md" in run.error["error"]
    assert "un-ignore" in run.error["hint"] and "--prompt-file FILE" in run.error["hint"]
    assert tree_state(empty_repo) == before
    chosen = init(capsys, "--prompt-file", "GEMINI.md")  # one of the ways on
    assert chosen.code == 0, chosen.err
    assert chosen.data["prompt_files"] == ["GEMINI.md"]
    assert yaml.safe_load(Path(".skillmem.yaml").read_text())["prompt_files"] == ["GEMINI.md"]


@pytest.mark.parametrize("how", ["flag", "config"])
def test_an_ignored_prompt_file_named_by_hand_is_refused_too(empty_repo, capsys, how):
    a_skill("skills")
    Path(".gitignore").write_text("docs/\n")
    if how == "config":
        Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [docs/AGENTS.md]\n")
    before = tree_state(empty_repo)
    run = init(capsys, *(["--prompt-file", "docs/AGENTS.md"] if how == "flag" else []))
    assert run.code == 2
    assert "docs/AGENTS.md (.gitignore:1:docs/)" in run.error["error"]
    assert tree_state(empty_repo) == before


def test_a_tracked_prompt_file_an_ignore_rule_matches_is_fine(empty_repo, capsys):
    a_skill("skills")
    Path("AGENTS.md").write_text("# Agents\n")
    git("add", "AGENTS.md")
    Path(".gitignore").write_text("AGENTS.md\n")  # git commits a tracked file's changes all the same
    assert init(capsys).data["prompt_files"] == ["AGENTS.md"]


def test_prompt_file_with_an_existing_configuration_is_refused(empty_repo, capsys):
    a_skill("skills")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n")
    run = init(capsys, "--prompt-file", "CLAUDE.md")
    assert run.code == 2
    assert "prompt_files: in .skillmem.yaml" in run.error["hint"]  # init never rewrites it, --force or not


def test_a_template_at_the_top_is_left_out_and_the_top_is_no_root(empty_repo, capsys):
    # newuser-3's m12: anthropics/skills' template/SKILL.md made roots: ["."], listing the placeholder.
    a_skill("skills", "pdf")
    a_skill("skills", "docx")
    write_skill(Path("."), "template", skill_md("template-skill", "Replace with description of the skill"))
    run = init(capsys)
    assert run.data["roots"] == ["skills"]
    assert any(note.startswith("left out template/SKILL.md") for note in run.data["notes"])
    assert b"template-skill" not in Path("AGENTS.md").read_bytes()


def test_a_flat_collection_gets_a_root_per_skill_and_never_the_top(empty_repo, capsys):
    a_skill(".", "pdf")
    a_skill(".", "csv")
    run = init(capsys)
    assert run.data["roots"] == ["csv", "pdf"]
    assert any("each is a root of its own" in note for note in run.data["notes"])
    assert b"csv\npdf" in Path("AGENTS.md").read_bytes()


def test_a_large_block_is_warned_about_with_its_tokens_and_a_cap(empty_repo, capsys):
    # newuser-3's m8: CN's block is about 9,000 tokens a session, and init said nothing.
    for number in range(700):
        write_skill(Path("skills"), f"s{number}", skill_md(f"a-rather-long-skill-name-{number:04}", "Parse CSV files"))
    run = init(capsys)
    note = next(note for note in run.data["notes"] if note.startswith("the block is about"))
    tokens = run_cli(capsys, "stats").data["est_tokens"]
    assert f"about {tokens:,} tokens" in note
    setting = note[note.index("max_block_tokens:") :].split(" in ")[0]
    assert yaml.safe_load(setting) == {"max_block_tokens": 2000}  # pastes into .skillmem.yaml as it is


def test_a_capped_configuration_gets_no_size_warning_and_a_capped_block(empty_repo, capsys):
    for number in range(700):
        write_skill(Path("skills"), f"s{number}", skill_md(f"a-rather-long-skill-name-{number:04}", "Parse CSV files"))
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\nmax_block_tokens: 200\n")
    run = init(capsys)
    assert not any(note.startswith("the block is about") for note in run.data["notes"])
    # The block init writes is the one the hooks keep: capped, so the first commit's hook has nothing to change.
    assert run_cli(capsys, "verify", "--strict").code == 0
    assert b"700 skills: list them with skillmem search --domain" in Path("AGENTS.md").read_bytes()


@pytest.mark.parametrize(("folder", "said"), [("skills", True), (".claude/skills", False), (".agents/skills", False)])
def test_skills_no_agent_finds_natively_get_budgets_advice(empty_repo, capsys, folder, said):
    a_skill(folder)
    notes = init(capsys).data["notes"]
    advice = [note for note in notes if "skillmem budget" in note]
    assert len(advice) == int(said)  # .claude/skills: the block goes into CLAUDE.md, which Claude Code reads
    if said:
        assert advice[0].startswith("1 of 1 skill sits where neither Claude Code")  # one skill: it (en3 7)


@pytest.mark.parametrize(("quiet", "warned"), [(None, 2), ("quiet: [vendor-*]\n", 1), ("quiet: [vendor-*, ours]\n", 0)])
def test_skills_with_warnings_get_the_key_that_mutes_known_ones(empty_repo, capsys, quiet, warned):
    # A newcomer saw a collection's invalid-YAML warnings on each commit that changed the block; init named no way out.
    write_skill(Path("skills"), "vendor-a", skill_md("vendor-a", "Use when: it breaks"))  # invalid YAML
    write_skill(Path("skills"), "ours", skill_md("ours", "Use when: it breaks too"))
    write_skill(Path("skills"), "fine", skill_md("fine", "Parse CSV files"))
    if quiet:
        Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n" + quiet)
    notes = [note for note in init(capsys).data["notes"] if " warnings (skillmem index lists them)" in note]
    assert len(notes) == int(warned > 0)
    if warned:
        verb = "has" if warned == 1 else "have"
        assert notes[0].startswith(f"{warned} SKILL.md file{'s' * (warned != 1)} {verb} warnings")
        setting = notes[0][notes[0].index("quiet:") :].split(" in ")[0]
        assert yaml.safe_load(setting) == {"quiet": ["NAME", "PREFIX-*", "FOLDER/"]}  # the shape .skillmem.yaml takes


@pytest.mark.parametrize("folder", [".claude/skills", ".agents/skills", ".github/skills"])
def test_an_empty_agent_folder_is_the_example_for_a_first_skill(empty_repo, capsys, folder):
    # newuser-3's p6: with an empty .claude/skills, init said to add skills/pdf/SKILL.md.
    Path(folder).mkdir(parents=True)
    run = init(capsys)
    assert run.code == 2
    assert f"{folder}/<name>/SKILL.md" in run.error["hint"]


@pytest.mark.parametrize(
    ("files", "claude_code"),
    [
        (  # adopt2's newcomer: init said Claude Code learns of the skills from AGENTS.md, which it does not read
            {".gitignore": "CLAUDE.md\n", "AGENTS.md": "# Agents\n"},
            "for Claude Code, the block is in AGENTS.md, which Claude Code does not read, and git ignores CLAUDE.md,"
            " which it reads: un-ignore CLAUDE.md and commit it (`git check-ignore -v CLAUDE.md` names the rule), or"
            " create it (touch CLAUDE.md: skillmem never creates a prompt file) and add it to prompt_files",
        ),
        (  # not ignored, and absent: budget's advice, to add it to prompt_files
            {"AGENTS.md": "# Agents\n"},
            "for Claude Code, the block is in AGENTS.md, which Claude Code does not read: add CLAUDE.md to"
            " prompt_files (or a line @AGENTS.md in CLAUDE.md)",
        ),
        (
            {"AGENTS.md": "# Agents\n", "CLAUDE.md": "# Claude\n"},
            "Claude Code learns of it from the block in CLAUDE.md",
        ),
    ],
)
def test_the_note_on_skills_no_agent_finds_natively_is_true_for_each_agent(empty_repo, capsys, files, claude_code):
    write_skill(Path(".claude/skills/business"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    for path, text in files.items():
        Path(path).write_text(text)
    (note,) = [note for note in init(capsys).data["notes"] if "finds it natively" in note]  # one skill
    assert note.startswith("1 of 1 skill sits where neither Claude Code (.claude/skills/NAME/) nor Codex")
    assert claude_code in note
    assert "Codex learns of it from the block in AGENTS.md" in note
    assert note.endswith(". skillmem budget shows what each agent sees")


def codex_line_of_budget(capsys) -> str:
    """What `skillmem budget --text` tells to do for Codex when the block does not reach it."""
    out = run_cli(capsys, "budget", "--text", "--agent", "codex").out
    (line,) = [line.strip()[2:] for line in out.splitlines() if line.strip().startswith("- the block")]
    return line


@pytest.mark.parametrize("ignored", [True, False])
def test_codex_finding_the_skills_itself_is_told_when_git_ignores_agents_md(empty_repo, capsys, ignored):
    # lintonce 6: with .gitignore listing AGENTS.md, init put the block in CLAUDE.md and said only that Codex reads
    # no prompt file holding it; budget's advice for that case says git ignores AGENTS.md, and the ways on.
    a_skill(".agents/skills")
    if ignored:
        Path(".gitignore").write_text("AGENTS.md\n")
    else:  # CLAUDE.md chosen by hand: AGENTS.md is free to add
        Path(".skillmem.yaml").write_text("roots: [.agents/skills]\nprompt_files: [CLAUDE.md]\n")
    run = init(capsys)
    assert run.data["prompt_files"] == ["CLAUDE.md"]
    (note,) = [note for note in run.data["notes"] if note.startswith("Codex (AGENTS.md) reads no prompt file")]
    head = "Codex (AGENTS.md) reads no prompt file that holds the block, only its own listing of the skills: "
    tail = "skillmem budget --text says what each agent drops or never discovers, and how it learns of them"
    if not ignored:
        assert note == head + tail
        return
    # budget's own words for Codex, once a skill sits where Codex does not look and it prints what to do
    Path(".skillmem.yaml").write_text("roots: [.agents/skills, skills]\nprompt_files: [CLAUDE.md]\n")
    a_skill("skills", "csv")
    budget = codex_line_of_budget(capsys)
    assert budget.startswith("the block is in CLAUDE.md, which Codex does not read, and git ignores AGENTS.md")
    assert note == f"{head}for Codex, {budget}. {tail}"


@pytest.mark.parametrize(
    ("files", "prompt_files", "said"),
    [
        # newcomer W: a committed CLAUDE.md, a personal AGENTS.md git ignores; init said nothing of Codex
        ({".gitignore": "AGENTS.md\n", "AGENTS.md": "# mine\n", "CLAUDE.md": "# Claude\n"}, ["CLAUDE.md"], True),
        # AGENTS.md configured though git ignores it: the block reaches Codex on this machine only
        (
            {".gitignore": "AGENTS.md\n", "AGENTS.md": "# mine\n", "CLAUDE.md": "# C\n"},
            ["CLAUDE.md", "AGENTS.md"],
            True,
        ),
        ({"CLAUDE.md": "# Claude\n"}, ["CLAUDE.md"], False),  # no AGENTS.md: nothing shows Codex is used
        ({"AGENTS.md": "# A\n", "CLAUDE.md": "# C\n"}, ["AGENTS.md", "CLAUDE.md"], False),  # the block reaches it
    ],
)
def test_skills_codex_does_not_find_get_budgets_fix_when_agents_md_shows_codex(
    empty_repo, capsys, files, prompt_files, said
):
    a_skill(".claude/skills")
    a_skill(".claude/skills", "csv")
    for path, text in files.items():
        Path(path).write_text(text)
    if len(prompt_files) > 1:
        Path(".skillmem.yaml").write_text(f"roots: [.claude/skills]\nprompt_files: {prompt_files}\n")
    run = init(capsys)
    assert run.data["prompt_files"] == (["CLAUDE.md"] if said else prompt_files)
    notes = [note for note in run.data["notes"] if "Codex does not look" in note]
    assert len(notes) == int(said)
    if said:
        assert notes[0].startswith("2 of 2 skills sit where Codex does not look (.agents/skills/, .codex/skills/)")
        assert notes[0].endswith(". skillmem budget shows what each agent sees")
        assert f"for Codex, {codex_line_of_budget(capsys)}." in notes[0]  # budget's own fix, word for word
        assert any("Codex does not look" in line for line in init(capsys, "--text").out.splitlines())


def test_skill_md_files_left_out_are_counted_with_why(empty_repo, capsys):
    write_skill(Path(".claude/skills"), "pdf", skill_md("pdf", "Extract text from PDF files"))
    for name in ("release", "deploy"):
        write_skill(
            Path(".claude/skills"),
            name,
            f"---\nname: {name}\ndescription: Ship it\ndisable-model-invocation: true\n---\n",
        )
    run = init(capsys)
    (note,) = [note for note in run.data["notes"] if "left out of the block" in note]
    assert note == (
        "2 of 3 SKILL.md files left out of the block: only their user invokes them (disable-model-invocation: true)"
        " (skillmem index --text lists each)"
    )
    assert f"note: {note}" in init(capsys, "--text").out.splitlines()
    write_skill(Path(".claude/skills"), "bin", b"---\nname: bin\x00\n---\n")
    write_skill(
        Path(".claude/skills"), "gone", b"---\nname: gone\ndescription: x\ndisable-model-invocation: true\n---\n"
    )
    Path(".gitignore").write_text("/.claude/skills/gone/\n")  # never committed: the hooks never see it
    (note,) = [note for note in init(capsys).data["notes"] if "left out of the block" in note]
    assert note.startswith("3 of 4 SKILL.md files left out of the block: 2: only their user invokes them")
    assert "; 1: binary file" in note
    Path(".claude/skills/bin/SKILL.md").unlink()
    for name in ("release", "deploy"):
        Path(f".claude/skills/{name}/SKILL.md").write_text(f"---\nname: {name}\ndescription: Ship it\n---\n")
    assert not [note for note in init(capsys).data["notes"] if "left out of the block" in note]


def test_the_left_out_count_adds_up_to_every_skill_md_the_commit_holds(empty_repo, capsys):
    # lintonce 5 (cn2): skills-cn's 1,912 SKILL.md files were "13 of 1,899": the 13 duplicates counted nowhere.
    for folder, name in (("x/dup", "dup"), ("y/dup2", "dup"), ("z/dup3", "dup"), ("pdf", "pdf"), ("old", "old")):
        write_skill(Path("skills"), folder, skill_md(name, "Does a thing"))
    write_skill(Path("skills"), "user", "---\nname: user\ndescription: d\ndisable-model-invocation: true\n---\n")
    write_skill(Path("skills"), "zz-mine/dup", skill_md("dup", "Mine"))  # ignored: never committed, never counted
    Path(".gitignore").write_text("/skills/zz-mine/\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nexclude: [old]\nprompt_files: [AGENTS.md]\n")
    run = init(capsys)
    on_disk = len(list(Path("skills").rglob("SKILL.md")))
    assert on_disk == 7
    assert [item["why"] for item in run.data["files"] if item["path"] == "AGENTS.md"] == [
        "the skill index block: 2 skills"
    ]
    (note,) = [note for note in run.data["notes"] if "left out of the block" in note]
    assert note == (
        "4 of 6 SKILL.md files left out of the block: 2: the same name as a skill the block lists;"
        " 1: only its user invokes it (disable-model-invocation: true); 1: exclude: leaves it out"
        " (skillmem index --text lists each)"
    )


@pytest.mark.parametrize(
    ("files", "blind"),
    [
        # newcomer-aa: .agents/skills linked as .claude/skills, a personal AGENTS.md not yet made: Codex reads no block
        ({".gitignore": "AGENTS.md\n", "CLAUDE.md": "# C\r\n"}, "Codex (AGENTS.md) reads"),
        ({"AGENTS.md": "# A\n"}, "Claude Code (CLAUDE.md or .claude/CLAUDE.md) reads"),
        ({"AGENTS.md": "# A\n", "CLAUDE.md": "# C\n"}, None),  # each reads a file that holds the block
        ({"CLAUDE.md": "# C\n", "GEMINI.md": "# G\n\n@AGENTS.md\n"}, "Codex (AGENTS.md) reads"),
    ],
)
def test_an_agent_the_repository_shows_that_reads_no_block_is_sent_to_budget(empty_repo, capsys, files, blind):
    a_skill(".agents/skills")
    Path(".claude").mkdir()
    Path(".claude/skills").symlink_to("../.agents/skills")
    for path, text in files.items():
        Path(path).write_text(text)
    run = init(capsys)
    notes = [note for note in run.data["notes"] if "skillmem budget --text" in note]
    assert len(notes) == (blind is not None)
    if blind:
        head = f"{blind} no prompt file that holds the block, only its own listing of the skills: "
        tail = "skillmem budget --text says what each agent drops or never discovers, and how it learns of them"
        if ".gitignore" in files:  # lintonce 6: and that git ignores the file it reads, in budget's words
            said = "for Codex, the block is in CLAUDE.md, which Codex does not read, and git ignores AGENTS.md"
            assert notes[0].startswith(head + said) and notes[0].endswith(tail)
        else:
            assert notes[0] == head + tail


def test_an_agent_the_repository_does_not_show_is_not_said(empty_repo, capsys):
    a_skill(".claude/skills")
    Path("CLAUDE.md").write_text("# C\n")
    assert not [note for note in init(capsys).data["notes"] if "skillmem budget --text" in note]
