"""Which gate of the route's score rule holds back which hint: right hints, wrong ones and everyday turns.

    python3 benchmarks/route_gates.py                 # every tuning set and everyday file, both halves
    python3 benchmarks/route_gates.py --half odd      # the choosing half (requests of odd ids; turns all)
    python3 benchmarks/route_gates.py --tries         # also each try of the 8th to the 25th pass, set by set
    python3 benchmarks/route_gates.py --names         # only the 25th pass: the best hit's name typed, and its tries

Each request and turn is read once (the hook's own readings: the prompt
without its pastes, without its ruled-out clause, and its asking sentences
alone) and then judged by each rule on those readings, so a rule costs no
search. A gate "holds back" a hint when the rule with that gate alone turned
off names a skill the rule in force does not: right when a named skill is
expected, wrong when none is, and on an everyday turn any hint. The anatomy
also counts, for every request the route leaves silent, whether the search's
best hit (or the best three) holds the expected skill and which conditions
fail there. This script chooses nothing; docs/notes/route.md keeps what it printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from request_sets import TUNING_SETS, TUNING_TURNS, Judge, collection_roots, read_requests, read_turns  # noqa: E402

from skillmem_hook.agents.route import english_among_cjk, plain_part  # noqa: E402
from skillmem_hook.search.asks import asking_part  # noqa: E402
from skillmem_hook.search.at_hand import at_hand  # noqa: E402
from skillmem_hook.search.at_hand.shown import names_code  # noqa: E402
from skillmem_hook.search.conditions import Condition, Coverage, Either, Lead, Share  # noqa: E402
from skillmem_hook.search.confidence import SCORE_RULE, ScoreRule, name_words  # noqa: E402
from skillmem_hook.search.names import Spellings, named_skills, users_own, without_ruled_out  # noqa: E402

MAX_SCORED_CHARS = 500
CONTEXTUAL = ("D", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "U", "V", "W", "X", "Y", "Z")


class Reading:
    """What the score rule reads of one text: its best hits, the best's typed words held, and the words typed."""

    __slots__ = ("cjk", "evidence", "hits", "index", "stray", "typed", "words")

    def __init__(self, judge: Judge, key: str, text: str) -> None:
        index = judge.lexical[key]
        # The route reads with the collection's own rarity (ScoreRule.english_at_large, off since 4f0f8df), not
        # search's English-at-large weights.
        rule = SCORE_RULE
        self.hits = index.query(text, top=rule.most, english_at_large=rule.english_at_large) if text.strip() else []
        self.evidence, _, self.typed, self.cjk = index.reading(text, self.hits[0]) if self.hits else (0, 0, 0, 0)
        # An English prompt whose best hit is an English-described skill of a collection described mostly in CJK:
        # the hook names nothing there (agents/route.py's english_among_cjk, after set L).
        self.stray = bool(self.hits) and english_among_cjk(text, self.hits[0], index)
        # The prompt's search words, typed or brought by the glossary (the English of a Chinese term), not the
        # dictionary's guesses: what route_tries' name-typed tries (the twenty-fifth pass) look a name up in.
        self.index = index
        words = index.query_words(text) if text.strip() else {}
        self.words = frozenset(word for word, query_word in words.items() if not query_word.guessed)


class Prompt:
    """A request or turn with the hook's readings of it, kept once and judged by every rule."""

    def __init__(self, judge: Judge, key: str, text: str, *, expect: list[str], label: str, group: str) -> None:
        self.key, self.expect, self.label, self.group = key, expect, label, group
        self.named = [t.label for t in named_skills(text, judge.names[key])]
        scored = text[:MAX_SCORED_CHARS]
        spellings = Spellings(judge.names[key])  # a skill's name in its product's spelling is not code (31st pass)
        self.code, self.hand = names_code(scored, spellings), at_hand(scored)
        raw = scored
        own = users_own(scored)
        kept = without_ruled_out(own)
        ask = asking_part(own)
        self.pasted = own != raw
        self.raw = Reading(judge, key, raw) if self.pasted else None
        self.whole = Reading(judge, key, own)
        self.kept = Reading(judge, key, kept) if kept != own else None
        self.ask = Reading(judge, key, ask) if ask else None
        self.ask_code = bool(ask) and names_code(ask, spellings)
        # The witness of a prompt naming code with no asking part: its sentences that name no code (the hook's
        # code_in_context since the thirteenth pass).
        plain = plain_part(own, spellings) if ask is None and self.code else None
        self.plain = Reading(judge, key, plain) if plain else None


