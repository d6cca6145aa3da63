"""The shape of the agent's next answer set, or the risk of what it just did weighed: a short turn about the work at
hand that asks for nothing new. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import (
    _RISK_MARKS,
    _SHAPE_MARKS,
    _makes_a_thing,
    _short_turn,
    _split_clauses,
)
from skillmem_hook.search.at_hand.reacted import _asks_by_its_shape

# 0.5.0, forty-ninth pass (issue 31, after set AJ's everyday fires, "show the Terraform plan as a table", "will this
# hurt Core Web Vitals?", and the tuning turns written in their forms, everyday-akt). Two forms, read from general
# parts as the approach switched is (`switched`), each in a short turn (`clauses._short_turn`) that makes, migrates,
# wants or asks for help nowhere (`_NEW`, `clauses._makes_a_thing`, read in the prompt as typed):
# - the shape of the next answer: a clause that sets the form of a reply (as / in a table, a list, bullets, JSON,
#   a diff, Chinese; "X only", "just the commands", "no prose", "shorter", "in 3 lines"; 用表格 / 列一下 / 简短点 /
#   只给我 / 一句话 / 格式输出), of a thing given (that, it, your, you; 这个, 刚才, 你) or of nothing named (every
#   clause a few words: "as a checklist plz"), never a file's format (a PDF, a deck, a spreadsheet, an email, a
#   report: a request makes those), and every other clause keeps, drops or asks nothing;
# - the risk or cost of a change weighed: a question (a yes-or-no or how-much one, not why / which / where / who /
#   when, nor how to: "..., how do I lock it down?") on a risk, a cost or an effect (safe, break, lock, leak, cost,
#   bill, slower, downtime; 安全, 影响, 锁表, 多花, 会不会 ...) of a thing given or a step proposed (this, that, it,
#   the change, your X, "you set", "if we flip ..."; 这个, 这样, 刚才, 你加的, 改成 / 改完 / 开了 / 加了), of no
#   project's whole ("our codebase"), with no other sentence that asks.
_NEW = lazy_compile(
    r"\b(?:migrate|migrating|port|set\s+up|build|create|generate|draft|design|implement|scaffold|write|recommend|suggest"
    r"|compare|estimate)\b|\bhow\s+(?:do|can|could|should|would|to)\b"
    r"|帮|请(?!求)|迁|想|怎么|如何|方案|建议|推荐|对比|比较",
    re.IGNORECASE,
)
_SHAPES = (
    r"(?:tables?|lists?|checklists?|bullets?|bullet\s+points|numbered\s+list|json|yaml|markdown|diff|patch|one-liner"
    r"|paragraphs?|sentences?|tl;?dr|chinese|english|plain\s+english|prose|steps|points)"
)
_SHAPE = lazy_compile(
    rf"\bas\s+(?:(?:a|an|one|plain|short|numbered|bulleted|simple|two|three|\d+)\s+)*{_SHAPES}\b"
    rf"|\bin\s+(?:(?:a|an|one|two|three|\d+)\s+(?:(?:short|numbered|bulleted|simple|plain)\s+)*{_SHAPES}"
    r"|(?:plain\s+)?(?:chinese|english|json|yaml|markdown|bullets|bullet\s+points|prose))\b"
    rf"|\b{_SHAPES}\s+only\b|\bjust\s+(?:the|a)\s+(?:diff|patch|commands?|code|changed\s+lines|summary|numbers|table)\b"
    r"|\bno\s+(?:prose|explanations?|commentary|markdown|fences|code\s+fences|preamble|recap)\b"
    r"|^\W*(?:shorter|more\s+concise|less\s+verbose|briefer)\b|\bkeep\s+it\s+(?:short|brief|concise)\b"
    r"|\b(?:in|under|at\s+most|like)\s+\d+\s+(?:lines|words|bullets|sentences)\b"
    r"|(?:用|以|按|做成|整理成|写成|列成|转成|输出成?|给我)\s*(?:表格|列表|清单|checklist|要点|bullet|json|markdown|中文|英文"
    r"|一句话|几句话|编号|分点)|(?:列|排)一下|简短点|短一点|精简点|简洁点|只给我|一句话|格式输出|分点",
    re.IGNORECASE,
)
# A file's format: what a request makes ("turn the report into a PDF", "整理成一份周报").
_FILES = lazy_compile(
    r"\b(?:pdf|excel|xlsx|csv|docx?|word|pptx?|powerpoint|slides?|deck|spreadsheets?|png|svg|images?|video|charts?"
    r"|diagram|notion|confluence|jira|sheets?|emails?|reports?|newsletter|post)\b"
    r"|幻灯片|文档|图片|视频|图表|报告|周报|日报|邮件|表单|海报",
    re.IGNORECASE,
)
_GIVEN = lazy_compile(
    r"\b(?:this|that|these|those|it|them|your|you)\b|[这那](?:个|些|几|段|次|份|条)|刚才|刚刚|上面|你", re.IGNORECASE
)
_FEW_WORDS = 6  # a clause of a few words names no thing of its own: "as a checklist plz", "用表格列一下" (3)
_KEEPS = lazy_compile(
    r"^(?:and\s+)?(?:keep|leave|don['\u2019]?t|do\s+not|no|skip|not)\b|^(?:别|不要|不用)", re.IGNORECASE
)


def _shapes_the_answer(text: str, typed: str) -> bool:
    """Whether ``text`` (the user's own words; ``typed``: the prompt as typed) sets the form of the next answer about
    the work at hand, and asks nothing new: "give me that as a table", "diff only pls", "用表格列一下"; not "Turn the
    Q3 numbers into a PDF report as a table", "give me a migration plan as a checklist"."""
    folded = text.lower()
    if not any(mark in folded for mark in _SHAPE_MARKS) or not _short_turn(text):
        return False
    if _NEW.search(text) or _FILES.search(text) or _makes_a_thing(typed):
        return False
    clauses = _split_clauses(text)
    found = {at for at, clause in enumerate(clauses) if _SHAPE.search(clause)}
    if not found:
        return False
    if _GIVEN.search(text) is None and any(_words(clause) > _FEW_WORDS for clause in clauses):
        return False  # a thing named, not given: the shape of new work
    return not any(_asks(clause) for at, clause in enumerate(clauses) if at not in found)


_RISK = lazy_compile(
    r"\b(?:safe|unsafe|risk\w*|dangerous|break|breaks|hurt|affect|impact|slow(?:er|down)?|locks?|blocks?|leaks?"
    r"|downtime|costs?|bill|expensive|cheaper|spend|overhead|latency|side[\s-]effects?|data\s+loss|lose|orphan\w*"
    r"|compatib\w*|regress\w*|worse|capacity|perf(?:ormance)?)\b"
    r"|安全|风险|危险|会不会|影响|锁表|锁住|阻塞|挂掉|崩|丢|泄漏|泄露|多花|成本|费用|多少钱|回滚|兼容|副作用|出问题|要紧|吞吐|性能",
    re.IGNORECASE,
)
_WEIGHED_THING = lazy_compile(
    r"\b(?:this|that|these|those|it|the\s+(?:change|fix|patch|migration|new|extra|retry|cache|index|flag|bump|upgrade)"
    r"|your\s+\w+|you\s+(?:\w+ed|set|put|made|wrote|did)|if\s+(?:we|i)\s+\w+)\b"
    r"|[这那](?:个|些|几|段|次|样|么|条|份|里)|刚才|刚刚|你(?:刚|改|加|写|设|把|给|配|用)|改成|改完|开了|加了",
    re.IGNORECASE,
)
_QUESTION_CJK = ("吗", "会不会", "多少", "多久", "有没有", "?")
_NOT_WEIGHING = lazy_compile(r"^\W*(?:why|which|where|who|when)\b|\bour\s+(?:codebase|company|team|stack)\b", re.I)


def _weighs_the_change(text: str, typed: str) -> bool:
    """Whether ``text`` asks only the risk or cost of a change at hand: "is that safe to run on prod?", "any perf hit
    from the extra index?", "加这个索引会锁表吗"; not "which parts of our codebase cost the most to maintain?", "Is it
    safe to store JWTs in localStorage? Build me the auth flow"."""
    if not any(mark in text for mark in _RISK_MARKS) or not _short_turn(text):
        return False
    if _NEW.search(text) or _makes_a_thing(typed):
        return False
    from skillmem_hook.search.asks import sentences  # noqa: PLC0415 - a prompt naming its skill needs no search

    parts = sentences(text)
    found = {at for at, part in enumerate(parts) if _weighs(part, parts[at - 1] if at else "")}
    return bool(found) and not any(
        part.endswith("?") or _asks(part) for at, part in enumerate(parts) if at not in found
    )


def _weighs(sentence: str, before: str) -> bool:
    """Whether ``sentence`` asks the risk or cost of a thing given in it or in the sentence ``before`` it."""
    question = sentence.endswith("?") if sentence.isascii() else any(q in sentence for q in _QUESTION_CJK)
    if not question or _RISK.search(sentence) is None or _NOT_WEIGHING.search(sentence):
        return False
    return _WEIGHED_THING.search(sentence) is not None or _WEIGHED_THING.search(before) is not None


def _words(clause: str) -> int:
    """About how many words ``clause`` holds: each run of Latin letters or digits one, two CJK characters one."""
    latin = sum(1 for word in clause.split() if any(c.isascii() and c.isalnum() for c in word))
    return latin + sum(1 for c in clause if "\u3400" <= c <= "\u9fff") // 2


def _asks(clause: str) -> bool:
    """Whether a clause beside the shape or the weighing asks: no keep or drop, and it asks (`asks.asks`) or, in
    Chinese, is shaped as an ask."""
    if _KEEPS.search(clause):
        return False
    from skillmem_hook.search.asks import asks  # noqa: PLC0415 - a prompt naming its skill needs no search

    return asks(clause) or (not clause.isascii() and _asks_by_its_shape(clause))
