"""A doubt about a result thought aloud: the user wonders whether a thing is so, and asks nothing. Pure: text in, a
yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _WANTS_A_THING, _clause_end, _opens, _others_ask_new

# A doubt thought aloud (0.5.0, thirty-second pass, after set Y's ye-028, "Hmm, I'm wondering if the drop in coverage
# at the 3' end is real or just an artifact of the library prep. Let's not change anything yet, I want to think about
# it."): the prompt opens, after fillers and a "hmm" / 嗯, on "I'm (just / still) wondering if / whether", "I wonder
# if / whether", or "hmm, maybe" (the "hmm" said: "hmm, maybe the batch effect is real"); in Chinese on 我在想是不是 /
# 我在想会不会, 我怀疑 (not 我怀疑你: what the agent did, doubted), 不知道是不是, or 嗯 and 可能 / 也许 / 大概是. A
# wondering names no task: what is wondered about is a result in front of the two. Never when the prompt also asks:
# a question mark but the wondering clause's own ("..., can you check?"), "can / could / would you", "please", "help",
# 帮 / 请 (not 请求) / 吗, or a clause that asks for a new thing (`_others_ask_new`; the wants only as a thing wanted:
# "I want to think about it" asks nothing). Mid-prompt the same words are a request's own ("now I'm wondering what
# else leaks. Can you go through our Rust Ed25519 wrapper", set V's v1-030; "我怀疑老代码里有不少 DB::raw, 你帮我从代码
# 层面先扫一轮", set L's l2-030). Compiled only on the marks.
_ALOUD_MARKS = ("wonder", "maybe", "我在想", "我怀疑", "不知道是不是", "可能", "也许", "大概是")
_HMM = lazy_compile(r"^\s*(?:h+m+|嗯+)\s*[,.!\u2026\u3002]*\s*", re.IGNORECASE)
_ALOUD = lazy_compile(
    r"I(?:['\u2019]m|\s+am)\s+(?:just\s+|still\s+|kind\s+of\s+)?wondering\s+(?:if|whether)\b|I\s+wonder\s+(?:if|whether)\b"
    r"|我在想(?:是不是|会不会)|我怀疑(?!你)|不知道是不是",
    re.IGNORECASE,
)
_MUSED = lazy_compile(r"maybe\b|(?:可能|也许|大概)是", re.IGNORECASE)  # after a "hmm" said only
_STILL_ASKS = ("?", "can you", "could you", "would you", "please", "help", "帮", "请", "吗")


def _thinks_aloud(text: str, typed: str) -> bool:
    """Whether ``text`` opens on a doubt about a result, wondered aloud, and asks nothing: "Hmm, I'm wondering if the
    drop in coverage is real or just an artifact", "我在想是不是前端缓存的问题"; not "I'm wondering what else leaks.
    Can you go through our wrapper ..."."""
    folded = text.lower()
    if not any(mark in folded for mark in _ALOUD_MARKS):
        return False
    hmm = _HMM.match(text)
    start = hmm.end() if hmm is not None else 0
    found = _ALOUD.match(text, start)
    if found is None and hmm is not None:
        found = _MUSED.match(text, start)
    if found is None:
        found = _ALOUD.search(text)
        if found is None or not _opens(text[: found.start()].lower()):
            return False
    end = min(_clause_end(text, found.end()) + 1, len(text))  # with its stop: "。" opens no clause of `_MAKING`'s
    asked = text.lower().replace("请求", "")  # a request (HTTP), not please
    if text[end - 1 : end] == "?":  # the wondering asked as a question is still wondered
        asked = asked[: end - 1] + asked[end:]
    if any(ask in asked for ask in _STILL_ASKS):
        return False
    return not _others_ask_new(text, found.start(), end, typed, wanted=_WANTS_A_THING)
