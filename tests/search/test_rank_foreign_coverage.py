"""A skill described in English over a CJK-described collection is weighed by its coverage once more
(``Tuning.foreign_coverage_power``), for an English query.

There a short English description holds a few of a long request's everyday
words one by one, where the right Chinese-described skill, reached by the
bridge and the name, holds more of what the request asks. Search's reading
only: the route's (``english_at_large=False``), a query that types Chinese
and an English-described collection rank as before; and only the hits that
can reach the top are weighed, so asking for fewer hits gives the first of
the same ranking.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.tuning import Tuning

from .sample_skills import make

_CHINESE = [
    make(f"cn-{n}", "数据 分析 报告 生成 工具 agent token" if n < 12 else "图片 设计 海报 制作 风格 模板 颜色 排版")
    for n in range(30)
]
_MIXED = [
    *_CHINESE,
    make("caveman-speak", "Terse caveman speak for an agent"),
    make("token-budget", "为长时间运行的智能体管理上下文的 token 预算，压缩历史消息，保留关键信息，给出 agent 的方案"),
    # Both scripts, more English than Chinese: described in English (a CJK character counts as two letters).
    make("humanize-text", "Rewrite AI-like text: 去AI味, 降重, humanize a draft for an agent"),
]
# 16 letters, 12 CJK characters: described in CJK.
_BOTH = [*_MIXED, make("budget-keeper", "agent token budget：智能体上下文预算压缩管理")]
_ENGLISH = [
    make("caveman-speak", "Caveman speak: terse caveman compression"),
    make("token-budget", "Keep a long-running agent's context within its token budget"),
    make("poster-design", "Design posters and templates"),
]
_WORDS = st.sampled_from(
    ["token", "budget", "agent", "caveman", "terse", "style", "poster", "humanize", "draft", "预算", "海报", "for our"]
)


_RULED = Tuning(english_described_idf=0)
_PLAIN = _RULED.replace(foreign_coverage_power=0)


def _ranking(index: SearchIndex, tuning: Tuning, query: str, top: int = 10, **reading: bool) -> list[str]:
    index.tuning = tuning
    return [f"{hit.skill.name} {hit.score} {hit.coverage}" for hit in index.query(query, top, **reading)]


def _names(index: SearchIndex, tuning: Tuning, query: str) -> list[str]:
    return [line.split()[0] for line in _ranking(index, tuning, query)]


def test_a_skill_described_in_english_is_weighed_by_its_coverage_once_more():
    index = SearchIndex.build(_MIXED)
    # The English-described skills' own idf off (test_rank_english_described_idf.py): this is coverage's test.
    assert index.described_in_cjk()
    query = "keep the token budget of our agent caveman terse"
    # Without the rule the English-described skill, holding caveman, terse and agent in four words, ranks first.
    assert _names(index, _PLAIN, query)[:2] == ["caveman-speak", "token-budget"]
    assert _names(index, _RULED, query)[:2] == ["token-budget", "caveman-speak"]
    # Its score is the one without the rule times its coverage to the power: no other hit's moves.
    before = {line.split()[0]: line.split()[1:] for line in _ranking(index, _PLAIN, query)}
    after = {line.split()[0]: line.split()[1:] for line in _ranking(index, _RULED, query)}
    score, coverage = (float(value) for value in before["caveman-speak"])
    power = _RULED.foreign_coverage_power
    assert float(after["caveman-speak"][0]) == round(score * coverage**power, 4) < score
    assert {name: value for name, value in after.items() if name != "caveman-speak"} == {
        name: value for name, value in before.items() if name != "caveman-speak"
    }


def test_a_description_in_both_scripts_is_read_by_its_larger_share():
    index = SearchIndex.build(_BOTH)
    query = "humanize the draft for our agent token budget"
    plain = {line.split()[0]: line for line in _ranking(index, Tuning(foreign_coverage_power=0), query)}
    ruled = {line.split()[0]: line for line in _ranking(index, Tuning(), query)}
    assert plain["humanize-text"] != ruled["humanize-text"]  # more letters than twice its CJK characters
    assert plain["token-budget"] == ruled["token-budget"]  # more CJK characters than letters
    assert plain["budget-keeper"] == ruled["budget-keeper"]  # fewer CJK characters than letters, more than half


@given(st.lists(_WORDS, min_size=1, max_size=6), st.integers(min_value=1, max_value=5))
def test_only_search_s_reading_of_an_english_query_over_a_chinese_collection_changes(words, top):
    query = " ".join(words)
    plain = Tuning(foreign_coverage_power=0)
    index = SearchIndex.build(_MIXED)
    # Fewer hits asked for: the first of the same ranking (the walk stops only where no later hit can enter).
    assert _ranking(index, Tuning(), query, top) == _ranking(index, Tuning(), query, len(_MIXED))[:top]
    assert _ranking(index, Tuning(), query, english_at_large=False) == _ranking(
        index, plain, query, english_at_large=False
    )
    if not query.isascii():  # a query that types Chinese
        assert _ranking(index, Tuning(), query) == _ranking(index, plain, query)
    english = SearchIndex.build(_ENGLISH)
    assert not english.described_in_cjk()
    assert _ranking(english, Tuning(), query) == _ranking(english, plain, query)
