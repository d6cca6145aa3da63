from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.config import load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import UsageError

from .helpers import make_git_dir, run_cli, seed_tree, skill_md, write_skill


def test_flags_win_over_the_file_key_by_key():
    Path(".skillmem.yaml").write_text("roots: [a, b]\nprompt_files: [P.md]\nstrict: true\n")
    settings = load_settings(["flag-root"], None)
    assert settings.roots == ["flag-root"]
    assert settings.prompt_files == ["P.md"]
    assert settings.strict is True


def test_common_layouts_are_detected_when_nothing_is_configured():
    for folder in (".claude/skills", "skills", ".codex/skills"):
        Path(folder).mkdir(parents=True)
    Path("CLAUDE.md").write_text("x")
    Path("AGENTS.md").mkdir()  # a folder is not a prompt file
    settings = load_settings()
    assert settings.roots == [".claude/skills", ".codex/skills", "skills"]
    assert settings.prompt_files == ["CLAUDE.md"]


def test_nothing_found_is_a_usage_error_whose_hint_shows_the_config():
    settings = load_settings()
    with pytest.raises(UsageError) as raised:
        require_roots(settings)
    assert raised.value.hint.splitlines() == [
        "pass --root DIR, run 'skillmem init' to set it all up in one step, or take these steps:",
        "printf '%s\\n' '{roots: [\"skills\"], prompt_files: [\"AGENTS.md\"]}' > .skillmem.yaml",
        "touch AGENTS.md",
        "git add .skillmem.yaml AGENTS.md",
    ]
    with pytest.raises(UsageError, match="no prompt file"):
        require_prompt_files(settings)


def test_the_first_setup_hint_names_where_the_skills_are_and_pastes_as_valid_yaml():
    import shlex
    import subprocess

    import yaml

    subprocess.run(["git", "init", "-q"], check=True)
    (Path("反重力 - 中文/skills/数据库/pg")).mkdir(parents=True)
    Path("反重力 - 中文/skills/数据库/pg/SKILL.md").write_text("---\nname: pg\ndescription: d\n---\n")
    Path("CLAUDE.md").write_text("# Claude\n")
    with pytest.raises(UsageError) as raised:
        require_roots(load_settings(prompt_files=["CLAUDE.md"]))
    steps = raised.value.hint.splitlines()[1:]
    config = shlex.split(steps[0])[2]
    assert yaml.safe_load(config) == {"roots": ["反重力 - 中文/skills"], "prompt_files": ["CLAUDE.md"]}
    assert steps[1:] == ["git add .skillmem.yaml CLAUDE.md"]  # CLAUDE.md exists: nothing to touch


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        ("rots: [a]\n", "unknown key 'rots'", "did you mean 'roots'? the keys are: roots, prompt_files, strict, write"),
        ("roots: {skills: 1}\n", "'roots' must be a path or a list of paths", "roots: [path, other/path]"),
        ("prompt_files: [1]\n", "'prompt_files' must be a path or a list of paths", "prompt_files:"),
        ("strict: maybe\n", "'strict' must be a bool", "strict: true"),
        ("exclude: 3\n", "'exclude' must be a list of skill names", "exclude: [my-private-skill"),
        ("domains: {x: nowhere}\n", "'nowhere' is not a domain", "the domains are: security, testing"),
        ("preamble: [a]\n", "'preamble' must be one line of text", "preamble:"),
        ("- a\n", "must be a mapping", "roots: [skills]"),
        ("roots: [a\n", "is not valid YAML", "roots: [skills]"),
    ],
)
def test_bad_configuration_names_the_key(text, message, hint):
    Path(".skillmem.yaml").write_text(text)
    with pytest.raises(UsageError) as raised:
        load_settings()
    assert message in raised.value.message
    assert hint in raised.value.hint


def test_an_empty_config_file_is_no_configuration():
    Path(".skillmem.yaml").write_text("")
    assert load_settings(["r"], ["p"]).roots == ["r"]


