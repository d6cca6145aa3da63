"""Every limit a user meets, at its edge: one under, exactly at, and one over (issue 34's first habit).

Each row names a limit and a probe. The probe builds real files whose size is the limit plus an offset
(-1, 0 or +1), runs the command or public function a user meets, and says whether the limit bit
(refused, cut, collapsed, left out, "... and N more"). Every limit here is inclusive: a thing exactly
at it passes, so the test fails when a comparison slips between < and <= (or > and >=).
tests/README.md ("Five habits") lists the rows; tests/mutants.yaml flips the comparisons.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from skillmem_hook.adopt.lint_baseline import NAMED_AT_MOST
from skillmem_hook.agents.library import MAX_TOP_K, SkillLibrary
from skillmem_hook.agents.mcp_tools import ECHO_CHARS, MAX_INTENT_CHARS, MAX_NAME_CHARS, call_tool
from skillmem_hook.block.markers import LISTED_LINES
from skillmem_hook.block.render import estimate_tokens
from skillmem_hook.budget.rules import (
    CLAUDE_CODE,
    CLAUDE_CODE_PARAMETERS,
    CODEX,
    CODEX_PARAMETERS,
    COPILOT_CLI,
    COPILOT_CLI_PARAMETERS,
)
from skillmem_hook.catalog.discovery.safe_read import MAX_SKILL_BYTES
from skillmem_hook.catalog.store.records import DamagedFile, read_records, write_records_quietly
from skillmem_hook.catalog.store.trust import read_kept_file
from skillmem_hook.commands.budget import LISTED
from skillmem_hook.commands.route import MAX_INPUT_BYTES, route_hook_input
from skillmem_hook.commands.search import TEXT_DESCRIPTION as SEARCH_TEXT_DESCRIPTION
from skillmem_hook.errors import UsageError
from skillmem_hook.hooks.report import MAX_WARNINGS, describe_skipped, describe_warnings
from skillmem_hook.lint.paths import OUTSIDE, resolve_inside
from skillmem_hook.lint.quality import MAX_BODY_LINES
from skillmem_hook.lint.spec import MAX_COMPATIBILITY, MAX_DESCRIPTION, MAX_NAME
from skillmem_hook.text_lines import MAX_NAMES

from .helpers import run_cli, run_git, skill_md, write_skill

BEGIN, END = "<<<SKILL_INDEX_BEGIN>>>", "<<<SKILL_INDEX_END>>>"
CLAUDE_SKILLS = Path(".claude/skills")
AGENTS_SKILLS = Path(".agents/skills")  # where Codex, Copilot CLI and VS Code look


def _budget(capsys, agent, *flags):
    root = CLAUDE_SKILLS if agent == CLAUDE_CODE else AGENTS_SKILLS
    run = run_cli(capsys, "budget", "--root", root, "--agent", agent, *flags)
    (report,) = run.data["agents"]
    return report


# --- the block -------------------------------------------------------------------------------------------


def block_cap(offset, capsys):
    """``--max-block-tokens``: a block ``offset`` tokens over the cap collapses a domain; one that fits is whole."""
    for domain, text in (("testing", "write unit tests"), ("docs-writing", "write the docs")):
        for index in range(6):
            write_skill(Path("skills"), f"{domain}-{index}", skill_md(f"{domain}-skill-{index:04}", text))
    Path("AGENTS.md").write_text("# Agents\n")
    assert run_cli(capsys, "inject", "--root", "skills", "--prompt-file", "AGENTS.md").code == 0
    whole = Path("AGENTS.md").read_text()
    tokens = estimate_tokens(len(whole[whole.index(BEGIN) : whole.index(END) + len(END)].encode()))
    Path("AGENTS.md").write_text("# Agents\n")
    cap = str(tokens - offset)
    assert (
        run_cli(capsys, "inject", "--root", "skills", "--prompt-file", "AGENTS.md", "--max-block-tokens", cap).code == 0
    )
    return Path("AGENTS.md").read_text() != whole


def marker_lines_listed(offset, capsys):
    """More than one marker pair: the error names LISTED_LINES marker lines, then '... and N more'."""
    write_skill(Path("skills"), "a", skill_md("a", "does a"))
    count = LISTED_LINES + offset  # marker lines: pairs, and a lone BEGIN when odd
    lines = [f"{BEGIN}\n{END}\n"] * (count // 2) + [f"{BEGIN}\n"] * (count % 2)
    Path("AGENTS.md").write_text("# Agents\n" + "".join(lines))
    run = run_cli(capsys, "verify", "--root", "skills", "--prompt-file", "AGENTS.md")
    assert run.code == 2
    return " more" in run.error["error"]


# --- reading a skill ----------------------------------------------------------------------------------------


def read_cap(offset, capsys):
    """``skillmem read``: a SKILL.md of exactly 1 MiB is served, one byte more is refused."""
    head = skill_md("big", "a big skill", "body\n")
    write_skill(Path("skills"), "big", head + b"x" * (MAX_SKILL_BYTES + offset - len(head)))
    run = run_cli(capsys, "read", "--root", "skills", "big")
    assert run.code in (0, 2), run.err
    assert run.code == 2 or len(run.out.encode()) == MAX_SKILL_BYTES + offset  # served whole, or refused
    return run.code == 2


def top_k_most(offset, capsys):
    """MCP ``skill_search``: top_k of 50 is answered, 51 refused."""
    write_skill(Path("skills"), "a", skill_md("a", "parse csv files"))
    try:
        SkillLibrary(["skills"]).search("parse csv", MAX_TOP_K + offset)
    except UsageError:
        return True
    return False


def top_k_least(offset, capsys):
    """MCP ``skill_search``: top_k of 1 is answered, 0 refused (the limit is a floor: over it is below it)."""
    write_skill(Path("skills"), "a", skill_md("a", "parse csv files"))
    try:
        SkillLibrary(["skills"]).search("parse csv", 1 - offset)
    except UsageError:
        return True
    return False


def route_input(offset, capsys):
    """The route hook's input of exactly 8 MiB is read (a blank prompt: no hint); one byte more is refused."""
    Path("skills").mkdir()
    lead = json.dumps({"cwd": str(Path.cwd()), "prompt": ""}).encode()
    data = lead[:-2] + b" " * (MAX_INPUT_BYTES + offset - len(lead)) + lead[-2:]
    try:
        assert route_hook_input(data, ["skills"]) == b""
    except Exception as error:  # noqa: BLE001 - the hook itself catches any; here only the refusal counts
        assert "larger than 8 MiB" in str(error)
        return True
    return False


