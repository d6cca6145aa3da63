"""Set AD's everyday turns (0.5.0, forty-first pass): a person's remark on a thing already there, relayed, and the
agent told to make the edit ("She's right. Can you make it re-raise ...", "你按这个改一下") is a turn of the session,
not a request; a relay whose ask is new work, or whose edit is one step of a longer ask, still is one.

Each form beside the request it must not silence (docs/notes/route.md).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand import at_hand, relayed


@pytest.mark.parametrize(
    "prompt",
    [
        # set AD's ade-002, as typed (it fired)
        'Priya left a comment on the PR: "retry_with_backoff swallows the original exception, so we lose the stack '
        "trace.\" She's right. Can you make it re-raise the last error after the final attempt? Keep max_retries "
        "defaulting to 3.",
        "Our designer said the empty state looks unfinished next to the cards. Please make it match the card padding.",
        "Tomasz wrote in the review that the onboarding copy buries the free trial. Fix that, keep the tone.",
        "The reviewer pointed out the chart legend overlaps the bars on mobile. Could you address it before lunch?",
        "Dana suggested we drop the second CTA on the hero. Do that and keep the rest.",
    ],
)
def test_a_remark_relayed_with_its_edit_asked_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set AD's ade-097, as typed (it fired)
        "市场的 Lisa 说 launch post 里的 feature list 太长，读者看到第三条就划走了。她建议只留 top 3，剩下的放一个 "
        "changelog 的 link。你按这个改一下。",
        "老板说周报的图表颜色太花了，看不清重点。你就按他说的调一下吧。",
        "客户反馈导出的发票抬头少了税号，你照这个改。",
        "同事回复说翻译里 settings 那条太长，用两个字就行。按她说的改一下。",
    ],
)
def test_a_remark_relayed_with_its_edit_asked_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # a relay whose ask is new work: a question relayed, or a thing to make
        "My manager asked whether we can set up error tracking for the mobile app with Sentry; can you do it?",
        "Lisa said we need a churn dashboard for the board meeting. Build one in Looker and make it filter by region.",
        # two sides relayed and the edit one step of a longer ask (set AD's ad1-034, as typed)
        "Our helpdesk ticket export (tickets_2024.csv, 380k rows) is loaded into our UiPath PM app, but the Timestamp "
        "column got mapped as text, so every duration is garbage. Priya says the only way out is deleting the app and "
        "recreating it from the CSV; Tom says the mapping can be corrected on the existing app. Decide who's right, "
        "fix it with the uip CLI, then give me median and p90 time-to-resolution per support team.",
        # the back-reference mid-clause (set D's d1-006)
        "Security flagged it in the audit and gave us two weeks to fix it. How do I read the secrets from Key Vault?",
        # an edit asked with no remark relayed before it
        "Can you make it re-raise the last error after the final attempt in our retry helper for the payment client?",
        "Lisa said the churn numbers look off. Fix that, then build a dashboard for the board with them.",
        "客户说想要一个按地区看销售额的看板，你帮我做一个。",
        "老板说周报太长了。你按这个改一下，再写一份给客户的季度总结。",
        "老板说下季度要上线会员体系，你按这个写一份技术方案。",
    ],
)
def test_a_relay_asking_new_work_is_not_at_hand(prompt):
    assert not at_hand(prompt)


@given(
    st.sampled_from(["Priya", "The reviewer", "My lead", "She"]),
    st.sampled_from(["fix it", "address it", "update it"]),
)
def test_a_relay_then_an_edit_of_what_it_names_is_at_hand_whoever_speaks(speaker, edit):
    """Whoever relays the remark, the edit asked as a sentence of its own reads the work at hand; the same edit in a
    clause after a comma, a step of a longer ask, does not by this reading."""
    remark = f"{speaker} said the invoice footer wraps badly on A4."
    assert at_hand(f"{remark} Can you {edit}?")
    assert not at_hand(f"{remark} Compare the two layouts, {edit}, then write a migration guide for the partners.")


# tidy9: the patterns cost 1.2 ms to compile; a prompt holding a relay word and an edit word in no edit's shape
# ("said ... make a", "comment ... update the") never compiles them, and every prompt they match still reaches them.
_PIECES = st.sampled_from(
    [
        "make", "fix", "change", "update", "address", "apply", "adjust", "tweak", "handle", "do", "todo", "MAKE",
        "it", "its", "them", "that", "those", "this", "these", "the", "THIS", "changes", "edits", "fix", "fixes",
        "into", "a", "button", "三", " ", "  ", "\n", "\t", "\u3000", "\xa0", ".", ",", "按", "照", "着", "这个",
        "她说的", "建议", "改", "调", "处理", "来", "按钮", "Tom said", "她说",
    ]
)  # fmt: skip


def _cased(word: str) -> st.SearchStrategy[str]:
    """``word`` in any case, a letter at a time, and with a capital dotted İ for an i (``str.lower`` makes it two)."""
    choices = [st.sampled_from([c, c.upper(), *(["\u0130"] if c == "i" else [])]) for c in word]
    return st.tuples(*choices).map("".join)


# Drawn from the module's own tuples, so that a verb or word added to the pattern is drawn here too (review4).
_WORDS_AFTER = sorted({word for takes in relayed._EDIT_VERBS.values() for word in takes} | {"a", "items", "thesis"})
_EDIT_LIKE = st.tuples(
    st.sampled_from([*relayed._EDIT_VERBS, "undo"]).flatmap(_cased),
    st.sampled_from(["", " ", "\n\n", "\t ", "\u3000", "\xa0"]),
    st.sampled_from(_WORDS_AFTER).flatmap(_cased),
    st.sampled_from(["", " changes", " three fixes", " button changes", " new edit", ".", " into", "s"]),
).map("".join)
_CN_EDIT_LIKE = st.tuples(
    st.sampled_from(["", "就", "先"]),
    st.sampled_from(["按", "照"]),
    st.sampled_from(["", "着", "着着"]),
    st.sampled_from([*relayed._CN_BACK, "那个", ""]),
    st.sampled_from([*relayed._CN_EDIT, "好"]),
).map("".join)


_ANY = st.text(st.characters(), max_size=3)


@given(st.lists(st.one_of(_EDIT_LIKE, _CN_EDIT_LIKE, _PIECES, _ANY), max_size=8).map("".join))
def test_every_prompt_the_edit_pattern_matches_passes_the_cheap_check(text):
    if relayed._EDIT_BACK.search(text):
        assert relayed._could_edit_back(text)


@pytest.mark.parametrize("text", ["Tom said so. FIX THİS", "Tom said so. fix İt", "Tom said so. make THE FİXES"])
def test_a_capital_dotted_i_is_folded_alike_by_the_pattern_and_the_cheap_check(text):
    """``str.lower`` makes İ two code points and a Unicode IGNORECASE matches it against i: both sides fold ASCII
    letters only, so the cheap check passes whatever the pattern matches (review4's "FIX THİS")."""
    assert bool(relayed._EDIT_BACK.search(text)) == relayed._could_edit_back(text)
    assert relayed._could_edit_back("Tom said so. FIX THIS") and relayed._EDIT_BACK.search("Tom said so. FIX THIS")


@pytest.mark.parametrize(
    "prompt",
    [
        "Tom said we should make a dashboard for the signups.",
        "Priya said the landing page is slow; make the hero image smaller.",  # "make the", no change named
        "My manager commented that the docs are thin; update the README with the install steps.",
        "老板说要做一个按钮，点了就导出 CSV。",
    ],
)
def test_a_relay_word_beside_an_edit_word_in_no_edit_s_shape_compiles_nothing(monkeypatch, prompt):
    fresh = {name: lazy_compile(*getattr(relayed, name)._source) for name in ("_RELAY", "_EDIT_BACK")}
    for name, pattern in fresh.items():
        monkeypatch.setattr(relayed, name, pattern)
    assert not relayed._relays_an_edit(prompt, prompt)
    assert [name for name, pattern in fresh.items() if vars(pattern).keys() - {"_source"}] == []
    assert relayed._relays_an_edit("Tom said the legend overlaps. Fix it.", "")  # the shape: compiled, and read
