"""The figures of ``skillmem eval``, on ranks alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.evaluate import rank_of, ranking_figures, score_triggers


@given(st.lists(st.integers(0, 10), min_size=1, max_size=60))
def test_the_figures_are_ordered_and_within_zero_and_one(ranks):
    figures = ranking_figures(ranks)
    assert 0 <= figures["hit@1"] <= figures["mrr"] <= figures["hit@10"] <= 1
    assert figures["hit@1"] <= figures["hit@3"] <= figures["hit@10"]


def test_the_figures_of_known_ranks():
    assert ranking_figures([1, 2, 4, 0]) == {"hit@1": 0.25, "hit@3": 0.5, "hit@10": 0.75, "mrr": 0.4375}


def test_the_first_expected_name_counts_and_none_is_rank_0():
    assert rank_of(["a", "b", "c"], ["c", "b"]) == 2
    assert rank_of(["a", "b"], ["z"]) == 0


def test_a_skill_triggers_only_in_the_top_3():
    ranked = {"near": ["x", "y", "skill"], "far": ["x", "y", "z", "skill"]}
    score = score_triggers("skill", [("near", True), ("far", True)], lambda query, depth: ranked[query][:depth])
    assert (score.right, score.fired, score.missed) == (1, 1, ["far"])
    assert score.as_json()["recall"] == 0.5
    assert score.as_json()["precision"] == 1.0


def test_no_fire_and_no_positive_give_null_not_a_division_by_zero():
    score = score_triggers("skill", [("q", False)], lambda query, depth: [])
    assert score.as_json()["precision"] is None
    assert score.as_json()["recall"] is None


def test_the_ranker_is_asked_for_three():
    asked = []
    score_triggers("s", [("q", True)], lambda query, depth: asked.append(depth) or [])
    assert asked == [3]
