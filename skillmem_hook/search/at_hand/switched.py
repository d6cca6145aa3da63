"""The approach of the work at hand switched: a short turn whose ask is to do the thing in front of the agent another
way, naming the way, and nothing new. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _SWITCH_MARKS, _makes_a_thing, _short_turn, _split_clauses
from skillmem_hook.search.at_hand.reacted import _after_fillers, _asks_by_its_shape, _bare_verb

# 0.5.0, forty-ninth pass (issue 31, after set AJ's everyday fires, "改用 `logrotate` 配合 `fluent-bit` 直接推到
# `Loki`", "改用 CSS 变量来做暗色模式吧", and the tuning turns written in their form, everyday-akt): the user steers
# the agent's current work to another technique and names it, and the technique's name is a skill's word.
# Read from general parts, not a list of techniques:
# - a short turn (`clauses._short_turn`): a line or two, as a turn steering the work is;
# - a clause of switching: in English an imperative (after fillers and an opener: let's, can we, could you, how
#   about, why not) that contrasts the way with the current one ("instead", "rather than", "use X, not Y"), or opens
#   on "instead of" / "rather than" (the clause after it then the imperative), or switches to a way ("switch to X")
#   or switches, swaps or replaces a thing given or back to the way it was ("swap axios for fetch in this file", "swap
#   the date-fns calls back to dayjs"), or uses a way for a thing
#   given ("use zod for that validation", "use a list comprehension here"); in Chinese a clause of 改用 / 换成 / 换用
#   / 改成 / 改为 / 换个写法 / 直接用 / 直接换 / 用 X 代替 / 用 X 就行 / 换 X 吧 whose thing switched is unsaid (the
#   clause opens on the verb), given (这个 / 这几个 / 这里 / 刚才 ...), or steered (吧 / 就行 / 就好 / 即可 closing it),
#   or whose turn rejects the current way (别用 X 了, 别自己写, "drop moment and just use ...", "no for loop");
# - of the work at hand, not a project's new work: the thing switched has no scope of the project (our, the whole,
#   entire, 我们的 / 项目 / 公司 / 团队 / 整个: "Switch our CI to GitHub Actions", "把项目的日志系统换成 ELK"), and
#   the turn neither migrates nor makes (migrate, port, set up, write, build, a rewrite; 迁, 写一个, 重写), nor wants
#   or plans (I want a, we need; 想 / 打算 / 准备 / 计划 / 希望 / 需要), nor asks for help (帮, 请), nor asks but
#   as a suggestion ("can we use X instead?"; not "我该先换成 X 吗?", a request's plan weighed);
# - nothing else asked: each other clause states (a reason, the current way rejected, what to keep) and none asks
#   (`asks.asks`, or a Chinese clause shaped as an ask, `reacted._asks_by_its_shape`), read in the prompt as typed:
#   a quoted message's ask is the request's ("市场部小王发我的: 「... 能不能写个程序一键出?」 用 Python 写吧").
# A named thing switched with nothing to say it is the one at hand ("把订单服务换成事件驱动的架构", "replace the login
# page with ...") stays a request.
_FILLERS = frozenset((
    "ok", "okay", "so", "actually", "just", "then", "now", "hmm", "nah", "no", "nope", "yeah", "yes", "ugh", "lol",
    "hey", "also", "and", "maybe", "please", "pls", "honestly", "alright", "right", "well", "oh", "ah", "perhaps",
))  # fmt: skip
_OPENERS = (
    ("let's",), ("lets",), ("let", "us"), ("can", "we"), ("could", "we"), ("can", "you"), ("could", "you"),
    ("we", "should"), ("how", "about"), ("why", "not"), ("i'd", "rather"),
)  # fmt: skip
_SUGGESTIONS = lazy_compile(r"\b(?:can|could)\s+(?:we|you)\b|\bhow\s+about\b|\bwhy\s+not\b", re.IGNORECASE)
_CONTRAST = lazy_compile(r"\binstead\b|\brather\s+than\b|^use\s+\S+(?:\s+\S+){0,3}?\s*,?\s+not\s+\w", re.IGNORECASE)
_SWITCHES = lazy_compile(
    r"(?:switch|swap|replace)\b.*\b(?:this|that|these|those|it|them|here|back)\b|switch\s+(?:over\s+|back\s+)?to\b"
    r"|use\s+\S+(?:\s+\S+){0,3}?\s+(?:(?:for|in|on|with)\s+(?:this|that|these|those|it|them)\b|here\b)",
    re.IGNORECASE,
)
# Beside the current way rejected, a way used: "drop moment and just use ...", "no for loop. switch to xargs".
_USES = lazy_compile(r"(?:^|\b(?:and|then)\s+)(?:just\s+)?(?:use|switch\s+to|go\s+with)\b", re.IGNORECASE)
# The thing switched, scoped to a project: before the way's preposition ("Switch our CI to ...").
_SCOPE = lazy_compile(
    r"\b(?:our|the\s+whole|whole|entire|company['\u2019]?s?|team['\u2019]?s?|project['\u2019]?s?|across)\b",
    re.IGNORECASE,
)
_WAY = lazy_compile(r"\b(?:to|for|with|instead|rather|not)\b", re.IGNORECASE)
_NEW = lazy_compile(
    r"\b(?:migrat\w*|port|porting|set\s+up|setup|from\s+scratch|write|build|create|generate|draft|design|implement"
    r"|scaffold|rewrite|rebuild)\b|迁|帮|请(?!求)|想|打算|准备|计划|希望|需要|重写|重做|重新(?:写|做|搭|开发|设计)",
    re.IGNORECASE,
)
_REJECTS = lazy_compile(
    r"^(?:(?:ok(?:ay)?|so|actually|ugh|nah|no|nope|hmm+|yeah|then|now|just|and|lol)[,.!]?\s+)*"
    r"(?:let['\u2019]?s\s+not\b|don['\u2019]?t\s+(?:use|hand|write|roll|bother)|no\s+more\b|no\s+[\w.-]+(?:\s+[\w.-]+)?$"
    r"|stop\s+using\b|(?:ditch|drop|scrap|scratch|forget|lose|kill|rip|get\s+rid\s+of)\b)"
    r"|(?:别|不要|不用|甭)(?:再|自己|手){0,2}(?:用|写|搞|上|弄|走|拼|判断|维护)|算了",
    re.IGNORECASE,
)
_KEEPS = lazy_compile(
    r"^(?:and\s+)?(?:keep|leave|don['\u2019]?t|do\s+not)\b|(?:别|不用|不要)(?:动|改|碰)|保持|不变|保留",
    re.IGNORECASE,
)
# 用 as the verb, not a word's part: 调用 (a call), 费用 (a cost), 应用 (an app), 用户 (a user), 不用 (no need) ...
_USE_CJK = r"(?<![调应费作信通功引适占租日试共专备公实有没可不常复滥启停禁沿挪录服享])用(?![户法量途例品于])"
_SWITCH_CJK = lazy_compile(
    r"改用|换成|换用|改成|改为|换个(?:写法|方式|做法|实现|思路)|直接(?:用|换|上)"
    rf"|{_USE_CJK}[^,.;!?:\n\u3002]{{1,30}}?(?:代替|替代|替换|就行|就好|就够了|即可|吧)|换[^,.;!?:\n\u3002]{{1,20}}?吧"
)
_UNSAID_CJK = ("就", "直接", "那", "还是", "干脆", "要不", "先", "都", "好的", "好", "嗯", "行")
_GIVEN_CJK = lazy_compile(r"[这那](?:个|些|几|段|块|里|边|次|种|部分|样)|刚才|刚刚|上面")
_STEERED_CJK = lazy_compile(r"(?:吧|就行|就好|就够了|即可)[\s.!~\u3002]*$")
_SCOPE_CJK = lazy_compile(r"我们|项目|公司|团队|整个|全站|全部|所有")
_ASKS_CJK = ("吗", "是不是", "要不要", "还是说", "能不能", "可不可以", "怎么", "如何")


def _switches_the_approach(text: str, typed: str) -> bool:
    """Whether ``text`` (the user's own words; ``typed``: the prompt as typed) switches the approach of the work at hand
    to a way it names and asks nothing new: "use ROW_NUMBER() instead of the self-join", "swap axios for plain fetch in
    this file", "换成 pydantic v2 的写法", "批量插入别一条条 INSERT 了, 换成 COPY"; not "Migrate our CI from Jenkins to
    GitHub Actions", "把项目的日志系统换成 ELK", "把订单服务换成事件驱动的架构"."""
    folded = text.lower()
    if not any(mark in folded for mark in _SWITCH_MARKS) or not _short_turn(text) or _NEW.search(text):
        return False
    clauses = _split_clauses(text)
    rejected = any(_REJECTS.search(clause) for clause in clauses)
    found = [at for at, clause in enumerate(clauses) if _switch_clause(clauses, at, rejected)]
    if not found or any(mark in text for mark in _ASKS_CJK):
        return False
    if "?" in text and not (text.count("?") == 1 and _SUGGESTIONS.search(text)):  # a suggestion asked ("can we ...?")
        return False
    steps = set(found) | {at + 1 for at in found if _opens_on_instead(clauses[at])}  # "Instead of X, just do Y"
    rest = typed
    for at in sorted(steps):
        if at < len(clauses):
            rest = rest.replace(clauses[at], "\n")
    if _makes_a_thing(rest):
        return False
    return not any(_asks(clause) for at, clause in enumerate(clauses) if at not in steps)


def _switch_clause(clauses: list[str], at: int, rejected: bool) -> bool:
    """Whether ``clauses[at]`` switches the way the thing at hand is done (English or Chinese, above)."""
    clause = clauses[at]
    if not clause.isascii():
        return _switch_clause_cjk(clause, rejected)
    words = _opening(_after_fillers(clause))
    if not words or not (words[0] in ("instead", "rather") or _bare_verb(words[0])):
        return False
    rest = " ".join(words)
    way = _WAY.search(rest)
    if _SCOPE.search(rest[: way.start()] if way is not None else rest):
        return False
    following = clauses[at + 1] if at + 1 < len(clauses) else ""
    if following.lower().startswith("not "):  # "use pnpm, not npm": the comma split the contrast off
        rest += " " + following
    return (
        _CONTRAST.search(rest) is not None
        or _SWITCHES.match(rest) is not None
        or (rejected and _USES.search(rest) is not None)
    )


def _switch_clause_cjk(clause: str, rejected: bool) -> bool:
    """Whether the Chinese ``clause`` switches the way of a thing unsaid, given or steered, or of a way rejected."""
    found = _SWITCH_CJK.search(clause)
    if found is None:
        return False
    before = clause[: found.start()].strip()
    if _SCOPE_CJK.search(before):
        return False
    return _unsaid(before) or rejected or bool(_GIVEN_CJK.search(clause)) or _STEERED_CJK.search(clause) is not None


def _opening(words: list[str]) -> list[str]:
    """``words`` from the first after the fillers and an opener ("let's", "can we", "how about")."""
    while True:
        while words and words[0] in _FILLERS:
            words = words[1:]
        opener = next((o for o in _OPENERS if tuple(words[: len(o)]) == o), None)
        if opener is None:
            return words
        words = words[len(opener) :]


def _unsaid(before: str) -> bool:
    """Whether ``before`` (a Chinese clause before its verb of switching) holds only fillers: 就, 直接, 那, 还是 ..."""
    while before := before.lstrip(" ,"):
        filler = next((word for word in _UNSAID_CJK if before.startswith(word)), None)
        if filler is None:
            return False
        before = before[len(filler) :]
    return True


def _opens_on_instead(clause: str) -> bool:
    """Whether ``clause`` opens (after fillers) on "instead of" or "rather than": the clause after it is the way."""
    return _opening(_after_fillers(clause))[:1] in (["instead"], ["rather"])


def _asks(clause: str) -> bool:
    """Whether a clause beside the switch asks: it is no rejection of the current way and no keep, and asks
    (`asks.asks`) or, in Chinese, is shaped as an ask."""
    if _REJECTS.search(clause) or _KEEPS.search(clause):
        return False
    from skillmem_hook.search.asks import asks  # noqa: PLC0415 - a prompt naming its skill needs no search

    return asks(clause) or (not clause.isascii() and _asks_by_its_shape(clause))
