"""The score rule's conditions as values (``route --explain``): the JSON's string and the text's sentence, both
rendered from the same record, never one read back from the other."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.conditions import (
    CjkShare,
    Condition,
    Coverage,
    Either,
    Lead,
    LeadInstead,
    NotScattered,
    Score,
    Share,
    Typed,
    WordsHeld,
)
from skillmem_hook.search.confidence import SCORE_RULE, ScoreRule
from skillmem_hook.search.rank import Hit

from ..helpers import stated

# One of each kind, as the rule builds it: a kind with no example here fails the enumeration below.
EXAMPLES: dict[str, Condition] = {
    "typed": Typed(26, 8),
    "score": Score(2.2943, 2.0),
    "words held": WordsHeld(6, 4),
    "coverage": Coverage(0.13, 0.25),
    "lead": Lead(2.2943, 1.2, 1.5654),
    "share": Share(6, 1 / 12, 26),
    "scatter": NotScattered(3, 0.3, hits=3, coverage=0.29, best=12.0, last=6.0, near=0.5, unrelated=True),
    "lead instead": LeadInstead(1.5, 2.2943, 1.5654, when=Typed(26, 20)),
    "cjk share": CjkShare(6, 1 / 12, 80, 0.5, 72, 44.0, Coverage(0.2, 0.2)),
    "either": Either(Coverage(0.13, 0.25), (LeadInstead(1.5, 2.2943, 1.5654, when=Typed(26, 20)),)),
}
# The rule's own form of each, as route --explain's JSON has carried it since 0.5.0 (a program may read it).
STATED = {
    "typed": "typed 26 >= 8",
    "score": "score 2.2943 >= 2",
    "words held": "words held 6 >= 4",
    "coverage": "coverage 0.13 >= 0.25",
    "lead": "best 2.2943 >= 1.2 x second 1.5654",
    "share": "words held 6 >= 0.0833 x typed 26",
    "scatter": "not a scattered tie of 3 (coverage < 0.3)",
    "lead instead": "best >= 1.5 x second (typed 26 >= 20)",
    "cjk share": (
        "held with a CJK word as 0.5 of a word: words held 6 >= 0.0833 x (typed 80 - 0.5 x CJK 72) = 3.67"
        " (English-described best, coverage 0.20 >= 0.2)"
    ),
    "either": "coverage 0.13 >= 0.25, or best >= 1.5 x second (typed 26 >= 20)",
}
SAID = {
    "typed": "the prompt types at least 8 words: it types 26",
    "score": "the best hit scores at least 2: it scores 2.2943",
    "words held": "the best hit holds at least 4 of the words typed: it holds 6",
    "coverage": "the best hit covers at least 0.25 of the prompt's words: it covers 0.13",
    "lead": "the best hit scores at least 1.2 x the second's score: it scores 2.2943 against 1.5654 (1.47 x)",
    "share": "the best hit holds at least 0.0833 of the 26 words typed (2.17 words): it holds 6",
    "scatter": (
        "the 3 best hits are not a near tie of skills whose names share no word while the best covers under 0.3 of"
        " the prompt's words (such a tie means the context points nowhere in particular): the last of them scores 6,"
        " at least 0.5 x the best's 12, no two of their names share a word, and the best covers 0.29"
    ),
    "lead instead": (
        "on a prompt of 20 typed words or more (this one types 26), the best hit scores at least 1.5 x the second's"
        " score: it scores 1.47 x"
    ),
    "cjk share": (
        "with each of the 72 CJK words typed counted as 0.5 of a word, since the best hit is described in English and"
        " covers at least 0.2 of the prompt's words (it covers 0.20), the 80 words typed count as 44: the best hit"
        " holds at least 0.0833 of them (3.67 words): it holds 6"
    ),
    "either": (
        "the best hit covers at least 0.25 of the prompt's words: it covers 0.13; or on a prompt of 20 typed words or"
        " more (this one types 26), the best hit scores at least 1.5 x the second's score: it scores 1.47 x"
    ),
}


def kinds() -> set[type[Condition]]:
    """Every kind of condition the module defines: each subclass of Condition that has a kind of its own."""
    found, todo = set(), [Condition]
    while todo:
        for kind in todo.pop().__subclasses__():
            todo.append(kind)
            found.add(kind)
    return {kind for kind in found if kind.kind}


def test_every_kind_of_condition_has_an_example_a_json_form_and_a_sentence():
    """A new kind without its sentence fails here: the base has none to give (it raises)."""
    with pytest.raises(NotImplementedError):
        Condition().sentence()
    assert {kind.kind for kind in kinds()} == set(EXAMPLES) == set(STATED) == set(SAID)
    for kind in kinds():
        example = EXAMPLES[kind.kind]
        assert type(example) is kind
        assert str(example) == STATED[kind.kind]
        assert example.sentence() == SAID[kind.kind]
        assert " >= " not in example.sentence()  # the text says the formula in words


def test_a_kind_of_condition_without_its_own_sentence_fails():
    class Silent(Condition):
        kind = "silent"

    with pytest.raises(NotImplementedError):
        Silent().sentence()


# Skills for hits: a family (sred-*) whose names share a word, the rest unrelated; one described in Chinese.
POOL = [
    Skill(name=name, description=description, path=name, root="skills", warnings=[])
    for name, description in (
        ("sred-project-organizer", "Organize SR&ED project records for the tax credit claim"),
        ("sred-work-summary", "Summarize an engineer's year of pull requests for an SR&ED claim"),
        ("ledger-basics", "Keep a small company's ledger and receipts in order"),
        ("geo-maps", "Draw maps from shapefiles and GeoPackage data"),
        ("地图", "用矢量文件和地理数据包画出专题地图"),
    )
]
RULES = [
    SCORE_RULE,
    ScoreRule(share_lead=0),
    ScoreRule(wide_lead=0),
    ScoreRule(cjk_weight=1),
    ScoreRule(context_typed=0),
    ScoreRule(lead=0),
    ScoreRule(scatter_coverage=0),
    ScoreRule(context_share=0.1, cjk_weight=0.25, context_lead=1.05, lead=2.5, most=2),
]


@st.composite
def readings(draw: st.DrawFn) -> tuple[list[Hit], int, int, int]:
    """Hits best first (scores, coverages and skills of any kind), and the words held, typed and typed in CJK."""
    scores = sorted(draw(st.lists(st.floats(0.01, 40), min_size=0, max_size=4)), reverse=True)
    skills = draw(st.permutations(POOL))
    hits = [Hit(skills[n], score, draw(st.floats(0, 1))) for n, score in enumerate(scores)]
    typed = draw(st.integers(0, 90))
    return hits, draw(st.integers(0, 20)), typed, draw(st.integers(0, typed))


def old_gates(rule: ScoreRule, hits: list[Hit], evidence: int, typed: int, cjk: int) -> list[tuple[str, str, bool]]:
    """The rows as 0.5.0's rule wrote them before its conditions were records, f-strings kept as they were: the
    JSON's strings must not move (a program may read them)."""
    best = hits[0].score if hits else 0.0
    second = hits[1].score if len(hits) > 1 else 0.0
    coverage = hits[0].coverage if hits else 0.0
    rows = []
    if rule.context_typed and typed >= rule.context_typed:
        wide = ""
        if rule.wide_lead and typed >= rule.wide_typed:
            wide = f", or best >= {rule.wide_lead:g} x second (typed {typed} >= {rule.wide_typed})"
        lacks = evidence < rule.context_share * typed
        text = ""
        if rule.share_lead:
            waived = lacks and rule._share_waived(hits)
            text = f", or best >= {rule.share_lead:g} x second" + (": waived by the lead" if waived else "")
        if lacks and hits and not rule._share_waived(hits) and rule._holds_share(hits, evidence, typed, cjk):
            text += (
                f"; held with a CJK word as {rule.cjk_weight:g} of a word: words held {evidence} >="
                f" {rule.context_share:.3g} x (typed {typed} - {1 - rule.cjk_weight:g} x CJK {cjk})"
                f" = {rule.context_share * rule._words_typed(typed, cjk):.3g} (English-described best,"
                f" coverage {hits[0].coverage:.2f} >= {rule.cjk_coverage:g})"
            )
        rows += [
            (
                "much context",
                f"best {best:g} >= {rule.context_lead:g} x second {second:g}",
                len(hits) < 2 or best >= rule.context_lead * second,
            ),
            (
                "much context",
                f"coverage {coverage:.2f} >= {rule.context_coverage:g}{wide}",
                bool(hits) and rule._covers(hits, typed),
            ),
            (
                "much context",
                f"words held {evidence} >= {rule.context_share:.3g} x typed {typed}{text}",
                bool(hits) and rule._holds_share(hits, evidence, typed, cjk),
            ),
            (
                "much context",
                f"not a scattered tie of {rule.most} (coverage < {rule.scatter_coverage:g})",
                not rule._scattered(hits),
            ),
        ]
    rows += [
        ("held words", f"typed {typed} >= {rule.typed}", typed >= rule.typed),
        ("held words", f"score {best:g} >= {rule.score:g}", bool(hits) and best >= rule.score),
        ("held words", f"words held {evidence} >= {rule.words}", evidence >= rule.words),
    ]
    if rule.lead:
        rows += [
            ("clear lead", f"typed {typed} >= {rule.lead_typed}", typed >= rule.lead_typed),
            ("clear lead", f"score {best:g} >= {rule.lead_score:g}", bool(hits) and best >= rule.lead_score),
            ("clear lead", f"words held {evidence} >= {rule.lead_words}", evidence >= rule.lead_words),
            ("clear lead", f"best {best:g} >= {rule.lead:g} x second {second:g}", rule._leads_second(hits)),
        ]
    return rows


