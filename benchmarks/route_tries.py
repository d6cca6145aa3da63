"""The 8th, 12th, 21st, 23rd and 25th passes' tries on the route's score rule, on ``route_gates.py``'s readings.

Each try is a function of a prompt (its readings kept once) to the skills it
names; ``compare`` prints, per try, the fire and precision of every group of
every tuning set, the hints it adds and silences against the rule in force,
and the everyday turns it fires.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from route_gates import Prompt, Reading, kin, plain, routed

from skillmem_hook.search.confidence import SCORE_RULE, ScoreRule
from skillmem_hook.search.rank import Hit

Try = Callable[[Prompt], list[str]]
_NOW = plain(SCORE_RULE)
_NO_CONTEXT = plain(ScoreRule(context_typed=0))


def now(p: Prompt) -> list[str]:
    return routed(p, _NOW)


def code_long(p: Prompt) -> list[str]:
    """Naming code silences only a prompt of fewer than 16 typed words (much context is gated as such)."""
    return routed(p, _NOW, code_below=SCORE_RULE.context_typed)


def _witness(p: Prompt, reading: Reading) -> list[str]:
    """The rule in force, or, on much context, the rule without its context gates when the ask's own
    reading has the same best skill and passes the rule in force by itself."""
    names = _NOW(p, reading)
    if names or not p.ask or not p.ask.hits or reading.typed < SCORE_RULE.context_typed or not reading.hits:
        return names
    if p.ask.hits[0].skill.label != reading.hits[0].skill.label or not _NOW(p, p.ask):
        return names
    return _NO_CONTEXT(p, reading)


def witness(p: Prompt) -> list[str]:
    return routed(p, _witness)


def _witness_loose(p: Prompt, reading: Reading) -> list[str]:
    """As ``_witness``, the ask needing only the same best skill, not the rule by itself."""
    names = _NOW(p, reading)
    if names or not p.ask or not p.ask.hits or reading.typed < SCORE_RULE.context_typed or not reading.hits:
        return names
    if p.ask.hits[0].skill.label != reading.hits[0].skill.label:
        return names
    return _NO_CONTEXT(p, reading)


def witness_loose(p: Prompt) -> list[str]:
    return routed(p, _witness_loose)


def _unkin_lead(p: Prompt, reading: Reading) -> list[str]:
    """Much context's lead of 1.2 measured against the best hit not of the best's family."""
    hits = reading.hits
    if not hits:
        return []
    trimmed = [hits[0], *(h for h in hits[1:] if not kin(h.skill.name, hits[0].skill.name))]
    if len(trimmed) == len(hits) or not SCORE_RULE.chosen(trimmed, reading.evidence, reading.typed, reading.cjk):
        return _NOW(p, reading)
    return [h.skill.label for h in ScoreRule(context_lead=0).chosen(hits, reading.evidence, reading.typed, reading.cjk)]


def unkin_lead(p: Prompt) -> list[str]:
    return routed(p, _unkin_lead)


def _coverage_scaled(p: Prompt, reading: Reading) -> list[str]:
    """Much context's coverage floor .25 at 16 typed words, falling with length to .15 at 48 and more."""
    typed = reading.typed
    floor = max(0.15, 0.25 - 0.1 * (typed - 16) / 32) if typed >= 16 else 0.25
    return plain(ScoreRule(context_coverage=floor))(p, reading)


def coverage_scaled(p: Prompt) -> list[str]:
    return routed(p, _coverage_scaled)


def _coverage(floor: float) -> Try:
    rule = plain(ScoreRule(context_coverage=floor))
    return lambda p: routed(p, rule)


def _lead(lead: float) -> Try:
    rule = plain(ScoreRule(context_lead=lead))
    return lambda p: routed(p, rule)


def _agrees(p: Prompt, names: list[str]) -> bool:
    """Whether the ask's own reading has the hint's first skill as its best hit."""
    return bool(names and p.ask and p.ask.hits and p.ask.hits[0].skill.label == names[0])


def code_long_witness(p: Prompt) -> list[str]:
    """A prompt of much context that names code is hinted only when its ask's reading has the same best."""
    names = now(p)
    if names or not p.code or p.hand or p.whole.typed < SCORE_RULE.context_typed:
        return names
    loose = code_long(p)
    return loose if _agrees(p, loose) else names


