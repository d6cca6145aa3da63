from __future__ import annotations

import collections
import copy
import json
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from skillmem_hook.catalog.placement.domain_table import REST_LIMIT
from skillmem_hook.catalog.placement.domains import (
    _SENTENCE_END,
    DOMAIN_NAMES,
    DOMAIN_TABLE,
    FIELD_WEIGHTS,
    GENERAL,
    Placement,
    _KeywordIndex,
    categorise,
    lead_of,
    place,
)
from skillmem_hook.catalog.skillfile.declared import TITLE_WINDOW
from skillmem_hook.catalog.skills import parse_skill

from ...helpers import run_cli, skill_md, write_skill

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO.parent / "shared" / "data" / "skills-corpus-en.jsonl"
PAGE = (REPO / "docs" / "categorization.md").read_text(encoding="utf-8")


def test_the_document_and_the_code_agree():
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \| (.*) \|$", PAGE, re.M)
    documented = [(domain, tuple(re.findall(r"`([^`]+)`", keywords))) for _, domain, keywords in rows]
    assert documented == [*DOMAIN_TABLE, (GENERAL, ())]
    assert [int(priority) for priority, _, _ in rows] == list(range(1, len(DOMAIN_TABLE) + 2))
    weights = dict(re.findall(r"^ *\| (name|title|lead|rest) \| (\d+) \|$", PAGE, re.M))
    assert {field: int(weight) for field, weight in weights.items()} == FIELD_WEIGHTS
    assert f"next {REST_LIMIT:,} characters" in PAGE
    assert f"first {TITLE_WINDOW // 1024} KiB" in PAGE
    assert (*(domain for domain, _ in DOMAIN_TABLE), GENERAL) == DOMAIN_NAMES


def test_every_keyword_is_lower_case_and_unique():
    keywords = [keyword for _, words in DOMAIN_TABLE for keyword in words]
    assert all(keyword == keyword.casefold() for keyword in keywords)
    assert len(keywords) == len(set(keywords))
    stems = [keyword.lstrip("^").rstrip("*") for keyword in keywords]
    assert len(stems) == len(set(stems)), "one word in two domains: the table could not say which"


def test_each_field_outweighs_all_later_fields_together():
    weights = list(FIELD_WEIGHTS.values())
    assert list(FIELD_WEIGHTS) == ["name", "title", "lead", "rest"]
    assert all(weight > sum(weights[position + 1 :]) for position, weight in enumerate(weights))


@pytest.mark.parametrize(
    ("name", "description", "domain"),
    [
        ("alpha-tool", "Parse CSV and JSON files into tables", "data-parsing"),
        ("sql-pro", "Write secure queries", "backend"),
        ("helper", "Find an XSS vulnerability", "security"),
        ("helper", "rapid prototyping", GENERAL),
        ("api_client", "", "backend"),
        ("APIs", "", "backend"),
        ("apify-runner", "", GENERAL),  # 'api' is a whole word, not a prefix
        ("test-runner", "", "testing"),
        ("helper", "the testing of things", "testing"),
        ("helper", "nothing at all", GENERAL),
        ("单元测试", "", "testing"),
        ("助手", "帮助部署到云服务器", "devops"),
        ("helper", "解析 PDF 文件中的表格", "data-parsing"),
        ("helper", "构建无服务器函数", "devops"),  # the longest Chinese keyword wins: serverless, not server
        ("data-viz", "Visualization of metrics", "data-parsing"),  # the longest prefix wins: visuali*, not visual*
        ("python-pro", "", "engineering"),
        ("helper", "Ship it with Python", GENERAL),  # a language counts in the name only
        ("red-team-ops", "", "security"),  # a phrase across a hyphen
    ],
)
def test_categorise(name, description, domain):
    assert categorise(name, description) == domain


def test_the_name_decides_before_the_description():
    assert categorise("seo-audit", "find security issues in pages") == "business"


def test_the_lead_decides_before_a_passing_mention():
    description = "Parse invoices into rows. Works with anything, even a deploy to the cloud."
    assert place("invoice-helper", description) == ("data-parsing", "lead", "pars*")


def test_the_rest_places_a_skill_nothing_else_places():
    assert place("helper", "A helper for things. It parses CSV.") == ("data-parsing", "rest", "pars*")


def test_the_rest_breaks_a_tie_and_priority_breaks_the_rest():
    assert categorise("docker-react", "Both. Mostly about the UI.") == "frontend"
    assert categorise("docker-react", "Both.") == "devops"  # devops is earlier in the table


def test_the_title_outweighs_the_lead():
    assert place("helper", "Deploy the app.", "SQL Guide") == ("backend", "title", "sql")