@given(readings(), st.sampled_from(RULES))
def test_the_json_strings_and_verdicts_are_those_of_the_rule_before_its_conditions_were_records(reading, rule):
    hits, evidence, typed, cjk = reading
    assert stated(rule.gates(hits, evidence, typed, cjk)) == old_gates(rule, hits, evidence, typed, cjk)


def parts(condition: Condition) -> list[Condition]:
    """``condition`` and, for an ``Either``, each condition it is made of."""
    if isinstance(condition, Either):
        return [condition, condition.first, *condition.alternatives]
    if isinstance(condition, CjkShare):
        return [condition, condition.covers]
    if isinstance(condition, LeadInstead) and condition.when is not None:
        return [condition, condition.when]
    return [condition]


# Readings that reach every kind: the CJK count (an English-described best, much CJK typed, a share held only so),
# a scattered tie, a lead that waives the share, a long prompt's lead for the coverage.
REACHING = [
    ([Hit(POOL[3], 6.0, 0.2), Hit(POOL[2], 3.9, 0.1)], 6, 80, 72),
    ([Hit(POOL[2], 12.0, 0.29), Hit(POOL[3], 9.0, 0.3), Hit(POOL[0], 6.0, 0.3)], 4, 16, 0),
    ([Hit(POOL[0], 30.0, 0.15), Hit(POOL[2], 9.0, 0.3)], 2, 49, 0),
]


