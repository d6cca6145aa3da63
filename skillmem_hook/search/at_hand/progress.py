"""The session's progress asked: whether a run or a task has finished, passed, is still going, how far along it is,
where its output went. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _WANTS_A_THING, _opens, _others_ask_new
from skillmem_hook.search.at_hand.means import _CJK_ASKED_AFTER

# A question on the state of the work (0.5.0, thirtieth pass, after set W's we-043, "Did the echidna campaign finish
# overnight? ..."): the prompt's first sentence is a question (its "?", or 吗 / 没 closing it) that opens, after
# fillers (`_opens`), on "is / are ... done / finished / complete / through (yet)", "did / has / have ... finish /
# complete / pass / succeed / hang / crash", "(is it) still running / going", "how far along", "what's left",
# "where did ... go / end up" and "where did you save / put / write", "how long will / until"; in Chinese the
# sentence holds 跑完了吗 / 做完了没 (a verb and 完, then 了 and 吗 or 没: not 能搞完吗, an estimate asked ahead),
# 还在跑吗, 进度怎么样, 放 / 存哪了, 还要(跑)多久, 还剩 / 还差什么 / 几. Only a thing already started has a state,
# so such a turn is about the work at hand. Never when another clause asks for a new thing (`_others_ask_new`):
# "Did the build pass? Then write the release notes" asks for the notes. Mid-prompt the same words are a request's
# own ("确认名字没被占用, 再查一下配额还剩多少", set T's t2-003; "用户第 7 天还剩多少人", set I's i2-034).
# Compiled only on the marks.
_PROGRESS_MARKS = (
    "done", "finish", "complet", "through", "pass", "succeed", "hang", "hung", "crash", "still", "far along", "left",
    "where did", "how long", "完", "还在跑", "进度", "哪", "多久", "还剩", "还差",
)  # fmt: skip
_PROGRESS = lazy_compile(
    r"(?:is|are|was)\s+(?:[\w./'-]+\s+){0,5}?(?:done|finished|complete|completed|through)\b[^?]{0,40}\?"
    r"|(?:did|has|have)\s+(?:[\w./'-]+\s+){0,5}?(?:finish|finished|complete|completed|pass|passed|succeed|succeeded"
    r"|hang|hung|crash|crashed|end|ended)\b"
    r"|(?:is\s+(?:it|that|this|the\s+[\w./-]+)\s+)?still\s+(?:running|going)\b|how\s+far\s+along\b"
    r"|what['\u2019]?s\s+(?:still\s+)?left\b|where\s+did\s+(?:[\w./'-]+\s+){1,4}?(?:go|end\s+up)\s*\?"
    r"|where\s+did\s+you\s+(?:save|put|write|leave|store)\b|how\s+long\s+(?:will|until|till)\b(?![^?]*\btake\s+to\b)",
    re.IGNORECASE,
)
_PROGRESS_CJK = lazy_compile(
    r"(?:跑|做|改|弄|搞|写|训|测|扫)完(?:了(?:吗|没有?)|没有?)|完了吗|还在跑吗|进度(?:怎么样|如何)|(?:放|存|保存|存到|放到)哪(?:儿|里)?了"
    r"|还要(?:跑|等)?多久|还(?:剩|差)(?:什么|多少|几)"
)
# The first sentence, to its question mark (or a 吗 / 没 / 了 before a line break or the end).
_FIRST_QUESTION = lazy_compile(r"^[^.?!\n\u3002]*?(?:\?|[吗没](?=\s*(?:\n|$)))", re.DOTALL)


def _asks_its_progress(text: str, typed: str) -> bool:
    """Whether ``text`` opens on a question of the work's state and asks nothing new: "is the alignment step done
    yet?", "Did the echidna campaign finish overnight?", "比对跑完了吗?", "还在跑吗?"."""
    folded = text.lower()
    if not any(mark in folded for mark in _PROGRESS_MARKS):
        return False
    stripped = text.lstrip()
    first = _FIRST_QUESTION.search(stripped)
    if first is None:
        return False
    sentence = first.group()
    if sentence.isascii():
        found = _PROGRESS.search(sentence)
        if found is None or not _opens(sentence[: found.start()].lower()):
            return False
    elif _PROGRESS_CJK.search(sentence) is None or any(mark in text for mark in _CJK_ASKED_AFTER):
        return False  # "跑完了吗? 跑完了帮我翻译一下": a thing to do asked after
    start = len(text) - len(stripped)
    return not _others_ask_new(text, start, start + len(sentence), typed, wanted=_WANTS_A_THING)