def test_the_config_is_found_from_a_subfolder_and_its_paths_are_relative_to_its_folder(tmp_path):
    make_git_dir(Path(".git"))  # the repository's root: the search stops here
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\nwrite: SKILLS_INDEX.md\n")
    Path("docs/deep").mkdir(parents=True)
    os.chdir("docs/deep")
    settings = load_settings()
    assert settings.roots == ["../../skills"]
    assert settings.prompt_files == ["../../AGENTS.md"]
    assert settings.write == "../../SKILLS_INDEX.md"
    assert settings.config_path == "../../.skillmem.yaml"


def test_the_search_upward_stops_at_the_repository_root():
    Path(".skillmem.yaml").write_text("roots: [outer]\n")
    make_git_dir(Path("repo/.git"))
    os.chdir("repo")
    assert load_settings().config_path is None


def test_layouts_are_found_at_the_repository_root_from_a_subfolder():
    make_git_dir(Path(".git"))
    Path("skills").mkdir()
    Path("docs/a").mkdir(parents=True)
    Path("AGENTS.md").write_text("x")
    os.chdir("docs/a")
    settings = load_settings()
    assert settings.roots == ["../../skills"]
    assert settings.prompt_files == ["../../AGENTS.md"]


def test_a_prompt_file_that_imports_another_is_left_out_of_auto_detection():
    Path("skills").mkdir()
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Claude\n\nSee @AGENTS.md for everything.\n")
    settings = load_settings()
    assert settings.prompt_files == ["AGENTS.md"]
    assert settings.skipped_prompt_files == [
        {"prompt_file": "CLAUDE.md", "reason": "it imports AGENTS.md (@AGENTS.md)"}
    ]
    # configured explicitly, both are used
    assert load_settings(None, ["AGENTS.md", "CLAUDE.md"]).prompt_files == ["AGENTS.md", "CLAUDE.md"]


def test_an_import_in_a_code_span_or_of_another_file_does_not_count():
    Path("skills").mkdir()
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("Write `@AGENTS.md` to import it. @docs/other.md\n")
    assert load_settings().prompt_files == ["AGENTS.md", "CLAUDE.md"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_auto_detection_skips_what_git_ignores_unless_configured():
    subprocess.run(["git", "init", "-q"], check=True)
    Path(".gitignore").write_text(".claude/\nCLAUDE.md\n")
    Path(".claude/skills/my-private").mkdir(parents=True)
    Path("skills").mkdir()
    Path("AGENTS.md").write_text("x")
    Path("CLAUDE.md").write_text("x")
    settings = load_settings()
    assert settings.roots == ["skills"]
    assert settings.prompt_files == ["AGENTS.md"]
    assert settings.skipped_prompt_files == [{"prompt_file": "CLAUDE.md", "reason": "git ignores it"}]
    Path(".skillmem.yaml").write_text("roots: [.claude/skills, skills]\nprompt_files: [CLAUDE.md]\n")
    settings = load_settings()
    assert (settings.roots, settings.prompt_files) == ([".claude/skills", "skills"], ["CLAUDE.md"])


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_auto_detection_keeps_what_git_tracks_though_an_ignore_rule_matches_it(capsys):
    from skillmem_hook.hooks.index import skill_index

    subprocess.run(["git", "init", "-q"], check=True)
    Path(".gitignore").write_text(".claude/\n*.md\n!SKILL.md\n")
    Path(".claude/skills/team-skill").mkdir(parents=True)
    Path(".claude/skills/team-skill/SKILL.md").write_text("---\nname: team-skill\ndescription: Shared\n---\n")
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Mine\n")  # ignored and untracked: stays out
    subprocess.run(["git", "add", "-f", ".claude/skills", "AGENTS.md"], check=True)
    settings = load_settings()
    assert (settings.roots, settings.prompt_files) == ([".claude/skills"], ["AGENTS.md"])
    assert skill_index([]) == 3  # the block is written to the tracked AGENTS.md, to be staged
    assert "team-skill" in Path("AGENTS.md").read_text()
    assert "AGENTS.md: the skill index was updated; stage it and commit again" in capsys.readouterr().err


def run_in_a_child(*args, cwd):
    """The CLI in a subprocess, so that a hang fails the test instead of stalling it."""
    command = [sys.executable, "-m", "skillmem_hook", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=30, cwd=cwd)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_config_that_is_a_fifo_or_an_endless_device_is_refused_at_once(tmp_path, kind):
    make_git_dir(tmp_path / ".git")  # a repository's own: outside one, a link to a device others may write is not used
    config = tmp_path / ".skillmem.yaml"
    if kind == "fifo":
        os.mkfifo(config)
    else:
        config.symlink_to("/dev/zero")
    result = run_in_a_child("prompt", "--root", "skills", cwd=tmp_path)
    assert result.returncode == 2
    error = json.loads(result.stderr)["error"]
    assert (
        error
        == f".skillmem.yaml is {'a FIFO (named pipe)' if kind == 'fifo' else 'a character device'}, not a regular file"
    )


def test_a_huge_config_is_refused_by_its_size_before_it_is_parsed():
    Path(".skillmem.yaml").write_bytes(b"roots: [" + b"a, " * 10_000_000 + b"a]\n")
    with pytest.raises(UsageError, match=r"too large \(30,000,011 bytes\); a configuration holds at most 65,536 bytes"):
        load_settings()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("roots: " + "[" * 5000 + "]" * 5000 + "\n", "'roots' is nested too deeply"),
        ("strict: true\nwrite: " + "[" * 4 + "]" * 4 + "\n", "'write' is nested too deeply"),
        ("roots:\n" + "- " * 3000 + "a\n", "'roots' is nested too deeply"),
        ('roots: ["a\\0b"]\n', "'roots' must be a path or a list of paths"),
        ('roots: "a\\0b"\n', "'roots' must be a path or a list of paths"),
        ('prompt_files: ["a\\ud800"]\n', "'prompt_files' must be a path or a list of paths"),
        ('roots: ""\n', "'roots' must be a path or a list of paths"),
        ('write: "x\\0"\n', "'write' must be a path"),
        ('write: ""\n', "'write' must be a path"),
    ],
)
def test_values_no_path_can_be_are_a_clear_error_naming_the_key(text, message):
    Path(".skillmem.yaml").write_text(text)
    with pytest.raises(UsageError) as raised:
        load_settings()
    assert message in raised.value.message


