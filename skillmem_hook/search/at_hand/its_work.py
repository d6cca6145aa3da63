"""The agent's own work under review: a value it wrote corrected or reviewed, a thing it just made, an option it gave
picked, what it did asked back. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _marked

# A correction of a thing just made (0.5.0, fifteenth pass, after set N's ne-061, "按钮颜色和品牌色不一致, 应该是
# #1A73E8"): a value stated as what it should be, 应该是 / 应该为 / 应该改成 or "should be / read / say" and a figure,
# a hex colour or a quoted value ("it should be 5433", "标题应该是「订单」"); only a thing that exists has a wrong
# value. Not a bound, which a request sets (the clause read to its comma, 。 or ;, NFKC having made
# the full-width ones ASCII) ("应该是 3 秒以内", "should be 200ms or less"). On the tuning data no
# request holds one, 2 everyday turns do. Compiled only when a prompt holds 应该 or "should".
_VALUE = r"""(?:#[0-9A-Fa-f]{3,8}\b|\d|["\u201c\u2018'\u300c])"""
_CORRECTS_A_VALUE = lazy_compile(
    rf"应该(?:是|为|改成|改为)\s*{_VALUE}(?![^,。;\n]{{0,16}}?(?:以内|以下|以上|左右|之内|之间|上下))"
    rf"|\bshould\s+(?:be|read|say)\s+{_VALUE}"
    r"(?![^,.;\n]{0,20}?\b(?:or\s+(?:less|more|fewer|under|over|below|above)|at\s+(?:most|least)|max|min)\b)",
    re.IGNORECASE,
)


_VALUE_MARKS = ("应该", "should")


def _corrects_a_value(text: str) -> bool:
    """Whether ``text`` states the value a thing at hand should have: "应该是 #1A73E8", "it should be 5433",
    "阈值是 0.85, 不是 0.8", "it's `--dry-run`."."""
    return _marked(text, _VALUE_MARKS, _CORRECTS_A_VALUE) or _marked(text, _IS_MARKS, _VALUE_IS)


# The value a thing at hand has, stated against the agent's (0.5.0, sixteenth pass, after set O's oe-061 and oe-024):
# "是 0.85, 不是 0.8" (a value, then 不是 and a value: "是 X, 不是 Y" with words, a request's brief, is not one), and
# "it's / it is" and a value closing its clause ("it's `--dry-run`."; not "it's 'not pythonic', ...", a judgement
# quoted mid-sentence). NFKC has made the full-width comma ASCII. Compiled only when a prompt holds 不是 or "it".
_IS_MARKS = ("不是", "it's", "it is", "it\u2019s")
_VALUE_IS = lazy_compile(
    rf"是\s*{_VALUE}[^,。;\n]{{0,24}},\s*(?:而)?不是\s*{_VALUE}"
    r"|\bit(?:['\u2019]s|\s+is)\s+(?:`[^`\n]{1,40}`|\d[\w.%-]*|#[0-9A-Fa-f]{3,8}\b)\s*(?:[.;]|$)",
    re.IGNORECASE | re.MULTILINE,
)


# A value the agent wrote, reviewed (0.5.0, twenty-sixth pass, after set U's ue-067, "`retry` 的上限你写成了 10
# 次 ... 改成最多 5 次"): 你 and a verb of setting, then 成了 ("你写成了", "你设成了", "你配成了"; "你改成了" is
# `_AT_HAND_CJK`'s 你改). Only a thing that exists was set so. No English form on the tuning data: "you set it
# to" reads as often as an ask ("can you set it up"), and no tuning turn says it. Compiled only on 成了.
_REVIEWS_ITS_VALUE = lazy_compile(r"你(?:写|设|设置|配|配置|调|定|填|弄|做)成了")


def _reviews_its_value(text: str) -> bool:
    """Whether ``text`` reviews a value the agent set: "上限你写成了 10 次"."""
    return "成了" in text and _REVIEWS_ITS_VALUE.search(text) is not None


# A thing just made, named so with no one named as its maker (0.5.0, nineteenth pass, after set P's pe-091, "刚写的
# landing page copy 太 salesy 了"): 刚 (刚才, 刚刚) and a verb of making, then 的, opening a clause or after 把 or 你
# ("把刚加的那段删掉"); in a session the maker left unsaid is the agent. Not after a maker named ("我刚写的论文",
# "开发刚写的代码": the user's or a colleague's work, which a request brings), nor 刚出的 / 刚发的 (a release).
# NFKC has made the full-width comma ASCII. On the tuning data no request holds one, 9 everyday turns do.
# Compiled only when a prompt holds 刚.
_JUST_MADE = lazy_compile(
    r"(?:^|(?<=[\s,.!?;:。、把你]))(?:刚才|刚刚|刚)(?:写|加|改|生成|做|画|输出|导出|整理|翻译|起草|给)(?:好|完|出来)?的",
    re.MULTILINE,
)


def _just_made(text: str) -> bool:
    """Whether ``text`` names a thing just made, its maker unsaid: "刚写的 landing page copy", "把刚加的那段删掉"."""
    return _marked(text, ("刚",), _JUST_MADE)


# A choice among the options the agent just gave (0.5.0, ninth pass, after set J's je-027): "go with option 2", "option
# B", "the second one" opening a clause or after a verb of choosing ("go with the queue-based one"; not "draft the
# first one", set G's g3-022, a request), "方案二", "选第二个", "第二种吧". Compiled only when a prompt holds one of
# the marks, so most warm prompts compile nothing.
_OPTION_MARKS = ("option", " one", "方案", "第")
_PICKS_AN_OPTION = lazy_compile(
    r"\boption\s+(?:\d|[a-d]\b|one|two|three|four)"
    r"|(?:^|[,;:!?]\s*|\b(?:with|pick|take|choose|prefer|like|go\s+for)\s+)the\s+(?:first|second|third|fourth|last"
    r"|latter|former|other|\w+-\w+)\s+one\b(?!\s+(?:of|who|that|which)\b)"
    r"|方案\s*(?:\d|[一二三四五A-Da-d])|(?:选|用|就|按)第\s*(?:\d|[一二三四五])\s*(?:个|种)|第\s*(?:\d|[一二三四五])\s*(?:个|种)吧",
    re.IGNORECASE,
)


def _picks_an_option(text: str) -> bool:
    """Whether ``text`` picks one of the options the agent offered: a turn about the session, not a request."""
    return _marked(text, _OPTION_MARKS, _PICKS_AN_OPTION)


# A question on what the agent did (0.5.0, seventh pass, after set I's ie-015): "why did you add ...", "did you run
# the tests?", "have you run ..." ("have you changed" is `_AT_HAND`'s "you changed"); "have you migrate our docs" (have
# the agent do it) asks ahead. Read with str methods: one more alternative in `_AT_HAND`, compiled by every warm
# route, cost it more than the rest of the pass.
_ASKED_BACK = ("did you ", "have you done", "have you seen", "have you run")


def _asks_what_it_did(text: str) -> bool:
    """Whether ``text`` asks what the agent did: "did you" and a word, or "have you done / seen / run"."""
    folded = text.lower()
    for phrase in _ASKED_BACK:
        start = folded.find(phrase)
        while start != -1:
            before, after = folded[start - 1 : start] if start else " ", folded[start + len(phrase) :][:1]
            word_follows = phrase.endswith(" ")  # "did you " needs its verb; "have you run" must end a word
            if not before.isalpha() and after.isalpha() == word_follows:
                return True
            start = folded.find(phrase, start + 1)
    return False