def coverage_witness(p: Prompt) -> list[str]:
    """The coverage floor falling with length, its added hints only where the ask's reading agrees."""
    names = now(p)
    if names:
        return names
    loose = coverage_scaled(p)
    return loose if _agrees(p, loose) else names


def both_witness(p: Prompt) -> list[str]:
    return coverage_witness(p) or code_long_witness(p)


def code_context_witness(p: Prompt) -> list[str]:
    """As ``code_long_witness``, and only when the code is named in the context, not in the asking sentences."""
    return code_long_witness(p) if not p.ask_code else now(p)


TRIES: list[tuple[str, Try]] = [
    ("names code silences under 16 typed words only", code_long),
    ("the ask's reading as a second witness (the ask passes the rule)", witness),
    ("the ask's reading as a second witness (same best only)", witness_loose),
    ("much context's lead against the best non-kin", unkin_lead),
    ("coverage floor .25 -> .15 with length", coverage_scaled),
    ("coverage floor .22", _coverage(0.22)),
    ("context lead 1.1", _lead(1.1)),
    ("names code on much context: hinted when the ask's reading agrees", code_long_witness),
    ("the same, the code named outside the asking sentences", code_context_witness),
    ("coverage floor with length, added hints only where the ask agrees", coverage_witness),
    ("coverage with the ask, and names code on much context with the ask", both_witness),
]


def _wide(lead: float, typed: int) -> Try:
    rule = plain(ScoreRule(wide_lead=lead, wide_typed=typed))
    return lambda p: routed(p, rule)


# The twelfth pass's tries: the coverage of much context waived on a long prompt whose best leads clearly (kept: a
# lead of 1.5 on 20 typed words, the rule in force since; docs/notes/route.md). Against the rule in force, a try
# with a higher lead or more words silences what it added.
TWELFTH: list[tuple[str, Try]] = [
    ("no lead for the coverage (the rule before the twelfth pass)", _wide(0, 20)),
    *(
        (f"a lead of {lead} for the coverage, typed >= {typed}", _wide(lead, typed))
        for lead in (1.3, 1.4, 1.6, 2.0)
        for typed in (16, 20)
    ),
    ("a lead of 1.5 for the coverage, typed >= 16", _wide(1.5, 16)),
]


def _ask_leads(loose: ScoreRule, lead: float) -> Try:
    """The rule in force, or, on much context, ``loose`` (a context gate or all of them lifted) when its first is
    also the best of the ask's words alone (the asking sentences, ``asks.asking_part``), which lead their own second
    by ``lead`` times: the twenty-first pass's "the top skill of the whole prompt fires when it is also the top
    skill of the ask's words alone with a clear lead there"."""
    lifted = plain(loose)

    def names(p: Prompt, reading: Reading) -> list[str]:
        chosen = _NOW(p, reading)
        if chosen or reading.typed < SCORE_RULE.context_typed or not p.ask or not p.ask.hits:
            return chosen
        ask = p.ask.hits
        if len(ask) > 1 and ask[0].score < lead * ask[1].score:
            return []
        chosen = lifted(p, reading)
        return chosen if chosen and chosen[0] == ask[0].skill.label else []

    return lambda p: routed(p, names)


# The twenty-first pass's tries (none kept; docs/notes/route.md): which much-context gate the ask's clear lead may
# lift, at which lead.
_LIFTED = {
    "the lead": ScoreRule(context_lead=0),
    "the coverage": ScoreRule(context_coverage=0, wide_lead=0),
    "the lead and the coverage": ScoreRule(context_lead=0, context_coverage=0, wide_lead=0),
    "all four": ScoreRule(context_typed=0),
}
TWENTY_FIRST: list[tuple[str, Try]] = [
    (f"much context: {gate} lifted where the ask's own best is the same and leads by {lead}", _ask_leads(rule, lead))
    for gate, rule in _LIFTED.items()
    for lead in (1.2, 1.5, 2.0)
]


