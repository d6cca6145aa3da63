"""Normalised score fusion: one ranking from a lexical and a semantic score per skill.

Pure and free of numpy, so it is tested (and reused by another ranker) on
plain dictionaries. Reciprocal-rank fusion was measured worse on this kind
of data (issue 18): it throws away how far ahead the best lexical hit is.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping
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
# (0.5.0's second pass, docs/notes/search.md). No request of the short tuning sets passes it.
LONG_TYPED = 16


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
