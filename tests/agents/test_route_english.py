"""The route's English reading, agreed (0.5.0, twenty-ninth pass): an English request over a CJK-described collection.

Where the rule in force is silent, the hook reads search's English reading
(English-at-large weights) and names what the rule names there, if that
reading's best is its own reading's best and has no kin among the best three.
"""

from __future__ import annotations

from skillmem_hook.agents.route import SCORE_RULE, ScoreRule, best_scored
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.search.rank import SearchIndex

# A collection described in Chinese, its names English slugs, as the Chinese collection is.
CHINESE = [
    ("mysql-backup", "定时备份 MySQL 数据库并在故障时恢复数据"),
    ("weekly-report", "根据本周的提交记录和任务写周报, 汇总进展与风险"),
    ("invoice-ocr", "识别发票图片中的金额、税号和日期, 导出为表格"),
    ("k8s-rollout", "在 Kubernetes 集群中滚动发布容器, 失败时自动回滚"),
    ("wechat-bot", "搭建微信群机器人, 自动回复消息并推送通知"),
    ("excel-charts", "用 Excel 数据生成折线图、柱状图和透视表"),
    ("legal-review", "审阅合同条款, 标出风险条款并给出修改建议"),
    ("seo-audit", "检查网站的标题、描述和外链, 给出搜索引擎优化建议"),
    ("ppt-maker", "根据大纲自动生成演示文稿, 统一版式和配色"),
    ("log-triage", "在服务日志中查找错误堆栈, 归类并定位根因"),
    ("translate-docs", "把中文技术文档翻译成英文, 保留术语表"),
    ("stock-notes", "整理股票研报要点, 生成投资备忘录"),
    (
        "vite-patterns",
        "Vite 构建配置与打包优化: vite 插件、代码分割 (bundle split)、HMR reload 变慢和 production bundle 过大的排查",
    ),
]
# A skill that holds the request's everyday English words ("team", "every week", "save", "stop"): rare in a
# Chinese-described collection, they lift it near the right skill in the route's own reading, not in English's.
TEAM = "团队 project 规划: team 每周 planning, 任务拆分, every week 的 meeting 纪要, save stop"
REQUEST = (
    "Our team has a big project on Vite and every time we save, the HMR reload takes ages; the production bundle"
    " is huge too. How should we split the bundle and which Vite plugins help, so the team stops waiting every week?"
)
OFF = ScoreRule(english_agreed=False)


def index(*extra: tuple[str, str]) -> SearchIndex:
    skills = [*CHINESE, *extra]
    return SearchIndex.build([Skill(name=n, description=d, path=n, root="skills", warnings=[]) for n, d in skills])


def routed(prompt: str, skills: SearchIndex, rule: ScoreRule = SCORE_RULE) -> list[str]:
    return [target.label for target in best_scored(prompt, skills, rule)]


def test_an_english_request_fires_through_the_english_reading_where_both_readings_agree():
    skills = index(("team-planning", TEAM))
    assert skills.described_in_cjk()
    assert routed(REQUEST, skills, OFF) == []  # the route's reading: the team skill within 1.2x of the best
    assert routed(REQUEST, skills) == ["vite-patterns"]


def test_the_english_reading_names_nothing_when_the_best_has_kin_among_the_best_three():
    # plugin-patterns shares "patterns" with the best: a family that words neither reading holds tell apart
    skills = index(("team-planning", TEAM), ("plugin-patterns", "编辑器 plugins 的开发模式与发布"))
    assert routed(REQUEST, skills, OFF) == []
    assert routed(REQUEST, skills) == []


def test_the_english_reading_names_nothing_when_the_routes_own_reading_has_another_best():
    # more of the request's everyday words: the team skill is the route reading's best, Vite the English one's
    skills = index(("team-planning", TEAM + " waiting"))
    english = [hit.skill.name for hit in skills.query(REQUEST, top=1, english_at_large=True)]
    own = [hit.skill.name for hit in skills.query(REQUEST, top=1, english_at_large=False)]
    assert (english, own) == (["vite-patterns"], ["team-planning"])
    assert routed(REQUEST, skills, OFF) == []
    assert routed(REQUEST, skills) == []


def test_the_english_reading_is_search_s_and_the_rule_in_force_is_unchanged():
    english = SCORE_RULE.read_in_english()
    assert english.english_at_large and not SCORE_RULE.english_at_large
    assert english.describe() == SCORE_RULE.describe()


def test_route_explain_says_the_english_reading_named_the_hint():
    from skillmem_hook.agents.route_explain import _scored

    answer = _scored(REQUEST, index(("team-planning", TEAM)))
    assert (answer["hint"], answer["by"]) == (["vite-patterns"], "English reading")
    assert "English reading" in str(answer["reason"])
    assert not all(row["holds"] for row in answer["rule"])  # the route's own reading: the lead 1.2 fails
    kin = _scored(REQUEST, index(("team-planning", TEAM), ("plugin-patterns", "编辑器 plugins 的开发模式与发布")))
    assert (kin["hint"], kin["by"]) == ([], None)