def test_the_rule_builds_every_kind_and_no_other():
    """The enumeration above is of what the rule builds: no kind is dead, none is built without an example."""
    built = {
        type(part)
        for hits, evidence, typed, cjk in REACHING
        for _, condition, _ in SCORE_RULE.gates(hits, evidence, typed, cjk)
        for part in parts(condition)
    }
    assert built == kinds()


def tokens(text: str) -> list[str]:
    """The words and numbers of a rendered condition: split at spaces and at the punctuation around numbers."""
    return [token for token in re.split(r"[\s,;:()]+", text) if token]


def numbers(text: str) -> list[str]:
    return [token for token in tokens(text) if re.fullmatch(r"-?[0-9.]+(e[-+][0-9]+)?", token)]


@given(readings(), st.sampled_from(RULES))
def test_each_condition_the_rule_builds_says_in_its_sentence_the_values_of_its_json_form(reading, rule):
    """The two forms agree: every number the JSON string shows of a condition is in its sentence too, but the 0 it
    writes for a second hit there is none of (said so in words) and the CJK count's 1 - weight (said as the count)."""
    hits, evidence, typed, cjk = reading
    for _, condition, _ in rule.gates(hits, evidence, typed, cjk):
        said = tokens(condition.sentence())
        unsaid = {f"{1 - rule.cjk_weight:g}"} if isinstance(condition, Either) else set()
        unsaid |= {"0"} if isinstance(condition, Lead) and condition.second is None else set()
        assert [n for n in numbers(str(condition)) if n not in said and n not in unsaid] == [], condition


finite = st.floats(allow_nan=False, allow_infinity=False)
counts = st.integers(-(10**9), 10**9)


@given(counts, counts, finite, finite, finite, st.one_of(st.none(), finite))
def test_any_values_render_and_both_forms_show_the_same_found_and_bound(typed, held, score, bound, factor, second):
    """Whatever the numbers (a score of 0, a negative or huge one, no second hit), each kind renders both ways, and
    the value found and its bound are written alike in the JSON's form and in the sentence."""
    second_text = f"{0.0 if second is None else second:g}"
    for condition, found, limit in [
        (Typed(typed, held), f"{typed}", f"{held}"),
        (WordsHeld(held, typed), f"{held}", f"{typed}"),
        (Score(score, bound), f"{score:g}", f"{bound:g}"),
        (Coverage(score, bound), f"{score:.2f}", f"{bound:g}"),
        (Lead(score, factor, second), f"{score:g}", second_text),
        (Share(held, factor, typed), f"{held}", f"{typed}"),
        (NotScattered(3, bound, 2, score, 1.0, 0.0, 0.5, True), None, f"{bound:g}"),
    ]:
        json_form, said = tokens(str(condition)), tokens(condition.sentence())
        assert found is None or (found in json_form and found in said)
        assert limit in json_form and (limit in said or second is None)  # no second hit: said in words, not as 0
    for alternative in (
        LeadInstead(factor, score, second, when=Typed(typed, held), waived=True),
        CjkShare(held, factor, typed, bound, held, score, Coverage(score, bound)),
        NotScattered(held, bound, hits=typed, coverage=score, best=factor, last=bound, near=factor, unrelated=True),
    ):
        assert str(alternative) and alternative.sentence()