@pytest.mark.parametrize("key", ["roots", "prompt_files", "exclude", "quiet"])
def test_one_text_where_a_list_goes_is_a_list_of_one(key):
    Path(".skillmem.yaml").write_text(f"{key}: .claude/skills\n")
    assert getattr(load_settings(), key) == [".claude/skills"]


def test_one_root_and_one_prompt_file_as_text_index_and_verify(capsys):
    seed_tree(Path(".claude/skills"))
    Path("CLAUDE.md").write_text("# Claude\n")
    Path(".skillmem.yaml").write_text("roots: .claude/skills\nprompt_files: CLAUDE.md\n")
    assert run_cli(capsys, "inject").code == 0
    run = run_cli(capsys, "verify")
    assert (run.code, run.data["skills"]) == (0, 3)


def test_a_list_of_paths_at_the_allowed_depth_is_read():
    Path(".skillmem.yaml").write_text("roots:\n  - a\n  - b\nprompt_files: [P.md]\nwrite: I.md\n")
    settings = load_settings()
    assert (settings.roots, settings.prompt_files, settings.write) == (["a", "b"], ["P.md"], "I.md")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", "DEFAULT"), ("preamble: false\n", None), ("preamble: 'Skills here; read SKILL.md first.'\n", "own")],
)
def test_the_preamble_key_changes_or_turns_off_the_line_above_a_new_block(capsys, text, expected):
    from skillmem_hook.block.markers import DEFAULT_PREAMBLE

    from .helpers import run_cli, skill_md, write_skill

    write_skill(Path("skills"), "a", skill_md("a"))
    Path("AGENTS.md").write_text("# Agents\n")
    Path(".skillmem.yaml").write_text("roots: [skills]\nprompt_files: [AGENTS.md]\n" + text)
    assert run_cli(capsys, "inject").code == 0
    head = Path("AGENTS.md").read_text().split("<<<SKILL_INDEX_BEGIN>>>")[0]
    line = {"DEFAULT": DEFAULT_PREAMBLE, None: None, "own": "Skills here; read SKILL.md first."}[expected]
    assert head == ("# Agents\n\n" + line + "\n\n" if line else "# Agents\n\n")
    assert run_cli(capsys, "verify", "--strict").code == 0


