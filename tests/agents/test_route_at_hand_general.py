"""The everyday turns of sets AB and AC that still fired, read by general means (0.5.0, thirty-ninth pass): an edit of
a work's numbered part, a check-in point, a rule with no opener (a class of later work and what it should or must
do, the session's scope), and a Chinese clause of new work beside a rule read as new work.

Each form's own turns beside requests that hold its words and must still be scored; none of them from a tuning set
(docs/notes/route.md, the thirty-ninth pass).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.at_hand import at_hand

EVERYDAY_EN = [
    "Tighten pages 3 and 5 of the deck, they read like a wall of text.",
    "Swap slides 4 and 6 and shorten slide 2.",
    "Merge sections 2 and 3 of the README into one.",
    "Reorder emails 2 and 3 so the case study lands first.",
    "Stop after the schema migration and tell me what it changed.",
    "Pause here and show me the diff before you commit anything.",
    "Let me know once the tests pass, before you move on to the UI.",
    "All new endpoints should return problem+json errors. No stack traces in responses.",
    "All future commit messages must follow conventional commits.",
    "Please stay on the current branch for everything in this session.",
]
EVERYDAY_ZH = [
    "第三页和第五页的文字太多了，精简一下。",
    "第二封邮件的开头换成客户的原话。",
    "第四段挪到第二段前面。",
    "把第六页删掉，第七页的图换成柱状图。",
    "改完第一步先告诉我一声，我要看一下。",
    "写完导入先停一下，我看过再继续。",
    "做完了告诉我，别急着提交。",
    "后面所有接口都要加上请求日志。",
    "所有新页面的按钮一律用主色。",
    "后面的提交说明都用英文写。",
]
REQUESTS_EN = [
    "Write a 5-email onboarding sequence for our B2B analytics tool; email 3 should cover integrations.",
    "Create a 12-slide investor deck; slide 4 should show the churn chart.",
    "From now on we use pnpm. Add a Redis cache layer to the API service.",
    "All our services should emit OpenTelemetry traces. Can you set up the collector on Kubernetes?",
    "Every new endpoint must be documented. Generate an OpenAPI spec for the orders service.",
    "Stop the flaky Selenium tests from failing CI by migrating them to Playwright.",
    "Let me know when the best time is to post on LinkedIn for B2B SaaS founders.",
    "Merge our two Postgres databases into one schema with a zero-downtime plan.",
    "Write a migration for the orders table, then stop and tell me before you run it.",
    "Pause and tell me: which vector database should a startup pick for RAG?",
    # review3's requests aimed at the forms (mend3): each lost its hint to them
    "Split pages 1 to 10 of contract.pdf into a separate PDF file.",
    "Combine pages 1 and 2 of the scanned form into a single PDF page.",
    "Merge slides 3 and 4 of the quarterly deck into one slide and add a chart of revenue by region.",
    "Split chapter 3 of the manuscript into its own Word document with the same styles.",
    "Each microservice needs to have a multi-stage Dockerfile that keeps the image under 200 MB.",
    "Each pull request needs to get an automated code review comment from a GitHub Action.",
]
REQUESTS_ZH = [
    "从现在开始用 pnpm。给 API 服务加一个 Redis 缓存层。",  # review2's C3 in Chinese: asks() hears no ask in it
    "帮我把演示文稿第五页改成新的增长曲线，再做一页竞品对比。",
    "写一个 5 封的欢迎邮件序列，第三封讲集成。",
    "以后统一用 uv，帮我把 requirements.txt 迁过去。",
    "所有服务都要接入链路追踪，帮我设计一套方案。",
    "后面所有接口都要鉴权，给我写一个 JWT 中间件。",
    "合并两个 Postgres 库的方案怎么设计？",
    "从今天开始用 Tailwind。新建一个定价页。",
    "做一套季度销售 PPT，第一页放总览。",
    "先停一下手上的事，帮我写一个数据清洗脚本。",
    # review3's requests aimed at the forms (mend3)
    "所有慢查询都要加上合适的索引，先从订单报表那条 SQL 开始优化",
    "所有的接口文档都要用 OpenAPI 3.1 规范重新生成",
    "每个接口都要有 OpenAPI 文档，我们的 Flask 服务大概有三十个路由",
    "所有的 Dockerfile 都必须用多阶段构建，把三个服务的镜像体积降到 200MB 以下",
    "把合同 PDF 的第 3 页到第 8 页拆成一个单独的 PDF 文件",
    "把演示文稿第五页和第六页合并成一页，再加一张各地区收入的柱状图",
    "后面所有的接口文档都要用 OpenAPI 3.1 规范重新生成",  # later work, but made now
]


@pytest.mark.parametrize("turn", EVERYDAY_EN + EVERYDAY_ZH)
def test_an_everyday_turn_of_the_new_forms_is_at_hand(turn):
    assert at_hand(turn)


@pytest.mark.parametrize("prompt", REQUESTS_EN + REQUESTS_ZH)
def test_a_request_holding_their_words_is_not(prompt):
    assert not at_hand(prompt)


@pytest.mark.parametrize(
    "turn",
    [
        # sets AB and AC, as typed (each fired)
        "In the onboarding email sequence, emails 3 and 4 say basically the same thing about integrations. Merge "
        "them, and move the customer quote from email 4 into email 2, so we end up with four emails instead of five.",
        "演示文稿第五页的增长曲线用的还是去年的数据，换成今年一到九月的。第六页的客户标志按签约时间先后排。",
        "Once the repository layer compiles, pause and tell me what changed in the public interfaces before you move "
        "on to the handlers. I want to review that part myself.",
        "后面所有 landing page 的文案都别用「革命性」「颠覆」这种词。数字能写具体就写具体，比如「每周省 3 小时」比"
        "「大幅提升效率」好。",
        "Please stay on `feature/rate-limit` for everything in this task. Don't rebase onto main and don't open new "
        "branches, I'll handle the merge myself.",
    ],
)
def test_the_turns_of_sets_ab_and_ac_are_at_hand(turn):
    assert at_hand(turn)


def test_a_numbered_step_is_a_plan_not_a_part():
    """A request's plan numbers its steps: a step or an item is not a part of a thing already made."""
    assert at_hand("Swap slides 2 and 3.")
    assert not at_hand("Swap steps 2 and 3.")
    assert not at_hand("第 2 步和第 3 步合并一下。")
    assert at_hand("第 2 页和第 3 页合并一下。")


