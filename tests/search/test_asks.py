"""What a request asks: its sentences, the ones that ask, and the weight the words of the others lose."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.search.asks import asking_part, asks, sentences, side_task
from skillmem_hook.search.query import query_words
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.tuning import Tuning

from .sample_skills import SKILLS

REQUEST = "Our Postgres reports time out since we passed 40M rows. We're on RDS with two replicas. Where do I start?"


def test_a_text_is_cut_into_sentences_but_not_at_a_version_or_a_library_name():
    assert sentences("We use Next.js 3.11 here!  How do I fix it\uff1f \u597d\u7684\u3002\u518d\u89c1\n\nok") == [
        "We use Next.js 3.11 here!",
        "How do I fix it\uff1f",
        "\u597d\u7684\u3002",
        "\u518d\u89c1",
        "ok",
    ]


@pytest.mark.parametrize(
    ("sentence", "asking"),
    [
        ("Where do I start?", True),
        ("so can you draft the migration plan", True),
        ("Please review the pricing page", True),
        ("I'd like a quarterly report deck", True),
        ("\u5e2e\u6211\u505a\u4e00\u4e2a\u5b63\u5ea6\u6c47\u62a5", True),  # 帮我做一个季度汇报
        ("\u600e\u4e48\u62c6\u5206\u8fd9\u4e9b\u670d\u52a1", True),  # 怎么拆分这些服务
        ("We're on RDS with two replicas.", False),
        ("Our Postgres reports time out since we passed 40M rows.", False),
        ("\u6211\u4eec\u7528\u7684\u662f RDS\u3002", False),  # 我们用的是 RDS。
    ],
)
def test_a_sentence_asks_when_it_is_a_question_a_request_or_an_imperative(sentence, asking):
    assert asks(sentence) is asking


def test_the_asking_part_is_only_for_a_text_of_context_and_ask():
    assert asking_part(REQUEST) == "Where do I start?"
    assert asking_part("Where do I start?") is None  # one sentence
    assert asking_part("How? Why?") is None  # every sentence asks
    assert asking_part("We're on RDS. It is slow.") is None  # none asks


def test_words_only_the_context_types_weigh_less_and_the_asks_words_as_typed():
    intent = "Our invoices come as scanned PDF files from 40 vendors. How do I extract the tables into Excel?"
    plain = query_words(Tuning(context_weight=1.0), intent)
    weighed = query_words(Tuning(context_weight=0.5), intent)
    assert weighed["vendor"].weight == pytest.approx(plain["vendor"].weight * 0.5)
    assert weighed["excel"].weight == plain["excel"].weight
    assert query_words(Tuning(context_weight=0.5), "How do I extract tables from PDF files?")["pdf"].weight == (
        query_words(Tuning(context_weight=1.0), "How do I extract tables from PDF files?")["pdf"].weight
    )


def test_the_ask_outranks_the_context_around_it():
    intent = (
        "We deploy our containers to a Kubernetes cluster with rolling updates every night. "
        "Why are the PostgreSQL queries slow?"
    )
    plain = SearchIndex.build(SKILLS, tuning=Tuning(context_weight=1.0)).query(intent)
    weighed = SearchIndex.build(SKILLS).query(intent)
    assert [hit.skill.name for hit in plain[:2]] == ["k8s-deploy", "postgres-tuning"]  # the context holds more words
    assert [hit.skill.name for hit in weighed[:2]] == ["postgres-tuning", "k8s-deploy"]
    assert Tuning().context_weight == 0.5  # the default reads the ask


@pytest.mark.parametrize(
    "side",
    [
        "Also, can you change the name field in package.json to 'dentia'?",
        "Also while you're at it, bump .nvmrc to Node 20.",
        "oh and btw can you fix the typo in the footer?",
        "Please fix the unclosed tag on line 12 while you're in there.",
        # 另外顺便帮我把 README 更新一下 (also, update the README while you are at it)
        "\u53e6\u5916\u987a\u4fbf\u5e2e\u6211\u628a README \u66f4\u65b0\u4e00\u4e0b\u3002",
    ],
)
def test_a_side_task_is_no_ask_beside_the_main_one(side):
    main = "We're building a booking app for dental clinics. How do we handle health data under GDPR?"
    assert side_task(side)
    assert asking_part(f"{main} {side}") == "How do we handle health data under GDPR?"
    assert asking_part(f"{side} {main}") == "How do we handle health data under GDPR?"  # wherever it stands


def test_when_only_a_side_task_asks_the_rest_is_the_main_task():
    main = "Before the architect starts I want a briefing on the rules dental software must follow in Spain."
    assert not asks(main)  # no question, no imperative at its start
    side = "Also, can you rename the app in package.json?"
    assert asking_part(f"{main} {side}") == main
    assert asking_part(f"{side} Where do I start?") == "Where do I start?"


@pytest.mark.parametrize(
    "sentence",
    [
        "How do we handle health data?",
        "\u8fd8\u6709\u6ca1\u6709\u66f4\u597d\u7684\u529e\u6cd5\uff1f",  # 还有没有更好的办法 (is there a better way?)
        "Plan the migration in steps.",
        "Add a retry to the upload.",
    ],
)
def test_a_main_ask_is_not_a_side_task(sentence):
    assert not side_task(sentence)


def test_a_side_tasks_words_weigh_as_context():
    intent = "How do we speed up our PostgreSQL queries? Also, can you bump the Kubernetes version while you're at it?"
    weighed = query_words(Tuning(context_weight=0.5), intent)
    plain = query_words(Tuning(context_weight=1.0), intent)
    side, main = Tuning().words("Kubernetes")[0], Tuning().words("PostgreSQL")[0]
    assert weighed[side].weight == pytest.approx(plain[side].weight * 0.5)
    assert weighed[main].weight == plain[main].weight


_CONTEXT = st.sampled_from(
    [
        "We run our newsletter on ActiveCampaign.",
        "Our Postgres reports time out since we passed 40M rows.",
        "\u6211\u4eec\u7528\u7684\u662f RDS\u3002",  # 我们用的是 RDS。
        "14 customer tenants, each with its own App Insights resource.",
        "The nightly job also runs then.",
    ]
)
_MAIN = st.sampled_from(["Where do I start?", "Can you draft the migration plan?", "Please review the pricing page."])
_SIDE = st.sampled_from(
    [
        "Also, can you bump .nvmrc to Node 20?",
        "btw please fix the typo in the footer.",
        "Fix the unclosed tag while you're in there.",
        "\u53e6\u5916\u987a\u4fbf\u5e2e\u6211\u628a README \u66f4\u65b0\u4e00\u4e0b\u3002",  # 另外顺便...README
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_CONTEXT, min_size=1, max_size=4), _MAIN, st.lists(_SIDE, max_size=2), st.randoms())
def test_the_main_ask_is_the_asking_part_wherever_side_tasks_and_context_stand(context, main, sides, random):
    parts = [*context, main, *sides]
    random.shuffle(parts)
    assert asking_part(" ".join(parts)) == main


def test_a_question_mark_inside_an_address_ends_no_sentence():
    """set G's g3-003: '/search?q=<svg ...>' made 'PoC: /search?' its only asking sentence (0.5.0, fourth pass)."""
    assert sentences("PoC: /search?q=<svg onload=alert(1)> works. Can you reproduce it?") == [
        "PoC: /search?q=<svg onload=alert(1)> works.",
        "Can you reproduce it?",
    ]
    assert sentences("a;b and x!=y") == ["a;b and x!=y"]
    assert sentences("这个怎么做?然后呢") == ["这个怎么做?", "然后呢"]  # a Chinese question mark typed in ASCII
    assert sentences("Why? Fine!") == ["Why?", "Fine!"]