def test_an_import_shown_in_a_code_block_does_not_count_and_mutual_imports_keep_both():
    Path("skills").mkdir()
    Path("AGENTS.md").write_text("# Agents\n")
    Path("CLAUDE.md").write_text("# Claude\n\nTo import, write:\n\n```markdown\n@AGENTS.md\n```\n")
    assert load_settings().prompt_files == ["AGENTS.md", "CLAUDE.md"]
    Path("AGENTS.md").write_text("See @CLAUDE.md too.\n")
    Path("CLAUDE.md").write_text("@AGENTS.md\n")
    settings = load_settings()
    assert settings.prompt_files == ["AGENTS.md", "CLAUDE.md"]
    assert settings.skipped_prompt_files == []


@pytest.mark.parametrize("value", ["0", "-5", "true", "'2000'", "[2000]", "1.5"])
def test_max_block_tokens_must_be_a_whole_number_of_tokens(value, capsys):
    from pathlib import Path

    from skillmem_hook.cli import main

    Path(".skillmem.yaml").write_text(f"max_block_tokens: {value}\nroots: [skills]\n")
    Path("skills").mkdir()
    assert main(["prompt"]) == 2
    assert "max_block_tokens" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # The newcomer's case: a section appended below one already there.
        (
            "roots: [skills]\nlint: {baseline: b.json}\nstrict: true\nlint: {select: [SK2]}\n",
            "the key 'lint' is given twice, on lines 2 and 4",
        ),
        ("lint:\n  select: [SK1]\n  select: [SK2]\n", "the key 'lint: select' is given twice, on lines 2 and 3"),
        ("domains: {a: devops, 'a': testing}\n", "the key 'domains: a' is given twice, on line 1"),
        (
            "budget:\n  parameters:\n    codex: {listing_fraction: 0.01}\n    codex: {scan_depth: 3}\n",
            "the key 'budget: parameters: codex' is given twice, on lines 3 and 4",
        ),
        (
            "lint:\n  per_path_ignores:\n    'a/*': [SK1]\n    a/*: [SK2]\n",
            "the key 'lint: per_path_ignores: a/*' is given twice, on lines 3 and 4",
        ),
    ],
)
def test_a_key_given_twice_at_any_level_is_refused_with_both_lines(text, message, capsys):
    Path(".skillmem.yaml").write_text(text)
    run = run_cli(capsys, "index")
    assert run.code == 2
    assert run.error["error"] == f".skillmem.yaml: {message}; YAML would keep only the last"
    assert run.error["hint"].startswith("give '")


def test_the_same_key_in_two_mappings_is_no_repetition():
    Path(".skillmem.yaml").write_text(
        "aliases: {a: [x], b: [y]}\ndomains: {a: devops, b: devops}\nlint: {select: [SK1]}\n"
        "budget: {parameters: {codex: {listing_fraction: 0.01}, claude-code: {listing_fraction: 0.01}}}\n"
    )
    settings = load_settings()
    assert settings.domains == {"a": "devops", "b": "devops"}
    assert settings.aliases == {"a": ["x"], "b": ["y"]}


@given(st.lists(st.from_regex(r"[a-z][a-z-]{0,8}", fullmatch=True), min_size=1, max_size=6, unique=True), st.data())
def test_a_mapping_is_read_whole_and_refused_only_for_a_repeated_key(names, data):
    """Aliases of distinct skill names read as written; one name repeated anywhere is refused, naming it."""
    lines = [f"  '{name}': [w{number}]" for number, name in enumerate(names)]
    Path(".skillmem.yaml").write_text("aliases:\n" + "\n".join(lines) + "\n")
    assert load_settings().aliases == {name: [f"w{number}"] for number, name in enumerate(names)}
    repeated = data.draw(st.sampled_from(names))
    at = data.draw(st.integers(0, len(lines)))
    Path(".skillmem.yaml").write_text(
        "aliases:\n" + "\n".join([*lines[:at], f"  '{repeated}': [z]", *lines[at:]]) + "\n"
    )
    with pytest.raises(UsageError, match=f"the key 'aliases: {repeated}' is given twice"):
        load_settings()


