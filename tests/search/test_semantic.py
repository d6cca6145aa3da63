"""The semantic leg with the real encoder: it finds what shares no word, and fuses without reordering noise."""

from __future__ import annotations

import os

import pytest

np = pytest.importorskip("numpy", reason="the [semantic] extra is not installed")

from skillmem_hook.catalog.skills import Skill  # noqa: E402
from skillmem_hook.search.confidence import fit  # noqa: E402
from skillmem_hook.search.fusion import (  # noqa: E402
    CJK_COLLECTION,
    LONG_TYPED,
    SEMANTIC_WEIGHT,
    STANDOUT_FLOOR,
    STANDOUT_LIFT,
    length_weight,
    standard_scores,
)
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.semantic import (  # noqa: E402
    SemanticIndex,
    encoded_intent,
    fit_with_meaning,
    rank_with_meaning,
    skill_text,
)


def skill(name, description, path=None):
    return Skill(name=name, description=description, path=path or name, root="r", warnings=[])


SKILLS = [
    skill("k8s-deploy", "Deploy containers to a Kubernetes cluster"),
    skill("sourdough", "Bake bread with a wild yeast starter"),
    skill("tax-forms", "Fill in yearly income tax returns"),
    skill("chart", "Render charts from CSV data", "@zed/chart"),
    skill("chart", "Render charts from CSV data", "@acme/chart"),
]


@pytest.fixture(scope="module")
def indexes(encoder):
    return SearchIndex.build(SKILLS), SemanticIndex(SKILLS, encoder)


def names(hits):
    return [hit.skill.name for hit in hits]


@pytest.mark.parametrize(
    ("intent", "expected"),
    [
        ("my loaf came out flat and dense", "sourdough"),
        ("paying what I owe the government each spring", "tax-forms"),
        ("周末想在家烤个欧包", "sourdough"),  # another language, no word in common, none the dictionary bridges
        ("wie backe ich Brot", "sourdough"),
    ],
)
def test_a_request_sharing_no_word_with_the_skill_finds_it(indexes, intent, expected):
    lexical, meaning = indexes
    assert lexical.query(intent, 3) == []
    assert names(rank_with_meaning(lexical, meaning, intent, 3))[0] == expected


def test_a_strong_lexical_match_stays_first(indexes):
    lexical, meaning = indexes
    hits = rank_with_meaning(lexical, meaning, "kubernetes cluster", 5)
    assert names(hits)[0] == "k8s-deploy"
    assert hits[0].score == pytest.approx(1.0)  # the best of both legs


def test_twins_tie_by_owner_label_and_the_same_input_gives_the_same_ranking(indexes):
    lexical, meaning = indexes
    first = rank_with_meaning(lexical, meaning, "render charts", 5)
    second = rank_with_meaning(lexical, meaning, "render charts", 5)
    assert [hit.skill.label for hit in first[:2]] == ["@acme/chart", "@zed/chart"]
    assert first[0].score == first[1].score
    assert [(hit.skill.name, hit.score) for hit in first] == [(hit.skill.name, hit.score) for hit in second]


def test_top_limits_the_fused_results_and_an_empty_catalog_gives_none(indexes, encoder):
    lexical, meaning = indexes
    assert len(rank_with_meaning(lexical, meaning, "bread", 2)) == 2
    assert rank_with_meaning(SearchIndex.build([]), SemanticIndex([], encoder), "bread", 5) == []


def test_the_encoder_gives_one_unit_vector_per_text(encoder):
    vectors = encoder.encode(["one", "deux", "三"])
    assert vectors.shape[0] == 3
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_the_skill_text_reads_the_name_as_words():
    assert skill_text(skill("pdf_tools-pro", "Edit PDFs")) == "pdf tools pro. Edit PDFs"


def test_a_huge_description_or_intent_is_cut_before_the_tokenizer(indexes, encoder):
    lexical, _ = indexes
    huge = skill("huge", "bread " * 200_000)
    assert len(skill_text(huge)) == 2000
    meaning = SemanticIndex([*SKILLS, huge], encoder)
    assert len(meaning.similarities("bread " * 200_000)) == len(SKILLS) + 1  # returns (in well under a second)


CHINESE = [
    skill("k8s-deploy", "把容器部署到 Kubernetes 集群"),
    skill("sourdough", "用天然酵种烤面包"),
    skill("tax-forms", "填写每年的个人所得税申报表"),
    skill("chart", "Render charts from CSV data"),
]


def test_the_share_of_skills_in_a_cjk_script_is_counted_once(encoder):
    assert SemanticIndex(CHINESE, encoder).cjk_share == 0.75
    assert SemanticIndex(SKILLS, encoder).cjk_share == 0.0
    assert SemanticIndex([], encoder).cjk_share == 0.0


