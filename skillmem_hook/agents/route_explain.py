"""What ``skillmem route --explain PROMPT`` says: the candidates the hook weighed, and why it named them or none.

It reads the prompt the way the route hook does (``commands/route.py``): a
skill the prompt names, else the score rule over the stored search index's
best hits, unless the prompt names code or speaks of the work at hand. It
never changes what the hook prints: it calls the hook's own functions and
adds only their inputs (the candidates' scores, the words each holds, each
condition of the rule with the value it read).
"""

from __future__ import annotations

import os

from skillmem_hook.agents.background import refresh_search_index
from skillmem_hook.agents.route import (
    MAX_SCORED_CHARS,
    Target,
    best_scored,
    code_in_context_gates,
    english_among_cjk,
    quoted,
    scored_reading,
)
from skillmem_hook.agents.route_explain_text import rule_lines
from skillmem_hook.agents.route_index import build_route_index, current_route_index
from skillmem_hook.catalog.catalog import CatalogOptions
from skillmem_hook.catalog.store.locations import route_index_location, search_index_location
from skillmem_hook.config import load_settings
from skillmem_hook.search import store as search_store
from skillmem_hook.search.at_hand import at_hand
from skillmem_hook.search.at_hand.shown import code_named
from skillmem_hook.search.confidence import SCORE_RULE
from skillmem_hook.search.fields import StoredIndexError
from skillmem_hook.search.names import Spellings, build_name_table, named_skills, users_own
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from skillmem_hook.search.conditions import Condition
    from skillmem_hook.search.rank import SearchIndex

    Row = tuple[str, "str | Condition", bool]  # a line of the rule: its way, its condition, whether it holds

CANDIDATES = 5
_CODE_SILENT = (
    "the prompt names code ({word}, read as a file, an identifier or a line): no score hint, unless it carries much"
    " context, its asking sentences name no code and their own best hit is the hint's first"
)


def explain(prompt: str, flag_roots: Sequence[str]) -> dict[str, object]:
    """The hint the hook would give for ``prompt`` in this folder, and why, as JSON (``route_hook_input``'s steps)."""
    location = route_index_location(os.getcwd(), flag_roots)
    route_index = build_route_index(flag_roots) if location is None else current_route_index(location, flag_roots)
    table = build_name_table(route_index.targets())
    named = named_skills(prompt, table)
    if named:
        return _answer(prompt, named, "name", "the prompt names the skill (or one of its aliases)")
    kept = route_index.search or load_settings(list(flag_roots) or None).search
    if kept.tracked:
        return _answer(prompt, [], None, "tracked: true: the hook gives no score hint on git's view")
    where = search_index_location(os.getcwd(), route_index.roots, flagged=bool(flag_roots))
    if where is None:
        return _answer(prompt, [], None, "nowhere to keep a search index here: the hook gives no score hint")
    options = CatalogOptions(
        tracked=False, cache=kept.cache, exclude=kept.exclude, domains=kept.domains, user_roots=bool(flag_roots)
    )
    now = route_index.snapshot_text
    stored = search_store.load_stale(route_index.roots, options, kept.aliases, where, now)
    if stored is not None and stored[1] is None:
        try:
            return _scored(prompt, stored[0], Spellings(table))
        except StoredIndexError:  # as the hook does: a forged row or postings line among the hits, a bad index
            stored = None
    refresh_search_index(route_index.roots, where)  # as the hook does: a build of its own, for the next prompt
    if stored is not None and stored[1] is not None:  # as the hook does: a few skills changed, patched in memory
        patched = search_store.patched_for_prompt(route_index.roots, options, kept.aliases, (stored[0], stored[1]), now)
        if patched is not None:
            return _scored(prompt, patched, Spellings(table))
    answer = _scored(prompt, search_store.build(route_index.roots, options, kept.aliases), Spellings(table))
    answer.update(hint=[], by=None)
    stale = "no current stored search index: the hook is silent on this prompt and starts a build"
    answer["reason"] = f"{stale}; with one, {answer['reason']}"
    return answer


