"""A change asked of the work at hand, not new work: the prompt opens on a verb of changing or reverting with a
definite object, or corrects what was asked. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _others_ask_new

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


def _changes_what_is_there(text: str, typed: str) -> bool:
    """Whether ``text`` asks a change of what is at hand and nothing new: "Change the retry count from 5 to 3",
    "Revert the changes to `settings.py`", "把超时改回 30 秒", "I asked for X to be disabled, not hidden"."""
    found = _opens_on_a_change(text) or _corrected(text)
    return found is not None and not _others_ask_new(text, found.start(), found.end(), typed)


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
