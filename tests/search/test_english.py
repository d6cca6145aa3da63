"""English at large weighs an English query's words over a collection described in Chinese (``search/english.py``).

The table's shape and lookups, the idf it gives, and where the ranking uses it:
an English query over a collection described mostly in a CJK script, a name
keeping the collection's own rarity, and nothing else changed.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from skillmem_hook.search import english
from skillmem_hook.search.english import WORD_LIST, general_idf, zipf
from skillmem_hook.search.rank import SearchIndex
from skillmem_hook.search.tokenize import tokens
from skillmem_hook.search.tuning import Tuning

from .sample_skills import make
from .shipped_tables import table_lines

_LINE = re.compile(r"[a-z]+\t\d\.\d")
# The default weighs by English at large (200 words); coverage's English power (test_rank_english_coverage.py) set
# aside, so each lever is seen alone.
ON = Tuning(english_coverage_power=0.0, english_described_idf=0)  # english_length alone
OFF = ON.replace(english_length=0.0)


def test_the_table_is_sorted_well_formed_lines_of_search_words_or_a_lookup_would_miss_them():
    lines = table_lines(WORD_LIST, _LINE)  # its pattern ASCII alone
    assert len(lines) == 30_000


def test_a_word_is_looked_up_as_a_query_types_it_stemmed_and_a_common_one_is_more_frequent():
    (actually,) = tokens("actually")
    (grocery,) = tokens("groceries")
    assert zipf(actually) is not None and zipf(grocery) is not None
    assert zipf(actually) > zipf(grocery) > 3.0  # type: ignore[operator]
    assert zipf("kubernetes") is None  # not in the books: rare, left to the collection
    assert zipf("部署") is None
    assert zipf("") is None
    assert zipf("c++") is None


@pytest.fixture
def table_at(monkeypatch):
    """Point the module at another table (a real file, FIFO or nothing), read afresh."""

    def point(path: Path) -> None:
        monkeypatch.setattr(english, "WORD_LIST", str(path))
        english._word_list.cache_clear()

    yield point
    english._word_list.cache_clear()


def test_a_missing_or_damaged_table_leaves_every_word_unknown_and_never_blocks(tmp_path, table_at):
    table_at(tmp_path / "gone.txt")
    assert zipf("actual") is None
    (tmp_path / "cut.txt").write_bytes(b"\nactual\t5.3")  # no final line break: a copy cut short
    table_at(tmp_path / "cut.txt")
    assert zipf("actual") is None
    (tmp_path / "bad.txt").write_bytes(b"\nactual\tmany\n")
    table_at(tmp_path / "bad.txt")
    assert zipf("actual") is None
    os.mkfifo(tmp_path / "fifo.txt")
    table_at(tmp_path / "fifo.txt")
    assert zipf("actual") is None


@given(
    st.floats(min_value=0.0, max_value=8.0),
    st.floats(min_value=0.0, max_value=8.0),
    st.integers(min_value=1, max_value=100_000),
    st.floats(min_value=1.0, max_value=10_000.0),
)
def test_a_more_frequent_word_never_weighs_more_and_every_weight_is_an_idf_of_that_collection(a, b, size, length):
    common, rare = max(a, b), min(a, b)
    assert general_idf(common, size, length) <= general_idf(rare, size, length)
    assert 0.0 < general_idf(common, size, length) <= math.log(1 + (size + 0.5) / 0.5)


def _chinese_collection():
    """Chinese descriptions under English slugs, and one skill described in English, full of everyday words."""
    fillers = ["数据库 迁移 脚本", "前端 页面 样式", "日志 告警 监控", "合同 审查 条款", "图片 生成 海报"]
    skills = [make(f"tool-{number}", f"{text} 工具 {number}") for number, text in enumerate(fillers * 60)]
    skills.append(make("step-reasoner", "Actually walks through every step, explaining it."))
    skills.append(make("grocery-list-budget", "家庭 采购 清单 和 预算 管理"))
    return skills


_ASK = "can you actually walk me through every step of my grocery list budget"


def test_an_english_request_over_chinese_descriptions_weighs_everyday_words_as_english_does():
    index = SearchIndex.build(_chinese_collection(), tuning=OFF)
    assert index.described_in_cjk()
    assert [hit.skill.name for hit in index.query(_ASK, 2)] == ["step-reasoner", "grocery-list-budget"]
    index.tuning = ON
    assert [hit.skill.name for hit in index.query(_ASK, 2)] == ["grocery-list-budget", "step-reasoner"]


def test_a_skill_that_holds_the_words_in_its_name_keeps_the_collections_rarity():
    index = SearchIndex.build(_chinese_collection(), tuning=OFF)
    before = {hit.skill.name: hit.score for hit in index.query("grocery budget", 5)}
    index.tuning = ON
    after = {hit.skill.name: hit.score for hit in index.query("grocery budget", 5)}
    assert after["grocery-list-budget"] == before["grocery-list-budget"]


_WORDS = st.sampled_from(["actually", "every", "step", "grocery", "budget", "deploy", "预算", "清单", "部署", "日志"])


@given(st.lists(_WORDS, min_size=1, max_size=6))
def test_a_query_that_types_chinese_or_an_english_collection_ranks_as_without_the_table(words):
    query = " ".join(words)
    chinese = SearchIndex.build(_chinese_collection())
    if not query.isascii():
        _same_ranking(chinese, query)
    plain = [make(f"s-{n}", text) for n, text in enumerate(["every step explained", "grocery budget", "deploy apps"])]
    index = SearchIndex.build(plain)
    assert not index.described_in_cjk()
    _same_ranking(index, query)


def _same_ranking(index: SearchIndex, query: str) -> None:
    index.tuning = OFF
    before = [(hit.skill.name, hit.score, hit.coverage) for hit in index.query(query, 10)]
    index.tuning = ON
    assert [(hit.skill.name, hit.score, hit.coverage) for hit in index.query(query, 10)] == before


@given(st.lists(_WORDS, min_size=1, max_size=6))
def test_the_table_weighs_the_words_but_never_changes_which_skills_a_query_reaches(words):
    query = " ".join(words)
    assume(query.isascii())
    index = SearchIndex.build(_chinese_collection(), tuning=OFF)
    before = {hit.skill.name: hit.score for hit in index.query(query, 30)}
    index.tuning = ON
    after = {hit.skill.name: hit.score for hit in index.query(query, 30)}
    assert after.keys() == before.keys()


def _every_best(*, english_at_large: bool = False):
    """A rule that names the best hit of any prompt: what is left to silence it is the route's own reading."""
    from skillmem_hook.search.confidence import ScoreRule

    return ScoreRule(
        score=0.0, words=0, typed=0, near=1.0, most=1, lead=0, context_typed=0, siblings=False,
        english_at_large=english_at_large,
    )  # fmt: skip


