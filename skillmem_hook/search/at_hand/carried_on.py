"""The task carried on to its next case: "do the same for the other file", "settings 页面也按同样的 color token
改一下". Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _clause_end, _opens, _others_ask_new

# The task carried on to its next case (0.5.0, twenty-second pass, after set R's re-019, re-088 and re-091; narrowed
# after hostile9): a back-reference to something done in the session, in a clause that opens, after fillers, on
# "same" and a thing done ("same fix in the staging module", "same thing but for the header"), or on "same for X"
# as the whole clause ("same for the footer."); on a verb told and "the same" before its next case ("do the same for
# the other file"), or "the same" and a thing done within four words ("Apply the same margin and font fix to the
# credit note"); or a clause ending on "the same way" that names no "every / all / each / both" (a rule's
# uniformity, "Configure ESLint in every package the same way.", not a back-reference; nor "go the same way", a
# fate). Not "the same" and a thing of the request's own ("Run the same test suite on Windows, macOS and Linux",
# "Same day delivery for a Shopify store", "Keep the same API contract in the v2 rewrite": hostile9), nor a verb
# in -ing ("running the same JQL for", a request's routine), nor after a label's colon ("today: same for Telegram",
# set M's m1-010). In Chinese 也 and a back-reference: 也按 / 也照 and 同样 / 这样 / 这个 / 一样 ("settings 页面也按
# 同样的 color token 改一下"), 也这样 / 也一样 and a verb of changing, 也加上 / 也补上 and 同样 / 一样 / 类似的, or
# 也加上 / 也补上 / 也改一下 closing the clause, its object the topic before ("order service 和 inventory service
# 也加上,"). Not 照着 (a request's model: "照着这份 JD 改一下我的简历"), nor "the exact same thing for", set Q's
# request style. NFKC has made the full-width comma ASCII. Three patterns, each compiled only on a prompt holding
# its own marks ("same"; "same" and "way"; 也 and its next word) (docs/notes/route.md, tidy3).
_DONE = r"(?:thing|fix|change|treatment|edit|tweak)(?:e?s)?"  # a thing done in the session, named as such
_CARRIES_ON = lazy_compile(
    r"(?:^|[.!?;,\n]\s*)(?:(?:now|ok|okay|and|then|also|please|pls|just|so|great|cool|nice|perfect)\b[,!.]?\s+)*"
    rf"(?:(?:the\s+)?same\s+{_DONE}(?:\s+but)?\s+(?:for|to|in|on)\b"
    r"|(?:the\s+)?same\s+(?:for|to|in|on)(?:[ \t]+[\w'./-]+){1,5}[ \t]*(?:[.!?;,]|$)"
    rf"|(?![a-z]{{3,}}ing\b)[a-z]+\s+the\s+same(?:(?:\s+[\w-]+){{0,3}}?\s+{_DONE})?\s+(?:for|to|in|on)\b)",
    re.IGNORECASE | re.MULTILINE,
)
_SAME_WAY = lazy_compile(
    r"(?<!\bgo\s)(?<!\bwent\s)(?<!\bgone\s)\bthe\s+same\s+way\s*(?:[,.;!]|$)", re.IGNORECASE | re.MULTILINE
)
_EVERY = frozenset(("every", "all", "each", "both"))  # a rule's uniformity, read as words (no pattern to compile)
_CARRY_MARKS_CJK = ("也按", "也照", "也这样", "也一样", "也加", "也补", "也改")
_CARRIES_ON_CJK = lazy_compile(
    r"也(?:按|照)(?:同样|这样|这个|一样)|也(?:这样|一样)(?:改|修|处理|弄|做|搞|加)|也(?:加上|加个|补上)(?:同样|一样|类似)的"
    r"|也(?:加上|补上|补一下|改一下|改下|加一下)\s*(?:[,.;!?。\n]|$)",
    re.MULTILINE,
)


def _carries_on(text: str, typed: str) -> bool:
    """Whether ``text`` carries the task on to its next case, and that is its whole ask: "do the same for the other
    file", "settings 页面也按同样的 color token 改一下", "order service 和 inventory service 也加上"; not a first turn
    whose later clause carries its own ask on ("I want: the pill slides over ... Same treatment for the signup
    button")."""
    start = _carry_on_clause(text)
    if start is None:
        return False
    # the clause opens the prompt, or no other clause asks for a new thing
    return _opens(text[:start].lower()) or not _others_ask_new(text, start, _clause_end(text, start + 1), typed)


def _carry_on_clause(text: str) -> int | None:
    """Where the clause of ``text`` that carries the task on starts (its stop or comma before), or None."""
    folded = text.lower()
    if "same" in folded:
        found = _CARRIES_ON.search(text)
        if found is not None:
            return found.start()
        if "way" in folded and (start := _same_way(text)) is not None:
            return start
    if not any(mark in folded for mark in _CARRY_MARKS_CJK):
        return None
    found = _CARRIES_ON_CJK.search(text)
    if found is None:
        return None
    return max(text.rfind(end, 0, found.start()) for end in ",.!?;:\n\u3002") + 1


def _same_way(text: str) -> int | None:
    """Where the clause of ``text`` starts that ends on "the same way" and names no "every / all / each / both"."""
    for found in _SAME_WAY.finditer(text):
        start = max(text.rfind(end, 0, found.start()) for end in ".!?;\n") + 1
        if _EVERY.isdisjoint(re.split(r"\W+", text[start : found.start()].lower())):
            return start
    return None
