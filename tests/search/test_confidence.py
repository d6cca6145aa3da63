"""``match``: the word search answers with, at the edges of what makes it strong, weak or none."""

from __future__ import annotations

import pytest

from skillmem_hook.search.confidence import STRONG_LEAD, STRONG_SCORE, STRONG_WORDS, fit, match
from skillmem_hook.search.rank import Hit, SearchIndex

from .sample_skills import SKILLS, make


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


NAMED = [
    make("crewai", "Specialist in CrewAI, the role-based multi-agent framework"),
    make("SQL Injection Testing", "Test for SQL injection vulnerabilities and bypass logins"),
    make("sqlmap-pentest", "Automate SQL injection testing and pentest with sqlmap"),
    make("sql-injection-lab", "Practice SQL injection testing in a lab"),  # a near tie for the name's words
    make("kubernetes", "Deploy to a cluster"),
]


@pytest.mark.parametrize(
    ("intent", "named"),
    [
        ("crewai", True),  # newcomer en3: one word held, alone on top, read 'weak'
        ("CREWAI", True),
        ("sql injection testing", True),  # its name's words exactly
        ("SQL-Injection_Testing", True),
        ("sqlmap pentest", True),
        ("sql injection", False),  # part of a name is no name
        ("crewai testing", False),  # nor a name and more
    ],
)
def test_a_query_that_is_the_best_hits_name_is_strong(intent, named):
    index = SearchIndex.build(NAMED)
    ranked = index.query(intent, 3)
    evidence, loose, typed, _ = index.reading(intent, ranked[0])
    assert match(ranked, evidence, typed, loose) != "strong"  # what it holds and scores makes it no strong match
    assert (fit(index, intent, ranked) == "strong") is named


def test_a_name_typed_is_strong_only_when_its_skill_is_the_best_hit():
    index = SearchIndex.build(NAMED)
    ranked = index.query("sql injection testing", 3)
    assert ranked[0].skill.name == "SQL Injection Testing"
    assert fit(index, "sql injection testing", [ranked[1], ranked[0]]) == "weak"  # another skill on top


def test_a_skills_folder_name_is_its_name_too():
    folder = make("Database Penetration Testing", "Automate database pentesting with sqlmap")
    folder.path = "db-pentest"  # the folder search shows, and read takes
    index = SearchIndex.build([folder, *NAMED])
    for intent, named in (("db pentest", True), ("db-pentest", True), ("pentest", False)):
        ranked = index.query(intent, 3)
        evidence, loose, typed, _ = index.reading(intent, ranked[0])
        assert ranked[0].skill is folder
        assert match(ranked, evidence, typed, loose) == "weak"
        assert (fit(index, intent, ranked) == "strong") is named