def config_depth(offset, capsys):
    """.skillmem.yaml nests four levels (``budget: {parameters: {AGENT: {KEY: VALUE}}}``); a fifth is refused."""
    write_skill(Path("skills"), "a", skill_md("a", "does a"))
    value = {-1: "budget: {agents: [claude-code]}", 0: "budget: {parameters: {claude-code: {chars_per_token: 4}}}"}
    value[1] = "budget: {parameters: {claude-code: {chars_per_token: [4]}}}"
    Path(".skillmem.yaml").write_text(f"roots: [skills]\n{value[offset]}\n")
    run = run_cli(capsys, "index")
    return run.code == 2 and "nested too deeply" in run.error["error"]


def untracked_names(offset, capsys):
    """The CLI's note on skills git does not track names twenty, then '... and N more'."""
    run_git("init", "-q")
    for index in range(20 + offset):  # git_views.cli_notes shows 20
        write_skill(Path("skills"), f"s{index:02}", skill_md(f"s{index:02}", "does s"))
    [note] = run_cli(capsys, "index", "--root", "skills").data["notes"]
    return "more" in note


def kept_file_cap(offset, capsys):
    """A kept file (the route index: 256 MiB; an encoder model: 64 MiB) is read up to its cap and refused past it.

    The caps are too large for a test's file, so the reader every caller goes through gets a small one.
    """
    path = Path("kept")
    path.write_bytes(b"k" * (1000 + offset))
    path.chmod(0o600)
    try:
        return read_kept_file(str(path), 1000) != path.read_bytes()
    except OSError:
        return True


def records_cap(offset, capsys):
    """The catalog cache and snapshot (512 MiB) are read whole up to their cap and refused past it; as above."""
    Path("store").mkdir(mode=0o700)
    path = "store/records"
    write_records_quietly(path, {"format": 1}, [b"one", b"two"])
    size = os.path.getsize(path)
    try:
        return list(read_records(path, {"format": 1}, size - offset)) != [b"one", b"two"]
    except DamagedFile:
        return True


# --- lint -------------------------------------------------------------------------------------------------


def _lint_codes(capsys, *args):
    run = run_cli(capsys, "lint", "--root", "skills", *args)
    return {finding["code"] for finding in run.data["findings"]}


def lint_name(offset, capsys):
    name = "n" * (MAX_NAME + offset)
    write_skill(Path("skills"), name, skill_md(name, "Does n."))
    return "SK112" in _lint_codes(capsys)


