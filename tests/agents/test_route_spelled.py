"""A skill named in its product's usual spelling is not code (0.5.0, thirty-first pass, after set W's newcomer).

"fuzz my parser with libFuzzer" named code for the route, a camelCase
identifier, though the collection has a skill ``libfuzzer``: the score rule
was never asked. A camelCase word that is, case-folded and with the name's
hyphens dropped, the name of a skill of the collection is that skill's
spelling; called, in a path or a member, or in a fenced block it is code still.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import Target, best_scored, plain_part
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.asks import asking_part
from skillmem_hook.search.at_hand.shown import code_named, names_code
from skillmem_hook.search.names import Spellings, build_name_table, skill_keys
from skillmem_hook.search.rank import SearchIndex

CATALOG = [
    Skill(name=name, description=description, path=name, root="skills", warnings=[])
    for name, description in (
        ("libfuzzer", "Fuzz C and C++ parsers with libFuzzer: coverage-guided fuzzing, corpus and crashing inputs"),
        ("address-sanitizer", "Find memory corruption bugs in C and C++ with AddressSanitizer builds"),
        ("postgres-tuning", "Find slow queries and tune indexes in PostgreSQL databases"),
        ("release-notes", "Write release notes and a changelog from merged pull requests"),
        ("k8s-deploy", "Deploy containers to a Kubernetes cluster with rolling updates"),
    )
]
INDEX = SearchIndex.build(CATALOG)
TABLE = build_name_table((Target(s.name, s.root, s.path), skill_keys([s.name], [])) for s in CATALOG)
SPELLINGS = Spellings(TABLE)
REQUEST = (
    "Set up coverage-guided fuzzing for the C parsers of my library with libFuzzer, with a corpus of crashing inputs"
)


def routed(prompt: str, spellings: Spellings | None = SPELLINGS) -> list[str]:
    return [target.label for target in best_scored(prompt, INDEX, spellings=spellings or ())]


def test_a_skill_spelled_as_its_product_is_not_code_and_the_score_rule_reads_the_request():
    assert code_named(REQUEST) == "libFuzzer"  # without the collection's names: an identifier
    assert routed(REQUEST, None) == []
    assert code_named(REQUEST, SPELLINGS) is None
    assert routed(REQUEST) == ["libfuzzer"]


@pytest.mark.parametrize(
    "word",
    ["libFuzzer", "libFuzzer,", "(libFuzzer)", "libFuzzer.", "addressSanitizer", "用 libFuzzer测试"],
)
def test_a_skills_name_in_any_case_and_without_its_hyphens_is_its_spelling(word):
    assert not names_code(f"fuzz my parser with {word}", SPELLINGS)


@pytest.mark.parametrize(
    ("prompt", "code"),
    [
        ("fix the useState call in Cart", "useState"),  # no skill of that name
        ("why does getUserById return null", "getUserById"),
        ("why does libFuzzer() crash here", "libFuzzer"),  # a call
        ("fuzz it with `libFuzzer(data, size)` please", "libFuzzer"),
        ("the harness in src/libFuzzer keeps failing", "libFuzzer"),  # a path's part
        ("the harness in fuzz/libFuzzer/ keeps failing", "libFuzzer"),
        ("what does fuzz.libFuzzer return", "libFuzzer"),  # a member
        ("what does libFuzzer.run return", "libFuzzer"),
        ("fuzz my parser with libFuzzer and rename getUserById", "getUserById"),  # another word is code
        ("fuzz my parser\n```\nlibFuzzer here\n```\nwith it", "libFuzzer"),  # a fenced block
        ("~~~\nrun libFuzzer", "libFuzzer"),  # a fence left open runs to the end
    ],
)
def test_code_stays_code_and_the_word_read_as_code_is_given(prompt, code):
    assert code_named(prompt, SPELLINGS) == code
    assert names_code(prompt, SPELLINGS)


def test_a_spelling_is_looked_up_among_the_names_with_hyphens_at_its_turns():
    keys = ("=libfuzzer", "+address-sanitizer", "lib-fuzz-kit", "~模糊测试", "^测试")
    spellings = Spellings(dict.fromkeys(keys, ()))
    assert "libFuzzer" in spellings and "LibFuzzer" in spellings  # a one-word name, any case
    assert "addressSanitizer" in spellings and "AddressSanitizer" in spellings  # a hyphen at the turn
    assert "libFuzzKit" in spellings  # an alias (no mark), a hyphen at each turn
    assert "libFuzzKitX" not in spellings and "addressSanitizerRun" not in spellings and "libFuzz" not in spellings
    assert "模糊测试" not in spellings and 3 not in spellings


def test_the_witness_of_a_request_naming_code_reads_a_spelled_skill_as_no_code():
    """plain_part and the ask of ``code_in_context`` read the same collection's names as the whole prompt."""
    request = "Rename getUserById in the service. The parsers need coverage-guided fuzzing with libFuzzer."
    assert plain_part(request) is None  # every sentence names code
    assert plain_part(request, SPELLINGS) == "The parsers need coverage-guided fuzzing with libFuzzer."
    context = (
        "The C parsers in our packet library, next to parse_header.c, take untrusted input from the network every"
        " day. The parsers need coverage-guided fuzzing with libFuzzer and a corpus of crashing inputs kept for each"
        " one."
    )
    assert asking_part(context) is None  # no sentence asks: the witness is the sentence that names no code
    assert routed(context) == ["libfuzzer"]
    assert routed(context, None) == []  # read as code, both sentences name it: no witness


WORDS = ["libFuzzer", "useState", "addressSanitizer", "()", "/", ".", "`", "```", "\n", " ", "fuzz", "x.py"]


@given(st.lists(st.sampled_from(WORDS), max_size=12))
def test_the_collections_names_only_ever_take_a_code_reading_away(words):
    """With the names, a prompt names code only if it does without them, and one without a skill's spelling is
    read alike."""
    text = "".join(words)
    if names_code(text, SPELLINGS):
        assert names_code(text)
    if "libFuzzer" not in text and "addressSanitizer" not in text:
        assert code_named(text, SPELLINGS) == code_named(text)