@pytest.mark.parametrize(
    ("description", "lead"),
    [
        ("Parse files. Then more.", "Parse files"),
        ("Use Next.js and e.g.x here! Then more", "Use Next.js and e.g.x here"),
        ("解析日志。触发词：日志", "解析日志"),
        ("One paragraph\nwrapped\n\nAnother", "One paragraph\nwrapped"),
        ("No end at all", "No end at all"),
    ],
)
def test_the_lead_is_the_first_sentence(description, lead):
    assert lead_of(description) == lead


@pytest.mark.parametrize("domain", ["business", "data-parsing", "frontend", "engineering"])
def test_security_first_at_the_end_moves_no_skill(domain):
    names = {"business": "seo-brief", "data-parsing": "csv-to-table", "frontend": "react-forms", "engineering": "git"}
    description = "Helps with the task at hand, step by step."
    assert categorise(names[domain], description) == domain
    assert categorise(names[domain], description + " Security first.") == domain
    assert categorise("helper", "Parse invoices. Security first.") == "data-parsing"
    assert categorise("helper", "A helper. It parses CSV. Security first.") == "data-parsing"  # placed by the rest


def skill_text(name: str, description: str, title: str) -> bytes:
    return f"---\nname: {name}\ndescription: {json.dumps(description)}\n---\n\n# {title}\n\nBody.\n".encode()


# SKILL.md texts written after the issue's hand-checked examples (the skills of
# obra/superpowers and anthropics/skills), with the words that misled the old rule.
HAND_CHECKED = [
    (
        "brainstorming",
        "You MUST use this before any creative work - creating features, building components, adding "
        "functionality, or modifying behavior. Explores user intent, requirements and design before implementation.",
        "Brainstorming Ideas Into Designs",
        "frontend",
        "engineering",
    ),
    (
        "finishing-a-development-branch",
        "Use when implementation is complete, all tests pass, and you need to decide how to integrate the work - "
        "guides completion of development work by presenting structured options for merge, PR, or cleanup",
        "Finishing a Development Branch",
        "testing",
        "engineering",
    ),
    (
        "skill-creator",
        "Create new skills, modify and improve existing skills, and measure skill performance. Use when users want "
        "to run evals to test a skill or optimize a skill's description so Claude triggers it accurately.",
        "Skill Creator",
        "testing",
        None,
    ),
    (
        "slack-gif-creator",
        "Knowledge and utilities for creating animated GIFs optimized for Slack. Provides constraints, "
        "validation tools, and animation concepts.",
        "Slack GIF Creator",
        "testing",
        "frontend",
    ),
    (
        "canvas-design",
        "Create beautiful visual art in .png and .pdf documents using design philosophy. Use when the user asks "
        "to create a poster, piece of art, design, or other static piece.",
        "Canvas Design",
        "data-parsing",
        "frontend",
    ),
    (
        "algorithmic-art",
        "Creating algorithmic art using p5.js with seeded randomness and interactive parameter exploration. "
        "Create original algorithmic art rather than copying existing artists' work.",
        "Algorithmic Art",
        "docs-writing",
        "frontend",
    ),
    (
        "web-artifacts-builder",
        "Suite of tools for creating elaborate, multi-component claude.ai HTML artifacts using modern frontend "
        "web technologies (React, Tailwind CSS, shadcn/ui).",
        "Web Artifacts Builder",
        "ai-agents",
        "frontend",
    ),
]


@pytest.mark.parametrize(("name", "description", "title", "wrong", "right"), HAND_CHECKED)
def test_the_hand_checked_examples_leave_the_domain_the_issue_named(name, description, title, wrong, right):
    skill = parse_skill(skill_text(name, description, title), path=f"skills/{name}", folder=name, root=".")
    assert skill.domain != wrong
    if right is not None:
        assert skill.domain == right
    assert skill.as_json()["placed_by"] == {"field": skill.placement.field, "keyword": skill.placement.keyword}
    assert skill.placement.field in FIELD_WEIGHTS


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared skills corpus is not beside this checkout")
def test_the_real_hand_checked_skills_leave_the_domain_the_issue_named():
    wrong = {name: wrong for name, _, _, wrong, _ in HAND_CHECKED}
    skills = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    placed = {skill["name"]: categorise(skill["name"], skill["description"] or "") for skill in skills}
    assert set(wrong) <= set(placed)
    assert {name: placed[name] for name in wrong if placed[name] == wrong[name]} == {}


def test_index_says_which_keyword_in_which_field_placed_each_skill(capsys, tmp_path):
    write_skill(tmp_path, "helper", skill_md("helper", "Does things.", "# SQL migrations\n"))
    write_skill(tmp_path, "csv-tool", skill_md("csv-tool", "Deploy things. Security first."))
    write_skill(tmp_path, "notes", skill_md("nothing", "at all"))
    skills = run_cli(capsys, "index", "--root", tmp_path).data["skills"]
    assert [(skill["name"], skill["domain"], skill["placed_by"]) for skill in skills] == [
        ("csv-tool", "data-parsing", {"field": "name", "keyword": "csv"}),
        ("helper", "backend", {"field": "title", "keyword": "sql"}),
        ("nothing", GENERAL, {"field": "", "keyword": ""}),
    ]


