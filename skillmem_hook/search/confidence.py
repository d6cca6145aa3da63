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
    """When a ranking is sure enough to act on unasked (the route hint), and which of its hits to name.

    All must hold: the prompt types at least ``typed`` search words (a request
    says what it is about; everyday turns, "continue" or "fix the typo on line
    3", are short); the best hit scores at least ``score`` (BM25F's scale); and
    it holds at least ``words`` of the typed words in its own name,
    description or sections. Then the best hit is named, with the next ones
    (``most`` in all) that score at least ``near`` times the best: a near tie
    is a guess between them, so the model is given both to choose from rather
    than one of them at random. The defaults fire most often on the tuning
    half of the dev queries at a precision of at least 0.9 there, and on none
    of the everyday prompts (benchmarks/route_rule.py, docs/route.md).
    """

    __slots__ = ("most", "near", "score", "typed", "words")

    def __init__(self, score: float = 2.0, words: int = 4, typed: int = 8, near: float = 0.6, most: int = 3) -> None:
        self.score = score
        self.words = words
        self.typed = typed
        self.near = near
        self.most = most

    def chosen(self, hits: Sequence[Hit], evidence: int, typed: int) -> list[Hit]:
        """The hits to name, best first; none when the ranking is not sure enough.

        ``evidence`` is how many typed words the best hit holds (``SearchIndex.evidence``),
        ``typed`` how many the prompt types (``SearchIndex.typed_words``).
        """
        if typed < self.typed or not self.sure(hits, evidence):
            return []
        floor = self.near * hits[0].score
        return [hit for hit in hits[: self.most] if hit.score >= floor]

    def sure(self, hits: Sequence[Hit], evidence: int) -> bool:
        """Whether the best hit scores and holds enough: the rule without the prompt's length."""
        return bool(hits) and hits[0].score >= self.score and evidence >= self.words

    def describe(self) -> str:
        return f"score >= {self.score:g}, words >= {self.words}, typed >= {self.typed}, near >= {self.near:g}"


SCORE_RULE = ScoreRule()


def confidence(hit: Hit, best: Hit) -> float:
    """The chance that ``hit`` serves the query, if the query asks for a skill (see ``match`` for whether any fits)."""
    features = (1.0, math.log1p(hit.score), hit.coverage, hit.score / best.score if best.score else 0.0)
    z = sum(weight * value for weight, value in zip(_WEIGHTS, (*features, 1.0 if hit is best else 0.0)))
    return round(1 / (1 + math.exp(-z)), 2)


def match(hits: Sequence[Hit], evidence: int, typed: int, loose: int | None = None) -> str:
    """'none' when the best hit holds fewer than MATCH_FLOOR of the ``typed`` words (all of them,
    for a shorter query), counting the dictionary's guesses (``loose``, when given), or there is
    no hit; 'strong' when the score rule is sure of the best hits on ``evidence``, which counts no
    guess (a query typed to search asks for a skill, so the rule's length gate, which keeps the
    route hook silent on everyday turns, does not apply); else 'weak'."""
    if not hits or (evidence if loose is None else loose) < min(MATCH_FLOOR, typed):
        return "none"
    return "strong" if SCORE_RULE.sure(hits, evidence) else "weak"


def fit(index: SearchIndex, intent: str, hits: Sequence[Hit]) -> str:
    """``match`` of a ranking of ``index`` for ``intent``: what ``skillmem search`` and the MCP server both answer."""
    if not hits:
        return "none"
    evidence, loose, typed = index.reading(intent, hits[0])
    return match(hits, evidence, typed, loose)
