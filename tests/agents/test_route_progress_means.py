"""Set W's everyday turns (0.5.0, thirtieth pass): a question on the state of the work (has it finished, is it still
running, where did it go) or on the agent's means (can you see, open, reach or run X, do you remember X) is a turn of
a session, not a request; a request that asks for new work in the same breath still is one.

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
        # set W's we-043, as typed (it fired), and we-001, we-030, we-006, we-015, we-019
        "Did the echidna campaign finish overnight? You set testLimit to 500000 in echidna.yaml; tell me whether it "
        "completed and where the corpus directory ended up.",
        "is the alignment step done yet?",
        "still running?",
        "How far along are you with the migration? Just give me a quick list of what's still left.",
        "where did you save the new config?",
        "How long will the fuzzing run take at this rate? I need to know whether to leave it overnight.",
        "Has the nightly build passed?",
        "ok, are you done with the dark-mode toggle?",
        "where did the header row go?",
        "what's left to do?",
    ],
)
def test_a_question_on_the_works_state_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "比对跑完了吗？",
        "置换检验跑完没有？你二十分钟前启动了一万次置换，results/perm_pvals.tsv 到现在还没出现。",  # we-058
        "还在跑吗？",
        "pipeline 跑完了没？",
        "新生成的配置文件放哪了？",
        "照现在的速度，模糊测试还要跑多久？",
        "前端表单校验那块进度怎么样了？",
        "登录页的多语言支持做完了吗？",
    ],
)
def test_a_question_on_the_works_state_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # set W's we-010, as typed (it fired), and we-002, we-018, we-033, we-022, we-031, we-037, we-026
        "Before you go further: can you see the Semgrep results I dropped in reports/semgrep.sarif, or is that "
        "outside your workspace? If you can't open it I'll paste the relevant findings.",
        "can you actually run slither in this environment?",
        "can you see the contracts/ folder now?",
        "can you reach NCBI from your sandbox?",
        "Are you able to run the test suite yourself, or only edit files?",
        "Do you remember what the first finding was in the audit notes from earlier? I want to be sure we're "
        "talking about the same thing.",
        "Which tools do you actually have in this session?",
        "can you open the xlsx directly or should I export it to csv first?",
        "Do you have access to the staging database?",
        "Do you remember which normalization we settled on earlier, TPM or the DESeq2 size factors?",
    ],
)
def test_a_question_on_the_agents_means_in_english_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "你能直接运行 Slither 吗？",
        "扫描器的报告我放在 reports/bandit.json 了，你那边能打开吗？打不开的话我把高危的几条贴过来。",  # we-055
        "你现在用的是哪个模型？",
        "你还记得最早那份审计笔记里的第一个问题吗？",
        "你这边的 environment 里有 mythril 吗？",
        "你能看到 Jupyter kernel 的 output 吗？",
        "你能自己跑测试吗，还是只能改文件？",
        "你这个 session 用的是什么 model？",
    ],
)
def test_a_question_on_the_agents_means_in_chinese_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # the means asked with the work itself: a request
        "Can you run a Semgrep scan over the repo and triage the findings?",
        "can you run slither over contracts/ and summarise the findings?",
        "Can you read the report, pick out the 10 to 12 points that matter and turn them into slides?",  # u1-014
        "can you use the composio tools to make it so every new form submission lands in Close?",  # g1-011
        "Could you open a PR on GitHub for feature/webhook-retries?",  # m1-033: open a PR is to make one
        "can you access our Jira and create a ticket for the outage?",
        "Can you run a full SEO check on our site?",  # run without the agent's side named
        "能不能帮我把 report.xlsx 转成 csv？",
        "你能直接打开 docs/a.pdf 吗？能的话帮我翻译成英文",
        "最好你能直接连进去，把 90 天没打开过邮件的人筛出来",  # s2-009, shortened: no question
        "我们现在只有一个文生图接口，能不能搞个东西，自己判断该用哪个模型出？",  # h2-015, shortened
        # the state asked with new work, or of a general topic, or mid-prompt (a request's own)
        "Did the build pass? Then write the release notes for v2.",
        "构建跑完了吗？跑完了帮我写一份发布说明",
        "How long will it take to learn Rust?",
        "My team wonders why the nightly job is still running at noon?",  # not opening its sentence
        "你能运行 Semgrep 扫一下整个仓库吗？",  # run asked, the agent's side unnamed
        "Where did the term microservices come from?",
        "这种改造工作量大概多大，两三天能搞完吗？",  # m2-014, shortened: an estimate asked ahead
        "想用 C# 写个小工具批量创建，再查一下每个订阅的并发浏览器配额还剩多少。",  # t2-003, shortened
    ],
)
def test_the_same_words_asking_new_work_are_not_at_hand(prompt):
    assert not at_hand(prompt)


_WORK = ["write the release notes", "写一份迁移脚本", "generate a summary table", "帮我做一个周报模板"]


@given(
    st.sampled_from(
        ["Did the scan finish?", "Is the build done?", "跑完了吗？", "还在跑吗？", "Can you see the logs?"]
    ),
    st.sampled_from(_WORK),
    st.sampled_from([" Then ", " ", "\n", " and "]),
)
def test_a_question_then_new_work_is_never_at_hand(question, work, joint):
    assert not at_hand(f"{question}{joint}{work}")
