"""Coverage weighs more for an English query over a CJK-described collection (``Tuning.english_coverage_power``).

There a skill described in English can hold any of a long request's
everyday words, and no Chinese description can without a bridge; the right
skill holds more of the request's typed words. Search's reading only: the
route's (``english_at_large=False``), a query that types Chinese and an
English-described collection keep ``coverage_power``. The fourteenth pass's
weight on a skill described in English (``foreign_coverage_power``,
``test_rank_foreign_coverage.py``) is off here, to read this rule alone.
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
    make("caveman-speak", "Terse caveman speak"),
    make(
        "token-budget",
        "为长时间运行的智能体管理上下文的 token 预算，压缩历史消息，保留关键信息，给出 agent 的 budget 方案",
    ),
]
_ENGLISH = [
    make("caveman-speak", "Caveman speak: terse caveman compression"),
    make("token-budget", "Keep a long-running agent's context within its token budget"),
    make("poster-design", "Design posters and templates"),
]
_WORDS = st.sampled_from(["token", "budget", "agent", "caveman", "terse", "style", "poster", "预算", "海报", "for our"])


def _ranking(index: SearchIndex, tuning: Tuning, query: str, **reading: bool) -> list[tuple[str, float, float]]:
    index.tuning = tuning
    return [(hit.skill.name, hit.score, hit.coverage) for hit in index.query(query, 10, **reading)]


def test_an_english_request_over_a_chinese_collection_weighs_coverage_by_its_own_power():
    index = SearchIndex.build(_MIXED)
    assert index.described_in_cjk()
    query = "keep the token budget of our agent caveman terse"
    # The English-described skills' own idf off too (test_rank_english_described_idf.py): this is coverage's test.
    before = _ranking(index, Tuning(english_coverage_power=0, foreign_coverage_power=0, english_described_idf=0), query)
    # At coverage_power .5 the English-described skill, holding two rare words in a short text (45 % of the
    # request's rarity), ranks first; the skill holding its token, budget and agent (55 %) ranks first when
    # coverage weighs 1.5.
    assert [name for name, _, _ in before[:2]] == ["caveman-speak", "token-budget"]
    after = _ranking(index, Tuning(foreign_coverage_power=0, english_described_idf=0), query)
    assert [name for name, _, _ in after[:2]] == ["token-budget", "caveman-speak"]
    assert after == _ranking(
        index,
        Tuning(coverage_power=1.5, english_coverage_power=0, foreign_coverage_power=0, english_described_idf=0),
        query,
    )


@given(st.lists(_WORDS, min_size=1, max_size=6))
def test_only_search_s_reading_of_an_english_query_over_a_chinese_collection_changes(words):
    query = " ".join(words)
    plain = Tuning(english_coverage_power=0, foreign_coverage_power=0)
    index = SearchIndex.build(_MIXED)
    # The route's reading, whatever the query types.
    assert _ranking(index, Tuning(foreign_coverage_power=0), query, english_at_large=False) == _ranking(
        index, plain, query, english_at_large=False
    )
    if query.isascii():
        assert _ranking(index, Tuning(foreign_coverage_power=0), query) == _ranking(
            index, plain.replace(coverage_power=1.5), query
        )
    else:  # a query that types Chinese
        assert _ranking(index, Tuning(foreign_coverage_power=0), query) == _ranking(index, plain, query)
    english = SearchIndex.build(_ENGLISH)
    assert not english.described_in_cjk()
    assert _ranking(english, Tuning(foreign_coverage_power=0), query) == _ranking(english, plain, query)
