"""The agent's means asked: whether it can see, open, reach or run a thing, what it remembers, which model or tools
it has. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _WANTS_A_THING, _opens, _others_ask_new

# A question on the agent's means (0.5.0, thirtieth pass, after set W's we-010, "Before you go further: can you see
# the Semgrep results I dropped in reports/semgrep.sarif, or is that outside your workspace?"): a question (to its
# "?") that opens, after fillers or a label's colon, on "can / could you (actually / even / directly / still)" and
# see / open / access / reach / view / connect to, or on read / run / execute / use where the question names the
# agent's side ("in this environment", "your sandbox / workspace / session / shell", "from your side", "from where
# you are", "yourself") or gives an alternative ("..., or only edit files?"); on "are you able to", "do you (still)
# have access", "do you (still) remember / recall", "do you have ... in your sandbox", "which model / tools"; in
# Chinese, in the prompt's first sentence, 你 and 能 / 可以 and 看到 / 打开 / 读 / 访问 / 连 / 运行 / 跑 closing on 吗
# or 还是 (运行 / 跑 / 读 only with 直接, 那边 / 这边, or 还是), 你看得到 ... 吗, 你还记得 ... 吗, 你 ... 有 access 吗,
# 你 (那边 / 这边) 的 环境 / sandbox / environment 里有 ... 吗, 你 ... 用的是 哪个 / 什么 模型 / model. The
# question is the whole ask: "Can you run a Semgrep scan over the repo and triage the findings?" asks for the scan
# ("and" and a verb, "," and a verb in the question), "能不能帮我把 X 转成 Y" asks for the conversion (帮 / 把 /
# 然后 in the question), and another clause that asks for a new thing (`_others_ask_new`) is a request's. Not "can
# you read / run / use X" alone: on the tuning data twelve requests ask so ("Can you read the report, pick out the 10
# to 12 points", "can you use the composio tools to make it so ...", "最好你能直接连进去, 把 ..."). Compiled only on
# the marks.
_MEANS_MARKS = ("you", "你")
_SIDE = (
    r"(?:\b(?:this|that|your|the)\s+(?:environment|sandbox|workspace|session|shell|container|machine)\b"
    r"|\bfrom\s+(?:your\s+side|where\s+you\s+are|your\s+end)\b|\byourself\b|,?\s+or\s+(?:only|just|is|are|do|should"
    r"|can|will|would|does)\b)"
)
_MEANS = lazy_compile(
    r"(?P<ask>(?:can|could)\s+you\s+(?:actually\s+|even\s+|directly\s+|still\s+|now\s+)?"
    r"(?:(?:see|access|reach|view|connect\s+to)\b|(?P<act>open|read|run|execute|use)\b)"
    r"|are\s+you\s+able\s+to\b|do\s+you\s+(?:still\s+|actually\s+)?(?:have\s+access|remember|recall)\b"
    r"|do\s+you\s+(?:actually\s+)?have\b(?=[^?]*\b(?:sandbox|environment|session|shell|container)\b)"
    r"|which\s+(?:model|tools)\b)[^?]*\?",
    re.IGNORECASE,
)
_SIDE_PATTERN = lazy_compile(_SIDE, re.IGNORECASE)
_DONE_TOO = lazy_compile(
    r"\band\s+(?!is\b|are\b|do\b|does\b|can\b)[a-z]+\b|,\s*(?!or\b)(?-i:[a-z]+)\b(?!\s+(?:you|it|that|this)\b)",
    re.IGNORECASE,
)
_MEANS_CJK = lazy_compile(
    r"你[^,.?!。吗]{0,12}?(?P<can>能|可以)(?:(?:直接|自己)?(?:看到|看得到|打开|访问|连上?)|(?P<act>(?:直接|自己)?(?:运行|跑|读|执行)))"
    r"[^?。]*?(?:吗|还是)|你[^,.?!。]{0,6}看得到[^?。]*?吗|你还记得[^?。]*?吗|你[^,.?!。]{0,8}有\s*access[^?。]*?吗"
    r"|你[^,.?!。]{0,6}(?:的)?\s*(?:环境|sandbox|environment)[^,.?!。]{0,4}有[^?。]*?吗"
    r"|你[^,.?!。]{0,16}用的是(?:哪个|什么)\s*(?:模型|model)",
    re.IGNORECASE,
)
_CJK_SIDE = ("直接", "自己", "那边", "这边", "还是")
_CJK_ASKED_AFTER = ("帮", "然后", "并且", "顺便")  # a thing to do asked anywhere else: "能的话帮我翻译成英文"
_CJK_DONE_TOO = ("把", *_CJK_ASKED_AFTER)  # or in the question: "你能把 X 转成 Y 吗" (把 elsewhere is often told)


def _asks_its_means(text: str, typed: str) -> bool:
    """Whether ``text`` asks whether the agent can see, open, reach or run a thing, or what it remembers, and asks
    nothing done: "can you reach NCBI from your sandbox?", "你那边能打开吗?"; not "Can you run a Semgrep scan over
    the repo and triage the findings?"."""
    folded = text.lower()
    if not any(mark in folded for mark in _MEANS_MARKS):
        return False
    if "你" in text:
        first = text.lstrip()
        first = first[: min([at for at in (first.find(mark) for mark in "?!\n\u3002") if at != -1] or [len(first)])]
        found = _MEANS_CJK.search(first)
        if found is not None:
            if found.group("can") and any(mark in found.group() for mark in _CJK_DONE_TOO):
                return False
            if found.group("act") and not any(mark in found.group() for mark in _CJK_SIDE):
                return False
            rest = text[: found.start()] + text[found.end() :]
            if any(mark in rest for mark in _CJK_ASKED_AFTER):
                return False  # "能的话帮我翻译成英文": the question asked before a request
            return not _others_ask_new(text, found.start(), found.end(), typed, wanted=_WANTS_A_THING)
    for found in _MEANS.finditer(text):
        before = folded[: found.start()]
        sentence_start = max(before.rfind(mark) for mark in (". ", "?", "!", ":", "\n"))
        if not _opens(before[sentence_start + 1 :]):
            continue
        question = found.group()[len(found.group("ask")) :]
        if _DONE_TOO.search(question.split(" or ", 1)[0]):
            continue  # "and triage the findings", ", pick out ...": something to do, asked with it
        if found.group("act") and _SIDE_PATTERN.search(found.group()) is None:
            continue
        return not _others_ask_new(text, found.start(), found.end(), typed, wanted=_WANTS_A_THING)
    return False
