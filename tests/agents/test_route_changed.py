"""A change asked of the work at hand (0.5.0, thirty-fifth pass): a prompt that opens on a verb of changing,
reverting or keeping with a definite object, or corrects what was asked, asks for no new work, so the score rule
leaves it alone; a request that asks for new work beside it, or opens on new work, still is one.

Each form beside the request it must not silence (docs/notes/route.md).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.at_hand import at_hand


@pytest.mark.parametrize(
    "prompt",
    [
        # everyday-long-en:35 and :83, set U's ue-030, set G's ge-037, as typed (each fired)
        "Change the log level in logback.xml to DEBUG for the com.acme.billing package only.",
        "Change the retry count from 5 to 3 and add exponential backoff starting at 200 ms.",
        "Revert the changes to `settings.py` but keep the new logging setup in `log_config.py`. The settings change "
        "broke my local override file and I'd rather deal with that separately.",
        "I asked for the PDF export button to be disabled while loading, not hidden. Put it back and use the "
        "disabled prop instead.",
        "ok, bump our Node version to 20 in the Docker image",
        "please put the old onboarding copy back",
        "Rename the `fetchAll` helper to `loadAll` everywhere it is called",
        "Revert the commit that renamed 把手 field in the form",  # an English opening with 把 in it (review2 C7)
    ],
)
def test_a_change_of_what_is_there_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "把超时改回 30 秒",
        "好的, 把价格页的主色改成品牌蓝",
        "把重试次数从 5 改为 3",
        "我要的是导出按钮在加载时置灰, 不是隐藏。",
    ],
)
def test_a_change_of_what_is_there_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # new work: a verb of making, an indefinite object, a migration, a question of how to start
        "Write a Foundry test for the reentrancy path in our vault contract and a fuzz harness for deposits.",
        "Change the banner colour and write a release note for the pricing update.",
        "Change our deployment to a blue-green rollout; we need a plan for the Postgres cut-over.",
        "Set up the CI pipeline for our Rust workspace with caching and a nightly fuzz job.",
        "Move our CI from Jenkins to GitHub Actions with a matrix for Python 3.9 to 3.13.",
        "Make a quarterly sales PPT from our CRM export, one slide per region.",
        "where do I start with slow Postgres reports on a 40M-row orders table?",
        # set D's d1-025 keeps a thing mid-prompt beside its ask: only the opening is read
        "got 23 commits on feature/checkout-v2 vs main and need to open the PR before standup. can you write up "
        "the description from the git log, grouped by area? keep it short.",
        "I said we were on Django 5, not 4; can you draft an upgrade plan for Celery too?",
        # what stays as it is while new work is done: keep is not a change
        "Keep the same API contract in the v2 rewrite of our Express service, with OpenAPI contract tests",
        # review2's C4: remove / enable / increase open requests for new work; a change needs its target ("to")
        "Remove the background from product photos in a folder and export them as transparent PNGs",
        "Enable the GitHub Pages site for our docs folder with a custom domain",
        "Increase the test coverage of the payments module to 80 percent with property-based tests",
        "Change the onboarding flow for enterprise customers with SSO and SCIM provisioning",
    ],
)
def test_new_work_in_english_is_a_request(prompt):
    assert not at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set H's h2-024, shortened: 帮我把 ... 改成 asks for help with new work
        "帮我把两个 Go 服务之间的调用从 HTTP JSON 改成 gRPC, 要双向 TLS",
        "把我们的周报整理成一份季度总结, 再写一个给老板的摘要",
        "帮我做一个季度销售 PPT",
        "把订单服务换成事件驱动的架构, 消息用 Kafka",
    ],
)
def test_new_work_in_chinese_is_a_request(prompt):
    assert not at_hand(prompt)


def test_only_the_opening_change_is_read():
    """A change verb after the prompt's first words is a request's detail, not the turn's ask (40 tuning requests)."""
    assert at_hand("Change the retry count to 3.")
    assert not at_hand("Our nightly ETL pulls 40M rows from Postgres into BigQuery. Change the retry count to 3.")
    assert not at_hand("We run a Postgres 15 cluster behind PgBouncer for billing, and we want to change the pool.")
    assert not at_hand("The rename of our billing tables is planned. Change the retry count to 3 for the importer.")


@given(st.sampled_from(["Change", "Revert", "Undo", "Rename", "Remove"]), st.sampled_from(["a", "an", "some"]))
def test_an_indefinite_object_is_not_a_change_of_what_is_there(verb, article):
    """Only a thing that exists is changed back or kept: "Change a ..." names no thing at hand."""
    assert not at_hand(f"{verb} {article} quarterly report into a dashboard for the sales team")
