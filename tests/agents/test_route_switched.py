"""The approach of the work at hand switched (0.5.0, forty-ninth pass): a short turn whose ask is to do the current
thing another way, naming the way ("let's do a multi-stage build instead", "改用 SSE 推送吧"), is a turn of the
session, though the way's name is a skill's word; a request to migrate or adopt something as a project's new work,
or a switch beside new work, is still one.

The examples are written for these tests, in no tuning set's words (docs/notes/route.md).
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import best_scored, scored_reading
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.at_hand import at_hand
from skillmem_hook.search.at_hand.clauses import _short_turn
from skillmem_hook.search.rank import SearchIndex

from ..helpers import backdate, hint_of, make_git_dir, run_route, skill_md, write_skill

SKILLS = (
    ("nginx-rate-limit", "Rate limit an HTTP API in nginx with limit_req zones, burst and nodelay"),
    ("server-sent-events", "Push progress updates from a FastAPI backend to the browser with Server-Sent Events (SSE)"),
    ("github-actions-ci", "Migrate CI from Jenkins to GitHub Actions workflows with a build matrix and caching"),
    ("docker-images", "Build small Docker images with multi-stage builds, distroless bases and layer caching"),
    ("sse-推送", "用 SSE（Server-Sent Events）把后端进度推送到前端进度条，替代轮询，FastAPI 和 sse-starlette"),
    ("elk-logging", "集中日志：把服务日志接入 ELK（Elasticsearch、Logstash、Kibana），按服务分索引，设置保留策略"),
    ("pdf-reports", "Generate PDF reports from HTML templates with charts and tables"),
    ("postgres-tuning", "Find slow queries and tune indexes in PostgreSQL databases"),
)
INDEX = SearchIndex.build([Skill(name=n, description=d, path=n, root="skills", warnings=[]) for n, d in SKILLS])

SWITCHES = [
    ("let's do the rate limiting with nginx limit_req zones and burst instead", "nginx-rate-limit"),
    ("use server-sent events for the progress bar instead of polling from the browser", "server-sent-events"),
    ("ugh this image is huge. let's do a multi-stage build with a distroless base instead", "docker-images"),
    ("进度条的轮询改用 SSE 推送吧，后端是 FastAPI，sse-starlette 就够了", "sse-推送"),
    ("换成 SSE 推送进度条吧，轮询太浪费了", "sse-推送"),
]
REQUESTS = [
    ("Migrate our CI from Jenkins to GitHub Actions with a build matrix, caching and secrets", "github-actions-ci"),
    ("Switch our CI from Jenkins to GitHub Actions workflows with a build matrix and caching", "github-actions-ci"),
    ("把项目的日志系统换成 ELK，按服务分索引，日志保留 30 天", "elk-logging"),
    ("build smaller Docker images here with a multi-stage build and a distroless base instead", "docker-images"),
]


def hinted(prompt: str) -> list[str]:
    return [target.label for target in best_scored(prompt, INDEX)]


@pytest.mark.parametrize(("prompt", "skill"), SWITCHES)
def test_a_switch_the_rule_would_hint_is_silenced(prompt, skill):
    """The score rule alone names the way's skill; the turn is read as the work at hand, so nothing is hinted."""
    assert skill in [hit.skill.name for hit in scored_reading(prompt, INDEX)[1]]
    assert at_hand(prompt)
    assert hinted(prompt) == []


@pytest.mark.parametrize(("prompt", "skill"), REQUESTS)
def test_a_migration_or_new_work_beside_a_switch_is_still_hinted(prompt, skill):
    assert not at_hand(prompt)
    assert hinted(prompt) == [skill]