@given(readings(), st.sampled_from(RULES))
def test_the_scattered_tie_says_what_it_found_as_the_rule_decided(reading, rule):
    """The sentence of the scattered tie names a tie of unrelated skills covering little exactly where the rule
    found one (holds is False), and otherwise what spared it."""
    hits, evidence, typed, cjk = reading
    rows = rule.gates(hits[: rule.most], evidence, typed, cjk)
    for _, condition, holds in rows:
        if isinstance(condition, NotScattered):
            tie = f"no two of their names share a word, and the best covers {condition.coverage:.2f}"
            assert condition.sentence().endswith(tie) is (not holds)


def test_a_lead_with_no_second_hit_or_a_second_of_zero_says_so():
    assert str(Lead(7.0, 3.0, None)) == "best 7 >= 3 x second 0"  # as the JSON has always said it
    assert Lead(7.0, 3.0, None).sentence().endswith("it scores 7, and there is no second hit")
    assert Lead(7.0, 3.0, 0.0).sentence().endswith("it scores 7 against 0 (no ratio to a score of 0)")
    assert LeadInstead(2.0, 7.0, None).sentence().endswith(": there is no second hit")
    assert str(LeadInstead(2.0, 7.0, 3.0, waived=True)) == "best >= 2 x second: waived by the lead"
    assert Lead(1e308, 1.0, 1e-308).sentence().endswith("(inf x)")  # the division overflows to inf, said as it is
    assert LeadInstead(2.0, 7.0, 3.0, waived=True).sentence() == (
        "the best hit scores at least 2 x the second's score: it scores 2.33 x, so the lead stands in for what the"
        " best hit lacks"
    )


@pytest.mark.parametrize(
    ("scatter", "found"),
    [
        (NotScattered(3, 0.3, 0, 0.0, 0.0, 0.0, 0.5, True), "there is no hit"),
        (NotScattered(3, 0.3, 1, 0.1, 9.0, 0.0, 0.5, True), "there is only 1 hit"),
        (NotScattered(3, 0.3, 2, 0.1, 9.0, 0.0, 0.5, True), "there are only 2 hits"),
        (NotScattered(3, 0.3, 3, 0.31, 9.0, 8.0, 0.5, True), "the best covers 0.31"),
        (
            NotScattered(3, 0.3, 3, 0.1, 12.0, 5.99, 0.5, True),
            "the last of them scores 5.99, under 0.5 x the best's 12",
        ),
        (
            NotScattered(3, 0.3, 3, 0.1, 12.0, 6.0, 0.5, False),
            "the last of them scores 6, at least 0.5 x the best's 12, but two of their names share a word",
        ),
    ],
)
def test_the_scattered_tie_says_what_spared_it(scatter, found):
    assert scatter.sentence().endswith(f"(such a tie means the context points nowhere in particular): {found}")


def test_a_family_tie_says_two_names_share_a_word_and_a_lone_hit_has_no_second():
    """What was found, read from the hits themselves: the sred-* family ties but is one intent read several ways;
    a lone hit leads with nothing behind it (the JSON writes its second as 0, as it always has)."""
    family = [Hit(POOL[2], 12.0, 0.29), Hit(POOL[0], 9.0, 0.3), Hit(POOL[1], 6.0, 0.3)]
    scatter = next(row for row in SCORE_RULE.gates(family, 4, 16, 0) if isinstance(row[1], NotScattered))
    assert scatter[2] and scatter[1].sentence().endswith(
        "at least 0.5 x the best's 12, but two of their names share a word"
    )
    lone = SCORE_RULE.gates(family[:1], 4, 16, 0)
    leads = [condition for _, condition, _ in lone if isinstance(condition, Lead)]
    assert [str(lead) for lead in leads] == ["best 12 >= 1.2 x second 0", "best 12 >= 3 x second 0"]
    assert all(lead.sentence().endswith("it scores 12, and there is no second hit") for lead in leads)
