"""Set Y's everyday turns (0.5.0, thirty-second pass): the work divided (the user takes a part the agent cannot do or
reach, and tells it to go on with its own) and a doubt about a result thought aloud (wondering, no ask) are turns of a
session, not requests; a request that asks for new work in the same breath still is one.

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
        # set Y's ye-030, as typed (it fired)
        "I'll handle the Terraform side since you can't apply anything to our AWS account anyway. You keep going on "
        "the Flask handlers and tell me which env vars you need.",
        "I'll run the load test on the staging cluster myself; you continue with the code review.",
        "I will test the payment flow on my phone. You just carry on with the refactor.",
        "I'll ask legal about the license, you keep working on the parser.",
    ],
)
def test_the_work_divided_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set Y's ye-068, as typed (it fired)
        "你没有权限访问客户的内网，那部分我自己去测。你继续看代码层面的问题就行，内网的结果我回头补进来。",
        "生产库你连不上，迁移我来跑，你接着改单元测试。",
        "证书那块我去找运维申请，你先继续处理登录页。",
    ],
)
def test_the_work_divided_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set Y's ye-028, as typed (it fired), and set W's we-036, set R's re-012, set V's ve-027
        "Hmm, I'm wondering if the drop in coverage at the 3' end is real or just an artifact of the library prep. "
        "Let's not change anything yet, I want to think about it.",
        "hmm, maybe the batch effect is real",
        "hmm, maybe the cache is the culprit",
        "Hmm, I wonder if we even need the cache layer now. The query is down to 80ms after the index.",
        "I'm wondering whether the speedup is real or just the warm cache.",
        "I'm wondering whether the speedup is real or just the warm cache? Let's leave it for now.",
    ],
)
def test_a_doubt_thought_aloud_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set Q's qe-069 and set R's re-054
        "我在想是不是前端缓存的问题。后端返回的数据是对的，用 `curl` 直接请求也是新的，但页面上还是旧值。",
        "嗯，可能是时区的问题",
        "我怀疑这个提升只是随机种子带来的，先别改。",
        "不知道是不是采样太少，结果看着不太稳定。",
    ],
)
def test_a_doubt_thought_aloud_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # the work divided, new work asked of the agent: a request
        "I'll do the Terraform; you write the Helm chart for the API.",
        "I'll handle the backend, you keep going on a new landing page: build a pricing section with three tiers.",
        "I'm fine with lots of small commits if you keep going on your own. Which is less painful?",  # h1-032
        "I'll review the commits at the end: is it better if you keep going on your own, round by round, or in one "
        "big commit?",  # h1-032's way of working, asked with a part taken
        "迁移我来跑，你继续写一个导出 CSV 的脚本。",
        "打标签我自己去后台点。你继续帮我把名单拉出来。",
        # a doubt with an ask, or mid-prompt (a request's own)
        "I'm wondering if the drop in coverage is real. Can you write a script to bootstrap it?",
        "I'm wondering whether our p99 is real, could you profile the service?",
        "I swapped it for crypto.timingSafeEqual, but now I'm wondering what else leaks. Can you go through our "
        "Rust wrapper?",  # v1-030, shortened
        "我怀疑老代码里有不少 DB::raw，你帮我从代码层面先扫一轮，列出问题和修法？",  # l2-030, shortened
        "我在想是不是该换成 Kafka，帮我搭一个 demo",
        "maybe the cache is the culprit, how do I set up Redis caching in Django?",
    ],
)
def test_the_same_words_asking_new_work_are_not_at_hand(prompt):
    assert not at_hand(prompt)


@given(
    st.sampled_from(
        [
            "I'm wondering if the speedup is real.",
            "Hmm, maybe the batch effect is real.",
            "我在想是不是缓存的问题。",
            "I'll run the migration myself, you keep going on the tests.",
        ]
    ),
    st.sampled_from(["write the release notes", "写一份迁移脚本", "generate a summary table", "帮我做一个周报模板"]),
    st.sampled_from([" Then ", " ", "\n", " and "]),
)
def test_a_musing_or_a_split_then_new_work_is_never_at_hand(opening, work, joint):
    assert not at_hand(f"{opening}{joint}{work}")
