"""The skills the search tests rank: six written by hand, and 60 generated from a seeded source with their bodies."""

from __future__ import annotations

import random

from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.body import body_text
from skillmem_hook.search.rank import SearchIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def make(name: str, description: str, sections: str = "", metadata: dict[str, str] | None = None) -> Skill:
    return Skill(
        name=name, description=description, path=name, root="r", warnings=[], metadata=metadata, sections=sections
    )


SKILLS = [
    make("prompt-caching", "Caching strategies for LLM prompts to cut repeated token costs"),
    make("postgres-tuning", "Find slow queries and tune indexes in PostgreSQL databases"),
    make("k8s-deploy", "Deploy containers to a Kubernetes cluster with rolling updates"),
    make("wcag-audit", "Audit a website against WCAG accessibility guidelines"),
    make("数据库备份", "定时备份 MySQL 数据库并在故障时恢复"),
    make("jwt-auth", "Token based authentication for REST APIs", sections="When to use\nlogin sessions expire"),
]


ENGLISH = (  # noqa: SIM905 - a word list reads better as text
    "deploy deploys deployment cache caching database databases query queries slow index indexes migration "
    "migrate kubernetes cluster container docker review reviewing security token tokens auth login test testing "
    "the a to of and for with using React useEffect getHTTPResponse K8s API APIs ｄｅｐｌｏｙ ＡＰＩ running ran "
    "optimization optimize happiness stories bus analysis"
).split()
CHINESE = (  # noqa: SIM905
    "数据库 慢查询 优化 索引 部署 容器 集群 缓存 安全 漏洞 代码审查 重构 测试 单元测试 备份 恢复 "
    "怎么 如何 我想 有没有办法 的 了 是 在 和 吗 帮我 一个 这个 ， 。 ！ ？ 库 查"
).split()
MARKUP = ["# 标题", "**bold**", "[link](https://example.com/x)", "<div>", "`code`", "| a | b |", "> quote", "~~~"]


def _text(source: random.Random, words: int, markup: bool = False) -> str:
    pieces = []
    for _ in range(words):
        roll = source.random()
        if markup and roll < 0.08:
            pieces.append(source.choice(MARKUP))
        elif markup and roll < 0.1:
            pieces.append("\n```python\nprint('skipped code')\n```\n")
        elif roll < 0.55:
            pieces.append(source.choice(ENGLISH))
        else:
            pieces.append(source.choice(CHINESE))
        pieces.append(source.choice([" ", " ", "", "\n", "，"]))
    return "".join(pieces).strip()


def collection() -> tuple[list[Skill], list[str]]:
    """60 skills and their bodies, the same on every run and every machine."""
    source = random.Random(18)
    skills, bodies = [], []
    for number in range(60):
        name = f"skill-{number:02d}-{source.choice(ENGLISH).lower()}"
        metadata = {"aliases": _text(source, 2)} if number % 7 == 0 else None
        skills.append(
            Skill(
                name=name,
                description=_text(source, source.randint(3, 25)),
                path=f"skills/{name}",
                root="r",
                warnings=[],
                metadata=metadata,
                sections=_text(source, source.randint(0, 12)),
            )
        )
        bodies.append(_text(source, source.randint(0, 400), markup=True))
    return skills, bodies


ALIASES = {"skill-1*": ["别名", "alias words"]}


def body_texts(texts: list[str]) -> list[str]:
    """Each text as the body of a SKILL.md, as the index reads it (the frontmatter cut off, the markup cleaned)."""
    return [body_text(b"---\nname: x\ndescription: y\n---\n" + text.encode()) for text in texts]


QUERIES = (
    "quokka 新词",
    "数据库慢查询怎么优化",
    "deploy kubernetes",
    "别名 alias",
    "cache tokens",
    "测试 review security",
)


def by_skill(index: SearchIndex) -> list[tuple[dict[bytes, dict[tuple[str, str], int]], dict[tuple[str, str], int]]]:
    """Each field's postings and lengths by skill (root, folder), whatever numbers the index gives the skills."""
    keys = {number: (skill.root, skill.path) for number, skill in zip(index.numbers, index.skills)}
    free = set(range(index.slots)) - keys.keys()
    fields = []
    for field in index.fields:
        postings = {}
        for line in field.text.split(b"\n")[1:-1]:
            word, _, cells = line.rpartition(b"\t")
            numbers = list(map(int, cells.split(b",")))
            postings[word] = {keys[number]: count for number, count in zip(numbers[0::2], numbers[1::2])}
        assert all(field.lengths[number] == 0 for number in free)  # a free number holds nothing
        fields.append((postings, {keys[number]: field.lengths[number] for number in keys}))
    return fields


def english_skills(index: SearchIndex) -> set[tuple[str, str]]:
    """The skills (root, folder) the index holds as described in English (``SearchIndex.english``)."""
    keys = {number: (skill.root, skill.path) for number, skill in zip(index.numbers, index.skills)}
    return {keys[number] for number in index.english}


def answers(index: SearchIndex, queries: Sequence[str] = QUERIES) -> list[list[tuple[str, str, float, float]]]:
    """What each query returns: every hit's root, folder, score and coverage, in order."""
    return [
        [(hit.skill.root, hit.skill.path, hit.score, hit.coverage) for hit in index.query(query, 70)]
        for query in queries
    ]
