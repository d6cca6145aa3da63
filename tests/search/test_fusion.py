"""Normalised score fusion: the invariants any weight must keep, on plain dictionaries."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from skillmem_hook.search.fusion import (
    ACROSS_SCRIPTS_WEIGHT,
    LONG_TYPED,
    SEMANTIC_WEIGHT,
    STANDOUT_FLOOR,
    STANDOUT_LIFT,
    fuse_scores,
    length_weight,
    lift_standouts,
    semantic_weight,
    standard_scores,
)

scores = st.dictionaries(st.integers(0, 30), st.floats(0, 50, allow_nan=False), max_size=20)
cosines = st.dictionaries(st.integers(0, 30), st.floats(-1, 1, allow_nan=False), max_size=20)
weights = st.floats(0, 1, allow_nan=False)


def order(fused):
    return sorted(fused, key=lambda key: (-fused[key], key))


@given(scores, cosines, weights)
def test_every_candidate_of_either_leg_gets_a_score_within_zero_and_one(lexical, semantic, weight):
    fused = fuse_scores(lexical, semantic, weight)
    assert set(fused) == set(lexical) | set(semantic)
    assert all(-1e-9 <= value <= 1 + 1e-9 for value in fused.values())


@given(scores, cosines)
def test_weight_zero_never_inverts_the_lexical_order_nor_one_the_semantic_order(lexical, semantic):
    words_only = fuse_scores(lexical, semantic, 0.0)
    meaning_only = fuse_scores(lexical, semantic, 1.0)
    for a in lexical:
        for b in lexical:
            if lexical[a] > lexical[b]:
                assert words_only[a] >= words_only[b]
    for a in semantic:
        for b in semantic:
            if semantic[a] > semantic[b]:
                assert meaning_only[a] >= meaning_only[b]


@given(scores, cosines, weights, st.integers(0, 30), st.floats(0.1, 10))
def test_a_better_lexical_score_never_lowers_a_skills_place(lexical, semantic, weight, key, gain):
    before = order(fuse_scores(lexical, semantic, weight))
    raised = {**lexical, key: lexical.get(key, 0.0) + gain}
    after = order(fuse_scores(raised, semantic, weight))
    if key in before:
        # Its own share grows, and a new best lexical score only scales the others down.
        assert after.index(key) <= before.index(key)


def test_both_legs_count_the_spread_not_the_level():
    # Cosines bunch in a narrow band: 0.30 against 0.32 is the whole range among these candidates.
    fused = fuse_scores({"a": 10.0, "b": 9.0}, {"a": 0.30, "b": 0.32}, 0.5)
    assert fused == pytest.approx({"a": 0.5, "b": 0.45 + 0.5})


def test_a_leg_with_no_spread_adds_nothing():
    assert fuse_scores({"a": 2.0, "b": 1.0}, {"a": 0.4, "b": 0.4}, 0.4) == pytest.approx({"a": 0.6, "b": 0.3})
    assert fuse_scores({}, {"a": 0.1, "b": 0.3}, 0.4) == pytest.approx({"a": 0.0, "b": 0.4})


def test_a_weight_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="weight"):
        fuse_scores({"a": 1.0}, {"a": 0.5}, 1.5)


@given(st.booleans(), st.floats(-1, 2, allow_nan=False), st.floats(0, 1, allow_nan=False))
def test_the_weight_lies_between_the_base_and_the_across_scripts_weight_and_grows_with_the_share(cjk, share, more):
    weight = semantic_weight(cjk, share)
    assert SEMANTIC_WEIGHT <= weight <= ACROSS_SCRIPTS_WEIGHT
    assert semantic_weight(cjk, share + more) >= weight


def test_only_a_query_in_no_cjk_script_over_cjk_skills_leans_on_the_encoder():
    assert semantic_weight(False, 1.0) == ACROSS_SCRIPTS_WEIGHT
    assert semantic_weight(False, 0.0) == SEMANTIC_WEIGHT
    assert semantic_weight(False, 0.5) == pytest.approx((SEMANTIC_WEIGHT + ACROSS_SCRIPTS_WEIGHT) / 2)
    # A Chinese query over Chinese or English skills: the glossary and dictionary bridge it.
    assert semantic_weight(True, 1.0) == semantic_weight(True, 0.0) == SEMANTIC_WEIGHT
    assert SEMANTIC_WEIGHT < ACROSS_SCRIPTS_WEIGHT


@given(weights, st.integers(0, 200), st.integers(0, 200))
def test_a_longer_query_never_leans_more_on_the_encoder(weight, typed, more):
    shorter, longer = length_weight(weight, typed), length_weight(weight, typed + more)
    assert 0.0 <= longer <= shorter <= weight
    if typed <= LONG_TYPED:
        assert shorter == weight  # a short query keeps the weight as chosen for it
    else:
        assert shorter * typed == pytest.approx(weight * LONG_TYPED)


standards = st.dictionaries(st.integers(0, 30), st.floats(-5, 8, allow_nan=False), max_size=20)


@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=50))
@example([0.35297398585747686] * 3)  # their float mean is not the value: a spread of rounding, not of the values
def test_standard_scores_centre_and_scale_the_values_or_are_all_zero_without_spread(values):
    found = standard_scores(values)
    assert len(found) == len(values)
    if max(values) - min(values) > 1e-6:
        assert sum(found) / len(found) == pytest.approx(0.0, abs=1e-6)
        assert sum(value**2 for value in found) / len(found) == pytest.approx(1.0, abs=1e-6)
        assert found[values.index(max(values))] == pytest.approx(max(found))
    elif len(set(values)) == 1:
        assert found == [0.0] * len(values)


@given(scores, standards)
def test_a_skill_the_encoder_does_not_single_out_keeps_its_words_share_and_order(lexical, standard):
    lifted = lift_standouts(lexical, standard)
    assert set(lifted) == set(lexical) | set(standard)
    best = max(lexical.values(), default=0.0)
    plain = [key for key in lifted if standard.get(key, 0.0) <= STANDOUT_FLOOR]
    for key in plain:
        assert lifted[key] == (lexical.get(key, 0.0) / best if best > 0 else 0.0)
    for a in plain:
        for b in plain:
            if lexical.get(a, 0.0) > lexical.get(b, 0.0):
                assert lifted[a] >= lifted[b]


@given(scores, standards, st.integers(0, 30), st.floats(0.1, 5))
def test_standing_out_further_lifts_a_skill_by_the_lift_per_deviation_and_never_lowers_its_place(
    lexical, standard, key, gain
):
    before = lift_standouts(lexical, standard)
    raised = {**standard, key: max(standard.get(key, 0.0), STANDOUT_FLOOR) + gain}
    after = lift_standouts(lexical, raised)
    added = after[key] - before.get(key, after[key] - STANDOUT_LIFT * gain)
    assert added >= STANDOUT_LIFT * gain - 1e-9
    assert all(after[other] == before[other] for other in before if other != key)
    if key in before:
        assert order(after).index(key) <= order(before).index(key)


def test_the_lift_counts_the_deviations_past_the_floor_only():
    lifted = lift_standouts(
        {"words": 8.0, "both": 4.0},
        {"both": STANDOUT_FLOOR + 2, "meaning": STANDOUT_FLOOR + 1, "words": STANDOUT_FLOOR},
    )
    assert lifted == {
        "words": 1.0,
        "both": pytest.approx(0.5 + 2 * STANDOUT_LIFT),
        "meaning": pytest.approx(STANDOUT_LIFT),
    }
    assert lift_standouts({}, {"a": STANDOUT_FLOOR - 1}) == {"a": 0.0}