def test_the_route_reads_a_prompt_with_the_collections_own_rarity_unless_its_rule_says():
    # Search weighs by English at large; the route's rule does not (it added wrong hints on the tuning sets).
    from skillmem_hook.agents.route import scored_reading
    from skillmem_hook.search.confidence import SCORE_RULE

    assert SCORE_RULE.english_at_large is False
    index = SearchIndex.build(_chinese_collection(), tuning=ON)
    assert [hit.skill.name for hit in index.query(_ASK, 1)] == ["grocery-list-budget"]
    assert [hit.skill.name for hit in index.query(_ASK, 1, english_at_large=False)] == ["step-reasoner"]
    named = scored_reading(_ASK, index, _every_best(english_at_large=True))[1]
    assert [hit.skill.name for hit in named] == ["grocery-list-budget"]


def test_an_english_prompt_is_not_hinted_to_a_skill_described_in_english_among_chinese_descriptions():
    # The collection's own rarity puts step-reasoner first, on words rare there only for being English.
    from skillmem_hook.agents.route import scored_reading

    index = SearchIndex.build(_chinese_collection())
    assert scored_reading(_ASK, index, _every_best())[1] == []
    chinese = scored_reading("家庭采购清单的预算怎么管", index, _every_best())[1]
    assert [hit.skill.name for hit in chinese] == ["grocery-list-budget"]
    across = scored_reading("家庭 步骤 解释 step reasoner 每一步", index, _every_best())[1]
    assert [hit.skill.name for hit in across] == ["step-reasoner"]  # a Chinese prompt, an English skill: hinted


def test_a_chinese_prompt_is_hinted_to_a_skill_described_in_chinese_among_english_descriptions():
    # Only the English way round is held back: Chinese words that find a Chinese skill say what it does.
    from skillmem_hook.agents.route import scored_reading

    fillers = ["database migration scripts", "frontend page styles", "log alert monitoring", "contract review"]
    skills = [make(f"tool-{number}", f"{text} tool {number}") for number, text in enumerate(fillers * 60)]
    skills.append(make("family-budget", "家庭 采购 清单 和 预算 管理"))
    index = SearchIndex.build(skills)
    assert not index.described_in_cjk()
    chinese = scored_reading("家庭采购清单的预算怎么管", index, _every_best())[1]
    assert [hit.skill.name for hit in chinese] == ["family-budget"]
    english = scored_reading("run the database migration scripts", index, _every_best())[1]
    assert english and english[0].skill.name.startswith("tool-")


def test_route_explain_names_the_language_condition_when_it_alone_keeps_the_hook_silent():
    # A newcomer saw every condition [ok] and "hint: none": the language gate must show, and say why.
    from skillmem_hook.agents.route import best_scored
    from skillmem_hook.agents.route_explain import _scored
    from skillmem_hook.search.confidence import SCORE_RULE
    from skillmem_hook.search.names import Spellings

    no_spellings = Spellings({})  # no camelCase word in these prompts: the thirty-first pass's names read nothing

    index = SearchIndex.build(_chinese_collection())
    prompt = "can you actually walk me through every step of this, explaining each step as you go"
    assert best_scored(prompt, index) == []
    answer = _scored(prompt, index, no_spellings)
    assert answer["hint"] == [] and "described in English" in str(answer["reason"])
    rows = answer["rule"]
    assert isinstance(rows, list) and [row["way"] for row in rows if not row["holds"]] == ["language"]
    hits = index.query(prompt, SCORE_RULE.most, english_at_large=False)
    assert [hit.skill.name for hit in hits[:1]] == ["step-reasoner"]
    chinese = _scored("家庭采购清单的预算怎么管, 帮我把每一步列出来", index, no_spellings)
    assert all(row["holds"] for row in chinese["rule"] if row["way"] == "language")  # type: ignore[union-attr]
