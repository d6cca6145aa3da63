"""Normalised score fusion: one ranking from a lexical and a semantic score per skill.

Pure and free of numpy, so it is tested (and reused by another ranker) on
plain dictionaries. Reciprocal-rank fusion was measured worse on this kind
of data: it throws away how far ahead the best lexical hit is.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping, Sequence
    from typing import TypeVar

    Key = TypeVar("Key", bound=Hashable)

# The semantic share of the fused score (benchmarks/semantic_quality.py; docs/search.md
# "Semantic leg"): 0.3.0's, kept, since 0.3 beat it by one tune query, within the noise.
SEMANTIC_WEIGHT = 0.4
# The share for a query typed in no CJK script over a collection described in one: the
# lexical leg has no bridge that way (the dictionary reads Chinese queries, not Chinese
# skills), the encoder has. 0.6 to 0.8 are within three of 250 proxy queries of each other.
ACROSS_SCRIPTS_WEIGHT = 0.7
# Past this many typed search words a request carries context (the company, the numbers, the tools
# around its ask), which the encoder reads as much as the ask: its weight shrinks as LONG_TYPED / typed
# (docs/notes/search.md). No request of the short tuning sets passes it.
LONG_TYPED = 16
# A long request over a collection described mostly in a CJK script (more than this share of its skills) is
# ranked by its words, each candidate lifted by STANDOUT_LIFT for each standard deviation by which the cosine
# of the whole request stands above STANDOUT_FLOOR over the collection: only the few skills the encoder singles
# out move, and as far as they stand out (docs/notes/search.md). Over English-described
# skills the same lift lost as many requests as it found there, so those keep the weighted fusion.
CJK_COLLECTION = 0.5
STANDOUT_FLOOR = 2.0
STANDOUT_LIFT = 0.15


def semantic_weight(query_in_cjk: bool, cjk_share: float) -> float:
    """The fusion weight for one query: ``SEMANTIC_WEIGHT``, leaning toward ``ACROSS_SCRIPTS_WEIGHT``
    by the share of the collection's skills described in a CJK script when the query holds none.

    A Chinese query over English skills keeps the base weight: the glossary and
    dictionary bridge that way, and a heavier weight measured no better there.
    """
    if query_in_cjk:
        return SEMANTIC_WEIGHT
    share = min(max(cjk_share, 0.0), 1.0)
    return SEMANTIC_WEIGHT + (ACROSS_SCRIPTS_WEIGHT - SEMANTIC_WEIGHT) * share


def length_weight(weight: float, typed: int) -> float:
    """``weight`` for a query that types ``typed`` search words: as it is up to ``LONG_TYPED``, then times
    ``LONG_TYPED / typed``, so the words of a long request, which the lexical leg weighs by their rarity
    and by whether they ask, lead the encoder's reading of its whole context."""
    return weight if typed <= LONG_TYPED else weight * LONG_TYPED / typed


def fuse_scores(
    lexical: Mapping[Key, float], semantic: Mapping[Key, float], weight: float = SEMANTIC_WEIGHT
) -> dict[Key, float]:
    """Each candidate's ``(1 - weight) * lexical + weight * semantic``, both scaled to 0..1 first.

    Candidates are the keys of either mapping. Lexical scores (0 or more, a
    missing key 0) are divided by the best one; semantic scores are spread
    min-max over the candidates, since cosines bunch in a narrow band whose
    place says nothing. A leg with no spread (all equal, or empty) adds 0.
    """
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must be within 0..1, not {weight}")
    best = max(lexical.values(), default=0.0)
    low = min(semantic.values(), default=0.0)
    spread = max(semantic.values(), default=0.0) - low
    fused: dict[Key, float] = {}
    for key in {**lexical, **semantic}:
        words = lexical.get(key, 0.0) / best if best > 0 else 0.0
        meaning = (semantic[key] - low) / spread if key in semantic and spread > 0 else 0.0
        fused[key] = (1.0 - weight) * words + weight * meaning
    return fused


def standard_scores(values: Sequence[float]) -> list[float]:
    """Each value's distance from their mean in standard deviations (all 0 when they do not spread)."""
    if not values or min(values) == max(values):  # equal values: their float mean may miss them by a last bit
        return [0.0] * len(values)
    mean = sum(values) / len(values)
    spread = (sum((value - mean) ** 2 for value in values) / len(values)) ** 0.5
    return [(value - mean) / spread if spread > 0 else 0.0 for value in values]


def lift_standouts(lexical: Mapping[Key, float], standard: Mapping[Key, float]) -> dict[Key, float]:
    """Each candidate's lexical score over the best one (a missing key 0), plus ``STANDOUT_LIFT`` for each
    standard deviation its ``standard`` score stands above ``STANDOUT_FLOOR`` (nothing below it).

    Candidates are the keys of either mapping. Unlike ``fuse_scores`` no
    spread is taken over the candidates: a skill's score is its own, whoever
    else is asked about.
    """
    best = max(lexical.values(), default=0.0)
    lifted: dict[Key, float] = {}
    for key in {**lexical, **standard}:
        words = lexical.get(key, 0.0) / best if best > 0 else 0.0
        lifted[key] = words + STANDOUT_LIFT * max(0.0, standard.get(key, 0.0) - STANDOUT_FLOOR)
    return lifted
