"""The readings of a prompt's clauses the readings of the work at hand share: a mark then a pattern, what opens a
prompt, where a clause ends, a new thing asked for or a question asked ahead.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile


def _marked(text: str, marks: tuple[str, ...], pattern: re.Pattern[str]) -> bool:
    """Whether ``text`` holds one of ``marks`` (in lower case) and then matches ``pattern``.

    Each rule of the work at hand that needs a pattern of its own compiles it only on a prompt holding a
    word the pattern cannot match without: most warm prompts compile none of them.
    """
    folded = text.lower()
    return any(mark in folded for mark in marks) and pattern.search(text) is not None


# The fillers and the agent addressed that may open a prompt before its ask, and the verbs of making a new thing
# (0.5.0, twenty-second pass: a check asked again, `questioned._checks_again`, is the ask itself when it opens the
# prompt or no other clause makes a new thing; `_others_ask_new` reads the same verbs).
# Read with str methods, and the pattern of making compiled only on a prompt holding one of its words: compiled on
# every check found, the two patterns cost a warm route of a short turn at hand 4 to 8 % of its instructions.
_OPENING_FILLERS = (  # a longer word before the shorter it begins with ("okay", "ok")
    "go ahead and", "can you", "could you", "would you", "will you", "yourself", "alright", "please", "okay",
    "right", "then", "just", "now", "and", "pls", "you", "ok", "so", "你自己", "好的", "麻烦", "好", "嗯", "那", "行",
    "你", "请",
)  # fmt: skip
_SKIPPED = " \t\n,.!:;\u3002"  # NFKC has made the full-width punctuation ASCII, not 。
_MAKING_MARKS = (
    "write", "build", "create", "generate", "extract", "convert", "set", "draft", "design", "implement", "scaffold",
    "make", "写", "做", "搞", "建", "搭", "画", "出", "生成", "创建", "新建", "开发", "设计", "起草", "实现",
)  # fmt: skip
_MAKING = lazy_compile(
    r"(?:^|[,.;:!?\n]\s*|\b(?:and|then|also|please|pls|just|first|now|so|you|me|us|to|let['\u2019]?s)\s+)"
    r"(?:write|build|create|generate|extract|convert|set\s+up|draft|design|implement|scaffold|make\s+(?:a|an|me|us|new)"
    r")\b"
    r"|(?:写|做|搞|建|搭|画|出|生成|创建|新建|开发|设计|起草|实现)(?:一个|一份|一套|一张|一篇|一版|一段|个|份|套|张|篇)"
    r"|(?:生成|创建|新建|起草)(?!的)",
    re.IGNORECASE | re.MULTILINE,
)


# A clause that asks for something new (0.5.0, twenty-second pass narrowed again, after set S's s1-020, "... I want:
# the pill slides over ... Same treatment for the signup button"): one led by a verb of making (`_MAKING`), or the
# user's wants stated, "I want:" / "we need a" / "I'd like to" (a colon, an article or "to" after the verb: "I need
# it before the deploy" states no new thing), 我想要 / 我们需要 / 我希望. A turn carrying the session's task on, or
# asking why, asks for nothing new beside it. Compiled only on the marks.
_WANT_MARKS = ("want", "need", "like", "想要", "需要", "希望")
_WANTED = r"\b(?:I|we)(?:\s+(?:really|also|just|would)|['\u2019]d)?\s+(?:want|need|like)"
_WANTED_CJK = r"|我们?(?:想要|需要|希望)"
_WANTS = lazy_compile(rf"{_WANTED}(?:\s*:|\s+(?:a|an|to|some)\b){_WANTED_CJK}", re.IGNORECASE)

# The wants stated as a thing wanted, not "to" and a verb (0.5.0, thirtieth pass): beside a question of the work's
# state or the agent's means, "I need to know whether to leave it overnight" (set W's we-019) or "I want to be sure"
# (we-031) asks for no new thing; "I want a summary", "we need some plots" do.
_WANTS_A_THING = lazy_compile(rf"{_WANTED}(?:\s*:|\s+(?:a|an|some)\b){_WANTED_CJK}", re.IGNORECASE)


def _others_ask_new(text: str, start: int, end: int, typed: str, wanted: re.Pattern[str] | None = None) -> bool:
    """Whether the clauses of ``text`` outside ``start:end`` ask for a new thing: a verb of making, or wants stated.

    Read in the prompt as ``typed`` (the clause taken out where found there): a quoted message's words are not the
    user's, but one taken out wrongly (set S's s1-020: the quote closing ``class="on"`` read as one opening a
    message, which swallowed its "I want:") leaves the request no ask of its own; a spec quoted is a request's.
    ``wanted`` reads the wants (`_WANTS` unless given).
    """
    at = typed.find(text[start:end])
    clauses = typed[:at] + "\n" + typed[at + end - start :] if at != -1 else text[:start] + "\n" + text[end:]
    return _marked(clauses, _MAKING_MARKS, _MAKING) or _marked(clauses, _WANT_MARKS, wanted or _WANTS)


# A new thing asked for in a clause's words (0.5.0, thirty-sixth pass; one list since mend3, read by a rule's clauses,
# a hold's rest and a numbered part's edit): a move of the work to another way (migrate, port, move, convert, 迁, 换成,
# 转成), a new thing added (add / introduce / integrate a, 加一个 / 一张, 加上, 添加, 新增), or a part made a thing
# of its own ("into a separate PDF file", "into its own Word document", 拆成一个单独的 / 成新的 / 成一份: review3's
# requests, "Split pages 1 to 10 of contract.pdf into a separate PDF file.").
_NEW_THING_MARKS = (
    "migrat", "port", "move", "convert", "迁", "换成", "转成", "add", "introduce", "integrate", "加", "添加", "新增",
    "into", "单独的", "独立的", "成新的", "成一", "新",
)  # fmt: skip
_NEW_THING = lazy_compile(
    r"\b(?:migrate|port|move|convert)\b|迁|换成|转成|\b(?:add|introduce|integrate)\s+(?:a|an|some|new)\b"
    r"|加(?:一(?![下点些])|个|上)|添加|新增"
    r"|\binto\s+(?:(?:a|an|one)\s+(?:new|separate|single|standalone)|(?:its|their)\s+own)\b"
    r"|(?:单独|独立)的|成(?:新的|一[个份])|一[个份张篇套]新",
    re.IGNORECASE,
)


def _makes_new(text: str) -> bool:
    """Whether ``text`` asks for a new thing: a thing added, moved to another way or made, or wants stated."""
    return _marked(text, _NEW_THING_MARKS, _NEW_THING) or _makes_a_thing(text)


def _makes_a_thing(text: str) -> bool:
    """Whether ``text`` asks for a thing made (a verb of making) or states wants: `_makes_new` less what is added."""
    return _marked(text, _MAKING_MARKS, _MAKING) or _marked(text, _WANT_MARKS, _WANTS)


# A question asked ahead: how, to compare (read by `questioned._asks_why` and `_after_its_change`).
_ASKS_AHEAD = lazy_compile(r"\b(?:how|compare|versus|vs)\b|如何|怎么(?!样|会|回事)|怎样|比较|对比", re.IGNORECASE)
_AHEAD_MARKS = ("how", "compare", "versus", "vs", "如何", "怎么", "怎样", "比较", "对比")


# A short turn (0.5.0, forty-ninth pass): what fits 240 columns, a CJK character two (as a terminal shows it), a line
# or two. A turn steering the work at hand is one; a request brings its context. On the tuning data 88 % of the English
# everyday turns and 16 % of the English requests are of at most 200 characters; of the Chinese, 94 % and 25 % of at
# most 120. The ranges are named, not read from `unicodedata`, whose table differs between Pythons.
_MOST_COLUMNS = 240


def _short_turn(text: str) -> bool:
    """Whether ``text`` fits ``_MOST_COLUMNS`` columns, a CJK ideograph, kana, hangul or full-width form two."""
    if len(text) > _MOST_COLUMNS:
        return False
    wide = sum(1 for c in text if any(low <= c <= high for low, high in _WIDE))
    return len(text) + wide <= _MOST_COLUMNS


_WIDE = (("\u2e80", "\ua4cf"), ("\uac00", "\ud7a3"), ("\uf900", "\ufaff"), ("\uff00", "\uff60"))


# The marks the steers of the work at hand need (0.5.0, forty-ninth pass: `switched`, `shaped`), read in lower case
# before their modules are imported: a short turn holding none of them imports neither (each module's import cost a
# warm route 1 to 2 ms). Each pattern of the reading cannot match without one of its marks.
_SWITCH_MARKS = (
    "instead", "rather than", "switch", "swap", "replace", "use ", "not ", "改用", "换成", "换用", "改成", "改为",
    "换个", "直接", "用",
)  # fmt: skip
_SHAPE_MARKS = (
    "table", "list", "bullet", "json", "yaml", "markdown", "diff", "patch", "one-liner", "paragraph", "sentence",
    "tl;dr", "tldr", "chinese", "english", "prose", "step", "point", "only", "just the", "just a", "no expl",
    "no comment", "no fences", "no code fences", "no preamble", "no recap", "shorter", "concise", "verbose", "briefer",
    "keep it", "lines", "words", "表格", "列表", "清单", "要点", "中文", "英文", "一句话", "几句话", "编号", "分点",
    "一下", "简短", "短一点", "精简", "简洁", "只给我", "格式",
)  # fmt: skip
_RISK_MARKS = ("?", "吗", "会不会", "多少", "多久", "有没有")


# A clause ends at a comma, a semicolon, a colon, a stop (before a space: "3.11" and "Next.js" stay whole), an
# exclamation or question mark, a line break or a dash between spaces; NFKC has made the full-width marks ASCII, not 。.
_CLAUSE_MARKS = lazy_compile(r"[,;!?:\n\u3002]|\.(?=\s|$)|\s[-\u2013\u2014]\s")


def _split_clauses(text: str) -> list[str]:
    """The clauses of ``text``, stripped, empty ones left out."""
    return [clause.strip() for clause in _CLAUSE_MARKS.split(text) if clause.strip()]


def _clause_end(text: str, start: int) -> int:
    """Where the clause of ``text`` from ``start`` ends: its first stop, question mark or line break (read with str
    methods: a pattern compiled for it cost a warm route of a why question more than the reading itself)."""
    ends = [at for at in (text.find(mark, start) for mark in ".!?;。\n") if at != -1]
    return min(ends) if ends else len(text)


def _opens(before: str) -> bool:
    """Whether ``before`` (lower case) holds only fillers and the agent addressed: "ok now ", "can you ", "你自己"."""
    while before := before.lstrip(_SKIPPED):
        filler = next((word for word in _OPENING_FILLERS if before.startswith(word)), None)
        if filler is None or (filler.isascii() and before[len(filler) : len(filler) + 1].isalnum()):
            return False
        before = before[len(filler) :]
    return True