def _another_user() -> str | None:
    """Why a test cannot act as another local user (``nobody``), or None when it can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "acting as another user needs root (runuser -u nobody)"
    if shutil.which("runuser") is None:
        return "runuser is not installed"
    return None


@pytest.mark.skipif(_another_user() is not None, reason=str(_another_user()))
def test_another_users_config_in_a_shared_sticky_folder_configures_no_one_else():
    """H6-1: like git's safe.directory, a .skillmem.yaml another user left above the start folder is not used."""
    shared = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        shared.chmod(0o1777)
        script = (
            "mkdir -p .evil/x"
            " && printf -- '---\\nname: helper\\ndescription: Helpful\\n---\\nrun curl\\n' > .evil/x/SKILL.md"
            " && printf 'roots: [.evil]\\nprompt_files: [scratch/notes.txt]\\n' > .skillmem.yaml"
        )
        subprocess.run(["runuser", "-u", "nobody", "--", "sh", "-c", script], cwd=shared, check=True, timeout=30)
        (shared / "scratch").mkdir()
        (shared / "scratch/notes.txt").write_text("notes\n")
        result = run_in_a_child("inject", cwd=shared / "scratch")
        assert (shared / "scratch/notes.txt").read_text() == "notes\n"
        assert result.returncode == 2
        note = result.stderr.splitlines()[0]
        assert note.startswith(f"skillmem: {shared}/.skillmem.yaml is not used: the file: another user (uid ")
        assert "copy it into a folder only you may write" in note
        read = run_in_a_child("read", "helper", cwd=shared / "scratch")
        assert read.returncode == 2 and "run curl" not in read.stdout
    finally:
        shutil.rmtree(shared)


def test_a_config_in_a_folder_others_may_write_is_not_used_outside_a_repository(capsys):
    Path("shared").mkdir(mode=0o777)
    Path("shared").chmod(0o777)
    Path("shared/.skillmem.yaml").write_text("roots: [skills]\n")
    Path("shared/mine").mkdir()
    os.chdir("shared/mine")
    settings = load_settings(roots=["."], prompt_files=["x.md"])
    assert settings.config_path is None
    assert settings.base == os.getcwd()
    assert capsys.readouterr().err == (  # this user's own folder: the mode is the fix (H7-3), not a copy
        f"skillmem: {os.path.dirname(os.getcwd())}/.skillmem.yaml is not used: its folder "
        f"{os.path.dirname(os.getcwd())}: others may write to it (mode 777), and it is not inside a git repository "
        "you own, so another user may have changed it; once you have read it, let no one else write to it: "
        "chmod go-w ..\n"
    )
    Path("..").chmod(0o755)  # the same file in a folder only its owner may write is used
    assert load_settings().config_path == "../.skillmem.yaml"


def test_a_users_own_config_made_under_umask_002_is_mended_by_chmod_and_never_overwritten_by_the_hint(tmp_path):
    """H7-3: a user's own .skillmem.yaml at 664 was refused with "copy it into a folder only you may write", and
    the setup hint said `echo '{roots: ...}' > .skillmem.yaml`: it overwrote their file, again at 664, a loop."""
    project = tmp_path / "proj"
    write_skill(project / "skills", "pdf", skill_md("pdf", "Extract text"))
    config = b"roots: [skills]\nprompt_files: [NOTES.md]\n"
    (project / ".skillmem.yaml").write_bytes(config)
    (project / "NOTES.md").write_text("# n\n")
    for path, mode in ((project / ".skillmem.yaml", 0o664), (project / "NOTES.md", 0o664), (project, 0o775)):
        path.chmod(mode)
    result = run_in_a_child("inject", "--text", cwd=project)
    assert result.returncode == 2
    note, error, hint = result.stderr.splitlines()
    assert note.endswith("let no one else write to it: chmod go-w .skillmem.yaml .")
    assert error.startswith("skillmem inject: no prompt file given")
    why = note.split(" is not used: ")[1]
    assert hint == f"  pass --prompt-file FILE, or mend .skillmem.yaml, which was not used: {why}"
    assert "printf" not in result.stderr and "touch" not in result.stderr and "git add" not in result.stderr
    subprocess.run(["bash", "-c", "chmod go-w .skillmem.yaml ."], cwd=project, check=True)  # the fix, as typed
    assert run_in_a_child("inject", "--text", cwd=project).returncode == 0
    assert (project / ".skillmem.yaml").read_bytes() == config
    assert b"pdf" in (project / "NOTES.md").read_bytes()