@pytest.mark.parametrize(
    ("intent", "weight"),
    [
        ("bake bread at home", 0.4 + 0.3 * 0.75),  # no CJK over a mostly Chinese collection: lean on meaning
        ("在家烤面包", 0.4),  # the same script as the skills: the base weight
    ],
)
def test_the_fusion_weight_follows_the_query_script_and_the_collection(encoder, intent, weight):
    lexical, meaning = SearchIndex.build(CHINESE), SemanticIndex(CHINESE, encoder)
    chosen = [(hit.skill.name, hit.score) for hit in rank_with_meaning(lexical, meaning, intent, 4)]
    assert chosen == [(hit.skill.name, hit.score) for hit in rank_with_meaning(lexical, meaning, intent, 4, weight)]
    other = 0.7 if weight == 0.4 else 0.4
    assert chosen != [(hit.skill.name, hit.score) for hit in rank_with_meaning(lexical, meaning, intent, 4, other)]


@pytest.mark.parametrize(
    ("intent", "expected", "words_say", "answer"),
    [
        # No typed word in the skill, but the encoder puts it first, and near: 'none' was wrong above a right hit.
        ("Steuererklärung ausfüllen", "tax-forms", "none", "weak"),
        ("Brot mit wildem Sauerteig backen", "sourdough", "none", "weak"),
        # The words alone are sure of it: a fused score (0..1) never reached the rule's BM25F floor.
        ("deploy containers to a kubernetes cluster", "k8s-deploy", "weak", "strong"),
        ("how do I bake sourdough bread with a starter", "sourdough", "weak", "strong"),
    ],
)
def test_match_of_a_fused_ranking_weighs_the_best_hit_by_its_words_and_the_encoder(
    indexes, intent, expected, words_say, answer
):
    lexical, meaning = indexes
    hits = rank_with_meaning(lexical, meaning, intent, 5)
    assert hits[0].skill.name == expected
    assert fit(lexical, intent, hits) == words_say  # today's word, from the fused scores
    assert fit_with_meaning(lexical, meaning, intent, hits) == answer
    if answer == "strong":  # as the lexical search says of its own ranking
        assert fit(lexical, intent, lexical.query(intent, 5)) == "strong"


def test_a_fused_best_hit_tied_in_words_is_no_clear_lead(encoder):
    # Two owners' copies of one skill score the same in words: neither leads the other, so the words say 'weak'
    # of the lexical ranking, and a fused ranking must say the same (judged alone, the best hit "led" no one).
    described = "Extract line items and totals from PDF invoices"
    twins = [skill("invoices", described, f"@{owner}/invoices") for owner in "ab"]
    catalog = [*(skill(f"notes-{n}", f"Notes on topic {n}") for n in range(20)), *twins]
    lexical, meaning = SearchIndex.build(catalog), SemanticIndex(catalog, encoder)
    intent = "pdf invoices totals"
    words = lexical.query(intent, 5)
    assert words[0].score == words[1].score >= 6  # high enough for a lead, were there no twin
    assert fit(lexical, intent, words) == "weak"
    assert fit_with_meaning(lexical, meaning, intent, rank_with_meaning(lexical, meaning, intent, 5)) == "weak"


@pytest.mark.parametrize("intent", ["thanks, that works", "continue", "继续", "faire du pain au levain"])
def test_a_turn_that_asks_for_no_skill_or_is_not_near_enough_stays_none(indexes, intent):
    lexical, meaning = indexes
    hits = rank_with_meaning(lexical, meaning, intent, 5)
    assert fit_with_meaning(lexical, meaning, intent, hits) == "none"
    assert fit_with_meaning(lexical, meaning, intent, []) == "none"


def test_the_match_word_reuses_the_questions_cosines(indexes, encoder):
    lexical, _ = indexes
    meaning = SemanticIndex(SKILLS, encoder)
    first = meaning.similarities("bake bread")
    assert meaning.similarities("bake bread") is first
    assert meaning.similarities("render charts") != first


def counting(skills):
    """A lexical index that counts the queries asked of it."""
    index = SearchIndex.build(skills)
    asked, real = [], index.query

    def query(intent, top=5):
        asked.append((intent, top))
        return real(intent, top)

    index.query, index.asked = query, asked
    return index