Rule = Callable[[Prompt, Reading], list[str]]


def plain(rule: ScoreRule) -> Rule:
    """The rule's names for one reading (the hook's ``_chosen``)."""

    def names(prompt: Prompt, reading: Reading) -> list[str]:
        if not reading.hits:
            return []
        chosen = [hit.skill.label for hit in rule.chosen(reading.hits, reading.evidence, reading.typed, reading.cjk)]
        return [] if chosen and reading.stray else chosen

    return names


def routed(prompt: Prompt, rule: Rule, *, gates: frozenset[str] = frozenset(), code_below: int = 0) -> list[str]:
    """What the hook names for the prompt under ``rule``, with the pre-gates in ``gates`` turned off
    (``code_below``: naming code silences only a prompt that types fewer words)."""
    if prompt.named:
        return prompt.named
    code = prompt.code and (not code_below or prompt.whole.typed < code_below)
    if "at hand" not in gates and prompt.hand:
        return []
    whole = prompt.raw if "paste" in gates and prompt.raw else prompt.whole
    chosen = rule(prompt, whole)
    if chosen and prompt.kept and "ruled out" not in gates:
        chosen = rule(prompt, prompt.kept)
    if "code" not in gates and code:
        return chosen if _code_around_the_ask(prompt, chosen) else []
    return chosen


def _code_around_the_ask(prompt: Prompt, chosen: list[str]) -> bool:
    """The hook's ``code_in_context`` (0.5.0, eighth pass): a prompt that names code is hinted only when it types
    much context, its asking sentences name no code, and their own best hit is the hint's first; where no sentence
    asks, or every one, the witness is its sentences that name no code (the thirteenth pass)."""
    witness = prompt.ask if prompt.ask else prompt.plain
    if not chosen or not witness or prompt.ask_code or prompt.whole.typed < SCORE_RULE.context_typed:
        return False
    return bool(witness.hits) and witness.hits[0].skill.label == chosen[0]


# Each gate of the rule in force turned off alone: (label, the rule, the pre-gates off).
_RULE = SCORE_RULE
GATES: list[tuple[str, Rule, frozenset[str]]] = [
    ("much context: lead 1.2", plain(ScoreRule(context_lead=0)), frozenset()),
    ("much context: coverage .25", plain(ScoreRule(context_coverage=0)), frozenset()),
    ("much context: share 1/12", plain(ScoreRule(context_share=0)), frozenset()),
    ("much context: scattered tie", plain(ScoreRule(scatter_coverage=0)), frozenset()),
    ("much context: all four", plain(ScoreRule(context_typed=0)), frozenset()),
    ("held words: score 2", plain(ScoreRule(score=0)), frozenset()),
    ("held words: words 4", plain(ScoreRule(words=0)), frozenset()),
    ("held words: typed 8", plain(ScoreRule(typed=0)), frozenset()),
    ("names code", plain(_RULE), frozenset({"code"})),
    ("at hand", plain(_RULE), frozenset({"at hand"})),
    ("pastes read apart", plain(_RULE), frozenset({"paste"})),
]


def main() -> int:
    options = _parser().parse_args()
    judge = Judge(collection_roots())
    requests = _requests(judge, options.half)
    turns = [
        Prompt(judge, key, turn.text, expect=[], label=turn.id, group=turn.source)
        for turn in read_turns(list(TUNING_TURNS))
        for key in judge.skills
    ]
    print(f"{len(requests)} requests, {len(turns)} turn x collection; rule: {SCORE_RULE.describe()}\n")
    anatomy(requests)
    held_back(requests, turns)
    if options.names:
        from route_tries import TWENTY_FIFTH, compare, typed_names

        typed_names(requests, turns)
        compare(TWENTY_FIFTH, requests, turns)
    elif options.tries:
        from route_tries import TRIES, TWELFTH, TWENTY_FIFTH, TWENTY_FIRST, TWENTY_THIRD, compare, typed_names

        typed_names(requests, turns)
        compare(TRIES + TWELFTH + TWENTY_FIRST + TWENTY_THIRD + TWENTY_FIFTH, requests, turns)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("odd", "even"), help="only the requests of odd (or even) ids")
    parser.add_argument(
        "--tries", action="store_true", help="judge each try of the 8th, 12th, 21st, 23rd and 25th passes as well"
    )
    parser.add_argument("--names", action="store_true", help="only the 25th pass: the best's name typed")
    return parser


