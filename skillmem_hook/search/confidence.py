"""How sure a ranking is: a confidence per hit, a word for the whole answer, and the route hook's score rule.

Pure: hits in, numbers and words out. Every constant here was fitted or
chosen on the tuning half of the dev queries and checked on the held-out half
(docs/search.md, docs/route.md; benchmarks/search_quality.py, route_rule.py).
"""

from __future__ import annotations

import math
import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.search.conditions import CjkShare, Condition, LeadInstead
    from skillmem_hook.search.rank import Hit, SearchIndex

    Gate = tuple[str, Condition, bool]  # a condition of the rule: its way, the values it read, whether it holds

# Logistic weights of (1, log(1 + score), coverage, score / best score, is the best hit),
# fitted on the tuning half: the chance that a hit serves a query that asks for a skill.
_WEIGHTS = (-3.207, 0.309, 0.302, 1.203, 1.983)
# The answer's best hit holds fewer of the typed words than this (or than the query has)
# in its own name, description and sections: no skill fits.
MATCH_FLOOR = 2
# 'strong' (0.5.0): the best hit holds at least STRONG_WORDS typed words, scores at least STRONG_SCORE
# and STRONG_LEAD times the second. Calibrated on the tuning sets' odd ids: the top hit is right for
# .89 of 'strong' answers on the even ids (.71 with the route rule's way, 0.4.1), docs/notes/search.md.
STRONG_WORDS = 3
STRONG_SCORE = 2.0
STRONG_LEAD = 1.2
# The words of a skill's name, for its family: sred-project-organizer and sred-work-summary share "sred".
_NAME_WORD_BREAK = re.compile(r"[-_\s]+")


