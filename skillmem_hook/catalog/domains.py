"""The fixed domain table, and the rule that sorts a skill into one domain.

The table is documented in docs/categorization.md; a test keeps the two equal.

Rule: the skill's name decides first, its description only when the name
matches no keyword; of the domains whose keywords match, the one first in
priority order wins, and a skill that matches none is ``general``.

Text is case-folded and read as words: runs of letters and digits, so
``-``, ``_`` and punctuation separate words. An ASCII keyword matches a whole
word (a trailing ``s`` or ``es`` allowed); one ending in ``*`` matches any
word it starts; one with spaces matches consecutive words. A Chinese keyword
matches anywhere, since Chinese text has no spaces between words.
"""

from __future__ import annotations

import re

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
        "pars*", "csv", "json", "xml", "yaml", "pdf", "docx", "xlsx", "pptx", "spreadsheet*",
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
        "docker*", "kubernetes", "k8s", "helm", "terraform", "deploy*", "ci", "cd", "cicd",
        "github actions", "gitlab", "aws", "gcp", "azure", "cloud", "serverless", "infrastructure", "devops",
        "sre", "monitor*", "observab*", "prometheus", "grafana", "incident*", "on call", "linux", "bash",
        "shell", "powershell", "container*", "service mesh", "istio", "nginx", "build system*", "bazel",
        "monorepo*",
        "部署", "运维", "容器", "云", "监控",
    )),
    ("frontend", (
        "frontend", "front end", "react", "vue", "angular", "svelte", "nextjs", "next js", "css", "tailwind",
        "html", "ui", "ux", "component*", "web design", "accessibility", "wcag", "mobile", "ios", "android",
        "flutter", "swiftui", "browser*", "responsive", "animation*", "3d", "game*", "unity", "godot",
        "design system*",
        "前端", "界面", "页面", "组件", "移动端", "游戏",
    )),
    ("backend", (
        "backend", "back end", "api*", "database*", "sql", "postgres*", "mysql", "sqlite", "nosql", "mongodb",
        "redis", "graphql", "rest api", "server*", "microservice*", "fastapi", "django", "flask", "nodejs",
        "node js", "queue*", "orm", "prisma", "supabase", "firebase", "webhook*", "payment*", "stripe",
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
        "git", "review*", "refactor*", "architect*", "design pattern*", "clean code", "plan*",
        "workflow*", "python", "rust", "golang", "java", "javascript", "typescript", "c", "cpp",
        "csharp", "dotnet", "ruby", "php", "scala", "elixir", "haskell", "julia", "kotlin",
        "swift", "performance", "optimi*", "concurren*", "async", "programming", "coding", "codebase*",
        "developer*",
        "代码", "重构", "架构", "编程", "开发", "性能",
    )),
)
# fmt: on

DOMAIN_NAMES: tuple[str, ...] = (*(domain for domain, _ in DOMAIN_TABLE), GENERAL)

_WORD = re.compile(r"[^\W_]+")
_NO_MATCH = len(DOMAIN_TABLE)


class _KeywordIndex:
    """The table as look-up structures, built once on first use (not at import)."""

    def __init__(self) -> None:
        self.whole: dict[str, int] = {}
        self.prefix: dict[str, int] = {}
        self.phrases: dict[str, list[tuple[tuple[str, ...], bool, int]]] = {}
        self.anywhere: list[tuple[str, int]] = []
        self.word_ranks: dict[str, int] = {}  # each distinct word is ranked once
        for rank, (_, keywords) in enumerate(DOMAIN_TABLE):
            for keyword in keywords:
                self._add(keyword, rank)
        self.prefix_lengths = sorted({len(stem) for stem in self.prefix})

    def _add(self, keyword: str, rank: int) -> None:
        is_prefix = keyword.endswith("*")
        words = keyword.rstrip("*").split()
        if not keyword.isascii():
            self.anywhere.append((keyword, rank))
        elif len(words) > 1:
            self.phrases.setdefault(words[0], []).append((tuple(words[1:]), is_prefix, rank))
        else:
            table = self.prefix if is_prefix else self.whole
            table.setdefault(words[0], rank)

    def rank(self, text: str) -> int:
        """The priority of the first domain whose keywords match the text."""
        words = _WORD.findall(text.casefold())
        best = _NO_MATCH
        word_ranks, phrases = self.word_ranks, self.phrases
        for position, word in enumerate(words):
            rank = word_ranks.get(word)
            if rank is None:
                rank = word_ranks[word] = self._word_rank(word)
            if rank < best:  # noqa: PLR1730 - a comparison is cheaper than min() in this hot loop
                best = rank
            if word in phrases:
                for rest, is_prefix, phrase_rank in phrases[word]:
                    if phrase_rank < best and _phrase_follows(words, position + 1, rest, is_prefix):
                        best = phrase_rank
        if not text.isascii():
            best = min([best, *(rank for keyword, rank in self.anywhere if keyword in text)])
        return best

    def _word_rank(self, word: str) -> int:
        ranks = [self.whole.get(word, _NO_MATCH)]
        if word.endswith("s"):
            ranks.append(self.whole.get(word[:-1], _NO_MATCH))
            if word.endswith("es"):
                ranks.append(self.whole.get(word[:-2], _NO_MATCH))
        ranks += [self.prefix.get(word[:length], _NO_MATCH) for length in self.prefix_lengths if length <= len(word)]
        return min(ranks)


def _phrase_follows(words: list[str], start: int, rest: tuple[str, ...], is_prefix: bool) -> bool:
    following = words[start : start + len(rest)]
    if len(following) < len(rest) or following[:-1] != list(rest[:-1]):
        return False
    last, wanted = following[-1], rest[-1]
    if is_prefix:
        return last.startswith(wanted)
    return last in (wanted, wanted + "s", wanted + "es")


_index: list[_KeywordIndex] = []


def categorise(name: str, description: str) -> str:
    """The domain of a skill: its name decides first, then its description."""
    if not _index:
        _index.append(_KeywordIndex())
    index = _index[0]
    rank = index.rank(name)
    if rank == _NO_MATCH:
        rank = index.rank(description)
    return GENERAL if rank == _NO_MATCH else DOMAIN_TABLE[rank][0]