@pytest.mark.parametrize(
    "prompt",
    [
        "just use dataclasses for that config object",
        "swap requests for httpx in this module",
        "go with a CTE rather than the nested subquery",
        "use yarn, not npm",
        "Instead of a cron job, have it triggered by the queue we already run",
        "can we use a Makefile instead of those three shell scripts?",
        "scrap the hand-rolled parser and just use argparse",
        "ok the regex is getting ugly. switch to a proper tokenizer",
        "换成 async 的写法",
        "直接用标准库的 functools.cache，别自己写缓存了",
        "这几个脚本改成 npm scripts 管理",
        "别用 setTimeout 轮询了，改成 WebSocket 推送",
        "分页改用游标吧",
    ],
)
def test_a_switch_of_the_thing_at_hand_is_at_hand(prompt):
    assert at_hand(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # the project's new work: scope, migration, making, wants, help, a plan weighed
        "Switch our whole frontend to Svelte instead of React",
        "Move our CI from Jenkins to GitHub Actions instead of the old box",
        "Write a Helm chart for the API service instead of raw YAML",
        "We want to split the research into several agents instead of one giant prompt",
        "把订单服务换成事件驱动的架构, 消息用 Kafka",
        "把我们整个官网换成 Next.js，路由按现在的来",
        "帮我把登录换成 OAuth，接公司的 Okta",
        "想换成 TileDB 那套变异存储，新样本增量写入",
        "还是说我该先换成不用登录的那个纯文档版？",
        # a switch beside another ask
        "use tenacity instead of the loop, and write a Grafana dashboard for the retries",
        "use plain fetch instead of axios, then explain the CORS errors in the console",
        "部署换成 Vercel 就行，再写一个脚本把 shop.example.cn 绑到这个项目上",
        # the project's state told, scoped
        "我们平台已经换成 YARA-X 了",
        # a question weighing the way, not a suggestion; a clause that is no imperative
        "should we switch to Kafka instead of RabbitMQ for the event bus?",
        "my manager wants the nightly exports pushed to Azure Blob instead of the SFTP box",
        # 用 as a word's part (调用, 费用) is no switch
        "把调用链路整理一下就行",
        # a switch in a quoted message: the request's ask is in the quote
        "市场部小王发我的：「哥，周五季度复盘要 12 页幻灯片，数据都在季度汇总表里，要公司蓝白配色，每页一个标题加三四个"
        "要点，第五页放个柱状图。你们不是会写脚本嘛，以后每季度都要做，能不能写个程序一键出？」\n用 Python 写吧",
    ],
)
def test_a_switch_that_is_new_work_or_beside_it_is_not_at_hand(prompt):
    assert not at_hand(prompt)


def test_a_long_turn_is_no_steer():
    """A switch in a prompt past the short turn's 240 columns is a request's own, not a steer of the work at hand."""
    switch = "use server-sent events for the progress bar instead of polling."
    context = " The dashboard shows the nightly import of the warehouse feeds for the ops team"
    prompt = switch + context * 3
    assert _short_turn(switch + context) and at_hand(switch + context)
    assert not _short_turn(prompt) and not at_hand(prompt)


def test_a_long_chinese_turn_is_no_steer():
    """A Chinese turn of 150 characters fills 300 columns: past the short turn though under 240 characters."""
    switch = "进度条改用 SSE 推送吧。"
    context = "后台每天夜里导入仓库数据，运营同事早上要看前一天的进度和失败的批次。"
    assert at_hand(switch + context * 3)
    assert len(switch + context * 4) < 240 and not at_hand(switch + context * 4)


@pytest.mark.parametrize(("padding", "fits"), [(239, True), (240, True), (241, False)])
def test_the_short_turn_at_its_edge(padding, fits):
    assert _short_turn("x" * padding) is fits


@pytest.mark.parametrize(("count", "fits"), [(119, True), (120, True), (121, False)])
def test_a_cjk_character_takes_two_columns(count, fits):
    assert _short_turn("改" * count) is fits


@given(st.sampled_from(["our", "the whole", "the entire", "the company's"]), st.sampled_from(["switch", "swap"]))
def test_a_thing_scoped_to_the_project_is_no_switch_of_the_work_at_hand(scope, verb):
    assert not at_hand(f"{verb} {scope} billing service to the new queue instead of cron")


@given(st.sampled_from(["改用", "换成", "直接用"]), st.sampled_from(["我们", "项目", "公司", "整个"]))
def test_a_chinese_thing_scoped_to_the_project_is_no_switch(verb, scope):
    """The current way rejected makes a switch of a thing at hand, but not of the project's ("把项目的 ...")."""
    assert at_hand(f"别再手写日志了，日志系统{verb} ELK")
    assert not at_hand(f"别再手写日志了，把{scope}的日志系统{verb} ELK")


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    make_git_dir(repo / ".git")
    for name, description in SKILLS:
        write_skill(repo / ".claude" / "skills", name, skill_md(name, description))
    backdate(repo)
    return repo


def test_the_route_hook_stays_silent_on_a_switch_and_hints_a_migration(repo, env):
    """Through the real `skillmem route`: the switch turn prints nothing, the migration request its skill."""
    run_route("hello there", repo, env)  # builds the route index and starts the search index's build
    deadline = time.monotonic() + 60
    search = repo / ".git" / "skillmem-search.json"
    while not search.exists() or search.with_name(search.name + ".building").exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert hint_of(run_route(SWITCHES[1][0], repo, env)) == ""
    assert "github-actions-ci" in hint_of(run_route(REQUESTS[0][0], repo, env))


def test_a_short_turn_without_their_marks_imports_neither_steer():
    """The warm route's short request holds no mark of a switch, a shape or a risk: neither module is loaded."""
    code = (
        "import sys; from skillmem_hook.search.at_hand import at_hand;"
        "at_hand('我们的 PostgreSQL 数据库查询越来越慢, 想找出慢查询并优化索引');"
        "print(sorted(m for m in sys.modules if m.endswith(('.switched', '.shaped'))))"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"
    code = code.replace("想找出慢查询并优化索引", "换成 async 的写法")
    assert "switched" in subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
