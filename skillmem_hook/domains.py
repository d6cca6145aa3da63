"""The fixed domain table, and the rule that sorts a skill into one domain.

The table is documented in docs/categorization.md; a test keeps the two equal.

Rule: the skill's name is tried against every domain in priority order, then
its description is; the first domain with a matching keyword wins, and a
skill that matches none is ``general``. Text is case-folded and ``-``/``_``
read as spaces. An English keyword matches whole words (a trailing ``s`` or
``es`` allowed); one ending in ``*`` matches any word it starts. A Chinese
keyword matches anywhere, since Chinese text has no spaces between words.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern

GENERAL = "general"

# (domain, keywords), in priority order: the first that matches wins.
# fmt: off
DOMAIN_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("security", (
        "security", "secure", "pentest*", "penetration", "vulnerab*", "exploit*", "attack*", "malware",
        "threat*", "xss", "csrf", "idor", "injection", "privilege escalation", "hacking", "owasp", "red team",
        "forensic*", "reverse engineer*", "fuzzing", "cve", "secrets", "sast", "burp", "metasploit", "shodan",
        "phishing", "encryption",
        "安全", "漏洞", "渗透", "攻击", "恶意", "加密",
    )),
    ("testing", (
        "test*", "tdd", "qa", "e2e", "playwright", "cypress", "jest", "pytest", "debug*", "bug", "lint*",
        "validat*", "verification", "troubleshoot*",
        "测试", "调试", "缺陷", "校验",
    )),
    ("data-parsing", (
        "pars*", "parsing", "csv", "json", "xml", "yaml", "pdf", "docx", "xlsx", "pptx", "spreadsheet*",
        "excel", "extract*", "convert*", "scrap*", "crawl*", "etl", "data pipeline*", "dbt", "spark", "airflow",
        "dataset*", "data engineer*",
        "解析", "数据处理", "数据清洗", "数据管道", "表格", "转换", "提取", "爬虫",
    )),
    ("ai-agents", (
        "llm*", "agent*", "agentic", "prompt*", "rag", "embedding*", "langchain", "langgraph", "mcp", "claude",
        "gpt", "openai", "anthropic", "ai", "machine learning", "ml", "mlops", "vector*", "model context",
        "inference", "fine tun*", "chatbot*",
        "大模型", "智能体", "提示词", "人工智能", "机器学习", "语言模型", "向量",
    )),
    ("devops", (
        "docker*", "kubernetes", "k8s", "helm", "terraform", "deploy*", "ci", "cd", "cicd", "ci/cd",
        "github actions", "gitlab", "aws", "gcp", "azure", "cloud", "serverless", "infrastructure", "devops",
        "sre", "monitor*", "observab*", "prometheus", "grafana", "incident*", "on call", "linux", "bash",
        "shell", "powershell", "container*", "service mesh", "istio", "nginx", "build system*", "bazel",
        "monorepo*",
        "部署", "运维", "容器", "云", "监控",
    )),
    ("frontend", (
        "frontend", "front end", "react", "vue", "angular", "svelte", "nextjs", "next.js", "css", "tailwind",
        "html", "ui", "ux", "component*", "web design", "accessibility", "wcag", "mobile", "ios", "android",
        "flutter", "swiftui", "browser*", "responsive", "animation*", "3d", "game*", "unity", "godot",
        "design system*",
        "前端", "界面", "页面", "组件", "移动端", "游戏",
    )),
    ("backend", (
        "backend", "back end", "api*", "database*", "sql", "postgres*", "mysql", "sqlite", "nosql", "mongodb",
        "redis", "graphql", "rest api", "server*", "microservice*", "fastapi", "django", "flask", "nodejs",
        "node.js", "queue*", "orm", "prisma", "supabase", "firebase", "webhook*", "payment*", "stripe",
        "event sourcing", "grpc",
        "后端", "接口", "数据库", "服务器", "微服务",
    )),
    ("docs-writing", (
        "doc", "docs", "documentation", "documenter", "writing", "writer", "copy*", "content", "blog*",
        "readme", "changelog", "tutorial*", "editing", "editor", "article*", "diagram*", "mermaid", "report*",
        "comms", "storytelling", "presentation*",
        "文档", "写作", "文章", "内容", "报告", "翻译",
    )),
    ("business", (
        "marketing", "marketer", "seo", "sales", "startup*", "business*", "pricing", "market*", "growth",
        "customer*", "brand*", "financ*", "legal", "hr", "cro", "ads", "product manag*", "conversion", "saas",
        "email*", "kpi*", "analytics", "revenue", "launch*", "referral*",
        "营销", "商业", "市场", "销售", "产品", "运营", "客户",
    )),
    ("engineering", (
        "git", "review*", "refactor*", "architect*", "architecture", "design pattern*", "clean code", "plan*",
        "workflow*", "python", "rust", "golang", "java", "javascript", "typescript", "c", "cpp", "c++",
        "csharp", "c#", ".net", "dotnet", "ruby", "php", "scala", "elixir", "haskell", "julia", "kotlin",
        "swift", "performance", "optimi*", "concurren*", "async", "programming", "coding", "codebase*",
        "developer*",
        "代码", "重构", "架构", "编程", "开发", "性能",
    )),
)
# fmt: on

DOMAIN_NAMES: tuple[str, ...] = (*(domain for domain, _ in DOMAIN_TABLE), GENERAL)

_compiled: list[tuple[str, Pattern[str]]] = []


def keyword_pattern(keyword: str) -> str:
    """The regular expression one keyword of the table stands for."""
    if not keyword.isascii():
        return re.escape(keyword)
    if keyword.endswith("*"):
        return rf"(?<!\w){re.escape(keyword[:-1])}"
    return rf"(?<!\w){re.escape(keyword)}(?:e?s)?(?!\w)"


def _patterns() -> list[tuple[str, Pattern[str]]]:
    # Compiled on first use, not at import: a run with no skills pays nothing.
    if not _compiled:
        for domain, keywords in DOMAIN_TABLE:
            _compiled.append((domain, re.compile("|".join(map(keyword_pattern, keywords)))))
    return _compiled


def _normalise(text: str) -> str:
    return text.casefold().replace("-", " ").replace("_", " ")


def categorise(name: str, description: str) -> str:
    """The domain of a skill: its name decides first, then its description."""
    patterns = _patterns()
    for text in (_normalise(name), _normalise(description)):
        for domain, pattern in patterns:
            if pattern.search(text):
                return domain
    return GENERAL