def test_a_config_of_ones_own_in_a_shared_sticky_folder_is_copied_not_chmodded(tmp_path, capsys):
    """chmod go-w on a shared folder (/tmp) is no fix: the copy is, as for another user's file."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (shared / ".skillmem.yaml").write_text("roots: [skills]\n")
    (shared / "mine").mkdir()
    os.chdir(shared / "mine")
    assert load_settings(roots=["."], prompt_files=["x.md"]).config_path is None
    note = capsys.readouterr().err
    assert "mode 1777" in note and "copy it into a folder only you may write" in note and "chmod" not in note


def test_inside_a_repository_its_config_is_its_content_whoever_may_write_its_folder():
    make_git_dir(Path("repo/.git"))
    Path("repo/team").mkdir(mode=0o777)
    Path("repo/team").chmod(0o777)
    Path("repo/team/.skillmem.yaml").write_text("roots: [skills]\n")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # a file another user owns (a build run with sudo) counts too
        os.chown("repo/team/.skillmem.yaml", 65534, 65534)
    os.chdir("repo/team")
    assert load_settings().config_path == ".skillmem.yaml"


@pytest.mark.parametrize("dot_git", ["fifo", "broken link", "other text", "gitdir: elsewhere"])
def test_only_a_git_folder_or_gitdir_file_makes_a_repository_that_lends_trust_to_a_config(dot_git, capsys):
    """fixh10: the configuration's trust asked only that something named .git be there (a FIFO, a broken link),
    where the kept files' home skips those and looks higher: one rule now, ``locations.holds_repository``."""
    Path("proj").mkdir()
    if dot_git == "fifo":
        os.mkfifo("proj/.git")
    elif dot_git == "broken link":
        os.symlink("nowhere", "proj/.git")
    else:
        Path("proj/.git").write_text(dot_git + "\n")
    Path("proj/.skillmem.yaml").write_text("roots: [skills]\n")
    Path("proj/.skillmem.yaml").chmod(0o666)  # others may write it: used only inside a repository of this user's
    os.chdir("proj")
    used = load_settings(roots=["."], prompt_files=["x.md"]).config_path
    assert used == (".skillmem.yaml" if dot_git.startswith("gitdir:") else None)
    if used is None:
        note = capsys.readouterr().err
        assert "others may write to it (mode 666), and it is not inside a git repository you own" in note


def test_a_git_fifo_in_a_folder_of_ones_own_repository_is_skipped_as_git_skips_it():
    """The same rule the other way: below this user's repository, a stray .git that is none is no boundary."""
    make_git_dir(Path("repo/.git"))
    Path("repo/team").mkdir()
    os.mkfifo("repo/team/.git")
    Path("repo/team/.skillmem.yaml").write_text("roots: [skills]\n")
    Path("repo/team/.skillmem.yaml").chmod(0o666)
    os.chdir("repo/team")
    assert load_settings().config_path == ".skillmem.yaml"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
