"""The agent's work questioned: the agent told to check it, a check asked again, why it did a thing, what broke
after its change. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import (
    _AHEAD_MARKS,
    _ASKS_AHEAD,
    _MAKING,
    _MAKING_MARKS,
    _clause_end,
    _marked,
    _opens,
    _others_ask_new,
)

# The agent told to check its own work (sixteenth pass, after set M's me-063, "图例和线对不上 ... 你查一下是不是
# 数据排序的问题"): 你 and a verb of checking, then 一下; only what exists is checked. Not 你看一下
# ("你看一下怎么实现" may ask ahead). On the tuning data no request holds one.
_CHECK_MARKS = ("你",)
_AGENT_CHECKS = lazy_compile(r"你(?:查|检查|排查|核对|核实|确认)一下")


def _has_the_agent_check(text: str) -> bool:
    """Whether ``text`` tells the agent to check a thing at hand: "你查一下是不是数据排序的问题"."""
    return _marked(text, _CHECK_MARKS, _AGENT_CHECKS)


# A check or run of the work at hand asked again, the agent unaddressed (0.5.0, twentieth pass, after set Q's qe-057,
# "再检查一遍边界情况"): 再 and a verb of checking or running, then 一遍 / 一次 / 一轮 ("X 再过一遍", "再跑一遍测试";
# not 再 and 一下, the next step of a request's plan, "先确认名字没被占用, 再查一下配额"); a verb of running or
# checking and "again" / "one more time" / "once more" in its clause ("run the tests again"; not "ran it again", a
# request's symptom, nor "try again later", a message quoted), "tests again?", "double-check" a thing named by "the",
# "that" or "it", and "rerun" told ("and rerun", "can you rerun"; not "a prompt I can rerun"). Only what exists is
# checked again, and such a turn names no new deliverable. On the tuning data no request holds one. 跑一遍 / 跑一次
# (a run of the work at hand, read in `_AT_HAND_CJK` since the fourth pass) is read beside it since the twenty-second
# (`_RUNS`), so a request that asks for a new thing and then a run of it ("帮我写一个迁移脚本, 然后跑一遍测试") is not
# silenced.
_AGAIN_MARKS = ("再", "跑一", "again", "one more time", "once more", "double", "rerun", "re-run")
_CHECKS_AGAIN = lazy_compile(
    r"再次?\s*(?:检查|排查|查|核对|核实|过|跑|测|试|审|验证|确认|看|运行|执行)\s*(?:一遍|一次|一轮|遍)"
    r"|\b(?:run|check|test|try|verify|build|lint|go\s+over|look\s+(?:at|over))\b[^.?!;\n]{0,40}?"
    r"\b(?:again|one\s+more\s+time|once\s+more)\b(?!\s+later)"
    r"|\b(?:tests?|lint|build|checks?|CI)\s+again\b|\bdouble[- ]?check\s+(?:that|it|this|these|those|the|again)\b"
    r"|(?:^|[,;:]\s*|\b(?:and|then|please|just|now|you)\s+)re-?run\b",
    re.IGNORECASE | re.MULTILINE,
)


# The check asked again is the ask itself (0.5.0, twenty-second pass, after hostile7's "Extract the tables from
# quarterly.pdf into CSV, then double-check the totals", "帮我写一个数据库迁移脚本, 然后再跑一遍测试"): it opens
# the prompt, after fillers and the agent addressed ("ok now run it again", "can you double-check that?",
# "你自己再检查一遍"; NFKC has made the full-width punctuation ASCII, not 。), or no clause outside it is led by a
# verb of making a new thing (write, build, create, generate, extract, convert, set up, draft, design, implement,
# scaffold, make a; 写 / 做 / 搞 / 建 / 搭 / 画 / 出 / 开发 / 设计 and a measure word, 生成 / 创建 / 新建 / 起草 not
# before 的). A request that asks for a new thing and adds a check of it asks for the thing: "Write a pre-commit
# hook that will double-check the commit message format" names no work at hand. Not "add" or 加 ("加上详细输出再跑
# 一次" adds to what exists), nor "fix", "strip", "load", "deploy", which act on it. On the tuning data this
# changes no reading: the 19 turns the twentieth pass silenced all open on the check or make nothing new.
_RUNS = ("跑一遍", "跑一次")


def _checks_again(text: str) -> bool:
    """Whether ``text`` asks a check or run of the work at hand again, and that is its whole ask: "再检查一遍边界情况",
    "run the tests again"; not "Generate a changelog and double-check the version numbers"."""
    if not any(mark in text.lower() for mark in _AGAIN_MARKS):
        return False
    runs = [at for at in (text.find(run) for run in _RUNS) if at != -1]
    if runs:  # 跑一遍 / 跑一次 (再 or not), found without the pattern
        start = min(runs)
        start, end = (start - 1 if text[start - 1 : start] == "再" else start), start + 3
    else:
        found = _CHECKS_AGAIN.search(text)
        if found is None:
            return False
        start, end = found.span()
    if _opens(text[:start].lower()):
        return True  # the check opens the prompt
    rest = text[:start] + "\n" + text[end:]  # the verb of making is another clause's, not the check's own
    return not _marked(rest, _MAKING_MARKS, _MAKING)


# A question why the agent did or chose something (0.5.0, twenty-second pass, after set R's re-060, "为什么把连接池从
# 二十调到了五十?"; narrowed after hostile9): a clause that opens on 为什么 / 为啥 (你 before it or not) and 把 (a thing
# the agent moved), its clause in the past (了 / 过) or the agent named (你 in the prompt) ("为什么把 try catch 删了?"),
# and not a symptom after a change (后 / 以后 / 之后 / 反而 / 却: "为什么把 MySQL 连接池调大后 QPS 反而下降"); 为什么 /
# 为啥 and 这里 / 这儿 (a place shown: "为什么这里要加锁?", "这里为啥要 deep copy?"); "why'd you", and "why" with "here"
# or "there" before its question mark ("why a Set there?", "why 2 here?"). "did you" is `_asks_what_it_did`'s. Never
# when the prompt also asks how (how / 如何 / 怎么 / 怎样), to compare, or for a new thing (`_MAKING`): "Why use Redis
# there? Compare Redis and Memcached", "为什么把 Neon 分支用于迁移测试更安全? 如何创建 Neon 分支" ask ahead. Not "why"
# of a general topic ("why is my Postgres slow", "讲讲为什么用状态机编排"), nor 怎么把 (how to). Compiled on the marks.
_WHY_MARKS = ("为什么", "为啥", "why")
_ASKS_WHY = lazy_compile(
    r"(?:^|[.!?;:,\n]\s*)你?(?:为什么|为啥)(?:要)?(?:(把)|这里|这儿)|(?:这里|这儿)(?:为什么|为啥)"
    r"|\bwhy['\u2019]d\s+you\b|\bwhy\b[^.?!\n]{0,60}\b(?:here|there)\s*\?",
    re.IGNORECASE | re.MULTILINE,
)


def _asks_why(text: str, typed: str) -> bool:
    """Whether ``text`` asks why the agent did or chose something: "为什么把连接池调到了五十?", "why a Set there?"; not
    when it also asks how, to compare, or for a new thing."""
    if not any(mark in text.lower() for mark in _WHY_MARKS):
        return False
    found = _ASKS_WHY.search(text)
    if found is None:
        return False
    # "why ... there?" ends its clause on its own question mark; read on from it, the next sentence was its clause
    clause_end = found.end() if text[found.end() - 1 : found.end()] == "?" else _clause_end(text, found.end())
    if found.group(1):  # 为什么把: a choice already made (了 / 过, or 你), not a symptom after a change
        clause = text[found.end() : clause_end]
        if _after_a_change(clause) or not ("你" in text or "了" in clause or "过" in clause):
            return False
    if _marked(text, _AHEAD_MARKS, _ASKS_AHEAD):
        return False
    return not _others_ask_new(text, found.start(), clause_end, typed)


def _after_a_change(clause: str) -> bool:
    """Whether ``clause`` tells a symptom after a change: 调大后, 以后, 反而, 却 (not 后端, 后台)."""
    if "反而" in clause or "却" in clause:
        return True
    at = clause.find("后")
    while at != -1:
        if clause[at + 1 : at + 2] not in ("端", "台", "缀", "续", "面"):
            return True
        at = clause.find("后", at + 1)
    return False


# A report of what broke after the agent's change (0.5.0, twenty-sixth pass, after set U's ue-046, "你推上去以后
# GitHub Actions 又红了", and ue-070, "合并以后编译不过了"): 你 and a verb of changing, then 以后 / 之后 ("你推上去
# 以后", "你上次改完之后"; not "你帮我部署之后", a plan), or a prompt that opens, after fillers, on a change and 以后 /
# 之后 ("改完以后", "合并以后", "上线以后") and asks nothing ahead (not "上线以后怎么回滚"). Mid-sentence a change is a
# request's own workflow ("合并后集群自动同步", set C's dev-xl-020). English says it as "since your change" or "after
# you pushed", read already (`_AT_HAND`). Compiled only on the marks.
_AFTER_MARKS = ("以后", "之后")
_AFTER_ITS_CHANGE = lazy_compile(
    r"你(?:上次|刚才|刚刚|刚|这次)?(?:推|提交|合|改|部署|上线|发布|升级|重构|更新|删|加|换|动)[^\s,.!?;:]{0,3}?(?:以后|之后)"
)
_OPENS_AFTER_A_CHANGE = lazy_compile(r"(?:推上去|合并|合进去|改完|部署|上线|发布|升级)(?:了|完)?(?:以后|之后)")


def _after_its_change(text: str) -> bool:
    """Whether ``text`` tells what happened after the agent's change: "你推上去以后 GitHub Actions 又红了"."""
    if not any(mark in text for mark in _AFTER_MARKS):
        return False
    if _AFTER_ITS_CHANGE.search(text) is not None:
        return True
    found = _OPENS_AFTER_A_CHANGE.search(text)
    return found is not None and _opens(text[: found.start()].lower()) and not _marked(text, _AHEAD_MARKS, _ASKS_AHEAD)
