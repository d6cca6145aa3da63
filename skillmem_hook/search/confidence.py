"""How sure a ranking is: a confidence per hit, a word for the whole answer, and the route hook's score rule.

Pure: hits in, numbers and words out. Every constant here was fitted or
chosen on the tuning half of the dev queries and checked on the held-out half
(docs/search.md, docs/route.md; benchmarks/search_quality.py, route_rule.py).
"""

from __future__ import annotations

import math

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from skillmem_hook.search.rank import Hit, SearchIndex

# Logistic weights of (1, log(1 + score), coverage, score / best score, is the best hit),
# fitted on the tuning half: the chance that a hit serves a query that asks for a skill.
_WEIGHTS = (-3.207, 0.309, 0.302, 1.203, 1.983)
# The answer's best hit holds fewer of the typed words than this (or than the query has)
# in its own name, description and sections: no skill fits.
MATCH_FLOOR = 2


class ScoreRule:
    """When a ranking is sure enough to act on unasked (the route hint), and to call a match strong.

    All three must hold: the best hit scores at least ``score`` (BM25F's scale);
    it holds at least ``words`` of the typed words in its own name, description
    or sections (everyday turns are short, so they rarely share that many with
    one skill); and it leads the second hit by ``margin`` (a near tie is a
    guess). The defaults fire most often on the tuning half of the dev queries
    without one wrong hint there (with 50 queries one wrong hint moves
    precision by 6 points, so the 9-in-10 bar is kept with room) and fire on
    none of the everyday prompts (benchmarks/route_rule.py).
    """

    __slots__ = ("margin", "score", "words")

    def __init__(self, score: float = 4.0, words: int = 5, margin: float = 1.1) -> None:
        self.score = score
        self.words = words
        self.margin = margin

    def passes(self, hits: Sequence[Hit], evidence: int) -> bool:
        if not hits or hits[0].score < self.score or evidence < self.words:
            return False
        return len(hits) < 2 or hits[0].score >= self.margin * hits[1].score


SCORE_RULE = ScoreRule()


def confidence(hit: Hit, best: Hit) -> float:
    """The chance that ``hit`` serves the query, if the query asks for a skill (see ``match`` for whether any fits)."""
    features = (1.0, math.log1p(hit.score), hit.coverage, hit.score / best.score if best.score else 0.0)
    z = sum(weight * value for weight, value in zip(_WEIGHTS, (*features, 1.0 if hit is best else 0.0)))
    return round(1 / (1 + math.exp(-z)), 2)


def match(hits: Sequence[Hit], evidence: int, typed: int) -> str:
    """'strong' when the score rule passes; 'none' when the best hit holds fewer than MATCH_FLOOR
    of the ``typed`` words (all of them, for a shorter query), or there is no hit; else 'weak'."""
    if not hits or evidence < min(MATCH_FLOOR, typed):
        return "none"
    return "strong" if SCORE_RULE.passes(hits, evidence) else "weak"


def fit(index: SearchIndex, intent: str, hits: Sequence[Hit]) -> str:
    """``match`` of a ranking of ``index`` for ``intent``: what ``skillmem search`` and the MCP server both answer."""
    return match(hits, index.evidence(intent, hits[0]) if hits else 0, index.typed_words(intent))
