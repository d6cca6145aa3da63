"""Someone's words about a thing already there, relayed, and the agent told to act on them. Pure: text in, a yes or no
out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _opens, _others_ask_new

# Words relayed about the work at hand (0.5.0, forty-first pass, after set AD's ade-002, 'Priya left a comment on the
# PR: "..." She's right. Can you make it re-raise the last error after the final attempt?', and ade-097, "市场的 Lisa
# 说 launch post 里的 feature list 太长 ... 她建议只留 top 3 ... 你按这个改一下"): a person's remark (a name, he /
# she / they, a role: "my lead", "the reviewer", "our designer"; 她 / 他 / 老板 / 同事 / 客户 ... and 说 / 建议 /
# 反馈 / 指出 / 提了 / 觉得 / 留言) and then a clause that opens (after fillers, "can you", "please", 你) on an edit of
# what the remark is about, named back: "make it / them <verb>", "make those changes", "fix / change / update /
# address / apply it / that / those", "do that"; 按 / 照 (着) 这个 / 她说的 / 建议 改 / 调 / 处理 / 来. The remark
# reviews a thing already there and the agent's part is the edit, so a request for a skill it is not. Not a
# question relayed (asked / wants / requested: "my manager asked whether we can set up Sentry; can you do it" asks
# for new work), nor any prompt that asks for a new thing anywhere but in the edit's words (`_others_ask_new`: "Fix
# that, then build a dashboard", "你按这个改一下, 再写一份"), nor a back-reference mid-clause
# ("gave us two weeks to fix it", "Settle it and do it"), or one after a comma, a step of a longer ask ("...;
# Tom says ... Decide who's right, fix it with the uip CLI, then give me ...", set AD's ad1-034), but a Chinese
# clause addressing the agent (", 你按这个改"). Compiled only on the marks.
_RELAY_MARKS = (
    "said", "says", "wrote", "comment", "suggest", "pointed out", "flagged", "mentioned", "noted", "replied",
    "thinks", "说", "回复", "建议", "反馈", "指出", "提了", "提到", "觉得", "留言", "评论",
)  # fmt: skip
_SPEAKER = (
    r"(?:\b[A-Z][a-z]+|\b(?i:my|our|the)\s+(?:\w+\s+)?(?:manager|boss|lead|teammate|colleague|coworker|PM|reviewer|"
    r"designer|client|customer|CTO|CEO|QA|team|editor|founder|tester|translator)s?|\b(?:he|she|they))"
)
_RELAY = lazy_compile(
    rf"{_SPEAKER}\s+(?:just\s+|also\s+)?(?:left\s+(?:a\s+|some\s+|two\s+|a\s+few\s+)?(?:comments?|notes?|review)|"
    r"commented|said|says|wrote|suggested|pointed\s+out|flagged|mentioned|noted|replied|thinks)\b"
    r"|(?:他|她|他们|她们|[A-Za-z]+|老板|领导|同事|产品|设计|运营|市场|客户|用户|测试|组长|经理|评审)\s*(?:也|刚|刚刚|又)?"
    r"(?:说|回复|建议|反馈|指出|提了|提到|觉得|留言|评论)",
)
# _EDIT_BACK's verbs, each with the words that may follow it (after a space): the one source of the pattern and of
# `_could_edit_back`'s reading, so that a verb added to one is added to both.
_BACK = ("it", "them", "that", "those", "this", "these")
_MAKE_NAMED = ("the", "those", "these", "that", "this")  # "make the changes": a change, edit or fix named after it
_DO_BACK = ("that", "this")
_EDITS_BACK = ("fix", "change", "update", "address", "apply", "adjust", "tweak", "handle")
_EDIT_VERBS = {**dict.fromkeys(_EDITS_BACK, _BACK), "make": (*_BACK, "the"), "do": _DO_BACK}
_CN_BACK = (
    "这个", "这样", "她说的", "他说的", "他们说的", "她们说的", "这些", "建议", "意见", "反馈", "她的意思", "他的意思",
)  # fmt: skip
_CN_EDIT = ("改", "调", "处理", "来")
# Case folded as `_could_edit_back` folds it: ASCII letters only (re.ASCII), so a capital dotted İ, which
# ``str.lower`` makes two code points, matches on neither side ("FIX THİS").
_EDIT_BACK = lazy_compile(
    rf"(?:make|{'|'.join(_EDITS_BACK)})\s+(?:{'|'.join(_BACK)})"
    r"(?:\s+(?:two|three|few)?\s*(?:changes|edits|fixes))?\b(?!\s+(?:into|a|an)\b)"
    rf"|make\s+(?:{'|'.join(_MAKE_NAMED)})\s+(?:\w+\s+)?(?:changes?|edits?|fix(?:es)?)\b|do\s+(?:{'|'.join(_DO_BACK)})\b"
    rf"|(?:就|先)?(?:按|照)着?(?:{'|'.join(_CN_BACK)})(?:{'|'.join(_CN_EDIT)})",
    re.IGNORECASE | re.ASCII,
)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _relays_an_edit(text: str, typed: str) -> bool:
    """Whether ``text`` relays a person's remark on a thing already there and tells the agent to make the edit: "Priya
    left a comment on the PR ... Can you make it re-raise ...", "Lisa 说 ... 太长 ... 你按这个改一下"; not "my
    manager asked whether we can set up X; can you do it"."""
    if not any(mark in text for mark in _RELAY_MARKS) or not _could_edit_back(text):
        return False
    relay = _RELAY.search(text)
    if relay is None:
        return False
    for edit in _EDIT_BACK.finditer(text, relay.end()):
        if _opens(_sentence_before(text, edit.start()).lower()):
            return not _others_ask_new(text, edit.start(), edit.end(), typed)  # the remark's words and the rest
    return False