def test_the_match_word_reuses_the_rankings_lexical_query_of_the_same_index_and_words(encoder):
    meaning = SemanticIndex(SKILLS, encoder)
    lexical = counting(SKILLS)
    hits = rank_with_meaning(lexical, meaning, "render charts from csv", 5)
    fresh = SearchIndex.build(SKILLS), SemanticIndex(SKILLS, encoder)
    answer = fit_with_meaning(*fresh, "render charts from csv", rank_with_meaning(*fresh, "render charts from csv", 5))
    assert fit_with_meaning(lexical, meaning, "render charts from csv", hits) == answer
    assert lexical.asked == [("render charts from csv", 50)]
    # Another index (a patched one is a new object) over other skills: asked anew, its own answer.
    other = counting([skill for skill in SKILLS if skill.name != "chart"])
    assert "chart" not in names(meaning.lexical_pool(other, "render charts from csv", 50))
    assert other.asked == [("render charts from csv", 50)]
    assert names(meaning.lexical_pool(lexical, "render charts", 50)) == names(lexical.query("render charts", 50))
    assert lexical.asked[-2:] == [("render charts", 50)] * 2  # other words: asked anew


# A long request (26 typed words) whose context is a bakery and whose ask is a tax return: no word of
# either is in a skill's text, so only the encoder ranks it, and it must read the ask, not the bakery.
BAKERY_TAXES = (
    "Our family runs a little shop by the harbour where every dawn the ovens fill with loaves, croissants and rye. "
    "The dough rises overnight in the cellar, and the queue reaches the corner by seven on Saturdays. "
    "What do I owe the government each spring, and how do I pay it?"
)


@pytest.mark.parametrize(
    ("intent", "typed", "read"),
    [
        (BAKERY_TAXES, 26, "What do I owe the government each spring, and how do I pay it?"),
        (BAKERY_TAXES, 16, BAKERY_TAXES),  # up to LONG_TYPED words the whole query is read
        (
            "Deploy the app. Then write the release notes. Can you?",
            20,
            "Deploy the app. Then write the release notes. Can you?",
        ),
        ("one long sentence " * 10, 30, "one long sentence " * 10),  # a single sentence: nothing to choose
    ],
)
def test_the_encoder_reads_a_long_querys_asking_sentences(intent, typed, read):
    assert encoded_intent(intent, typed) == read


def test_a_long_request_is_ranked_by_its_ask_not_by_its_context(indexes):
    lexical, meaning = indexes
    assert lexical.typed_words(BAKERY_TAXES) > LONG_TYPED
    whole = meaning.similarities(BAKERY_TAXES)
    assert SKILLS[whole.index(max(whole))].name == "sourdough"  # the whole text sits near the bakery
    assert names(rank_with_meaning(lexical, meaning, BAKERY_TAXES, 3))[0] == "tax-forms"


def test_a_long_request_leans_on_the_encoder_less_by_its_length(indexes):
    lexical, meaning = indexes
    typed = lexical.typed_words(BAKERY_TAXES)
    scaled = length_weight(SEMANTIC_WEIGHT, typed)
    assert scaled == pytest.approx(SEMANTIC_WEIGHT * LONG_TYPED / typed)

    def scores(weight=None):
        return [(hit.skill.label, hit.score) for hit in rank_with_meaning(lexical, meaning, BAKERY_TAXES, 5, weight)]

    assert scores() == scores(scaled)
    assert scores() != scores(SEMANTIC_WEIGHT)


def test_a_long_requests_match_word_reads_the_encoder_on_its_ask(indexes):
    lexical, meaning = indexes
    intent = BAKERY_TAXES.replace("fill with", "brim with").rsplit(". ", 1)[0] + ". How do I pay my taxes?"
    assert fit(lexical, intent, lexical.query(intent, 5)) == "none"  # one typed word held: the words cannot tell
    whole = meaning.similarities(intent)
    assert SKILLS[whole.index(max(whole))].name == "sourdough"
    hits = rank_with_meaning(lexical, meaning, intent, 5)
    assert names(hits)[0] == "tax-forms"
    assert fit_with_meaning(lexical, meaning, intent, hits) == "weak"  # the ask alone is near tax-forms


# A long English request to skills described in Chinese (the CN collection's kind): the words reach only the
# names, so "chart" in its context is the one lexical hit, and the encoder, reading the whole request, singles
# out the tax skill among thirty others.
CHINESE_COLLECTION = [
    *CHINESE[:3],
    skill("chart", "根据 CSV 数据绘制图表"),
    *(skill(f"notes-{n}", f"关于第 {n} 个主题的读书笔记") for n in range(30)),
]
TAX_IN_CONTEXT = (
    "Our accountant sent over a chart of last year's numbers for the bakery, and the ovens, the staff and the rent "
    "all went up. The deadline is in April and I have never done this on my own before. "
    "How do I fill in my yearly income declaration for the revenue office and pay what I owe?"
)


