"""``match``: the word search answers with, at the edges of what makes it strong, weak or none."""

from __future__ import annotations

import pytest

from skillmem_hook.search.confidence import STRONG_LEAD, STRONG_SCORE, STRONG_WORDS, match
from skillmem_hook.search.rank import Hit

from .sample_skills import SKILLS


def hits(*scores: float) -> list[Hit]:
    return [Hit(SKILLS[n], score) for n, score in enumerate(scores)]


@pytest.mark.parametrize(
    ("scores", "evidence", "typed", "word"),
    [
        ((9.0, 7.5), 3, 5, "strong"),  # 1.2 times the second, three words held: at every floor
        ((9.0, 7.51), 3, 5, "weak"),  # a near tie is a guess between the two, whatever each holds
        ((9.0, 8.0, 6.0), 6, 12, "weak"),  # strong before 0.5.0 (the route's held-words way)
        ((9.0, 3.0), 2, 5, "weak"),  # two words held: strong before 0.5.0 (the route's clear lead)
        ((2.0,), 3, 3, "strong"),  # no second hit: nothing comes near
        ((1.99,), 3, 3, "weak"),  # below the score floor
        ((9.0, 1.0), 1, 5, "none"),  # one typed word held of five: no skill fits
        ((9.0, 1.0), 1, 1, "weak"),  # a one-word query whose word the best hit holds
    ],
)
def test_match_at_its_edges(scores, evidence, typed, word):
    assert (STRONG_WORDS, STRONG_SCORE, STRONG_LEAD) == (3, 2.0, 1.2)
    assert match(hits(*scores), evidence, typed) == word