def test_a_general_skill_says_nothing_placed_it():
    assert place("helper", "nothing at all") == (GENERAL, "", "")


SINGLE_WORDS = {
    domain: sorted(word for word in keywords if word.isascii() and word.isalnum()) for domain, keywords in DOMAIN_TABLE
}


@given(st.sampled_from(sorted(SINGLE_WORDS)), st.data(), st.text(max_size=300))
def test_a_name_of_one_domain_decides_whatever_the_description_says(domain, data, description):
    words = data.draw(st.lists(st.sampled_from(SINGLE_WORDS[domain]), min_size=1, max_size=3))
    name = "-".join(words)
    assume(list(_KeywordIndex().hits(name, True)) == [DOMAIN_NAMES.index(domain)])  # no phrase of another domain
    assert categorise(name, description) == domain


@given(st.text(max_size=80), st.text(max_size=300), st.text(max_size=80))
def test_placing_is_a_function_of_the_text_alone(name, description, title):
    first = place(name, description, title)
    assert first == place(name, description, title)
    assert first.domain in DOMAIN_NAMES
    assert (first.field == "") == (first.domain == GENERAL)


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared skills corpus is not beside this checkout")
def test_a_real_collection_spreads_over_the_domains():
    skills = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    counts = collections.Counter(categorise(skill["name"], skill["description"] or "") for skill in skills)
    assert counts[GENERAL] < len(skills) / 10
    assert max(counts.values()) < len(skills) / 4
    assert len(counts) == len(DOMAIN_NAMES)


# A small Chinese collection, written for this test (not fitted to the table).
CHINESE = [
    ("代码审查助手", "审查合并请求中的代码，给出重构建议"),
    ("接口文档生成", "根据后端接口自动生成文档"),
    ("渗透测试", "对网站进行渗透测试并报告漏洞"),
    ("单元测试生成", "为函数生成单元测试用例"),
    ("日志解析", "解析服务器日志并提取错误信息"),
    ("提示词优化", "优化大模型的提示词，提升回答质量"),
    ("容器部署", "用 Docker 构建镜像并部署到集群"),
    ("页面组件", "编写响应式前端页面组件"),
    ("数据库迁移", "编写可回滚的数据库迁移脚本"),
    ("周报写作", "根据提交记录撰写周报文章"),
    ("营销文案", "为新产品撰写营销文案和广告语"),
    ("性能分析", "分析程序性能瓶颈并给出优化方案"),
    ("智能体编排", "设计多智能体协作流程"),
    ("表格转换", "把 Excel 表格转换为 JSON"),
    ("安全加固", "检查服务器配置的安全风险"),
    ("监控告警", "配置服务监控和告警规则"),
    ("游戏开发", "用 Unity 开发二维游戏"),
    ("翻译助手", "把技术文档翻译成英文"),
    ("客户支持", "回复客户工单并总结常见问题"),
    ("会议纪要", "整理会议记录"),
]


def test_a_chinese_collection_spreads_over_the_domains():
    counts = collections.Counter(categorise(name, description) for name, description in CHINESE)
    assert counts[GENERAL] < len(CHINESE) / 4
    assert max(counts.values()) < len(CHINESE) / 3
    assert len(counts) >= 8


def place_reading_every_field(name: str, description: str, title: str) -> tuple[str, str, str]:
    """The rule as the page states it, with no field skipped: what place() must agree with."""
    index = _KeywordIndex()
    lead = lead_of(description)
    rest = description[len(lead) : len(lead) + REST_LIMIT]
    sentences = [sentence for sentence in re.split(r"[.!?](?:\s|$)|[\u3002\uff01\uff1f]|\n\s*\n", rest)]
    first_with_keywords = next((sentence for sentence in sentences if index.hits(sentence, False)), "")
    fields = {"name": name, "title": title, "lead": lead, "rest": first_with_keywords}
    scores: dict[int, int] = {}
    first: dict[int, tuple[str, str]] = {}
    for field, text in fields.items():
        for rank, keyword in index.hits(text, field == "name").items():
            scores[rank] = scores.get(rank, 0) + FIELD_WEIGHTS[field]
            first.setdefault(rank, (field, keyword))
    if not scores:
        return (GENERAL, "", "")
    best = max(scores, key=lambda rank: (scores[rank], -rank))
    return (DOMAIN_TABLE[best][0], *first[best])


