"""Set U's everyday turns (0.5.0, twenty-sixth pass): a failure after the agent's change, a rule of how to work
here, a value the agent wrote reviewed, and a package named in backticks: each a turn of a session, not a request.

Each form beside the request it must not silence (docs/notes/route.md).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import Target
from skillmem_hook.search.at_hand import at_hand
from skillmem_hook.search.names import build_name_table, named_skills, skill_keys

TABLE = build_name_table([(Target("pricing", "skills", "pricing"), skill_keys(["pricing"], []))])


def named(prompt: str) -> list[str]:
    return [target.label for target in named_skills(prompt, TABLE)]


@pytest.mark.parametrize(
    "prompt",
    [
        "应该是你改了 `pricing` 包里的函数名。",
        "`pricing`模块的测试挂了",
        "the `pricing` package no longer builds",
        "the `pricing` crate fails to compile",
        "from `pricing` import the discount helper",
        "Import `pricing` twice and it breaks",
    ],
)
def test_a_package_named_in_backticks_is_code_not_a_skill_asked_for(prompt):
    assert named(prompt) == []


@pytest.mark.parametrize(
    "prompt",
    ["用 `pricing` 帮我定三档价格", "run `pricing` on the new plans", "use the `pricing` skill", "reimport `pricing`"],
)
def test_a_skill_named_in_backticks_is_still_named(prompt):
    assert named(prompt) == ["pricing"]


@pytest.mark.parametrize(
    "prompt",
    [
        "你推上去以后 GitHub Actions 又红了",
        "你上次改完之后启动慢了 3 秒",
        "合并以后编译不过了",
        "好，改完以后页面白屏",
    ],
)
def test_a_failure_after_the_agents_change_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "想让 k8s 部署全由 Git 仓库驱动，合并后集群自动同步，Argo CD 和 Flux 怎么落地",  # set C's dev-xl-020
        "上线以后怎么做灰度回滚",  # asks ahead
        "你帮我规划一下部署之后的监控告警方案",  # 帮: a plan, not a change made
        "PR 合并以后自动删掉预览环境的数据库分支",  # not at the opening
    ],
)
def test_a_change_in_a_requests_own_workflow_is_not_at_hand(prompt):
    assert not at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "我们这边统一用 Python 3.11，别用 3.12 才有的写法。另外依赖请用 `uv add` 加，不要手动改 `pyproject.toml`。",
        "用 pnpm，别用 npm",
        "对，统一用北京时间",
        "We always use pnpm here. Never use npm in this repo.",
        "scratch that, stick with fetch",
    ],
)
def test_a_rule_of_how_to_work_here_that_asks_nothing_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "测试组要统一用 robotframework，帮忙写几个 .robot 用例，登录成功失败各一条",  # set N's n2-031: it asks
        "Our team is new to Segment. We use it only for the browser snippet. How do I add server-side events?",
        "整站只用一个蓝色的深浅变化 配色 tailwind 后台",  # set K's k2-018: a spec
        "写个脚本批量导出订单，别用 pandas",
        # set O's o2-007 shortened: its ask in traditional Chinese, which asks.py does not hear; its first sentence
        # sets no rule
        "我們團隊的專案是 monorepo，新人來 setup 環境常常版本對不上。想請你幫我寫一份設定檔，不要用 latest。",
    ],
)
def test_a_request_that_states_its_rules_is_not_at_hand(prompt):
    assert not at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "`retry` 的上限你写成了 10 次，每次间隔翻倍。改成最多 5 次吧。",
        "邮件模板里的称呼你写成了“亲爱的用户”，太生硬了",
        "默认值你设成了 true",
    ],
)
def test_a_value_the_agent_wrote_reviewed_is_at_hand(prompt):
    assert at_hand(prompt)


def test_a_value_the_user_wrote_is_not_the_agents():
    assert not at_hand("我把配置写成了 YAML，帮我转成 TOML 格式的部署模板")


@given(st.sampled_from(["包", " package", " module", " crate", "模块"]), st.text(" 里的帮我。", max_size=12))
def test_a_backticked_name_before_a_package_word_never_names_it(unit, tail):
    assert named(f"看看 `pricing`{unit}{tail}") == []