def _requests(judge: Judge, half: str | None) -> list[Prompt]:
    prompts = []
    for name, paths in TUNING_SETS.items():
        for r in read_requests(paths):
            if half and r.number % 2 != (1 if half == "odd" else 0):
                continue
            prompts.append(Prompt(judge, r.collection, r.query, expect=r.expect, label=r.id, group=f"{name} {r.group}"))
    return prompts


def anatomy(requests: list[Prompt]) -> None:
    """For each contextual request the route leaves silent with the expected skill at hand: what fails."""
    print("## silent contextual requests whose expected skill the search holds\n")
    print("| failing conditions (whole prompt's reading) | top 1 right | top 3 right only |\n|---|---:|---:|")
    rows: dict[str, list[int]] = {}
    rule = plain(SCORE_RULE)
    for p in requests:
        if p.group.split()[0] not in CONTEXTUAL or routed(p, rule) or not p.whole.hits:
            continue
        names = [hit.skill.label for hit in p.whole.hits]
        if not set(names) & set(p.expect):
            continue
        first = names[0] in p.expect
        rows.setdefault(_failing(p), [0, 0])[0 if first else 1] += 1
    for label, (first, three) in sorted(rows.items(), key=lambda row: -sum(row[1])):
        print(f"| {label} | {first} | {three} |")
    print()


def _failing(p: Prompt) -> str:
    """What holds the whole prompt's reading back: a pre-gate, the much-context gates that fail, and whether
    neither way (held words, a clear lead) holds."""
    if p.code:
        return "names code"
    if p.hand:
        return "at hand"
    reading = p.whole
    rows = SCORE_RULE.gates(reading.hits, reading.evidence, reading.typed, reading.cjk)
    failing = [_short(cond) for way, cond, holds in rows if way == "much context" and not holds]
    ways = {way for way, _, holds in rows if way != "much context" and holds}
    held = all(holds for way, _, holds in rows if way == "held words")
    lead = all(holds for way, _, holds in rows if way == "clear lead")
    if not (held or lead):
        failing.append("neither way holds")
    return "; ".join(failing) or ("ruled-out clause (its reading)" if ways else "?")


def _short(condition: Condition) -> str:
    """A gate's condition without the values it read: ``coverage 0.22 >= 0.25`` -> ``coverage 0.25``."""
    first = condition.first if isinstance(condition, Either) else condition
    if isinstance(first, Lead):
        return f"lead {first.factor:g}x"
    if isinstance(first, Coverage):
        return f"coverage {first.bound:g}"
    if isinstance(first, Share):
        return "share 1/12"
    return "scattered tie"


def held_back(requests: list[Prompt], turns: list[Prompt]) -> None:
    """Each gate turned off alone: the right and wrong hints and the everyday hints it adds back."""
    print("## each gate turned off alone: what it held back\n")
    print("| gate | right hints | wrong hints | everyday turns | of them contextual: right / wrong |")
    print("|---|---:|---:|---:|---|")
    rule = plain(SCORE_RULE)
    for label, loose, gates in GATES:
        right = wrong = right_ctx = wrong_ctx = 0
        for p in requests:
            if routed(p, rule) or not (names := routed(p, loose, gates=gates)):
                continue
            hit = bool(set(names) & set(p.expect))
            contextual = p.group.split()[0] in CONTEXTUAL
            right, wrong = right + hit, wrong + (not hit)
            right_ctx, wrong_ctx = right_ctx + (hit and contextual), wrong_ctx + (not hit and contextual)
        everyday = len({t.label for t in turns if not routed(t, rule) and routed(t, loose, gates=gates)})
        print(f"| {label} | {right} | {wrong} | {everyday} | {right_ctx} / {wrong_ctx} |")
    print()


def kin(a: str, b: str) -> bool:
    """Whether two skills' names share a word (one family)."""
    return not name_words(a).isdisjoint(name_words(b))


if __name__ == "__main__":
    sys.exit(main())