class ScoreRule:
    """When a ranking is sure enough to act on unasked (the route hint), and which of its hits to name.

    Either of two ways. **Held words**: the prompt types at least ``typed``
    search words (a request says what it is about; everyday turns, "continue"
    or "fix the typo on line 3", are short); the best hit scores at least
    ``score`` (BM25F's scale); and it holds at least ``words`` of the typed
    words in its own name, description or sections. Then the best hit is
    named, with the next ones (``most`` in all) that score at least ``near``
    times the best: a near tie is a guess between them, so the model is given
    both to choose from rather than one of them at random. **A clear lead**:
    the best hit scores at least ``lead`` times the second and at least
    ``lead_score``, holds at least ``lead_words`` typed words, and the prompt
    types at least ``lead_typed``; then only the best is named, since nothing
    comes near it (``lead=0`` turns this way off). **Context** (0.5.0): a
    prompt that types at least ``context_typed`` words carries context (the
    company, the numbers, the tools around the ask), which any skill may hold
    a few words of; either way then also needs the best hit to lead the second
    by ``context_lead`` times and to cover ``context_coverage`` of the query,
    else the rule abstains (``context_typed=0`` turns this off); on a prompt
    of ``wide_typed`` typed words or more, a lead of ``wide_lead`` times the second stands in for
    the coverage, since a long prompt's context dilutes any skill's share of it (``wide_lead=0``
    turns this off); and the best hit must hold ``context_share`` of the typed
    words: a long prompt whose best hit holds a handful of its words is matched by its context, not
    its ask, unless the best leads the second by ``share_lead`` times:
    context dilutes the share as it does the coverage, and a lead that clear says the skill stands
    out of it (``share_lead=0`` turns this waiver off); and when the
    ``most`` best all score within ``near`` of the best, no two of them kin and the best covering
    less than ``scatter_coverage`` of the query, the context ties unrelated skills: the rule abstains
    (``scatter_coverage=0`` turns this off); and where the best hit is described in
    English, a typed CJK word (a bigram, or a lone character) counts ``cjk_weight`` of a word in that share, since
    a Chinese run is cut into overlapping bigrams (about two for each word it holds) while an English description
    holds one word for each, so long as the best covers ``cjk_coverage`` of the query itself (``cjk_weight=1``
    turns this off).
    **Siblings** (``siblings``):
    a skill among the ``most`` best whose name shares a word with the named best's is named
    beside it, since a family's members (``sred-project-organizer``, ``sred-work-summary``)
    are told apart by intent words their descriptions rarely hold. **English at large**
    (``english_at_large``, off): the rule reads a prompt with the collection's own rarity of
    every word, not search's English-at-large weights (on the tuning sets
    those weights added 8 right hints and 3 wrong to the route, below its 0.9; docs/route.md).
    The defaults fire most often
    on the tuning queries at a precision of at least 0.9 there, and on none of
    the everyday prompts (benchmarks/route_rule.py, docs/route.md).
    """

    __slots__ = (
        "cjk_coverage",
        "cjk_weight",
        "context_coverage",
        "context_lead",
        "context_share",
        "context_typed",
        "english_at_large",
        "lead",
        "lead_score",
        "lead_typed",
        "lead_words",
        "most",
        "near",
        "scatter_coverage",
        "score",
        "share_lead",
        "siblings",
        "typed",
        "wide_lead",
        "wide_typed",
        "words",
    )

    def __init__(
        self,
        score: float = 2.0,
        words: int = 4,
        typed: int = 8,
        near: float = 0.5,
        most: int = 3,
        *,
        lead: float = 3.0,
        lead_score: float = 6.0,
        lead_words: int = 2,
        lead_typed: int = 5,
        context_typed: int = 16,
        context_lead: float = 1.2,
        context_coverage: float = 0.25,
        context_share: float = 1 / 12,
        share_lead: float = 2.0,
        scatter_coverage: float = 0.3,
        wide_lead: float = 1.5,
        wide_typed: int = 20,
        cjk_weight: float = 0.5,
        cjk_coverage: float = 0.2,
        siblings: bool = True,
        english_at_large: bool = False,
    ) -> None:
        self.score = score
        self.words = words
        self.typed = typed
        self.near = near
        self.most = most
        self.lead = lead
        self.lead_score = lead_score
        self.lead_words = lead_words
        self.lead_typed = lead_typed
        self.context_typed = context_typed
        self.context_lead = context_lead
        self.context_coverage = context_coverage
        self.context_share = context_share
        self.share_lead = share_lead
        self.scatter_coverage = scatter_coverage
        self.wide_lead = wide_lead
        self.wide_typed = wide_typed
        self.cjk_weight = cjk_weight
        self.cjk_coverage = cjk_coverage
        self.siblings = siblings
        self.english_at_large = english_at_large

    def chosen(self, hits: Sequence[Hit], evidence: int, typed: int, cjk: int) -> list[Hit]:
        """The hits to name, best first; none when the ranking is not sure enough.

        ``evidence`` is how many typed words the best hit holds, ``typed`` how many the prompt types, ``cjk`` how
        many of them are CJK: what ``SearchIndex.reading`` reads of the best hit.
        """
        if self.context_typed and typed >= self.context_typed and not self._stands_out(hits, evidence, typed, cjk):
            return []
        if typed >= self.typed and self._holds(hits, evidence):
            floor = self.near * hits[0].score
            return self._with_siblings(hits, [hit for hit in hits[: self.most] if hit.score >= floor])
        if typed >= self.lead_typed and self._leads(hits, evidence):
            return self._with_siblings(hits, [hits[0]])
        return []

    def _with_siblings(self, hits: Sequence[Hit], chosen: list[Hit]) -> list[Hit]:
        """``chosen``, then each other hit of the ``most`` best whose name shares a word with the best's."""
        if not self.siblings:
            return chosen
        family = name_words(chosen[0].skill.name)
        kin = [hit for hit in hits[: self.most] if hit not in chosen and family & name_words(hit.skill.name)]
        return [*chosen, *kin]

    def _stands_out(self, hits: Sequence[Hit], evidence: int, typed: int, cjk: int) -> bool:
        """Whether the best hit leads the second by ``context_lead``, covers ``context_coverage`` of the query
        (or leads by ``wide_lead`` on a long prompt) and holds ``context_share`` of its typed words (or leads by
        ``share_lead``, or holds it with CJK words counted by ``cjk_weight``)."""
        if not hits or not self._covers(hits, typed):
            return False
        if not self._holds_share(hits, evidence, typed, cjk):
            return False
        if self._scattered(hits):
            return False
        return len(hits) < 2 or hits[0].score >= self.context_lead * hits[1].score

    def _holds_share(self, hits: Sequence[Hit], evidence: int, typed: int, cjk: int) -> bool:
        """Whether the best hit holds ``context_share`` of the typed words, or leads by ``share_lead``, or is
        described in English, covers ``cjk_coverage`` and holds the share with CJK words
        counted by ``cjk_weight``."""
        if evidence >= self.context_share * typed or self._share_waived(hits):
            return True
        return self._holds_by_words(hits[0], evidence, typed, cjk)

    def _holds_by_words(self, best: Hit, evidence: int, typed: int, cjk: int) -> bool:
        """The share counted by words, not bigrams: only against an English description, which holds one word
        for each Chinese word the glossary brings (a Chinese one holds the overlapping bigrams as typed)."""
        if self.cjk_weight >= 1 or best.coverage < self.cjk_coverage:
            return False
        from skillmem_hook.search.rank import described_in_english  # noqa: PLC0415 - a long CJK prompt's rare case

        if not described_in_english(best.skill.description):
            return False
        return evidence >= self.context_share * self._words_typed(typed, cjk)

    def _words_typed(self, typed: int, cjk: int) -> float:
        """The typed words with each CJK one counted ``cjk_weight`` of a word."""
        return typed - (1 - self.cjk_weight) * cjk

    def _scattered(self, hits: Sequence[Hit]) -> bool:
        """Whether the ``most`` best are a near tie of unrelated skills and the best covers little of the query.

        A long quoted thread about design can tie a model hub, a skill router and a
        design skill on its context; a family's near tie (``api-design``,
        ``api-docs``) is one intent read several ways, and stays named.
        """
        if len(hits) < self.most or hits[0].coverage >= self.scatter_coverage:
            return False
        best = hits[: self.most]
        if best[-1].score < self.near * best[0].score:
            return False
        return self._unrelated(best)

    @staticmethod
    def _unrelated(hits: Sequence[Hit]) -> bool:
        """Whether no two of ``hits`` share a word of their names."""
        words = [name_words(hit.skill.name) for hit in hits]
        return all(words[i].isdisjoint(words[j]) for i in range(len(words)) for j in range(i + 1, len(words)))

    def gates(self, hits: Sequence[Hit], evidence: int, typed: int, cjk: int) -> list[Gate]:
        """Each condition of ``chosen`` with the values it read, as (way, condition, holds): ``route --explain``."""
        from skillmem_hook.search import conditions as c  # noqa: PLC0415 - a warm route prompt explains nothing

        best, second = _best_two(hits)
        rows: list[Gate] = []
        if self.context_typed and typed >= self.context_typed:
            rows += self._context_gates(hits, evidence, typed, cjk)
        rows += [
            ("held words", c.Typed(typed, self.typed), typed >= self.typed),
            ("held words", c.Score(best, self.score), bool(hits) and best >= self.score),
            ("held words", c.WordsHeld(evidence, self.words), evidence >= self.words),
        ]
        if self.lead:
            rows += [
                ("clear lead", c.Typed(typed, self.lead_typed), typed >= self.lead_typed),
                ("clear lead", c.Score(best, self.lead_score), bool(hits) and best >= self.lead_score),
                ("clear lead", c.WordsHeld(evidence, self.lead_words), evidence >= self.lead_words),
                ("clear lead", c.Lead(best, self.lead, second), self._leads_second(hits)),
            ]
        return rows

    def _context_gates(self, hits: Sequence[Hit], evidence: int, typed: int, cjk: int) -> list[Gate]:
        """The conditions of a prompt of much context, for ``gates``."""
        from skillmem_hook.search import conditions as c  # noqa: PLC0415 - a warm route prompt explains nothing

        best, second = _best_two(hits)
        shown = hits[: self.most]
        scatter = c.NotScattered(
            self.most,
            self.scatter_coverage,
            hits=len(hits),
            coverage=hits[0].coverage if hits else 0.0,
            best=best,
            last=shown[-1].score if shown and len(shown) == self.most else 0.0,
            near=self.near,
            unrelated=self._unrelated(shown),
        )
        leads = second is None or best >= self.context_lead * second
        return [
            ("much context", c.Lead(best, self.context_lead, second), leads),
            ("much context", self._coverage_condition(hits, typed), bool(hits) and self._covers(hits, typed)),
            (
                "much context",
                self._share_condition(hits, evidence, typed, cjk),
                bool(hits) and self._holds_share(hits, evidence, typed, cjk),
            ),
            ("much context", scatter, not self._scattered(hits)),
        ]

    def _covers(self, hits: Sequence[Hit], typed: int) -> bool:
        """Whether the best hit covers ``context_coverage`` of the query, or leads the second by ``wide_lead`` on a
        prompt of ``wide_typed`` typed words or more (docs/notes/route.md)."""
        if hits[0].coverage >= self.context_coverage:
            return True
        if not self.wide_lead or typed < self.wide_typed:
            return False
        return len(hits) < 2 or hits[0].score >= self.wide_lead * hits[1].score

    def _coverage_condition(self, hits: Sequence[Hit], typed: int) -> Condition:
        """The coverage asked, for ``gates``; or a lead of ``wide_lead`` on a prompt of ``wide_typed`` words or more."""
        from skillmem_hook.search import conditions as c  # noqa: PLC0415 - a warm route prompt explains nothing

        coverage = c.Coverage(hits[0].coverage if hits else 0.0, self.context_coverage)
        if not self.wide_lead or typed < self.wide_typed:
            return coverage
        wide = c.LeadInstead(self.wide_lead, *_best_two(hits), when=c.Typed(typed, self.wide_typed))
        return c.Either(coverage, (wide,))

    def _share_waived(self, hits: Sequence[Hit]) -> bool:
        """Whether the best hit leads the second by ``share_lead``, so needs no ``context_share`` of the typed words
        (chosen seeing both halves of the tuning data, docs/notes/route.md)."""
        if not self.share_lead or not hits:
            return False
        return len(hits) < 2 or hits[0].score >= self.share_lead * hits[1].score

    def _share_condition(self, hits: Sequence[Hit], evidence: int, typed: int, cjk: int) -> Condition:
        """The share asked, for ``gates``; or the lead that waives it, and whether it waived a share the best lacks; or
        the CJK words counted by ``cjk_weight``, when they hold it, with the count it used (the share as typed does
        not hold there)."""
        from skillmem_hook.search import conditions as c  # noqa: PLC0415 - a warm route prompt explains nothing

        lacks = evidence < self.context_share * typed
        share = c.Share(evidence, self.context_share, typed)
        others: list[LeadInstead | CjkShare] = []
        if self.share_lead:
            waived = lacks and self._share_waived(hits)
            others.append(c.LeadInstead(self.share_lead, *_best_two(hits), waived=waived))
        if lacks and hits and not self._share_waived(hits) and self._holds_share(hits, evidence, typed, cjk):
            covers = c.Coverage(hits[0].coverage, self.cjk_coverage)
            counted = self._words_typed(typed, cjk)
            others.append(c.CjkShare(evidence, self.context_share, typed, self.cjk_weight, cjk, counted, covers))
        return c.Either(share, tuple(others)) if others else share

    def _leads_second(self, hits: Sequence[Hit]) -> bool:
        return bool(hits) and (len(hits) < 2 or hits[0].score >= self.lead * hits[1].score)

    def sure(self, hits: Sequence[Hit], evidence: int) -> bool:
        """Whether the best hit scores and holds enough, or leads clearly: the rule without the prompt's length."""
        return self._holds(hits, evidence) or self._leads(hits, evidence)

    def _holds(self, hits: Sequence[Hit], evidence: int) -> bool:
        return bool(hits) and hits[0].score >= self.score and evidence >= self.words

    def _leads(self, hits: Sequence[Hit], evidence: int) -> bool:
        if not self.lead or not hits or hits[0].score < self.lead_score or evidence < self.lead_words:
            return False
        return self._leads_second(hits)

    def describe(self) -> str:
        held = f"score >= {self.score:g}, words >= {self.words}, typed >= {self.typed}, near >= {self.near:g}"
        if self.lead:
            held += (
                f"; or a lead of {self.lead:g}x the second, score >= {self.lead_score:g},"
                f" words >= {self.lead_words}, typed >= {self.lead_typed}"
            )
        if self.context_typed:
            held += (
                f"; typed >= {self.context_typed}: a lead of {self.context_lead:g}x"
                f", coverage >= {self.context_coverage:g} and words >= {self.context_share:.3g}x typed as well"
            )
            if self.share_lead:
                held += f" (a lead of {self.share_lead:g}x for the words)"
            if self.cjk_weight < 1:
                held += (
                    f" (a CJK word as {self.cjk_weight:g} of a word there, the best described in English"
                    f" and covering {self.cjk_coverage:g})"
                )
            if self.wide_lead:
                held += f" (typed >= {self.wide_typed}: a lead of {self.wide_lead:g}x for the coverage)"
            if self.scatter_coverage:
                held += f", and no tie of {self.most} unrelated skills below coverage {self.scatter_coverage:g}"
        if self.siblings:
            held += "; the best's siblings among the named"
        return held


