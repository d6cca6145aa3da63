"""The route reads a paste and the user's own words apart (0.5.0, fourth pass): the hint comes from the user's words.

A forwarded mail ('>' lines), a ticket or a chat message quoted at length,
a fenced block: its words name no skill and are not scored.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import Target, best_scored
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.names import build_name_table, named_skills, skill_keys, users_own
from skillmem_hook.search.rank import SearchIndex

CATALOG = [
    Skill(name=name, description=description, path=name, root="skills", warnings=[])
    for name, description in (
        ("postgres-tuning", "Find slow queries and tune indexes in PostgreSQL databases"),
        ("referral-program", "Design referral and invite-a-friend programs with rewards and fraud limits"),
        ("xss-testing", "Test web pages for cross-site scripting and HTML injection"),
        ("csv-to-table", "Convert CSV files into Markdown tables"),
    )
]
INDEX = SearchIndex.build(CATALOG)
TABLE = build_name_table((Target(s.name, "skills", s.name), skill_keys([s.name], [])) for s in CATALOG)
REQUEST = "my PostgreSQL database has slow queries, how do I find them and tune the indexes?"
TICKET = (
    "Customers keep asking if they get anything for bringing friends. Design an invite-a-friend referral scheme: "
    "rewards, fraud limits, what we measure."
)


def routed(prompt: str) -> list[str]:
    return [target.label for target in best_scored(prompt, INDEX)]


def named(prompt: str) -> list[str]:
    return [target.label for target in named_skills(prompt, TABLE)]


def test_a_quoted_message_is_context_and_the_users_own_words_are_scored():
    assert routed(f"Ticket GROW-412: {TICKET}") == ["referral-program"]  # the user's own words: hinted
    assert routed(f'Ticket GROW-412 says: "{TICKET}" Can you draft the design doc for this?') == []
    assert routed(f'{REQUEST} The DBA wrote: "{TICKET}"') == ["postgres-tuning"]  # the paste adds no skill


def test_a_forwarded_mail_is_context():
    forwarded = "\n".join(f"> {line}" for line in TICKET.split(". "))
    assert routed(f"Forwarding from the growth inbox:\n{forwarded}\nThoughts?") == []
    assert routed(f"{forwarded}\n{REQUEST}") == ["postgres-tuning"]


def test_a_bare_paste_is_silent():
    assert routed("> " + REQUEST) == []
    assert routed(f'"{REQUEST} And also the indexes of the orders table, please."') == []


def test_what_is_not_a_paste_stays():
    short = 'use the "csv to table" skill'
    assert users_own(short) == short  # a quote under 80 characters is a phrase, not a pasted message
    assert users_own("a > b and 3 > 2") == "a > b and 3 > 2"  # '>' only at a line's start quotes it
    assert users_own("“" + "长" * 80 + "”").strip() == ""  # curly and corner quotes too
    assert users_own("「" + "长" * 80 + "」").strip() == ""


@given(
    st.sampled_from(["> {}", '"{}"', "```\n{}\n```"]),
    st.sampled_from(["postgres-tuning", "referral-program", "xss-testing"]),
    st.text(alphabet=st.characters(blacklist_characters='"`>\n\r~', blacklist_categories=("Cs",)), max_size=60),
)
def test_a_skill_named_only_in_a_paste_is_never_hinted(shape, skill, filler):
    """Whatever the user wrote, a paste appended to it never makes the hook name a skill it names only there."""
    paste = shape.format(f"{skill} {'x' * 80} {skill}")
    prompt = f"{filler}\n{paste}\n"
    assert skill not in named(filler) or skill in named(prompt)  # what the user named stays named
    if skill not in named(filler):
        assert skill not in named(prompt)
        assert skill not in routed(prompt) or skill in routed(filler)
