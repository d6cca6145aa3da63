"""A request that names code around its ask (0.5.0, eighth pass): hinted when the ask, not the code, chose the skill.

A turn that names code is about the code at hand and gets no score hint. A
request of much context may name a file or an identifier in its context; it
is hinted when it types 16 search words or more, its asking sentences name no
code, and their own best hit is the hint's first.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import best_scored, code_in_context, plain_part, scored_reading
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.asks import asking_part
from skillmem_hook.search.at_hand import at_hand
from skillmem_hook.search.at_hand.shown import names_code
from skillmem_hook.search.confidence import ScoreRule
from skillmem_hook.search.rank import SearchIndex

CATALOG = [
    Skill(name=name, description=description, path=name, root="skills", warnings=[])
    for name, description in (
        ("postgres-tuning", "Find slow queries and tune indexes in PostgreSQL databases"),
        ("k8s-deploy", "Deploy containers to a Kubernetes cluster with rolling updates"),
        ("release-notes", "Write release notes and a changelog from merged pull requests"),
        ("pytest-helper", "Write pytest unit tests with fixtures and parametrize"),
        ("log-search", "Search application logs for errors and stack traces"),
    )
]
INDEX = SearchIndex.build(CATALOG)
CONTEXT = (
    "Our reports service reads the orders tables through orders_repo.py, and the nightly billing job runs at"
    " the same hour on two replicas in another region."
)
ASK = "How do I find the slow queries in my PostgreSQL database and tune its indexes?"


def routed(prompt: str, rule: ScoreRule | None = None) -> list[str]:
    chosen = best_scored(prompt, INDEX) if rule is None else best_scored(prompt, INDEX, rule)
    return [target.label for target in chosen]


def test_a_request_that_names_code_in_its_context_is_hinted_as_without_it():
    assert names_code(CONTEXT)
    assert routed(f"{CONTEXT} {ASK}") == ["postgres-tuning"]
    assert routed(f"{ASK} {CONTEXT}") == ["postgres-tuning"]  # the ask may come first
    assert routed(f"{CONTEXT.replace('orders_repo.py', 'the repository layer')} {ASK}") == ["postgres-tuning"]


@pytest.mark.parametrize(
    "prompt",
    [
        f"{CONTEXT.replace('orders_repo.py', 'the repository layer')} {ASK.replace('database', 'orders_repo.py')}",
        f"Our reports service is slow. {ASK.replace('database', 'database behind orders_repo.py')}",  # 15 words
        f"{ASK} It reads orders_repo.py.",  # few words: a turn about that code
    ],
)
def test_a_prompt_that_names_code_in_its_ask_or_carries_little_context_is_not_hinted(prompt):
    assert names_code(prompt)
    assert scored_reading(prompt, INDEX)[1]  # the score rule alone would name a skill
    assert routed(prompt) == []


def test_the_hint_is_the_skill_the_asking_sentences_put_first_not_the_contexts():
    """With a rule loose enough to hint the context's skill, the ask's own search still decides: a prompt whose
    context is about slow queries and whose ask is about the changelog names neither."""
    loose = ScoreRule(context_coverage=0, context_lead=0, context_share=0, scatter_coverage=0, score=0, words=0)
    context = (
        f"{CONTEXT} The slow queries in our PostgreSQL database need their indexes tuned, and someone has to find them."
    )
    assert [
        hit.skill.name for hit in scored_reading(f"{context} Can you help with the changelog?", INDEX, loose)[1]
    ] == ["postgres-tuning"]
    assert routed(f"{context} Can you help with the changelog?", loose) == []  # the ask's own best: release-notes
    assert routed(f"{context} How do I find them?", loose) == ["postgres-tuning"]  # the ask agrees


def test_a_request_whose_sentences_all_ask_or_none_is_witnessed_by_those_that_name_no_code():
    """0.5.0, thirteenth pass (set K's k1-035): with no asking part, the sentences that name no code are the
    witness; their own best hit must be the hint's first."""
    request = f"{CONTEXT} The slow queries in our PostgreSQL database have to be found and its indexes tuned."
    assert asking_part(request) is None  # no sentence asks
    assert plain_part(request) == request.removeprefix(f"{CONTEXT} ")
    assert routed(request) == ["postgres-tuning"]
    asked = f"{CONTEXT.replace('Our', 'Can you check how our').replace('region.', 'region?')} {ASK}"
    assert asking_part(asked) is None and routed(asked) == ["postgres-tuning"]  # every sentence asks
    loose = ScoreRule(context_coverage=0, context_lead=0, context_share=0, scatter_coverage=0, score=0, words=0)
    code = (
        "The slow queries that orders_repo.py sends to our PostgreSQL database need their indexes tuned,"
        " and someone has to find them on the replicas."
    )
    assert routed(f"{code} Our PostgreSQL database runs on two replicas in another region.", loose) == [
        "postgres-tuning"
    ]
    late = f"{code} The release notes and the changelog are late as well."
    assert [hit.skill.name for hit in scored_reading(late, INDEX, loose)[1]] == ["postgres-tuning"]
    assert routed(late, loose) == []  # the sentence naming no code puts release-notes first


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("Tune orders_repo.py.", None),  # one sentence
        ("Tune orders_repo.py. Then calc_total().", None),  # every sentence names code
        ("Tune orders_repo.py. Our database is slow. Then calc_total().", "Our database is slow."),
        ("Our database is slow. It runs on two replicas.", None),  # no sentence names code
    ],
)
def test_the_plain_part_is_the_sentences_that_name_no_code_beside_some_that_do(text, part):
    assert plain_part(text) == part


def test_without_the_much_context_gates_naming_code_silences_every_prompt():
    assert routed(f"{CONTEXT} {ASK}", ScoreRule(context_typed=0)) == []


def test_a_prompt_at_hand_that_names_code_in_its_context_is_not_hinted():
    assert routed(f"{CONTEXT} The fixture you added broke it. {ASK}") == []


@pytest.mark.parametrize(
    "output",
    [
        "Tests:       1 failed, 41 passed, 42 total",  # Jest's and Vitest's summary
        "  \u25cf formatPrice \u203a handles negative",  # Jest's failure bullet
        "\u25cf orders \u203a totals",
    ],
)
def test_a_test_runners_output_pasted_as_printed_is_the_work_at_hand(output):
    assert at_hand(f"{output}\nexpected is the right one per the ticket. fix the function, not the test")
    assert not at_hand("Tests: the suite we want has 40 cases")  # a word "Tests:" is not a summary
    assert not at_hand("\u25cfbullet without a space")


SENTENCES = [
    CONTEXT,
    ASK,
    "Deploy it to our Kubernetes cluster with rolling updates and keep the old pods up.",
    "Can you write pytest tests for calc_total() with fixtures?",
    "The job logs print a stack trace at 03:00 every night.",
    "We moved from MySQL last spring and the team is three people.",
    "Where do I start?",
]


@given(st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=4))
def test_naming_code_never_adds_a_hint_and_its_hint_is_the_asks_own_best(parts):
    """A prompt that names code is hinted only as the same prompt would be without that gate, and only with the
    skill its asking sentences' own search puts first (with none, its sentences that name no code)."""
    prompt = " ".join(parts)
    chosen = code_in_context(prompt, INDEX)
    if not names_code(prompt) or not chosen:
        return
    assert [hit.skill.label for hit in chosen] == [hit.skill.label for hit in scored_reading(prompt, INDEX)[1]]
    ask = asking_part(prompt) or plain_part(prompt)
    assert ask is not None and not names_code(ask)
    assert INDEX.query(ask, top=1)[0].skill.label == chosen[0].skill.label