SCORE_RULE = ScoreRule()


def _best_two(hits: Sequence[Hit]) -> tuple[float, float | None]:
    """The best hit's score (0 without one) and the second's (None without one): what a lead is read from."""
    return (hits[0].score if hits else 0.0), (hits[1].score if len(hits) > 1 else None)


def name_words(name: str) -> frozenset[str]:
    """The words of a skill's name, case-folded: ``Azure-Storage_blob`` gives azure, storage, blob."""
    return frozenset(word for word in _NAME_WORD_BREAK.split(name.casefold()) if word)


def confidence(hit: Hit, best: Hit) -> float:
    """The chance that ``hit`` serves the query, if the query asks for a skill (see ``match`` for whether any fits)."""
    features = (1.0, math.log1p(hit.score), hit.coverage, hit.score / best.score if best.score else 0.0)
    z = sum(weight * value for weight, value in zip(_WEIGHTS, (*features, 1.0 if hit is best else 0.0)))
    return round(1 / (1 + math.exp(-z)), 2)


def match(hits: Sequence[Hit], evidence: int, typed: int, loose: int | None = None) -> str:
    """'none' when the best hit holds fewer than MATCH_FLOOR of the ``typed`` words (all of them,
    for a shorter query), counting the dictionary's guesses (``loose``, when given), or there is
    no hit; 'strong' when the best hit holds STRONG_WORDS on ``evidence`` (which counts no guess),
    scores STRONG_SCORE and leads the second by STRONG_LEAD: a near tie is a guess between the two,
    whatever each holds; else 'weak'."""
    if not hits or (evidence if loose is None else loose) < min(MATCH_FLOOR, typed):
        return "none"
    best = hits[0].score
    leads = len(hits) < 2 or best >= STRONG_LEAD * hits[1].score
    return "strong" if evidence >= STRONG_WORDS and best >= STRONG_SCORE and leads else "weak"


