"""The work divided: the user takes a part the agent cannot do or reach, and tells it to go on with its own. Pure:
text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _others_ask_new

# The work divided between the user and the agent (0.5.0, thirty-second pass, after set Y's ye-030, "I'll handle the
# Terraform side since you can't apply anything to our AWS account anyway. You keep going on the Flask handlers ...",
# and ye-068, "你没有权限访问客户的内网, 那部分我自己去测。你继续看代码层面的问题就行"): the user takes a part ("I'll",
# "I will", "myself"; 我来 / 我去 / 我自己) and, in the same prompt, tells the agent to go on with what it was doing:
# "you (just) keep going / continue / carry on / keep working / stay on" and "on" or "with" (not "on your own", a
# way of working asked of, set H's h1-032), 你 (就 / 先 / 这边) 继续 / 接着. Only a task started can be gone on
# with, so the turn is about the work at hand. Never when a clause asks for a new thing (`_others_ask_new`): "I'll
# do the Terraform; you write the Helm chart for the API" asks for a chart (and names no going on), "你继续写一个
# 导出脚本" a script, nor when it asks a thing of the agent ("can you", "please", 帮: "你继续帮我把名单拉出来").
# Compiled only on the marks.
_TAKES_MARKS = ("i'll", "i\u2019ll", "i will", "myself")
_TAKES_MARKS_CJK = ("我来", "我去", "我自己")
_GOES_ON = lazy_compile(
    r"\byou\s+(?:just\s+)?(?:keep\s+going|continue|carry\s+on|keep\s+working|stay)\s+(?:on|with)\b(?!\s+your\s+own\b)",
    re.IGNORECASE,
)
_STILL_ASKS = ("can you", "could you", "would you", "please", "帮", "请你", "请帮")  # "你继续帮我把名单拉出来" asks
_GOES_ON_CJK = ("你继续", "你接着", "你就继续", "你先继续", "你这边继续", "你就接着", "你先接着")


def _divides_the_work(text: str, typed: str) -> bool:
    """Whether ``text`` takes a part of the work for the user and tells the agent to go on with its own, asking
    nothing new: "I'll handle the Terraform side. You keep going on the Flask handlers", "那部分我自己去测。你继续看
    代码层面的问题"; not "I'll do the Terraform; you write the Helm chart"."""
    if "你" in text and any(mark in text for mark in _TAKES_MARKS_CJK) and any(go in text for go in _GOES_ON_CJK):
        return not _asks_too(text, typed)
    folded = text.lower()
    if not any(mark in folded for mark in _TAKES_MARKS) or "you" not in folded:
        return False
    return _GOES_ON.search(text) is not None and not _asks_too(text, typed)


def _asks_too(text: str, typed: str) -> bool:
    """Whether ``text`` also asks a thing of the agent: "can you", "please", 帮, or a new thing (`_others_ask_new`)."""
    folded = text.lower()
    return any(ask in folded for ask in _STILL_ASKS) or _others_ask_new(text, 0, 0, typed)
