"""The shape of the next answer set, or the risk of a change weighed (0.5.0, forty-ninth pass): a short turn that
sets the form of the agent's reply ("show me that terraform plan as a table", "用表格列一下") or asks whether what was
just done is safe or costly ("will this hurt Core Web Vitals?", "加这个索引会锁表吗") is a turn of the session, though
it names a skill's field; a request for a document, an estimate or a way to do it is still one.

The examples are written for these tests, in no tuning set's words (docs/notes/route.md).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import best_scored, scored_reading
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.at_hand import at_hand
from skillmem_hook.search.at_hand.shaped import _shapes_the_answer, _weighs_the_change
from skillmem_hook.search.rank import SearchIndex

SKILLS = (
    ("terraform-plan-review", "Review a Terraform plan: the resources it creates, changes and destroys, as a table"),
    ("core-web-vitals", "Improve Core Web Vitals on mobile pages: LCP, CLS and INP, bundle size and image loading"),
    ("mysql-online-ddl", "Add MySQL indexes and change big tables with online DDL without locking or blocking writes"),
    ("k8s-cost", "Estimate and cut the monthly cost of Kubernetes pods, nodes and replicas on AWS"),
    ("mysql-索引", "MySQL 加索引和改大表：在线 DDL，不锁表，不阻塞写入，估算耗时"),
    ("pdf-reports", "Generate PDF reports from HTML templates with charts and tables"),
)
INDEX = SearchIndex.build([Skill(name=n, description=d, path=n, root="skills", warnings=[]) for n, d in SKILLS])

SILENCED = [
    ("show me that terraform plan as a table, resources it creates, changes and destroys", "terraform-plan-review"),
    ("will this hurt Core Web Vitals on mobile pages, LCP and CLS?", "core-web-vitals"),
    ("does adding that index lock the MySQL table or block writes on big tables?", "mysql-online-ddl"),
    ("how much will those two extra replicas cost a month on the Kubernetes nodes?", "k8s-cost"),
    ("加这个索引会不会锁表，阻塞写入吗？MySQL 在线 DDL", "mysql-索引"),
]
HINTED = [
    (
        "Review our Terraform plan for the new VPC and list the resources it creates, changes and destroys as a table",
        "terraform-plan-review",
    ),
    ("Improve Core Web Vitals on our mobile pages: LCP, CLS and INP are all red in Search Console", "core-web-vitals"),
    (
        "Is it safe to add an index to a big MySQL table without online DDL? Walk me through the options",
        "mysql-online-ddl",
    ),
    ("Estimate the monthly cost of our Kubernetes pods, nodes and replicas on AWS as a table", "k8s-cost"),
]


def hinted(prompt: str) -> list[str]:
    return [target.label for target in best_scored(prompt, INDEX)]


@pytest.mark.parametrize(("prompt", "skill"), SILENCED)
def test_a_shape_or_a_risk_asked_that_the_rule_would_hint_is_silenced(prompt, skill):
    assert skill in [hit.skill.name for hit in scored_reading(prompt, INDEX)[1]]
    assert at_hand(prompt)
    assert hinted(prompt) == []


@pytest.mark.parametrize(("prompt", "skill"), HINTED)
def test_a_request_for_a_document_or_a_way_is_still_hinted(prompt, skill):
    assert not at_hand(prompt)
    assert skill in hinted(prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "put those numbers in a table",
        "as a numbered list please",
        "patch only",
        "just the SQL, no commentary",
        "more concise. in 5 lines",
        "say your last answer again in plain English",
        "把刚才的结论用要点列一下",
        "短一点，只给我结论",
        "输出成 json 就好",
    ],
)
def test_the_shape_of_the_next_answer_is_read(prompt):
    assert _shapes_the_answer(prompt, prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        "would that break the mobile app's login?",
        "does your retry loop make the outage worse?",
        "is the new migration going to lock the users table?",
        "if we turn this on for everyone, will the database slow down?",
        "刚才那个改动会不会影响老版本的客户端？",
        "你加的这个缓存安全吗？",
    ],
)
def test_the_risk_of_a_change_asked_is_read(prompt):
    assert _weighs_the_change(prompt, prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # a file or a document made, not a reply shaped
        "Turn the Q3 numbers into a PDF report as a table",
        "put those numbers in a spreadsheet as a table",
        "把 Q3 的数据做成 PDF 报告，用表格列出每个区域",
        # a thing named, not given, in a long clause: new work's shape
        "give me a migration plan for the billing database as a checklist",
        "用表格列一下 Kubernetes 每个 pod 的月成本",
        # a place, not a shape
        "Tighten the homepage text, the CTA is buried in paragraph three",
        # the shape beside another ask
        "give me that as a table, then explain why the Lambda costs doubled",
    ],
)
def test_a_shape_of_new_work_or_beside_an_ask_is_not_read(prompt):
    assert not _shapes_the_answer(prompt, prompt)


@pytest.mark.parametrize(
    "prompt",
    [
        # a request that asks how, or for a thing, beside the risk
        "Our GraphQL server gets hammered by nested queries, how do I lock it down?",
        "Is it safe to store the JWT in localStorage? Build me the login flow with refresh tokens",
        "这个方案会不会锁表？帮我写一个在线迁移脚本",
        # a which / why question, or the project's whole
        "which parts of our codebase cost the most to maintain?",
        "why is this slower than before?",
        # no thing given: a general question
        "is Postgres safe to run on Kubernetes?",
    ],
)
def test_a_risk_question_of_new_work_is_not_read(prompt):
    assert not _weighs_the_change(prompt, prompt)


@given(st.sampled_from(["safe", "risky", "expensive"]), st.sampled_from(["that", "this", "the change"]))
def test_a_risk_of_a_thing_given_is_read_and_a_thing_named_is_not(risk, thing):
    assert _weighs_the_change(f"is {thing} {risk} for the billing service?", "")
    assert not _weighs_the_change(f"is a Redis cluster {risk} for the billing service?", "")