def weak_because(hits: Sequence[Hit], evidence: int, loose: int | None = None) -> list[str]:
    """What a 'weak' ``match`` lacked of a strong one, for a person (``search --text``): the best hit close to the
    second (a near tie: either may be the one), too few words held, too low a score. ``evidence`` and ``loose``
    as ``match``: the words the dictionary's guesses add are said apart, since they kept the answer from 'none'
    but count nothing toward 'strong' (newcomer en3: "holds 0 of the words typed" read as 'none' by the docs)."""
    because = []
    if len(hits) > 1 and hits[0].score < STRONG_LEAD * hits[1].score:
        best, second = round(hits[0].score, 2), round(hits[1].score, 2)
        close = f"close to the next: {best:g} against {second:g}, under {STRONG_LEAD:g} x"
        because.append(f"{close}, so either may be the one")
    if evidence < STRONG_WORDS:
        held = f"the best holds {evidence} of the words typed; a strong match holds {STRONG_WORDS}"
        if loose is not None and loose > evidence:
            held = (
                f"the best holds {evidence} of the words typed, {loose} with the dictionary's guesses, which keep it"
                f" from 'none' but never make it strong; a strong match holds {STRONG_WORDS} as typed"
            )
        because.append(held)
    if hits and hits[0].score < STRONG_SCORE:
        because.append(f"the best scores {round(hits[0].score, 2):g}; a strong match scores {STRONG_SCORE:g}")
    return because


