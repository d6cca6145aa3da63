"""What ``budget`` tells a person: per agent, each cause once with its count, then what to do about it.

Pure: one agent's result (``replay.py``, ``listings.py``) and the report's
block figures in, lines of text out. Numbers are written one way (1,899).
"""

from __future__ import annotations

from skillmem_hook.budget.choice import FOLLOWS_IMPORTS, READS
from skillmem_hook.budget.discovery import ROOTS
from skillmem_hook.budget.loading import cap_rule
from skillmem_hook.budget.rules import CLAUDE_CODE, CODEX, COPILOT_CLI, GEMINI_CLI, OPENCODE, TITLES
from skillmem_hook.text_lines import counted
from skillmem_hook.visible import command_path, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

BLOCK_TOKENS_HINT = 2000  # above this, and with no cap set, the block line suggests max_block_tokens
SHARE_HINT = 0.05  # an uncapped listing above this share of the window gets the advice to keep fewer skills
_DROPPED = {
    CLAUDE_CODE: "descriptions dropped: Claude Code lists these by name only, so it will not pick them on its own",
    CODEX: "descriptions dropped: Codex lists these by name and path only, so it will not pick them on its own",
}
_NAMED = "named only, on its 'Additional skills available' line: {title} will not pick them on its own"
_OMITTED = {
    CODEX: "left out whole: no room for them even without descriptions",
    COPILOT_CLI: "left out whole: past its {names_chars} characters of names ('... and N more')",
}
_WIDER = {  # the agent's own knob for its budget
    CLAUDE_CODE: "SLASH_COMMAND_TOOL_CHAR_BUDGET raises it, as does a larger window (1% of it; try --context-window)",
    CODEX: "a model with a larger window gives it more (2% of it; try --context-window)",
    COPILOT_CLI: "SKILL_CHAR_BUDGET raises its {budget_chars}",
}
_DISABLE = {GEMINI_CLI: "skills.disabled in .gemini/settings.json", OPENCODE: "permission.skill: deny in opencode.json"}
_PROMPT_FILE = {CLAUDE_CODE: "CLAUDE.md", GEMINI_CLI: "GEMINI.md"}


def headline(result: Mapping[str, object], skills: int) -> str:
    """The agent's first line: its listing against its budget (or its window), and whether it fits."""
    agent = str(result["agent"])
    title, window = TITLES[agent], f"{result['agent']} ({_n(result['context_window'])}-token window): "
    missing = _list(result, "not_discovered")
    if not result["listing_chars"] and missing:
        every = "the one skill is not" if skills == 1 else f"none of the {_n(skills)} skills is"
        if all(str(item["reason"]).startswith("not in ") for item in missing):
            return f"{window}{every} where {title} looks ({', '.join(ROOTS[agent])})"
        return f"{window}{every} listed"
    size = f"{_n(result['listing_chars'])} characters"
    if result["budget_chars"] is None:
        share = f"about {_n(result['listing_tokens'])} tokens, {float(str(result['window_share'])):.1%} of the window"
        return f"{window}lists every skill it finds: {counted(int(str(result['listed'])), 'skill')}, {size}, {share}"
    state = "fits" if result["fits"] else "over budget"
    return f"{window}listing of {size} in a budget of {_n(result['budget_chars'])}: {state}"