def compare(tries: list[tuple[str, Try]], requests: list[Prompt], turns: list[Prompt]) -> None:
    base = {id(p): now(p) for p in requests + turns}
    for label, rule in tries:
        print(f"## try: {label}\n")
        groups: dict[str, list[int]] = {}
        added_right = added_wrong = lost_right = lost_wrong = 0
        changed = []
        for p in requests:
            names, before = rule(p), base[id(p)]
            right = bool(set(names) & set(p.expect))
            row = groups.setdefault(p.group, [0, 0, 0])
            row[0] += 1
            row[1] += bool(names)
            row[2] += right
            if names != before:
                was = bool(set(before) & set(p.expect))
                added_right += right and not was
                added_wrong += bool(names) and not right and (not before or was)
                lost_right += was and not right
                lost_wrong += bool(before) and not was and (not names or right)
                changed.append(f"{p.label} {before} -> {names} (expect {p.expect[:2]})")
        everyday = sorted({t.label for t in turns if rule(t) and not base[id(t)]})
        worst = min(((r[2] / r[1], g, r) for g, r in groups.items() if r[1]), key=lambda x: x[0])
        print(f"right added {added_right}, wrong added {added_wrong}, right lost {lost_right}", end="")
        print(f", wrong silenced {lost_wrong}")
        print(f"everyday turns newly fired: {len(everyday)} {everyday[:6]}")
        print(f"worst group: {worst[1]} {worst[2][2]} of {worst[2][1]} ({worst[0]:.2f})")
        sets: dict[str, list[int]] = {}
        for g, r in groups.items():
            s = sets.setdefault(g.split()[0], [0, 0, 0])
            for i in range(3):
                s[i] += r[i]
        print(
            "fire / precision by set: "
            + ", ".join(f"{s} {r[1] / r[0]:.2f}/{(r[2] / r[1] if r[1] else 0):.2f}" for s, r in sets.items())
        )
        low = [f"{g} {r[2]}/{r[1]}" for g, r in groups.items() if r[1] and r[2] / r[1] < 0.9]
        print(f"groups under .90: {low}")
        for line in changed:
            print(f"- {line}")
        print()


class _Loosened(ScoreRule):
    """The rule in force with one much-context gate moved: the share of one typed word in twelve waived where the
    best leads its second by ``share_lead`` times (0 for the rule before the twenty-fourth pass, which kept 2), or
    the lead of 1.2 asked as ``rich_lead`` where the best holds ``rich_words`` typed words or more (the
    twenty-third pass, none kept)."""

    def __init__(
        self, *, share_lead: float = SCORE_RULE.share_lead, rich_words: int = 0, rich_lead: float = 1.2
    ) -> None:
        super().__init__(share_lead=share_lead)
        self.rich_words, self.rich_lead = rich_words, rich_lead

    def _stands_out(self, hits: Sequence[Hit], evidence: int, typed: int, cjk: int) -> bool:
        lead = self.context_lead
        if self.rich_words and evidence >= self.rich_words:
            self.context_lead = self.rich_lead
        try:
            return super()._stands_out(hits, evidence, typed, cjk)
        finally:
            self.context_lead = lead


def _loosened(**numbers: float) -> Try:
    rule = plain(_Loosened(**numbers))  # type: ignore[arg-type]
    return lambda p: routed(p, rule)


# The twenty-third pass's tries (docs/notes/route.md, "the precision headroom"): chosen on the odd ids, the lead of
# 1.15 where the best holds 6 typed words (odd +10 right, 2 wrong) adds a wrong hint to set J's cn/zh on the even ids
# (4 of 4 -> 4 of 5): nothing kept. Since the twenty-fourth pass each try is read on the rule in force, which waives
# the share at a lead of 2: the share's tries move that lead (0: the waiver off, the twenty-third pass's rule, so its
# figures are this pass's gain read backwards), and a rich-lead try adds its lead to the waiver.
TWENTY_THIRD: list[tuple[str, Try]] = [
    *(
        (
            f"much context: a lead of {lead} where the best holds {words} typed words",
            _loosened(rich_words=words, rich_lead=lead),
        )
        for words in (5, 6, 7, 8, 10, 12)
        for lead in (1.18, 1.15, 1.12, 1.1)
    ),
    *(
        (f"much context: no share of 1/12 where the best leads by {lead}", _loosened(share_lead=lead))
        for lead in (1.6, 1.7, 1.8, 1.9, 2.2, 2.5, 3.0)
    ),
    ("much context: the share of 1/12 never waived (the rule before the twenty-fourth pass)", _loosened(share_lead=0)),
]


# The twenty-fifth pass (docs/notes/route.md, "the name typed"): does the prompt type the best hit's name? A skill's
# name words are its name's search words (the tokenizer's, stemmed) less the words a collection's names share: those
# in at least GENERIC_SHARE of its names (skill, expert, pro, pattern, ..., found by count, not listed). The name is
# typed when the prompt's search words (typed, or the glossary's English for a Chinese term; not the dictionary's
# guesses) hold all its name words, or its distinctive one: the name word fewest of the collection's names hold.
GENERIC_SHARE = 0.01
_NAME_STATS: dict[int, tuple[dict[str, int], frozenset[str]]] = {}


