"""Set V's everyday turns (0.5.0, twenty-seventh pass): how the agent works from now on, a standing instruction that
opens the prompt and asks for nothing else, is a turn of a session, not a request.

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
        # set V's ve-016 and ve-088, as typed
        "From now on make small commits with conventional commit messages (feat:, fix:, chore:). Don't squash "
        "anything and don't push. I'll push myself after I've reviewed.",
        "以后写 test 的时候用 pytest 的 fixture，不要每个 case 里都手动 setup 一遍。"
        "mock 也尽量少用，能用真实的 sqlite 就用真实的。",
        "Going forward, keep answers short and skip the recap.",
        "ok from now on run ruff before every commit.",
        "From now on, make small commits.",  # the mark alone in its clause: the next is the rule, not an ask
        "From now on, please write the commit messages in English.",  # the rule addresses the agent: still the rule
        "For the rest of this session, reply in English.",
        "Commit in small steps from now on.",
    ],
)
def test_a_standing_instruction_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "以后写 test 的时候用 pytest 的 fixture，不要每个 case 里都手动 setup 一遍。",
        "今后提交信息一律写中文。",
        "从现在开始，回答尽量短，不用总结。",
        "你以后改完先跑一遍 lint 再提交",
        "以后每次提交前都先跑一遍测试。",  # 每次 (each time) is how to work; only a calendar's repeat is a chore
        "以后所有注释和提交信息都用中文写。变量名和函数名还是用英文，跟现有代码保持一致。",  # set V's ve-058
    ],
)
def test_a_standing_instruction_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # a standing rule, then real new work
        "From now on we use pnpm; please migrate the web app to it.",
        "Going forward we deploy with Helm. Write the chart for the billing service.",
        "以后统一用 uv，帮我把 requirements.txt 迁过去",
        "以后新接口都走 gRPC。先给我出一份订单服务的 proto 设计。",
        # a question
        "From now on, should we squash merges?",
        "以后会不会更难看懂？",
        # the mark mid-prompt: a request's own (set F's f2-015, shortened), or not a standing rule
        "季度复盘要 12 页幻灯片，以后每季度都要做，能不能写个程序一键出",
        "We moved billing to Stripe. Going forward, how do we reconcile refunds",
        "以后的需求都记在飞书多维表格里，帮我设计一下字段",
        "数据量大了以后查询都走只读副本",  # 以后 after a state, in a request's spec
        # not a mark of the session's rules: one event ahead
        "下次开会前帮我准备一份周报",
        "Next time we meet, prepare a deck on churn",
        # a calendar's repeat after the mark: a scheduled chore to set up, not how to work
        "以后每周一都帮我把上周的 Jira 工单汇总成一份周报，发到飞书群里。",
        "从现在开始，给我每天生成一份销售日报",
        "From now on, every Monday morning send me a summary of the open PRs.",
        "Going forward, post a weekly digest of failed builds to #eng.",
    ],
)
def test_a_standing_mark_beside_new_work_is_not_at_hand(prompt):
    assert not at_hand(prompt)


_WORK = ["帮我写一个迁移脚本", "please write the migration script", "给我出一份方案", "can you set up CI for it"]


@given(
    st.sampled_from(["From now on", "Going forward,", "以后", "今后", "从现在开始，"]),
    # no rule word of the twenty-sixth pass ("we use", 统一用), whose reading takes "We use pnpm, please write ..."
    st.sampled_from(["reply in English", "提交信息写中文", "keep commits small", "回答短一点"]),
    st.sampled_from(_WORK),
    st.sampled_from(["。", ". ", "; ", "，", "\n"]),
)
def test_a_standing_rule_then_an_ask_is_never_at_hand(mark, rule, work, stop):
    assert not at_hand(f"{mark} {rule}{stop}{work}")


@pytest.mark.parametrize(
    "prompt",
    [
        # set AA's aae-019 and aae-023, as typed
        "terraform plan says: Plan: 2 to add, 1 to change, 0 to destroy. that's what I expected, go ahead and apply",
        "Before you touch `payments/webhooks.py` any further, write the plan as a short list and wait for me to say "
        "go. Last time the diff got to 400 lines before I saw it. Small commits, one concern each.",
        "ok the dry run is clean, go ahead with the migration",
        "Looks good, merge it.",
        "lgtm, ship it",
        "Don't change anything yet. Explain your plan in 3-4 bullets and wait for my OK.",
        "Hold off on the Helm changes for now, Sara's team owns that chart.",
        "Check with me first before you drop any table.",
        "Looks fine, merge it.",  # review2's C5: each alternative has its mark
        "Sounds right, proceed with the rollout.",
    ],
)
def test_a_go_ahead_or_a_hold_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "diff 我看过了，可以，合吧",
        "没问题，直接上线",
        "LGTM，继续",
        "行，就这么办。",
        "先列个计划，等我确认了再动代码。",
        "动数据库之前先问我。",
        "动数据库之前先问一下我。",  # review2's C5
        "可以，推吧",
    ],
)
def test_a_go_ahead_or_a_hold_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set P's p1-002 and p1-026 (shortened): an approval, then a request
        "Nice, the retry wrapper looks right, go ahead and merge that. Separately: I want an automated grader for our "
        "support bot's answers, with a rubric.",
        "OK, the contact form validation is fine, ship it. Unrelated: could you audit my sister's firm's local SEO?",
        # set O's o1-002 (shortened): a question beside it
        "My plan: get it indexed on hf.co/papers, then add a BibTeX citation. Is that order wrong? Then go ahead and "
        "do it.",
        # a hold beside a request's ask: set U's u1-024 and set R's r1-022 (shortened)
        "Before you change anything, give me a list of the idiom fixes you'd apply, then wait for my go-ahead.",
        "For each module, list the public functions, show me the plan and wait for my OK, then rewrite.",
        "Write a Helm chart for the billing service, but ask me first before you touch the ingress.",
        "ship it as a container on AKS and set up the queue trigger",  # to ship a thing is new work
        "帮我写一个迁移脚本，跑之前先问我",
        "可以，顺便帮我写一份发布说明",
        # set AB's ab1-035 (shortened): options weighed, then the work listed after "Go ahead:"
        "Leaning toward the BetterAuth org plugin, since auth already lives there. Go ahead: server and client setup, "
        "a cap of 3 workspaces per user, the custom role with its permissions, and the migration.",
        "The numbers favour a queue over cron. Proceed: the schema, the backfill job and a feature flag.",
        # review2's C2: 推 / 部署 opening a longer word or a clause of new work is no go-ahead
        "可以推荐一个轻量的 Python 日志库",
        "可以推送通知到企业微信的机器人脚本",
        "没问题, 部署一套 Prometheus + Grafana 监控到我们的 k8s 集群",
        # review2's C3: a standing instruction beside new work added
        "From now on we use pnpm. Add a Redis cache layer to the API service.",
        "Going forward we deploy with Helm. Add a chart for the billing service with an HPA.",
    ],
)
def test_a_go_ahead_or_a_hold_beside_a_request_is_not_at_hand(prompt):
    assert not at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set AA's aae-059: the standing rule's other clauses are more rules, bare imperatives
        "从现在开始，所有改动都在 `feature/cache-layer` 分支上做，不要直接推到 `main`。"
        "提交说明用中文写，说清楚改了什么。跑任何数据库相关的命令之前先问我。",
        "From now on, commit on the feature branch. Keep commit messages short, say what changed.",
        # the openers widened: the common ways of saying it
        "From this point on, reply in English.",
        "From now onwards keep answers short.",
        "For the remainder of this session, don't run the integration tests.",
        "从今天起，提交信息一律写英文。",
        "此后所有注释都用英文。",
        "接下来所有改动都先跑一遍 lint 再给我看。",
    ],
)
def test_a_standing_instruction_widened_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "From now on we use pnpm. Migrate the web app to it.",  # a bare imperative that moves the work
        "从今天起用 uv，帮我把 requirements.txt 迁过去",
        "From this point on we deploy with Helm; write the chart for billing.",
        "从今天起用飞书，帮我把 Slack 的频道都搬过去",
        "接下来帮我把订单服务拆成两个",  # 接下来 alone: the next step
    ],
)
def test_a_standing_instruction_widened_beside_new_work_is_not_at_hand(prompt):
    assert not at_hand(prompt)