def test_a_repository_another_user_owns_lends_no_trust_to_a_config_in_a_shared_folder():
    """An attacker's .git beside their .skillmem.yaml (a sticky /tmp) does not make the file a repository's."""
    Path("shared").mkdir()
    make_git_dir(Path("shared/.git"))
    Path("shared/.skillmem.yaml").write_text("roots: [skills]\n")
    for path in ("shared", "shared/.git", "shared/.skillmem.yaml"):
        os.chown(path, 65534, 65534)
    os.chdir("shared")
    assert load_settings(roots=["."], prompt_files=["x.md"]).config_path is None


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
def test_a_git_folder_another_user_left_above_makes_no_repository_of_a_shared_folder(capsys):
    """/tmp/.git and /tmp/.claude/skills left by another user: a run in /tmp/mine reads its own folder, not theirs."""
    make_git_dir(Path("shared/.git"))
    Path("shared/.claude/skills/helper").mkdir(parents=True)
    Path("shared/.claude/skills/helper/SKILL.md").write_text("---\nname: helper\ndescription: Helpful\n---\n")
    Path("shared/mine").mkdir()
    for path in ("shared", "shared/.git"):
        os.chown(path, 65534, 65534)
    os.chdir("shared/mine")
    settings = load_settings()
    assert settings.base == os.getcwd()
    assert not any(".claude" in root for root in settings.roots)
    assert "is not taken as the repository: another user owns it" in capsys.readouterr().err
    for path in ("..", "../.git"):  # the same layout in a folder this user owns is the repository, as before
        os.chown(path, 0, 0)
    assert load_settings().base == os.path.dirname(os.getcwd())


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
@pytest.mark.parametrize("sudo", [None, "1000"])
def test_for_root_a_git_folder_another_user_left_in_a_root_owned_shared_folder_is_not_its_own(sudo, monkeypatch):
    """H7-1: root owns /tmp, so the folder's owner alone passed; git checks the .git too, and so does skillmem."""
    if sudo is None:
        monkeypatch.delenv("SUDO_UID", raising=False)
    else:
        monkeypatch.setenv("SUDO_UID", sudo)
    make_git_dir(Path("shared/.git"))
    Path("shared/evil/pwn").mkdir(parents=True)
    Path("shared/evil/pwn/SKILL.md").write_text("---\nname: pwn\ndescription: Extract text\n---\n")
    Path("shared/.skillmem.yaml").write_text("roots: [evil]\n")
    Path("shared/victim").mkdir()
    for path in ("shared/.git", "shared/.skillmem.yaml", "shared/evil"):
        os.chown(path, 65534, 65534)
    os.chdir("shared/victim")
    settings = load_settings(prompt_files=["x.md"])
    assert settings.config_path is None
    assert settings.base == os.getcwd()
    os.chown("../.git", 0, 0)  # root's own .git there: its repository, as before
    assert load_settings(prompt_files=["x.md"]).config_path == "../.skillmem.yaml"


@pytest.mark.skipif(shutil.which("dash") is None, reason="dash is not installed")
@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_the_setup_hint_pasted_into_any_shell_writes_the_roots_as_they_are(shell):
    """H8-4: `echo '{roots: ["a\\\\nb"]}' > .skillmem.yaml` in dash, whose echo reads backslash escapes, wrote the
    root a\\nb as a line break; printf '%s\\n' writes the configuration as it is shown."""
    import yaml

    subprocess.run(["git", "init", "-q"], check=True)
    write_skill(Path("a\\nb"), "pdf", skill_md("pdf", "Extract text"))
    with pytest.raises(UsageError) as raised:
        require_roots(load_settings())
    steps = raised.value.hint.splitlines()[1:]
    assert steps[0].startswith("printf '%s\\n' ")
    subprocess.run([shell, "-c", " && ".join(steps)], check=True)
    assert yaml.safe_load(Path(".skillmem.yaml").read_text()) == {"roots": ["a\\nb"], "prompt_files": ["AGENTS.md"]}
    assert load_settings().roots == ["a\\nb"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
def test_a_refused_folder_or_config_named_with_a_line_break_is_said_on_one_line(capsys):
    """H8-5: the notes printed the folder's name raw: a crafted name faked a line of skillmem's own."""
    fake = "shared\nskillmem: all good\x1b[2K"
    make_git_dir(Path(fake, ".git"))
    Path(fake, "mine").mkdir()
    Path(fake, "other").mkdir()
    Path(fake, "other", ".skillmem.yaml").write_text("roots: [skills]\n")
    for path in (fake, f"{fake}/.git", f"{fake}/other", f"{fake}/other/.skillmem.yaml"):
        os.chown(path, 65534, 65534)
    os.chdir(f"{fake}/mine")
    load_settings()
    os.chdir("../other")
    load_settings()
    err = capsys.readouterr().err
    repository, config = err.splitlines()
    assert repository.startswith("skillmem: ") and "shared\\nskillmem: all good\\x1b[2K is not taken as" in repository
    assert "shared\\nskillmem: all good\\x1b[2K/other/.skillmem.yaml is not used" in config


def test_the_setup_hint_adds_a_prompt_file_named_like_a_pattern_literally():
    """H8-2: `git add .skillmem.yaml *.md` would add every untracked Markdown file."""
    from skillmem_hook.setup_hint import first_setup_hint

    assert first_setup_hint(["skills"], ["*.md"]).splitlines()[-1] == "git add .skillmem.yaml ':(literal)*.md'"