def _sentence_before(text: str, at: int) -> str:
    """The words of ``text`` from the start of the sentence holding ``at`` up to it; in Chinese a clause after a
    comma that addresses the agent (", 你按这个改") opens one too. An edit after a comma is one step of a longer ask
    ("Decide who's right, fix it with the uip CLI, then ...", set AD's ad1-034: two sides relayed, a request)."""
    start = max(text.rfind(mark, 0, at) for mark in ".!?;\u3002\n")
    comma = text.rfind(",", 0, at)
    if comma > start and text[comma + 1 : at].lstrip().startswith("你"):
        start = comma
    return text[start + 1 : at]


def _could_edit_back(text: str) -> bool:
    """Whether ``text`` holds what every match of ``_EDIT_BACK`` holds: one of its verbs, a space and a word it
    takes ("fix it", "make the", "do this"), or 按 / 照 (着) and a word it takes, then 改 / 调 / 处理 / 来. A few
    string scans, so the patterns (1.2 ms to compile) are compiled only for a prompt they may match, never for the
    common "... said ... make a ..." A loose reading: it may pass what the pattern then refuses, never the reverse, so
    no outcome moves; both read the same tuples and fold only ASCII letters.
    """
    lowered = text.translate(_ASCII_LOWER)
    for verb, takes in _EDIT_VERBS.items():
        at = lowered.find(verb)
        while at >= 0:
            word = _word_after(lowered, at + len(verb))
            # The verb and a word it takes; "make the" only with a change, edit or fix named.
            if (
                word >= 0
                and lowered.startswith(takes, word)
                and (lowered.startswith(_BACK, word) or _names_edit(lowered))
            ):
                return True
            at = lowered.find(verb, at + 1)
    return ("按" in text or "照" in text) and any(_cn_edit_back(text, at) for at, c in enumerate(text) if c in "按照")


def _names_edit(lowered: str) -> bool:
    return "change" in lowered or "edit" in lowered or "fix" in lowered


def _word_after(text: str, at: int) -> int:
    """Where the word after the spaces at ``at`` starts; -1 when no space is there."""
    end = at
    while end < len(text) and text[end].isspace():
        end += 1
    return end if end > at else -1


def _cn_edit_back(text: str, at: int) -> bool:
    """Whether 按 / 照 at ``at`` begins "按这个改", "照着建议来" ... as ``_EDIT_BACK`` reads them."""
    rest = text[at + 1 : at + 12]
    rest = rest[1:] if rest.startswith("着") else rest
    return any(rest.startswith(word) and rest[len(word) :].startswith(_CN_EDIT) for word in _CN_BACK)
