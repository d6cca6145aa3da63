"""Replay each agent's native skill listing on a repository's skills: what it drops, cuts or never loads.

Pure: entries in (each skill as the agents would read it, with why an agent
would not load it), one result per agent out. The rules and their sources
are in ``rules.py`` and docs/budget.md.
"""

from __future__ import annotations

from skillmem_hook.budget.loading import OverCap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.budget.loading import Shown


class Entry:
    """One skill as the agents read it. ``name`` is the block's label, ``agent_name`` what the agent shows.

    ``real`` is the skill's real folder; ``shown`` holds, per agent that
    lists it, how that agent shows it (``loading.Shown``: Copilot, VS Code,
    Gemini CLI and OpenCode); ``not_loaded`` why an agent does not. An
    ``extra`` skill is one the block leaves out (a second SKILL.md of a name,
    or excluded) but an agent may list: it counts in the listing, and is
    never reported as not listed.
    """

    __slots__ = ("agent_name", "description", "extra", "file", "name", "not_loaded", "real", "shown", "when_to_use")

    def __init__(
        self,
        name: str,
        agent_name: str,
        description: str,
        *,
        when_to_use: str = "",
        file: str = "",
        not_loaded: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.agent_name = agent_name
        self.description = description
        self.when_to_use = when_to_use
        self.file = file  # the SKILL.md path as Codex's listing shows it (below an alias of its root)
        self.not_loaded = dict(not_loaded or {})  # agent -> why it would not load this skill
        self.real = ""
        self.extra = False
        self.shown: dict[str, Shown] = {}


def claude_code(entries: Sequence[Entry], window: int, parameters: Mapping[str, float]) -> dict[str, object]:
    """Claude Code 2.1.328: 1% of the window; entries cut at 1,536 characters; over it, names only, entry by entry.

    Each entry is ``- name: description - when_to_use``. Over the budget,
    the entries are taken most-used first (with no usage history, in
    listing order: names sorted by code point), and each keeps its text
    while the listing's bare names plus the texts kept still fit: a shorter
    text further down can fit after a longer one did not.
    """
    budget = int(window * parameters["listing_fraction"] * parameters["chars_per_token"])
    cap = int(parameters["entry_cap_chars"])
    listed = sorted((entry for entry in entries if "claude-code" not in entry.not_loaded), key=_listing_order)
    texts = {id(entry): " - ".join(part for part in (entry.description, entry.when_to_use) if part) for entry in listed}
    full = {id(entry): len(f"- {entry.agent_name}: {texts[id(entry)][:cap]}\n") for entry in listed}
    bare = {id(entry): len(f"- {entry.agent_name}\n") for entry in listed}
    listing = sum(full.values())
    dropped: list[str] = []
    if listing > budget:
        used = sum(bare.values())
        for entry in listed:
            extra = full[id(entry)] - bare[id(entry)]
            if used + extra <= budget:
                used += extra
            elif texts[id(entry)]:
                dropped.append(entry.name)
    gone = set(dropped)
    cut = [
        {"name": entry.name, "kept_chars": cap}
        for entry in listed
        if len(texts[id(entry)]) > cap and entry.name not in gone
    ]
    result = agent_result("claude-code", window, budget, listing, dropped, cut, entries)
    result["listed"] = len(listed) - len(dropped)  # with their text, whole or cut
    return result


def codex(entries: Sequence[Entry], window: int, parameters: Mapping[str, float]) -> dict[str, object]:
    """render.rs: every line whole if it fits; else descriptions shortened evenly; else skills left out."""
    limit = max(int(window * parameters["listing_fraction"]), 1)
    per_token = int(parameters["bytes_per_token"])
    listed = sorted((entry for entry in entries if "codex" not in entry.not_loaded), key=_listing_order)
    lines = [_CodexLine(entry, per_token) for entry in listed]
    listing = sum(len(line.render(len(line.description))) + 1 for line in lines)
    minimum = sum(line.minimum_cost for line in lines)
    dropped: list[str] = []
    cut: list[dict[str, object]] = []
    omitted: list[str] = []
    if sum(line.full_cost for line in lines) > limit and minimum <= limit:
        for line, kept in zip(lines, allocate(lines, limit - minimum)):
            if kept == 0 and line.description:
                dropped.append(line.entry.name)
            elif kept < len(line.description):
                cut.append({"name": line.entry.name, "kept_chars": kept})
    elif minimum > limit:
        used = 0
        for line in lines:
            dropped += [line.entry.name] if line.description else []
            if used + line.minimum_cost <= limit:
                used += line.minimum_cost
            else:
                omitted.append(line.entry.name)
    result = agent_result("codex", window, limit * per_token, listing, dropped, cut, entries)
    result["fits"] = not (dropped or cut or omitted)  # Codex counts each line's tokens, rounded up
    result["skills_omitted"] = omitted
    result["listed"] = len(lines) - len(dropped)  # with their description, whole or shortened
    return result


class _CodexLine:
    """``- name: description (file: path)``, as render.rs writes it, with its cost in tokens."""

    def __init__(self, entry: Entry, per_token: int) -> None:
        self.entry = entry
        self.per_token = per_token
        self.description = entry.description
        self.minimum_bytes = len(self.render(0).encode("utf-8")) + 1
        self.minimum_cost = self.tokens(self.minimum_bytes)
        self.full_cost = self.tokens(len(self.render(len(self.description)).encode("utf-8")) + 1)
        self.prefix_bytes = [0]
        for character in self.description:
            self.prefix_bytes.append(self.prefix_bytes[-1] + len(character.encode("utf-8")))

    def render(self, kept: int) -> str:
        shown = f" {self.description[:kept]}" if kept else ""
        return f"- {self.entry.agent_name}:{shown} (file: {self.entry.file})"

    def tokens(self, size: int) -> int:
        return -(-size // self.per_token)

    def added_cost(self, kept: int) -> int:
        """What ``kept`` characters of the description add to the line's cost (its space included)."""
        if kept == 0:
            return 0
        return self.tokens(self.minimum_bytes + self.prefix_bytes[kept] + 1) - self.minimum_cost


def allocate(lines: Sequence[_CodexLine], remaining: int) -> list[int]:
    """render.rs's one character at a time, round after round, to every line that can still take one.

    The whole rounds that fit are found by bisection (costs only grow with a
    round, so if the total after round k fits, every step of it did); the
    last, partial rounds are then played out one step at a time.
    """
    longest = max((len(line.description) for line in lines), default=0)

    def total(rounds: int) -> int:
        return sum(line.added_cost(min(rounds, len(line.description))) for line in lines)

    low, high = 0, longest
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if total(middle) <= remaining else (low, middle - 1)
    kept = [min(low, len(line.description)) for line in lines]
    remaining -= total(low)
    changed = True
    while changed:
        changed = False
        for index, line in enumerate(lines):
            if kept[index] < len(line.description):
                delta = line.added_cost(kept[index] + 1) - line.added_cost(kept[index])
                if delta <= remaining:
                    kept[index] += 1
                    remaining -= delta
                    changed = True
    return kept


def _listing_order(entry: Entry) -> tuple[str, str]:
    return (entry.agent_name, entry.file)


def agent_result(  # noqa: PLR0917 - one JSON object's fields, in its order
    agent: str,
    window: int,
    budget: int | None,
    listing: int,
    dropped: list[str],
    cut: list[dict[str, object]],
    entries: Sequence[Entry],
) -> dict[str, object]:
    return {
        "agent": agent,
        "context_window": window,
        "budget_chars": budget,
        "listing_chars": listing,
        "fits": budget is None or listing <= budget,
        "descriptions_dropped": dropped,
        "descriptions_cut": cut,
        "not_discovered": [
            not_listed(entry.name, entry.not_loaded[agent])
            for entry in entries
            if agent in entry.not_loaded and not entry.extra
        ],
    }


def not_listed(name: str, reason: str) -> dict[str, object]:
    """A skill the agent does not list, and why; for a loader's cap, the cap too (``over_cap``: field, chars)."""
    item: dict[str, object] = {"name": name, "reason": str(reason)}
    if isinstance(reason, OverCap):
        item["over_cap"] = {"field": reason.field, "chars": reason.cap}
    return item