def _name_stats(index: object) -> tuple[dict[str, int], frozenset[str]]:
    """How many of the collection's names hold each name word, and the words too many hold (generic)."""
    stats = _NAME_STATS.get(id(index))
    if stats is None:
        skills = index._skills  # type: ignore[attr-defined]
        counts: dict[str, int] = {}
        for skill in skills:
            for word in _name_search_words(index, skill.name):
                counts[word] = counts.get(word, 0) + 1
        generic = frozenset(word for word, n in counts.items() if n >= GENERIC_SHARE * len(skills))
        stats = _NAME_STATS[id(index)] = (counts, generic)
    return stats


def _name_search_words(index: object, name: str) -> set[str]:
    return set(index.tuning.words(name.replace("-", " ").replace("_", " ")))  # type: ignore[attr-defined]


def name_words_of(reading: Reading, name: str) -> list[str]:
    """The name's distinctive words, rarest among the collection's names first."""
    counts, generic = _name_stats(reading.index)
    return sorted((w for w in _name_search_words(reading.index, name) if w not in generic), key=lambda w: counts[w])


def name_typed(reading: Reading, *, distinctive: bool = True) -> bool:
    """Whether the reading's words hold the best hit's name words, all of them or (``distinctive``) the rarest."""
    if not reading.hits:
        return False
    words = name_words_of(reading, reading.hits[0].skill.name)
    if not words:
        return False
    if all(w in reading.words for w in words):
        return True
    return distinctive and words[0] in reading.words


def _when_named(loose: ScoreRule, *, distinctive: bool = True) -> Try:
    """The rule in force, or ``loose`` (one much-context gate lifted or moved) where the prompt types the best
    hit's name."""
    lifted = plain(loose)

    def names(p: Prompt, reading: Reading) -> list[str]:
        chosen = _NOW(p, reading)
        if chosen or not name_typed(reading, distinctive=distinctive):
            return chosen
        return lifted(p, reading)

    return lambda p: routed(p, names)


_NAMED_GATES = {
    "the lead 1.2 lifted": ScoreRule(context_lead=0),
    "the lead 1.2 -> 1.1": ScoreRule(context_lead=1.1),
    "the lead 1.2 -> 1.15": ScoreRule(context_lead=1.15),
    "the coverage lifted": ScoreRule(context_coverage=0, wide_lead=0),
    "the coverage .25 -> .15": ScoreRule(context_coverage=0.15),
    "the coverage .25 -> .2": ScoreRule(context_coverage=0.2),
    "the share lifted": ScoreRule(context_share=0),
    "the scattered tie lifted": ScoreRule(scatter_coverage=0),
    "all four lifted": ScoreRule(context_typed=0),
}
TWENTY_FIFTH: list[tuple[str, Try]] = [
    (f"much context: {gate} where the prompt types the best's name{how}", _when_named(rule, distinctive=rare))
    for gate, rule in _NAMED_GATES.items()
    for how, rare in (("", True), (" (all its words)", False))
]


def typed_names(requests: list[Prompt], turns: list[Prompt]) -> None:
    """Among the hints each much-context gate alone holds back: how many type the best hit's name."""
    from route_gates import GATES

    print("## held back by a much-context gate: the best's name typed (all words / the distinctive one)\n")
    print("| gate | right: all / distinctive / held back | wrong: ... | everyday turns: ... |\n|---|---|---|---|")
    for label, loose, gates in GATES[:5]:
        rows = {"right": [0, 0, 0], "wrong": [0, 0, 0], "everyday": [0, 0, 0]}
        seen: set[str] = set()
        for p in requests + turns:
            if now(p) or not (names := routed(p, loose, gates=gates)):
                continue
            if not p.expect:
                if p.label in seen:
                    continue
                seen.add(p.label)
                row = rows["everyday"]
            else:
                row = rows["right" if set(names) & set(p.expect) else "wrong"]
            row[0] += name_typed(p.whole, distinctive=False)
            row[1] += name_typed(p.whole)
            row[2] += 1
        print(f"| {label} | " + " | ".join("{} / {} / {}".format(*rows[k]) for k in rows) + " |")
    print()