@pytest.fixture(scope="module")
def chinese_indexes(encoder):
    return SearchIndex.build(CHINESE_COLLECTION), SemanticIndex(CHINESE_COLLECTION, encoder)


def test_a_long_request_over_chinese_skills_lifts_only_the_skills_the_encoder_singles_out(chinese_indexes):
    lexical, meaning = chinese_indexes
    assert lexical.typed_words(TAX_IN_CONTEXT) > LONG_TYPED
    assert meaning.cjk_share > CJK_COLLECTION
    assert names(lexical.query(TAX_IN_CONTEXT, 5)) == ["chart"]
    standard = standard_scores(meaning.similarities(TAX_IN_CONTEXT))  # the whole request, not its ask
    tax = standard[2]
    assert tax == max(standard) > STANDOUT_FLOOR + 1
    hits = rank_with_meaning(lexical, meaning, TAX_IN_CONTEXT, 4)
    assert [(hit.skill.name, hit.score) for hit in hits[:2]] == [
        ("chart", 1.0),
        ("tax-forms", round(STANDOUT_LIFT * (tax - STANDOUT_FLOOR), 4)),
    ]
    below = [n for n, value in enumerate(standard) if value <= STANDOUT_FLOOR and n != 3]
    assert all(hit.score == 0.0 and hit.number in below for hit in hits[2:])  # no word, not singled out: nothing
    # A skill's score is its own, over the whole collection, whoever else is a candidate.
    narrow = rank_with_meaning(lexical, meaning, TAX_IN_CONTEXT, 2, pool=2)
    assert [(hit.skill.name, hit.score) for hit in narrow] == [(hit.skill.name, hit.score) for hit in hits[:2]]


def test_a_long_request_over_english_skills_or_with_a_weight_keeps_the_weighted_fusion(chinese_indexes, encoder):
    english = [*SKILLS[:4], *(skill(f"notes-{n}", f"Reading notes on topic {n}") for n in range(30))]
    words, meanings = SearchIndex.build(english), SemanticIndex(english, encoder)
    assert meanings.cjk_share == 0.0
    weight = length_weight(SEMANTIC_WEIGHT, words.typed_words(TAX_IN_CONTEXT))

    def scores(lexical, meaning, weight=None):
        return [(hit.skill.name, hit.score) for hit in rank_with_meaning(lexical, meaning, TAX_IN_CONTEXT, 5, weight)]

    assert scores(words, meanings) == scores(words, meanings, weight)
    assert scores(words, meanings) != scores(words, meanings, SEMANTIC_WEIGHT)
    lexical, meaning = chinese_indexes
    lifted, weighted = dict(scores(lexical, meaning)), dict(scores(lexical, meaning, weight))
    assert lifted["chart"] == 1.0 > weighted["chart"]  # the lift keeps the words' whole score; a weight shares it
    assert lifted["tax-forms"] != weighted["tax-forms"]


def test_a_long_requests_ranking_and_match_word_encode_each_text_once(chinese_indexes, encoder):
    lexical, _ = chinese_indexes
    calls = []

    class Counting:
        model = encoder.model

        def encode(self, texts):
            calls.append(list(texts))
            return encoder.encode(texts)

    meaning = SemanticIndex(CHINESE_COLLECTION, encoder)
    meaning.encoder = Counting()
    hits = rank_with_meaning(lexical, meaning, TAX_IN_CONTEXT, 5)
    fit_with_meaning(lexical, meaning, TAX_IN_CONTEXT, hits)
    rank_with_meaning(lexical, meaning, TAX_IN_CONTEXT, 5)
    fit_with_meaning(lexical, meaning, TAX_IN_CONTEXT, hits)
    # The ranking reads the whole request, the match word its ask: two texts, each encoded once.
    assert calls == [[TAX_IN_CONTEXT], [encoded_intent(TAX_IN_CONTEXT, lexical.typed_words(TAX_IN_CONTEXT))]]


ONE_SEARCH = """
from skillmem_hook.catalog.catalog import Catalog
from skillmem_hook.search.semantic import semantic_index_of
semantic_index_of(Catalog([], [], []), cache=False)
from threadpoolctl import threadpool_info
print(sorted({pool["num_threads"] for pool in threadpool_info()}))
"""


def test_numpy_loads_for_a_search_with_one_thread_not_idle_ones_that_spin():
    import subprocess
    import sys

    from skillmem_hook.search.semantic import THREAD_VARIABLES

    env = {name: value for name, value in os.environ.items() if name not in THREAD_VARIABLES}
    shown = subprocess.run([sys.executable, "-c", ONE_SEARCH], env=env, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[1]"
