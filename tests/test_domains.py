from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import pytest

from skillmem_hook.catalog.domains import DOMAIN_NAMES, DOMAIN_TABLE, GENERAL, categorise

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "data" / "skills-corpus-en.jsonl"


def test_the_document_and_the_code_agree():
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \| (.*) \|$", (REPO / "docs" / "categorization.md").read_text(), re.M)
    documented = [(domain, tuple(re.findall(r"`([^`]+)`", keywords))) for _, domain, keywords in rows]
    assert documented == [*DOMAIN_TABLE, (GENERAL, ())]
    assert len(DOMAIN_TABLE) == 10
    assert "data-parsing" in DOMAIN_NAMES
    assert DOMAIN_NAMES[-1] == GENERAL


def test_every_keyword_is_lower_case_and_unique():
    keywords = [keyword for _, words in DOMAIN_TABLE for keyword in words]
    assert all(keyword == keyword.casefold() for keyword in keywords)
    assert len(keywords) == len(set(keywords))


@pytest.mark.parametrize(
    ("name", "description", "domain"),
    [
        ("alpha-tool", "Parse CSV and JSON files into tables", "data-parsing"),
        ("sql-pro", "Write secure queries", "backend"),
        ("helper", "Find an XSS vulnerability", "security"),
        ("helper", "rapid prototyping", GENERAL),
        ("api_client", "", "backend"),
        ("APIs", "", "backend"),
        ("test-runner", "", "testing"),
        ("helper", "the testing of things", "testing"),
        ("helper", "nothing at all", GENERAL),
        ("单元测试", "", "testing"),
        ("助手", "帮助部署到云服务器", "devops"),
        ("helper", "解析 PDF 文件中的表格", "data-parsing"),
    ],
)
def test_categorise(name, description, domain):
    assert categorise(name, description) == domain


def test_the_name_decides_before_the_description():
    assert categorise("seo-audit", "find security issues in pages") == "business"


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared skills corpus is not beside this checkout")
def test_a_real_collection_spreads_over_the_domains():
    skills = [json.loads(line) for line in CORPUS.read_text().splitlines()]
    counts = collections.Counter(categorise(skill["name"], skill["description"] or "") for skill in skills)
    assert counts[GENERAL] < len(skills) / 4
    assert max(counts.values()) < len(skills) / 3


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