def lint_description(offset, capsys):
    write_skill(Path("skills"), "d", skill_md("d", "d" * (MAX_DESCRIPTION + offset)))
    return "SK122" in _lint_codes(capsys)


def lint_compatibility(offset, capsys):
    text = skill_md("c", "Does c.").replace(
        b"\n---\n", b"\ncompatibility: " + b"c" * (MAX_COMPATIBILITY + offset) + b"\n---\n"
    )
    write_skill(Path("skills"), "c", text)
    return "SK130" in _lint_codes(capsys)


def lint_body_lines(offset, capsys):
    Path(".skillmem.yaml").write_text("roots: [skills]\nlint: {quality: true}\n")
    write_skill(Path("skills"), "b", skill_md("b", "Does b. Use when b.", "line\n" * (MAX_BODY_LINES + offset)))
    return "SK402" in _lint_codes(capsys)


def lint_fix_name_from_folder(offset, capsys):
    """``lint --fix`` sets a name to its folder's only when the folder's is a valid name (at most 64)."""
    folder = "f" * (MAX_NAME + offset)
    path = write_skill(Path("skills"), folder, skill_md("other", "Does f."))
    run_cli(capsys, "lint", "--root", "skills", "--fix")
    return f"name: {folder}".encode() not in path.read_bytes()


# --- the agents' listings (skillmem budget) -----------------------------------------------------------------


def claude_code_budget(offset, capsys):
    """Claude Code's listing takes 1% of the window at 4 characters a token: a listing that fits keeps every text."""
    write_skill(CLAUDE_SKILLS, "alpha", skill_md("alpha", "a" * 60))
    size = len("- alpha: " + "a" * 60 + "\n")
    report = _budget(capsys, CLAUDE_CODE, "--context-window", str((size - offset) * 25))
    assert report["budget_chars"] == size - offset
    assert bool(report["descriptions_dropped"]) is not report["fits"]
    return not report["fits"]


def claude_code_room_left(offset, capsys):
    """Over budget, each text is kept while it fits the room left: a text that fills it exactly is kept."""
    for name, text in (("alpha", "a" * 10), ("beta", "b" * 100), ("gamma", "c" * 10)):
        write_skill(CLAUDE_SKILLS, name, skill_md(name, text))
    room = len("- alpha\n- beta\n- gamma\n") + 2 * len(": " + "a" * 10)  # the names and the two short texts
    report = _budget(capsys, CLAUDE_CODE, "--context-window", str((room - offset) * 25))
    assert "beta" in report["descriptions_dropped"]
    return "gamma" in report["descriptions_dropped"]


def claude_code_entry_cap(offset, capsys):
    write_skill(
        CLAUDE_SKILLS, "long", skill_md("long", "d" * (int(CLAUDE_CODE_PARAMETERS["entry_cap_chars"]) + offset))
    )
    return bool(_budget(capsys, CLAUDE_CODE)["descriptions_cut"])