def test_the_rule_reads_its_own_calendar_not_an_example():
    """A calendar's repeat in the rule is a chore to set up; in an example after it, it is the rule's example."""
    assert at_hand("后面所有文案都别用夸张的词。数字写具体，比如「每周省 3 小时」。")
    assert not at_hand("后面所有周报都要每周一发给我。")


@given(st.sampled_from(["pages", "slides", "emails", "sections"]), st.integers(1, 40), st.integers(1, 40))
def test_an_edit_beside_a_new_thing_is_a_request(part, first, second):
    """A numbered part edited is the work at hand only while no clause asks for a new thing."""
    assert at_hand(f"Merge {part} {first} and {second}.")
    assert not at_hand(f"Merge {part} {first} and {second}, then write a new summary section for the board.")


@given(
    st.sampled_from(["All", "Every", "Each", "Any"]),
    st.sampled_from(["endpoint", "migration", "landing page", "service"]),
    st.sampled_from(["should", "must", "needs to", "has to"]),
)
def test_a_rule_with_no_opener_is_of_later_work(quantifier, thing, modal):
    """A class of things and what it should do is a rule of how to work only of later work (review3's 1a): of the
    things there now, it is a request."""
    plural = quantifier == "All"
    things = f"{thing}s" if plural else thing
    verb = {"needs to": "need to", "has to": "have to"}.get(modal, modal) if plural else modal
    assert not at_hand(f"{quantifier} {things} {verb} log the request id.")
    assert at_hand(f"{quantifier} new {things} {verb} log the request id.")
    assert at_hand(f"{quantifier} future {things} {verb} log the request id.")
    assert not at_hand(f"{quantifier} {things} {verb} log the request id of new users.")  # not the class's "new"


def test_a_rule_of_later_work_in_chinese():
    """所有 / 每个 need a mark of later work (后面, 以后的, 今后的, 之后的, 新), as the English rule does."""
    assert not at_hand("所有接口都要加上请求日志。")
    assert not at_hand("每个接口都要打印请求日志。")
    assert not at_hand("每个接口都要打印新的请求日志。")  # 新 not of the class
    for later in ("后面所有", "以后的所有", "今后的所有", "之后的所有", "所有新"):
        assert at_hand(f"{later}接口都要打印请求日志。"), later


def test_a_numbered_part_made_a_thing_of_its_own_is_a_request():
    """An edit whose own clause makes a new artefact asks for new work; one that only edits does not (review3's 1b)."""
    assert at_hand("Split pages 1 and 2.")
    assert not at_hand("Split pages 1 and 2 into a separate file.")
    assert at_hand("Merge slides 3 and 4 into one slide.")
    assert not at_hand("Merge slides 3 and 4 into one slide and add a chart.")
    assert at_hand("把第 3 页到第 8 页删掉。")
    assert not at_hand("把第 3 页到第 8 页拆成一个单独的文件。")
