"""A change asked of the work at hand, not new work: the prompt opens on a verb of changing or reverting with a
definite object, or corrects what was asked. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _makes_new, _others_ask_new

# A change of the work at hand (0.5.0, thirty-fifth pass, after everyday-long-en:35 and :83, "Change the retry count
# from 5 to 3 and add exponential backoff ...", set U's ue-030, "Revert the changes to `settings.py` but keep ..."): the
# prompt *opens* (after fillers and the agent addressed) on a verb of reverting or putting back and a definite object
# (the / this / that / my / our / its / it / them, a possessive, a backticked name), or of changing, renaming or bumping
# one to another value ("... to Y"): only a thing that exists is changed back or set. Not "set" ("set up the CI" makes),
# "fix" or "update" (a request fixes its product as often), nor move / replace / switch / swap ("move our CI to GitHub
# Actions", a migration, is new work), nor keep / leave (what stays as it is while new work is done: "Keep the same API
# contract in the v2 rewrite ..."). On the tuning data no request of any set opens so (mid-prompt, 40 requests hold such
# a sentence beside their ask, so only the opening is read). Never when a clause asks for a new thing
# (`_others_ask_new`: "Change the banner and write a release note"). Compiled only when a prompt's first 40 characters
# hold a mark.
_OPENING = (
    r"\A\s*(?:(?:ok(?:ay)?|so|now|and|then|also|please|pls|just|actually|hey|alright|great|thanks|can\s+you|"
    r"could\s+you|would\s+you|go\s+ahead\s+and)[,:!.]?\s+)*"
)
# Undone, the object names a thing that is there; set to another value ("change / rename / bump the X ... to Y"),
# the target says so. Not remove / delete / drop / enable / disable / increase / decrease / turn off (review2's C4:
# "Remove the background from product photos ...", "Enable the GitHub Pages site ...", "Increase the test coverage
# of the payments module to 80 percent ..." are requests for new work).
_UNDO_VERBS = r"(?:revert|undo|roll\s+back|restore|put\s+back)"
_SET_VERBS = r"(?:change|rename|bump)"
_DEFINITE = r"(?:the|this|that|these|those|my|our|its|it|them|`|\w+['\u2019]s)\b"
_CHANGE_MARKS = ("change", "rename", "bump", "revert", "undo", "roll", "restore", "put")
# "put it back", "put the old copy back": the object between the verb and "back".
_PUT_BACK = r"put\s+(?:(?:it|them|that|this)|(?:the|my|our)(?:\s+[\w-]+){1,3})\s+back\b"
_CHANGES = lazy_compile(
    rf"{_OPENING}(?:{_UNDO_VERBS}\s+(?:\w+\s+)?{_DEFINITE}|{_SET_VERBS}\s+(?:\w+\s+)?{_DEFINITE}[^;!?\n]{{0,80}}?\bto\b"
    rf"|{_PUT_BACK})",
    re.IGNORECASE,
)
# The Chinese change: the prompt opens (after 好 / 嗯 / 那 / 请 / 你) on 把 and, within its clause, 改成 /
# 改回 / 改为 / 换回 / 恢复 / 撤销 / 回滚 / 去掉 / 删掉 (把 makes its object definite); not 帮我把 ... 改成 (a
# request for help: set H's h2-024, "帮我把两个 Go 服务之间的调用从 HTTP JSON 改成 gRPC"), nor 换成 (a
# migration). NFKC has made the full-width comma ASCII.
_CHANGES_CJK = lazy_compile(
    r"\A\s*(?:(?:好的|好|嗯|那|行|请|你)[,.!]?\s*)*把[^,.!?;\n]{1,30}?(?:改成|改回|改为|换回|恢复|撤销|回滚|去掉|删掉)"
)
_OPENING_SPAN = 40  # the marks read in the prompt's first characters: the verb opens it, after a few fillers
# What was asked, corrected: "I asked for the PDF export button to be disabled while loading, not hidden" (set G's
# ge-037), 我要的是 X, 不是 Y; the clause from "I asked for" / "I said" / "I wanted" to a comma and "not". Compiled only
# on the marks.
_CORRECTION_MARKS = ("i asked for", "i said", "i wanted", "我要的是")
_CORRECTS = lazy_compile(
    r"\bI\s+(?:asked\s+for|said|wanted)\b[^.?!;\n]{1,80}?,\s*(?:and\s+)?not\b|我要的是[^。!?;\n]{1,40}?,\s*(?:而)?不是",
    re.IGNORECASE,
)


# An edit of a work's numbered part (0.5.0, thirty-ninth pass, after set AC's ace-011, "... emails 3 and 4 say basically
# the same thing ... Merge them, and move the customer quote from email 4 into email 2", and ace-059, "演示文稿第五页的
# 增长曲线 ..., 换成今年一到九月的"): a part named by its number (email 3, pages 3 and 5, slide 7, section 2, 第五页,
# 第二封, 第三段) is a part of a thing already there, and a clause that opens on a verb of editing (merge, move, swap,
# tighten, shorten, reorder, ...; 换成, 改成, 挪到, 合并, 删掉, 压成, 调整, 按 ... 排) edits it. Not a step, an item
# or a point (步 / 条 / 点): a request's plan numbers its steps ("1) port ..., 2) ...", "第 2 步你帮我弄一下"). Read
# anywhere in the prompt, never when it asks for help (帮: "正文先不动, 你帮我把每一封的标题各出 5 个版本", set J's
# j2-027) or, its verbs of editing aside, for a new thing (`_makes_new`, the edit's own clause too: "Split pages 1 to
# 10 of contract.pdf into a separate PDF file.", "Merge slides 3 and 4 ... into one slide and add a chart", review3's
# 1b). Compiled only on the marks.
_PART_MARKS = (
    "email", "page", "slide", "section", "paragraph", "chapter", "scene", "tweet", "frame", "screen", "第",
)  # fmt: skip
_NUMBERED_PART = lazy_compile(
    r"\b(?:emails?|pages?|slides?|sections?|paragraphs?|chapters?|scenes?|tweets?|frames?|screens?)\s+(?:#\s*)?\d+\b"
    r"|第\s*[一二三四五六七八九十两\d]+\s*(?:页|张|封|段|节|章|篇|幕|屏|部分)",
    re.IGNORECASE,
)
_EDIT_MARKS = (
    "merge", "move", "swap", "tighten", "shorten", "trim", "cut", "reorder", "rearrange", "reword", "rephrase", "drop",
    "combine", "split", "condense", "shrink", "换成", "改成", "改为", "挪", "移到", "合并", "删", "去掉", "压成",
    "缩短", "精简", "调整", "拆成", "排",
)  # fmt: skip
_EDITS = lazy_compile(
    r"(?:^|[,.;:!\n]\s*|\b(?:and|then|also|please|just|now|so)\s+)(?:merge|move|swap|tighten|shorten|trim|cut|reorder"
    r"|rearrange|reword|rephrase|drop|combine|split|condense|shrink)\b"
    r"|换成|改成|改为|挪到|移到|合并|删掉|去掉|压成|缩短|精简|调整|拆成|按[^,.;:!?\n\u3002]{1,20}?排",
    re.IGNORECASE | re.MULTILINE,
)


def _edits_a_part(text: str) -> re.Match[str] | None:
    """The edit of a numbered part ("Merge them" beside "emails 3 and 4", 换成 beside 第五页), or None."""
    folded = text.lower()  # both marks read before either pattern compiles (第, "page" alone are common: review3's 5)
    if "帮" in text or not any(mark in folded for mark in _EDIT_MARKS) or not any(m in folded for m in _PART_MARKS):
        return None
    return _EDITS.search(text) if _NUMBERED_PART.search(text) else None


def _changes_what_is_there(text: str, typed: str) -> bool:
    """Whether ``text`` asks a change of what is at hand and nothing new: "Change the retry count from 5 to 3",
    "Revert the changes to `settings.py`", "把超时改回 30 秒", "I asked for X to be disabled, not hidden", "Merge
    emails 3 and 4"."""
    found = _opens_on_a_change(text) or _corrected(text)
    if found is not None and _others_ask_new(text, found.start(), found.end(), typed):
        return False
    if _edits_a_part(text) is not None:  # the edit's own clause read too ("Split page 3 into a separate PDF")
        return not _makes_new(_EDITS.sub(" ", typed))
    return found is not None


def _opens_on_a_change(text: str) -> re.Match[str] | None:
    """The opening change ("Change the", "把 ... 改回"), or None."""
    head = text[:_OPENING_SPAN]
    found = _CHANGES_CJK.match(text) if "把" in head else None
    if found is not None:
        return found
    folded = head.lower()  # and an English opening with 把 in it ("Revert the commit that renamed 把手 ...")
    return _CHANGES.match(text) if any(mark in folded for mark in _CHANGE_MARKS) else None


def _corrected(text: str) -> re.Match[str] | None:
    """The correction of what was asked ("I asked for X, not Y", "我要的是 X, 不是 Y"), or None."""
    folded = text.lower()
    return _CORRECTS.search(text) if any(mark in folded for mark in _CORRECTION_MARKS) else None