def _scored(prompt: str, index: SearchIndex, spellings: Spellings) -> dict[str, object]:
    text = prompt[:MAX_SCORED_CHARS]
    own, _ = scored_reading(text, index)  # what the score rule's verdict rests on: the user's words, not a paste
    hits = index.query(own, top=max(CANDIDATES, SCORE_RULE.most), english_at_large=SCORE_RULE.english_at_large)
    answer: dict[str, object]
    chosen = best_scored(prompt, index, spellings=spellings)  # the hook's own call: what it would print
    evidence, _, typed, cjk = index.reading(own, hits[0]) if hits else (0, 0, index.typed_words(own), 0)
    code = code_named(text, spellings)  # the word read as code, said: otherwise only to be guessed
    rule: list[Row] = [*_prompt_gates(text, own, index, spellings)]  # each gate that can silence it: a line
    rule += SCORE_RULE.gates(hits[: SCORE_RULE.most], evidence, typed, cjk) if hits else []
    apart = bool(hits) and english_among_cjk(own, hits[0], index)
    if hits:
        rule.append(("language", "not an English prompt's English-described best hit among Chinese ones", not apart))
    if at_hand(text):
        answer = _answer(prompt, [], None, "the prompt speaks of the work at hand: no score hint")
    elif code is not None and not chosen:
        answer = _answer(prompt, [], None, _CODE_SILENT.format(word=quoted(code)))
        answer["code"] = code
    elif apart and SCORE_RULE.chosen(hits[: SCORE_RULE.most], evidence, typed, cjk):
        answer = _answer(prompt, [], None, _ENGLISH_AMONG_CJK)
    else:
        answer = _answer(prompt, chosen, "score rule" if chosen else None, _verdict(bool(hits), bool(chosen)))
    answer["typed_words"] = typed
    answer["candidates"] = [
        {
            "name": hit.skill.name,
            "score": hit.score,
            "coverage": round(hit.coverage, 2),
            "words_held": index.evidence(own, hit),
        }
        for hit in hits[:CANDIDATES]
    ]
    answer["rule"] = [{"way": way, "condition": condition, "holds": holds} for way, condition, holds in rule]
    return answer


def _prompt_gates(text: str, own: str, index: SearchIndex, spellings: Spellings) -> list[tuple[str, str, bool]]:
    """The gates before the score rule's own, each a line whether it holds or not (a dbt prompt
    silenced by a gate of code in context showed every line [ok]): the work at hand, code named (and, then, the
    gates of a request of much context around it, to the first that fails), no hit at all, a clause ruled out."""
    code = code_named(text, spellings)
    gates = [("work at hand", "the prompt does not speak of the work at hand", not at_hand(text))]
    gates.append(("names code", "the prompt names no code" + (f" ({quoted(code)})" if code else ""), code is None))
    if code is not None:
        gates += code_in_context_gates(text, index, SCORE_RULE, spellings)[1]
    if not index.query(own, top=1, english_at_large=SCORE_RULE.english_at_large):
        gates.append(("search", "a skill holds a word of the prompt", False))
    if own != users_own(text):  # what it rules out ("I don't need X") left out: the rule read the rest
        kept = scored_reading(text, index)[1]
        gates.append(("ruled out", "without what the prompt rules out, the rule still names a skill", bool(kept)))
    return gates


_ENGLISH_AMONG_CJK = (
    "the best hit is a skill described in English in a collection described mostly in Chinese, and the prompt is"
    " English: the words they share are rare there only for being English, so the rule stays silent"
    " (docs/route.md); search still ranks it"
)


def _verdict(any_hit: bool, chosen: bool) -> str:
    if not any_hit:
        return "no skill holds a word of the prompt"
    if chosen:
        return "the score rule is sure of the best hits"
    return "the score rule is not sure: see the conditions that fail"


def _answer(prompt: str, targets: Sequence[Target], way: str | None, reason: str) -> dict[str, object]:
    return {
        "prompt": prompt[:MAX_SCORED_CHARS],
        "hint": [target.label for target in targets],
        "by": way,
        "reason": reason,
    }


def as_json(answer: dict[str, object]) -> dict[str, object]:
    """``answer`` as its JSON line says it: each condition of the rule in the rule's own form, a string."""
    if "rule" not in answer:
        return answer
    return {**answer, "rule": [{**row, "condition": str(row["condition"])} for row in _rows(answer["rule"])]}


def as_text(answer: dict[str, object]) -> str:
    """The explanation for a person: the hint or silence, why, the candidates, and each condition of the rule."""
    hint = [visible(str(name)) for name in _rows(answer.get("hint"))]
    lines = [f"hint: {', '.join(hint)}" if hint else "hint: none (silent)", f"why: {answer['reason']}"]
    if "typed_words" in answer:
        lines.append(f"typed words: {answer['typed_words']}")
    for rank, candidate in enumerate(_rows(answer.get("candidates")), 1):
        lines.append(
            f"{rank}. {visible(str(candidate['name']))}  score {candidate['score']},"
            f" coverage {candidate['coverage']}, words held {candidate['words_held']}"
        )
    lines += rule_lines(_rows(answer.get("rule")))
    return "\n".join(lines) + "\n"


def _rows(value: object) -> list[Any]:
    return list(value) if isinstance(value, list) else []