def codex_budget(offset, capsys):
    """Codex's listing takes 2% of the window, each line's bytes rounded up to tokens of 4."""
    write_skill(AGENTS_SKILLS, "alpha", skill_md("alpha", "a" * 61))
    tokens = -(-_budget(capsys, CODEX)["listing_chars"] // 4)
    report = _budget(capsys, CODEX, "--context-window", str((tokens - offset) * 50))
    assert report["budget_chars"] == (tokens - offset) * 4
    return not report["fits"]


def _not_loaded(capsys, agent):
    return bool(_budget(capsys, agent)["not_discovered"])


def codex_description(offset, capsys):
    write_skill(AGENTS_SKILLS, "d", skill_md("d", "d" * (int(CODEX_PARAMETERS["description_cap_chars"]) + offset)))
    return _not_loaded(capsys, CODEX)


def codex_name(offset, capsys):
    name = "n" * (int(CODEX_PARAMETERS["name_cap_chars"]) + offset)
    write_skill(AGENTS_SKILLS, name, skill_md(name, "Does n."))
    return _not_loaded(capsys, CODEX)


def copilot_description(offset, capsys):
    cap = int(COPILOT_CLI_PARAMETERS["description_cap_chars"])
    write_skill(AGENTS_SKILLS, "d", skill_md("d", "d" * (cap + offset)))
    return _not_loaded(capsys, COPILOT_CLI)


def copilot_name(offset, capsys):
    name = "n" * (int(COPILOT_CLI_PARAMETERS["name_cap_chars"]) + offset)
    write_skill(AGENTS_SKILLS, name, skill_md(name, "Does n."))
    return _not_loaded(capsys, COPILOT_CLI)


def copilot_budget(offset, capsys):
    """Copilot CLI lists whole entries within 15,000 characters; the last one that fits exactly is listed."""
    for index in range(14):  # each description within Copilot's 1,024 characters
        write_skill(AGENTS_SKILLS, f"s{index:02}", skill_md(f"s{index:02}", "d" * 1000))
    budget = int(COPILOT_CLI_PARAMETERS["budget_chars"])
    listing = _budget(capsys, COPILOT_CLI)["listing_chars"]
    write_skill(AGENTS_SKILLS, "s13", skill_md("s13", "d" * (1000 + budget + offset - listing)))
    report = _budget(capsys, COPILOT_CLI)
    assert report["listing_chars"] == budget + offset
    assert (report["listed"] < 14) is not report["fits"]
    return not report["fits"]


def copilot_names_budget(offset, capsys):
    """Past its whole entries, Copilot CLI names the rest within 5,000 characters, its 46-character lead-in counted."""
    Path(".skillmem.yaml").write_text(
        "roots: [.agents/skills]\nbudget: {parameters: {copilot-cli: {budget_chars: 1}}}\n"
    )
    names = [f"n{index:02}" + "x" * 57 for index in range(79)]  # 80 names of 60, joined by ", " after the lead-in
    names.append("n79" + "x" * (int(COPILOT_CLI_PARAMETERS["names_chars"]) - 46 - 2 * 79 - 60 * 79 - 3 + offset))
    for name in names:
        write_skill(AGENTS_SKILLS, name, skill_md(name, "d"))
    report = run_cli(capsys, "budget", "--agent", COPILOT_CLI).data["agents"][0]
    assert report["listed"] == 0
    return bool(report["skills_omitted"])


# --- "... and N more" in the text a person reads -----------------------------------------------------------


def verify_names(offset, capsys):
    """``verify --text`` names MAX_NAMES missing skills, then '... and N more'."""
    Path("skills").mkdir()
    Path("AGENTS.md").write_text("# Agents\n")
    assert run_cli(capsys, "inject", "--root", "skills", "--prompt-file", "AGENTS.md").code == 0
    for index in range(MAX_NAMES + offset):
        write_skill(Path("skills"), f"s{index:03}", skill_md(f"s{index:03}", "Does s."))
    run = run_cli(capsys, "verify", "--root", "skills", "--prompt-file", "AGENTS.md", "--text")
    assert run.code == 3
    return "more" in run.out


def budget_names(offset, capsys):
    """``budget --text`` (and the skill-budget hook) names LISTED skills per cause, then '... and N more'."""
    names = [f"skill-{index:02}" for index in range(LISTED + offset)]
    for name in names:
        write_skill(CLAUDE_SKILLS, name, skill_md(name, "Does a thing."))
    write_skill(CLAUDE_SKILLS, "plain", skill_md("plain"))  # no text to drop: the list is not every skill
    bare = sum(len(f"- {name}\n") for name in [*names, "plain"])  # a budget that holds the names alone drops every text
    flags = ("--root", CLAUDE_SKILLS, "--agent", "claude-code", "--context-window", str(bare * 25), "--text")
    run = run_cli(capsys, "budget", *flags)
    assert run.code == 0 and f"{len(names)} descriptions dropped" in run.out, run.out
    return "more" in run.out


def hook_warnings(offset, capsys):
    """The skill-index hook names MAX_WARNINGS SKILL.md files with warnings, then '... and N more'."""
    warnings = [
        {"root": "skills", "path": f"s{index}", "warning": "no frontmatter"} for index in range(MAX_WARNINGS + offset)
    ]
    return "more" in describe_warnings(warnings)


def hook_skipped(offset, capsys):
    skipped = [
        {"root": "skills", "path": f"s{index}", "reason": "a duplicate"} for index in range(MAX_WARNINGS + offset)
    ]
    return "more" in describe_skipped(skipped)


def search_text_description(offset, capsys):
    """``search --text`` shows a description of 100 characters whole and cuts a longer one to 99 and '…'."""
    description = ("parse csv files " * 10)[: SEARCH_TEXT_DESCRIPTION + offset - 1] + "z"
    write_skill(Path("skills"), "csv", skill_md("csv", description))
    out = run_cli(capsys, "search", "--root", "skills", "parse", "csv", "--text").out
    (shown,) = [line.strip() for line in out.splitlines() if line.strip().startswith("parse csv")]
    assert len(shown) <= SEARCH_TEXT_DESCRIPTION  # a cut line, "…" included, is no longer than a whole one
    return shown.endswith("…")


def mcp_echo(offset, capsys):
    """MCP ``skill_search`` echoes an intent of 60 characters whole and cuts a longer one (never echoed whole)."""
    write_skill(Path("skills"), "a", skill_md("a", "parse csv files"))
    intent = ("parse csv " * 10)[: ECHO_CHARS + offset]
    return call_tool(SkillLibrary(["skills"]), "skill_search", {"intent": intent})["query"] != intent


def mcp_intent(offset, capsys):
    """MCP ``skill_search``: an intent of 4,096 characters is answered, one more refused with its length."""
    write_skill(Path("skills"), "a", skill_md("a", "parse csv files"))
    intent = ("parse csv " * 500)[: MAX_INTENT_CHARS + offset]
    try:
        call_tool(SkillLibrary(["skills"]), "skill_search", {"intent": intent})
    except UsageError as error:
        return f"{len(intent):,} characters long; at most 4,096" in str(error)
    return False


def _mcp_search_refused(top_k) -> bool:
    try:
        call_tool(SkillLibrary(["skills"]), "skill_search", {"intent": "parse csv", "top_k": top_k})
    except UsageError as error:
        return "top_k must be from 1 to 50" in str(error)
    return False


def mcp_top_k_most(offset, capsys):
    """MCP ``skill_search`` through the tool's own argument check (not the library's): top_k of 50 answered, 51 not."""
    write_skill(Path("skills"), "a", skill_md("a", "parse csv files"))
    return _mcp_search_refused(MAX_TOP_K + offset)


def mcp_top_k_least(offset, capsys):
    """The same check's floor: top_k of 1 answered, 0 refused (over the limit is below it)."""
    write_skill(Path("skills"), "a", skill_md("a", "parse csv files"))
    return _mcp_search_refused(1 - offset)


def mcp_name(offset, capsys):
    """MCP ``skill_read``: a name of 256 characters is looked up (and not found), one more refused as too long."""
    write_skill(Path("skills"), "a", skill_md("a", "parse csv files"))
    try:
        call_tool(SkillLibrary(["skills"]), "skill_read", {"name": "n" * (MAX_NAME_CHARS + offset)})
    except UsageError as error:
        return "at most 256 are read" in str(error)
    return False


def lint_link_chain(offset, capsys):
    """lint follows a chain of 40 links inside the repository, as the kernel does; 41 read as outside (a loop)."""
    Path("target.md").write_text("x\n")
    links = 40 + offset
    for number in range(links):
        os.symlink("target.md" if number == 0 else f"link{number - 1}", f"link{number}")
    return resolve_inside(os.getcwd(), os.path.abspath(f"link{links - 1}")) == OUTSIDE


def init_named_findings(offset, capsys):
    """init names each lint finding it records as the baseline when they are 5 or fewer; more are counted."""
    run_git("init", "-q")
    for number in range(NAMED_AT_MOST + offset):
        name = f"notes-{number}"
        write_skill(Path("skills"), name, skill_md(name, "Draft notes. Use when asked.", "See [t](template.md).\n"))
    notes = run_cli(capsys, "init", "--no-install").data["notes"]
    named = [note for note in notes if note.startswith("error: skills/notes-")]
    assert len(named) in (0, NAMED_AT_MOST + offset)
    return not named


LIMITS = [
    block_cap,
    marker_lines_listed,
    read_cap,
    top_k_most,
    top_k_least,
    route_input,
    config_depth,
    untracked_names,
    kept_file_cap,
    records_cap,
    lint_name,
    lint_description,
    lint_compatibility,
    lint_body_lines,
    lint_fix_name_from_folder,
    claude_code_budget,
    claude_code_room_left,
    claude_code_entry_cap,
    codex_budget,
    codex_description,
    codex_name,
    copilot_description,
    copilot_name,
    copilot_budget,
    copilot_names_budget,
    verify_names,
    budget_names,
    hook_warnings,
    hook_skipped,
    search_text_description,
    mcp_echo,
    mcp_intent,
    mcp_top_k_most,
    mcp_top_k_least,
    mcp_name,
    lint_link_chain,
    init_named_findings,
]


@pytest.mark.parametrize("offset", [-1, 0, 1], ids=["under", "at", "over"])
@pytest.mark.parametrize("probe", LIMITS, ids=[probe.__name__ for probe in LIMITS])
def test_a_limit_holds_exactly_at_its_edge(probe, offset, capsys):
    assert probe(offset, capsys) is (offset > 0)