WORDS = st.sampled_from(["sql", "react", "deploy", "test", "pdf", "agent", "seo", "git", "xss", "测试", "部署", "x"])
SENTENCE = st.lists(WORDS, max_size=5).map(" ".join)


@given(SENTENCE, st.lists(SENTENCE, max_size=3).map(". ".join), SENTENCE)
def test_reading_stops_only_when_the_unread_fields_could_not_change_the_winner(name, description, title):
    assert place(name, description, title) == place_reading_every_field(name, description, title)


def test_the_categorisation_benchmark_reports_agreement_per_folder(tmp_path):
    import subprocess
    import sys

    write_skill(tmp_path / "cn", "后端开发/sql-tool", skill_md("sql-tool", "Write SQL."))
    write_skill(tmp_path / "cn", "后端开发/react-tool", skill_md("react-tool", "Build React views."))
    write_skill(tmp_path / "cn", "其他元技能/misc", skill_md("misc", "Nothing at all."))
    write_skill(tmp_path / "en", "csv-tool", skill_md("csv-tool", "Parse CSV."))
    script = REPO / "benchmarks" / "categorization.py"
    command = [sys.executable, str(script), str(tmp_path / "cn"), "--en", str(tmp_path / "en"), "--show", "1"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    assert "| 后端开发 | backend, engineering | 1 | 2 | 50.0 |" in result.stdout
    assert "| **overall** | | **1** | **2** | **50.0** |" in result.stdout
    assert "后端开发: react-tool -> frontend (react in the name)" in result.stdout
    assert "cn: 3 skills, general 1 (33.3%)" in result.stdout


def test_a_placement_is_the_named_tuple_it_was_without_collections():
    """A plain tuple subclass (collections' namedtuple costs a warm hook run its import): same fields, same value."""
    placement = Placement("testing", "name", "test")
    reference = collections.namedtuple("Placement", ("domain", "field", "keyword"))("testing", "name", "test")
    assert (placement.domain, placement.field, placement.keyword) == ("testing", "name", "test")
    assert placement == reference == ("testing", "name", "test")
    assert hash(placement) == hash(reference) and list(placement) == ["testing", "name", "test"]
    assert repr(placement) == repr(reference)
    assert copy.copy(placement) == placement and pickle.loads(pickle.dumps(placement)) == placement
    assert type(copy.deepcopy(placement)) is Placement
    with pytest.raises(AttributeError):
        placement.domain = "other"


# The sentence end as three alternatives, before 0.5.0's fourth performance pass: the pattern that opens with one
# class must end each sentence at the same place.
OLD_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[\u3002\uff01\uff1f]|\n\s*\n")


@given(st.text(alphabet=".!?\u3002\uff01\uff1f\n \t\u3000\u00a0ab", max_size=40))
def test_a_sentence_ends_where_the_three_alternatives_ended_it(text):
    assert [found.span() for found in _SENTENCE_END.finditer(text)] == [
        found.span() for found in OLD_SENTENCE_END.finditer(text)
    ]
    end = OLD_SENTENCE_END.search(text)
    assert lead_of(text) == (text if end is None else text[: end.start()])


# Words of the table's keywords (those that count in names only and phrases' words among them), in any case, joined by
# what separates words: names where a title that repeats the name could be read wrongly from the name's keywords.
KEYWORD_WORDS = sorted(
    {word for _, keywords in DOMAIN_TABLE for keyword in keywords for word in keyword.lstrip("^").rstrip("*").split()}
)
KEYWORD_WORD = st.one_of(
    st.sampled_from(KEYWORD_WORDS),
    st.sampled_from(KEYWORD_WORDS).map(str.upper),
    st.sampled_from(KEYWORD_WORDS).map(lambda word: word + "s"),
    st.text(alphabet="abcz09", min_size=1, max_size=4),
)
GAP = st.sampled_from([" ", "-", "_", ". ", "\n\n", "\u3002", "", "\u00e9"])
KEYWORD_TEXT = st.lists(st.tuples(KEYWORD_WORD, GAP), max_size=8).map(lambda pairs: "".join(a + b for a, b in pairs))


@given(KEYWORD_TEXT, KEYWORD_TEXT)
def test_a_title_that_repeats_the_name_places_as_one_read_on_its_own(name, description):
    """The name's keywords serve a title that repeats it, but a keyword that counts in names only must not count."""
    assert place(name, description, name) == place_reading_every_field(name, description, name)


def test_a_keyword_of_names_only_does_not_count_in_a_title_that_repeats_the_name():
    # ai counts in names only: the title's react alone breaks the tie, which ai-agents (listed first) would win
    assert place("ai-react", "", "ai-react") == ("frontend", "name", "react")
    assert place("ai-react", "", "") == ("ai-agents", "name", "^ai")