def causes(result: Mapping[str, object]) -> list[tuple[str, list[str]]]:
    """Each cause once, with its count, and the names it holds (one cause per distinct reason)."""
    agent, found = str(result["agent"]), []
    dropped = [str(name) for name in _list(result, "descriptions_dropped")]
    if dropped:
        cause = _DROPPED.get(agent) or _NAMED.format(title=TITLES[agent])
        found.append((f"{_n(len(dropped))} {cause}", dropped))
    cut = _list(result, "descriptions_cut")
    if cut:
        kept = sorted(int(str(item["kept_chars"])) for item in cut)[len(cut) // 2]
        found.append((f"{counted(len(cut), 'description')} cut (the median keeps {_n(kept)} characters)", _names(cut)))
    omitted = [str(name) for name in _list(result, "skills_omitted")]
    if omitted:
        cause = _OMITTED.get(agent, "left out whole")
        if "names_chars" in result:  # the listings' names budget, the model's own or a `budget: parameters:` override
            cause = cause.format(names_chars=_n(result["names_chars"]))
        found.append((f"{_n(len(omitted))} {cause}", omitted))
    by_reason: dict[str, list[str]] = {}
    for item in _list(result, "not_discovered"):
        by_reason.setdefault(cause_of(agent, item), []).append(str(item["name"]))
    for reason, names in by_reason.items():
        found.append((f"{_n(len(names))} not listed: {reason}", names))
    return found


def cause_of(agent: str, item: Mapping[str, object]) -> str:
    """Why the agent does not list a skill, without what is the skill's own (a field's size): one cause said once."""
    over: Mapping[str, object] | None = item.get("over_cap")  # type: ignore[assignment]
    if over is None:
        return str(item["reason"])
    return f"{over['field']} too long: {cap_rule(agent, int(str(over['chars'])))}"


def remedies(
    result: Mapping[str, object],
    readers: Sequence[str],
    prompt_files: Sequence[str],
    *,
    ignored: Sequence[str] = (),
    absent: Sequence[str] = (),
    folded: tuple[int, int] = (0, 0),
    top: str = ".",
) -> list[str]:
    """What to do, one line each, for the causes this agent has (none when it lists every skill whole).

    ``ignored``: the prompt files git ignores, so a block there is on this machine only, never in a commit;
    ``absent``: those of them that do not exist; ``folded``: the skills, and how many the block's cap folds;
    ``top``: the repository's top from the current folder, where the paths are (a command names them from here).
    """
    agent = str(result["agent"])
    title, lines = TITLES[agent], []
    reasons = [str(item["reason"]) for item in _list(result, "not_discovered")]
    astray = sum(reason.startswith("not in ") or " folders below " in reason for reason in reasons)
    if astray:
        them = "it" if astray == 1 else "them"
        lines.append(f"move {them} to {_where(agent)} for {title} to list {them} itself")
    lines += _fixes(agent, reasons)
    short = any(_list(result, key) for key in ("descriptions_dropped", "descriptions_cut", "skills_omitted"))
    if short:
        wider = f"; {_WIDER[agent].format(budget_chars=_n(result['budget_chars']))}" if agent in _WIDER else ""
        need = f"{_n(result['listing_chars'])} characters of {_n(result['budget_chars'])}"
        lines.append(f"shorter descriptions: the listing needs {need}{wider}")
    share = float(str(result.get("window_share") or 0))
    if share > SHARE_HINT:
        lines.append(
            f"every session spends {share:.0%} of the window on this listing: keep where {title} looks only the"
            f" skills this repository needs ({_DISABLE[agent]}), and reach the rest as below"
        )
    if short or reasons or share > SHARE_HINT:
        lines.append(reach(agent, readers, prompt_files, ignored, absent=absent, folded=folded, top=top))
    return lines


def _fixes(agent: str, reasons: Sequence[str]) -> list[str]:
    title, lines = TITLES[agent], []
    if any("whose name starts with '.'" in reason for reason in reasons):
        lines.append(f"rename the folders whose names start with '.': {title} skips them")
    if any(reason.startswith("past the first") for reason in reasons):
        lines.append("fewer folders below the root: Codex stops at its caps (move scripts and assets out of it)")
    if any("takes as one skill" in reason or "takes the folder as one skill" in reason for reason in reasons):
        lines.append("give each skill a folder of its own, beside the others, not inside another skill's")
    if any("frontmatter" in reason or "load error" in reason or "loader" in reason for reason in reasons):
        lines.append("fix their frontmatter: `skillmem lint` names each problem")
    if any(reason.startswith("another skill of its name") for reason in reasons):
        lines.append("rename one skill of each shared name: `skillmem lint` names the pairs (SK301)")
    return lines


def reach(
    agent: str,
    readers: Sequence[str],
    prompt_files: Sequence[str],
    ignored: Sequence[str],
    *,
    absent: Sequence[str] = (),
    folded: tuple[int, int] = (0, 0),
    top: str = ".",
) -> str:
    """The ways every skill still reaches the agent: the block it reads, `skillmem read`, route, MCP.

    Also ``init``'s, for an agent that finds the skills only through the block (``adopt/advice.py``).
    ``top``: the repository's top from the current folder (``remedies``).
    """
    title = TITLES[agent]
    # The prompt files' names are .skillmem.yaml's, repository content: shown escaped, never acting on a terminal.
    readers, prompt_files = [visible(path) for path in readers], [visible(path) for path in prompt_files]
    ignored = [visible(path) for path in ignored]
    route = ", `skillmem route` (its prompt hook) names the one a prompt needs" if agent == CLAUDE_CODE else ""
    mcp = f"`skillmem mcp` lets {title} search and read them all"
    if readers:
        here = _local(readers[0], ignored, top) if all(path in ignored for path in readers) else ""
        loads = f"{_named(*folded)} and `skillmem read NAME` loads one{route}"
        return f"the block in {', '.join(readers)}{here} {loads}; {mcp}"
    own = _PROMPT_FILE.get(agent, "AGENTS.md")
    ahead = [path for path in prompt_files if path in READS[agent]]  # configured, but not written yet
    if ahead:
        create = f"you create it (touch {command_path(ahead[0], top)}: skillmem never creates a prompt file) and "
        written = (
            f"once {create if ahead[0] in absent else ''}`skillmem inject` writes it{_local(ahead[0], ignored, top)}"
        )
        return f"the block goes in {ahead[0]}, which {title} reads, {written}; {mcp}"
    if not prompt_files:
        return f"no prompt file holds the block yet: `skillmem init` sets one up ({title} reads {own}); {mcp}"
    held = prompt_files[0]
    if own in ignored:
        create, clone = _create(own, absent, top)
        return (
            f"the block is in {held}, which {title} does not read, and git ignores {own}, which it reads:"
            f" un-ignore {own} and commit it (`git check-ignore -v {command_path(own, top)}` names the rule), or"
            f" {create}add it to prompt_files for a block on each machine that runs the hook or `skillmem inject`,"
            f" never in a commit{clone}; {mcp}"
        )
    imports = f" (or a line @{held} in {own})" if agent in FOLLOWS_IMPORTS else ""
    return f"the block is in {held}, which {title} does not read: add {own} to prompt_files{imports}; {mcp}"


def _named(skills: int, folded: int) -> str:
    """What the block names: every skill, or, under max_block_tokens, how many by name and how many folded."""
    if not folded:
        return "names every skill"
    return (
        f"names {_n(skills - folded)} of the {_n(skills)} skills and folds {_n(folded)} into their domains' lines"
        " (max_block_tokens; `skillmem search --domain D` lists one)"
    )


def _create(own: str, absent: Sequence[str], top: str) -> tuple[str, str]:
    """For an ignored prompt file: create it when it does not exist here (inject never does); a fresh clone lacks it.

    So a teammate creates it once too; until then every run leaves it out with a note.
    """
    touch = command_path(own, top)
    create = f"create it (touch {touch}: skillmem never creates a prompt file) and " if own in absent else ""
    return (
        create,
        f" (a teammate runs `touch {touch}` once after cloning; until then the hooks, `skillmem inject` and"
        " `skillmem verify` leave it out with a note)",
    )


def _local(path: str, ignored: Sequence[str], top: str) -> str:
    """For a prompt file git ignores: the block reaches the agent only where it was written, never through a commit."""
    if path not in ignored:
        return ""
    return (
        f" (git ignores {path}: only on a machine that runs the hook or `skillmem inject`, never in a commit;"
        f" a teammate runs `touch {command_path(path, top)}` once after cloning)"
    )


def _where(agent: str) -> str:
    """Where to put skills for the agent: .agents/skills, which all but Claude Code read; .claude/skills for it."""
    if agent == CLAUDE_CODE:
        # Said for any layout: a link reaches only skills one folder down, and a collection may nest deeper.
        return (
            ".claude/skills/<name>/SKILL.md (exactly one folder down: a link from .claude/skills to .agents/skills"
            " will do only for skills one folder down there; those nested deeper must move up a level or more)"
        )
    depth = {COPILOT_CLI: "any depth", OPENCODE: "any depth", CODEX: "at most 6 folders down"}.get(agent, "one down")
    return f".agents/skills/<name>/SKILL.md ({depth}; Codex, Copilot, VS Code, Gemini CLI and OpenCode all read it)"


def block_line(skills: int, block: Mapping[str, object]) -> str:
    """The closing line: the skills, and the block's cost a session, with the cap to set when it is large."""
    tokens = int(str(block["est_tokens"]))
    line = f"{counted(skills, 'skill')}; the block is about {_n(tokens)} tokens a session"
    if tokens > BLOCK_TOKENS_HINT and block.get("max_block_tokens") is None:
        line += (
            f"; `max_block_tokens: {BLOCK_TOKENS_HINT}` in .skillmem.yaml keeps it within {_n(BLOCK_TOKENS_HINT)}"
            " (the largest domains collapse to one line each, `skillmem search --domain D` lists one)"
        )
    return line


def _list(result: Mapping[str, object], key: str) -> list[dict[str, object]]:
    return result.get(key) or []  # type: ignore[return-value]


def _names(cut: Sequence[Mapping[str, object]]) -> list[str]:
    return [f"{item['name']} (kept {_n(item['kept_chars'])})" for item in cut]


def _n(number: object) -> str:
    """A count or size as every line writes it: 1,899."""
    return f"{int(str(number)):,}"
