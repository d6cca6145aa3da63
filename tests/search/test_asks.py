"""What a request asks: its sentences, the ones that ask, and the weight the words of the others lose."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.search.asks import asking_part, asks, choice, sentences, side_task
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


@pytest.mark.parametrize(
    ("sentence", "options"),
    [
        ("Should we pause it with a Logic App on a schedule, or write it in Python?", True),
        ("The team is split: should it get a raw shell, or narrow functions?", True),
        ("is it better to put that in CLAUDE.md, or package it as a skill?", True),
        ("\u8fd8\u662f\u7528 GitHub Discussions \u5c31\u591f\u4e86\uff1f", True),  # 还是用 GitHub Discussions 就够了?
        # 是用 Conventional Commits 好, 还是别的格式比较好 (a choice weighed, no question mark)
        ("\u662f\u7528 Conventional Commits \u597d\uff0c\u8fd8\u662f\u522b\u7684\u683c\u5f0f\u6bd4\u8f83\u597d", True),
        ("Should we migrate to Compose?", False),  # yes or no: no options to weigh
        ("Which is less painful?", False),
        ("Can you then build it that way, or explain why not", False),  # no question to choose by
        ("Our reports run on Postgres or on MySQL.", False),
        ("We should pick Kafka or RabbitMQ by Friday.", False),  # said, not asked
        # 我们的插件还是 MV2, 明年下架. (还是: "still")
        ("\u6211\u4eec\u7684\u63d2\u4ef6\u8fd8\u662f MV2\uff0c\u660e\u5e74\u4e0b\u67b6\u3002", False),
    ],
)
def test_a_choice_question_weighs_options(sentence, options):
    assert choice(sentence) is options


def test_a_choice_beside_another_ask_is_context_and_alone_it_is_the_ask():
    """set H's advice requests: the options are named, then the skill's work is asked for (0.5.0's sixth pass)."""
    context = "Our CLI has 3k stars and users ask usage questions in issues."
    options = "Should we open a Discord, or is GitHub Discussions enough?"
    ask = "I want a long-term plan that gets old users answering new ones."
    assert asking_part(f"{context} {options} {ask}") == ask
    assert asking_part(f"{ask} {options} {context}") == ask  # wherever it stands
    assert asking_part(f"{context} {options}") == options  # the only ask: what the request is about
    assert asking_part(f"{context} {options} Also, can you bump .nvmrc?") == options  # beside a side task too


def test_the_ask_beside_a_choice_outranks_the_options():
    intent = (
        "Our nightly rollout is slow. Should we keep deploying containers to Kubernetes with rolling updates, "
        "or move to something else? How do we find the slow queries in PostgreSQL first?"
    )
    assert SearchIndex.build(SKILLS).query(intent)[0].skill.name == "postgres-tuning"
    weighed = query_words(Tuning(context_weight=0.5), intent)
    plain = query_words(Tuning(context_weight=1.0), intent)
    option = Tuning().words("Kubernetes")[0]
    assert weighed[option].weight == pytest.approx(plain[option].weight * 0.5)


_CHOICES = st.sampled_from(
    [
        "Should we self-host it, or pay for the managed plan?",
        "Is it better to write a script, or let the agent do it by hand?",
        # 是自己写脚本比较好, 还是直接用 MCP?
        "\u662f\u81ea\u5df1\u5199\u811a\u672c\u6bd4\u8f83\u597d\uff0c\u8fd8\u662f\u76f4\u63a5\u7528 MCP\uff1f",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_CONTEXT, min_size=1, max_size=3), _MAIN, st.lists(_CHOICES, min_size=1, max_size=2), st.randoms())
def test_the_main_ask_is_the_asking_part_wherever_choices_stand(context, main, choices, random):
    parts = [*context, main, *choices]
    random.shuffle(parts)
    assert asking_part(" ".join(parts)) == main
