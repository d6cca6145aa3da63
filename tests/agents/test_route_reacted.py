"""A short reaction to a thing already there (0.5.0, forty-second pass): a turn that asks nothing, needs nothing and
opens on a thing given ("the new card's padding feels cramped on mobile", "落地页文案这版可以") is a turn of the
session, not a request; a request stated as a need, an ask beside it, or a long context opening on "the" still is one.

The examples are forms of no tuning set, written for these tests (docs/notes/route.md).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.at_hand import at_hand
from skillmem_hook.search.at_hand.reacted import _reacts_to_a_thing_given


@pytest.mark.parametrize(
    "prompt",
    [
        "the toast animation feels sluggish on older Android phones",
        "ok the spacing between the pricing cards looks uneven now",
        "hmm, these error messages sound a bit robotic to me",
        "It still reads like marketing copy.",
        "That's closer. The second paragraph drags though.",
        "your commit message undersells the migration",
    ],
)
def test_a_short_reaction_to_a_thing_given_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "这版配色太灰了",
        "那封催款邮件语气有点冲。",
        "嗯，这张图的图例挡住了柱子",
        "标题还是太长，它在手机上折成了三行",
    ],
)
def test_a_short_reaction_to_a_thing_given_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # a request stated as a need or a want, or asking how
        "the checkout page needs an A/B testing plan with a proper sample size for each variant",
        "the onboarding emails want a full rewrite for the new enterprise tier and its pricing",
        "这版官网还需要一套多语言切换和按地区的定价展示",
        "那份周报想要一个自动生成的版本",
        # a thing introduced, not given
        "This is a Flutter app that syncs workouts with Garmin Connect over OAuth and offline storage",
        # an ask beside the reaction: a question, an imperative, a thing made or added
        "the mobile app crashes on launch with the new Firebase SDK, any idea where to start?",
        "the staging deploy keeps timing out after the cache warmup and I could use some help with it",
        "The launch checklist is drafted. Proceed: the changelog, the tweet and the pricing table.",
        "the billing tables are renamed. Change the retry count to 3 for the importer.",
        "the landing hero should feel calmer and more premium for enterprise buyers",
        "照着这份报价单改一下我们定价页的文案",
        "the signup form on mobile, audit it for WCAG 2.2 contrast and focus order issues",
        "The release notes for 4.2. Translate them into German for the Munich team.",
        "the signup form on mobile, please audit it for WCAG 2.2 contrast and focus order issues",
        "The footer looks empty. Add a newsletter signup form with double opt-in through Mailchimp.",
        "这版落地页不错，帮我再生成一个英文版的",
        # a thing made in a clause no opener marks as an ask
        "the dashboard is fine for now and then build a weekly export of it to Google Sheets",
        "这版看板不错，再生成一份按周汇总的邮件报表",
        # no thing given: a request's terse topic
        "Twilio OTP texts for signup verification in the mobile sign up flow",
    ],
)
def test_a_request_with_a_need_an_ask_or_no_thing_given_is_not_at_hand(prompt):
    assert not at_hand(prompt)


_LONG_CONTEXT = (
    "The vendor contract on my screen covers hosting, support and a managed Postgres tier, three years, renewals "
    "capped at five percent, a termination clause after month eighteen and data residency in Frankfurt only"
)


def test_a_reaction_is_short_at_thirty_words_and_two_hundred_characters():
    """Thirty words are a reaction; thirty-one are a request's context, which opens on "the" as often."""
    thirty = " ".join(["the report's", *["off"] * 27, "wrong"])
    assert len(thirty.split()) == 30 and len(thirty) <= 200
    assert _reacts_to_a_thing_given(thirty)
    assert not _reacts_to_a_thing_given(thirty + " again")
    assert not _reacts_to_a_thing_given(_LONG_CONTEXT)
    long_words = "the " + "a" * 195  # two words, 199 characters, then 200 and 201
    assert _reacts_to_a_thing_given(long_words) and _reacts_to_a_thing_given(long_words + "a")
    assert not _reacts_to_a_thing_given(long_words + "aa")


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120))
def test_a_need_or_a_question_beside_anything_is_no_reaction(text):
    """Whatever the turn says, a need stated or a question asked beside it makes it no reaction."""
    assert not _reacts_to_a_thing_given(f"the {text} We need a new one.")
    assert not _reacts_to_a_thing_given(f"the chart {text}\nCan you redo it?")