def fit(index: SearchIndex, intent: str, hits: Sequence[Hit]) -> str:
    """``match`` of a ranking of ``index`` for ``intent``: what ``skillmem search`` and the MCP server both answer.

    'strong' when ``intent`` is the best hit's name (``named``), whatever it holds or scores."""
    if not hits:
        return "none"
    if named(intent, hits[0]):
        return "strong"
    evidence, loose, typed, _ = index.reading(intent, hits[0])
    return match(hits, evidence, typed, loose)


def named(intent: str, hit: Hit) -> bool:
    """Whether ``intent`` is ``hit``'s name or its folder's, compared as duplicate names are (``slug_of``: case,
    spaces and dashes aside): "crewai", "sql injection testing" for "SQL Injection Testing". A name typed is right
    by construction, so its skill at the top is a strong match, though one word held is no lead elsewhere
    (newcomer en3); no query of the tuning, held-out or everyday sets is a name, so no calibration moves.
    """
    from skillmem_hook.catalog.skillfile.names import slug_of  # noqa: PLC0415 - a warm route prompt judges no match

    typed = slug_of(intent)
    folder = os.path.basename(os.path.normpath(os.path.join(hit.skill.root, hit.skill.path)))
    return bool(typed) and typed in (slug_of(hit.skill.name), slug_of(folder))
