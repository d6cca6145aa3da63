"""Where a text names a skill: the keys a name or alias is compared by, and the skills a prompt names.

A name or alias may be any words, in any script. A name of one word ("pdf",
"docker") is everyday language, so it counts only when the text marks it as
a name: ``/pdf``, ``$pdf``, ``@pdf``, a quoted or back-ticked `pdf`, or "the
pdf skill"; a short CJK name of the repository's likewise. What a prompt
pastes (a fenced block, a quoted mail) names nothing. Pure: text in, keys
and positions out (the route hook's, in ``agents/route.py``); whether a
turn speaks of the work at hand is ``at_hand``'s.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Protocol, TypeVar

    class Named(Protocol):
        @property
        def label(self) -> str: ...

    Target = TypeVar("Target", bound=Named)  # what a name points at: the route hook's Target

# Only the start of a prompt is read: a name is given near the start, and a
# pasted log of megabytes must not delay the prompt.
MAX_PROMPT_CHARS = 16 * 1024
MAX_NAMED = 3
MAX_KEY_WORDS = 8
# The lower-to-upper turns of a camelCase word a name's hyphens may stand at (``Spellings``): 2 ** 4 keys at most.
MAX_TURNS = 4
# A fenced block of code or output, as Markdown writes one: a line opening with ``` or ~~~ (its info string
# after it), to the line that closes it with the same fence, or to the end of the prompt.
_FENCED_BLOCK = re.compile(
    r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*(?:\n.*?^[ \t]{0,3}\1[ \t]*$|.*\Z)", re.MULTILINE | re.DOTALL
)
# A line quoted as Markdown and mail quote it; a message pasted in double quotes (ASCII, curly or corner).
_QUOTED_LINE = lazy_compile(r"^[ \t]{0,3}>.*$", re.MULTILINE)
_QUOTED_MESSAGE = lazy_compile('"[^"]{80,}"|\u201c[^\u201d]{80,}\u201d|\u300c[^\u300d]{80,}\u300d')
_SEPARATORS = frozenset(" -_")
# What joins a title's words besides a separator ("Tailwind v4 + shadcn/ui Stack", "Search & Replace"): one mark,
# a space on either side or none.
_JOINERS = "+/&"
_JOINER_GAPS = frozenset(
    f"{before}{joiner}{after}" for joiner in _JOINERS for before in ("", " ") for after in ("", " ")
)
_NAME_MARKS = frozenset("/$@`'\"")
_CLOSING_QUOTES = "`'\""
_OPENERS = frozenset("([{<\"'`\u201c\u300c\u300e\u300a\uff08")
_SKILL_WORDS = frozenset({"skill", "skills", "技能"})
# A CJK name of the repository's shorter than this needs a mark, as a one-word English name does.
MIN_UNMARKED_CJK = 4
_CJK_NAME_MARKS = _NAME_MARKS | frozenset("“「『《")
_CJK_CLOSING = frozenset(_CLOSING_QUOTES + "”」』》")
# Kana, CJK ideographs, Hangul: scripts written without spaces between words.
_CJK_RANGES = (("\u3040", "\u30ff"), ("\u3400", "\u9fff"), ("\uac00", "\ud7af"), ("\uf900", "\ufaff"))
_CJK_CLASS = "".join(f"{low}-{high}" for low, high in _CJK_RANGES)
# Words: a run of CJK apart from a run of other letters and digits, since Chinese glues an English name to its
# sentence ("用pdf技能填表": 用, pdf, 技能填表); a name's key has no CJK by then, so there they are its letters' runs.
_WORD = re.compile(f"[{_CJK_CLASS}]+|[^\\W_{_CJK_CLASS}]+")
# The CJK word for "skill", which the next word follows with no space ("pdf 技能填表").
_CJK_SKILL_WORDS = ("技能",)


def name_key(text: str) -> str:
    """How a name or alias is compared: NFKC, case-folded, words joined by '-'; CJK text as it is."""
    folded = _folded(text)
    if _has_cjk(folded):
        return folded.strip()  # no spaces between CJK words: compared as a substring
    return "-".join(_WORD.findall(folded))


def titled_key(text: str) -> str | None:
    """The key of a name whose words are joined by a ``+``, ``/`` or ``&`` too ("Tailwind v4 + shadcn/ui Stack":
    ``tailwind-v4+shadcn/ui-stack``), as ``named_skills`` builds one from a prompt's run of words; None for a name
    without such a join (its words' key, ``name_key``, is all it has) or with other marks between its words."""
    folded = _folded(text).strip()
    if _has_cjk(folded) or not any(joiner in folded for joiner in _JOINERS):
        return None
    words = list(_WORD.finditer(folded))
    if len(words) < 2 or words[0].start() or words[-1].end() != len(folded):
        return None
    key, titled = words[0].group(), False
    for before, word in zip(words, words[1:]):
        gap = folded[before.end() : word.start()]
        if gap in _JOINER_GAPS:
            key, titled = key + gap.strip() + word.group(), True
        elif len(gap) == 1 and gap in _SEPARATORS:
            key += "-" + word.group()
        else:
            return None
    return key if titled else None


def folder_keys(entries: Iterable[tuple[str, list[str]]]) -> list[list[str]]:
    """Each skill's keys (``skill_keys``), given with its folder's name, with that name as a key of its own,
    '!folder', where no skill is named so (a user sees ``cloudflare-r2`` in a path and types it for "Cloudflare R2
    Object Storage"). It names the skill only where marked as a name is ("the cloudflare-r2 skill",
    ``/cloudflare-r2``, `` `cloudflare-r2` ``), whatever its words: a folder's name is no word the skill chose. A CJK
    folder's name adds none."""
    listed = [(name_key(folder), keys) for folder, keys in entries]
    taken = {key.lstrip("=+~^&") for _, keys in listed for key in keys}
    return [
        sorted([*keys, "!" + folder]) if folder and folder not in taken and not _has_cjk(folder) else keys
        for folder, keys in listed
    ]


def skill_keys(names: Iterable[str], aliases: Iterable[str]) -> list[str]:
    """The keys a prompt can name a skill by, sorted: ``names`` are the repository's words, ``aliases`` the user's.

    '=word' is a one-word name (it needs a mark), '+words' a name of several
    words written without spaces (``grafana-dashboards``: typed with spaces,
    "Grafana dashboards" is everyday language, so then it needs a mark),
    '~text' a CJK name or alias (found anywhere in the text), '^text' a short
    CJK name of the repository's (it needs a mark: 帮我 or 一下 would be found
    in most Chinese prompts), '&words' a name whose words a ``+``, ``/`` or ``&`` joins too (``titled_key``: it
    needs a mark as well), and any other key a run of words however joined.
    """
    names = list(names)
    keys = {_kind(name_key(name), trusted=False, spaced=" " in name.strip()) for name in names}
    keys |= {"&" + titled for titled in map(titled_key, names) if titled}
    keys |= {_kind(name_key(alias), trusted=True) for alias in aliases}
    return sorted(key for key in keys if len(key.lstrip("=+~^")) > (1 if key[:1] in ("~", "^") else 0))


def _kind(key: str, *, trusted: bool, spaced: bool = True) -> str:
    if _has_cjk(key):
        return "~" + key if trusted or len(key) >= MIN_UNMARKED_CJK else "^" + key
    if trusted:
        return key
    if "-" not in key:
        return "=" + key
    return key if spaced else "+" + key


class Spellings:
    """A collection's skill names as a product's usual spelling writes them in one word:
    a camelCase word is one when, case-folded and with a hyphen at none, some or all of its lower-to-upper turns,
    it is a key of the name table (``skill_keys``: names and aliases), so "libFuzzer" is ``libfuzzer`` and
    "addressSanitizer" ``address-sanitizer``. Looked up, not made: a set of every key spelled so cost a prompt of
    a 1,900-key collection 0.9 ms, a few key look-ups cost microseconds."""

    __slots__ = ("_table",)

    def __init__(self, table: Mapping[str, object]) -> None:
        self._table = table

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word.isascii():
            return False
        turns = [at for at in range(1, len(word)) if word[at].isupper() and word[at - 1].islower()][:MAX_TURNS]
        folded = word.casefold()
        for hyphens in range(1 << len(turns)):
            key, last = "", 0
            for bit, at in enumerate(turns):
                if hyphens >> bit & 1:
                    key, last = key + folded[last:at] + "-", at
            key += folded[last:]
            if key in self._table or "=" + key in self._table or "+" + key in self._table:
                return True
        return False


def build_name_table(entries: Iterable[tuple[Target, Iterable[str]]]) -> dict[str, list[Target]]:
    """Map each key (from ``skill_keys``) to the skills it names."""
    table: dict[str, list[Target]] = {}
    for target, keys in entries:
        for key in keys:
            table.setdefault(key, []).append(target)
    return table


def _folded(text: str) -> str:
    if text.isascii():
        return text.casefold()  # NFKC leaves ASCII as it is
    return unicodedata.normalize("NFKC", text).casefold()


def _has_cjk(text: str) -> bool:
    return not text.isascii() and any(low <= character <= high for character in text for low, high in _CJK_RANGES)


def in_pasted_block(text: str, at: int) -> bool:
    """Whether ``text[at]`` is inside a fenced block of code or output (``without_pasted_blocks``'s)."""
    if "```" not in text and "~~~" not in text:
        return False
    return any(block.start() <= at < block.end() for block in _FENCED_BLOCK.finditer(text))


def without_pasted_blocks(text: str) -> str:
    """``text`` with each fenced block of code or output (its ```python line too) left out: a paste, not the ask."""
    if "```" not in text and "~~~" not in text:
        return text
    return _FENCED_BLOCK.sub("\n", text)


# A clause that rules a thing out: "I'm not asking for a full Vault
# setup", "I don't need X", "rather than X", "instead of X", "不是要X", "不需要X", "别给我X". It runs to the end of
# its sentence, or to a comma or dash (English) or a Chinese comma: the ask often follows ("I don't need X, I need Y").
_RULED_OUT_MARKS = (
    "not asking",
    "not looking",
    "n't need",
    "n't want",
    "not need",
    "not want",
    "rather than",
    "instead of",
    "\u4e0d\u662f\u8981",
    "\u4e0d\u9700\u8981",
    "\u522b\u7ed9\u6211",
)
_RULED_OUT = lazy_compile(
    r"\b(?:(?:i['\u2019]?m|i\s+am|we['\u2019]?re|we\s+are)\s+not\s+(?:asking|looking)\s+for"
    r"|(?:i|we)\s+(?:don['\u2019]?t|do\s+not)\s+(?:need|want)|rather\s+than|instead\s+of)\b[^.;!?\n,\u2014]*"
    r"|(?<!\u662f)\u4e0d\u662f\u8981[^\u3002\uff01\uff1f\uff1b\uff0c\n,;]*"  # 不是要, not 是不是要 (is it needed)
    r"|(?:\u4e0d\u9700\u8981|\u522b\u7ed9\u6211)[^\u3002\uff01\uff1f\uff1b\uff0c\n,;]*",  # 不需要, 别给我
    re.IGNORECASE,
)


def without_ruled_out(text: str) -> str:
    """``text`` without the clauses that rule a thing out: what the user does not want names no skill for them.

    The pattern is compiled only when a prompt holds one of the marks, so most warm prompts compile nothing.
    """
    folded = text.lower()
    if not any(mark in folded for mark in _RULED_OUT_MARKS):
        return text
    return _RULED_OUT.sub(" ", text)


def users_own(text: str) -> str:
    """``text`` without what the user pasted rather than wrote: fenced blocks, lines quoted
    with '>' (a forwarded mail, a reviewer's comments, a command's echo) and a message of 80 characters or more
    in double quotes ('Ticket GROW-412 says: "Customers keep asking..."'). A hint comes from the user's own words."""
    text = without_pasted_blocks(text)
    if ">" in text:
        text = _QUOTED_LINE.sub("", text)
    if '"' in text or "\u201c" in text or "\u300c" in text:
        text = _QUOTED_MESSAGE.sub(" ", text)
    return text


def named_skills(prompt: str, table: dict[str, list[Target]]) -> list[Target]:
    """The skills the prompt names, in the order it names them (at most MAX_NAMED).

    A word of a paste names nothing (``users_own``): ```python opens code, it does not ask for the python skill,
    and a forwarded mail's words are not the user's.
    """
    text = _folded(without_ruled_out(users_own(prompt[:MAX_PROMPT_CHARS])))  # "I don't need X" names no X
    found: dict[str, tuple[int, Target]] = {}

    def add(position: int, targets: list[Target]) -> None:
        for target in targets:
            if target.label not in found or position < found[target.label][0]:
                found[target.label] = (position, target)

    words = [(match.start(), match.end(), match.group()) for match in _WORD.finditer(text)]
    for index, (start, end, word) in enumerate(words):
        if _joined(text, start - 1, -1):
            continue  # inside a longer name ("changelog-writer"): its words are not names of their own
        if not _joined(text, end, 1):
            add(start, table.get(word, []))  # a one-word alias
            one, folder = table.get("=" + word), table.get("!" + word)
            if (one or folder) and _is_marked(text, words, index, index, prompt):
                add(start, [*(one or ()), *(folder or ())])
        key, spaced, titled = word, False, False
        for follower in range(index + 1, min(index + MAX_KEY_WORDS, len(words))):
            gap = text[words[follower - 1][1] : words[follower][0]]
            if len(gap) == 1 and gap in _SEPARATORS:
                key += "-" + words[follower][2]
                spaced = spaced or gap == " "
            elif gap in _JOINER_GAPS:  # a title's "+" or "/" ("Tailwind v4 + shadcn/ui Stack"): only a '&' key
                key, titled = key + gap.strip() + words[follower][2], True
            else:
                break
            if not _joined(text, words[follower][1], 1):
                add(start, _run_names(table, key, (spaced, titled), (text, words, index, follower, prompt)))
    if not text.isascii():
        for key, targets in table.items():
            position = _cjk_position(text, key)
            if position >= 0:
                add(position, targets)
    ordered = sorted(found.values(), key=lambda item: (item[0], item[1].label))
    return [target for _, target in ordered[:MAX_NAMED]]


def _run_names(
    table: dict[str, list[Target]],
    key: str,
    joins: tuple[bool, bool],
    run: tuple[str, list[tuple[int, int, str]], int, int, str],
) -> list[Target]:
    """The skills a run of words names: by its key, a slug's ('+') typed whole or marked, a folder's name ('!') or
    a title's ('&', joined by "+" or "/" too) marked. ``joins``: whether a space, and whether a title's mark, joined
    its words; ``run``: the text, its words, the run's first and last word and the prompt as typed."""
    spaced, titled = joins
    if titled:  # a title's "+" or "/" ("Tailwind v4 + shadcn/ui Stack"): only a '&' key has one
        title = table.get("&" + key)
        return title if title and _is_marked(*run) else []
    named = table.get(key, [])
    slug, folder = table.get("+" + key), table.get("!" + key)
    if not (slug or folder):
        return named
    text, words, _, last, _ = run
    if slug and not spaced and not _modifies_next(text, words, last):
        named, slug = [*named, *slug], None  # a slug typed whole names its skill
    if (slug or folder) and _is_marked(*run):
        named = [*named, *(slug or ()), *(folder or ())]
    return named


def _cjk_position(text: str, key: str) -> int:
    """Where the prompt names a CJK key: '~' anywhere, '^' only where marked; -1 when not (or not CJK)."""
    if key[0] == "~":
        return text.find(key[1:])
    return _marked_cjk(text, key[1:]) if key[0] == "^" else -1


def _marked_cjk(text: str, key: str) -> int:
    """Where ``key`` first occurs marked as a name (``/key``, quoted, or "key 技能"), or -1."""
    position = text.find(key)
    while position >= 0:
        end = position + len(key)
        before = text[position - 1] if position else ""
        if before in _CJK_NAME_MARKS or text[end : end + 1] in _CJK_CLOSING or _skill_word_at(text, end):
            return position
        position = text.find(key, position + 1)
    return -1


def _skill_word_at(text: str, at: int) -> bool:
    while at < len(text) and text[at] == " ":
        at += 1
    return text.startswith(tuple(_SKILL_WORDS), at)


def _joined(text: str, at: int, step: int) -> bool:
    """Whether ``text[at]`` is a '-' or '_' that joins a word to the next letter in the ``step`` direction."""
    beyond = at + step
    return 0 <= at < len(text) and 0 <= beyond < len(text) and text[at] in "-_" and text[beyond].isalnum()


# English words that cannot be the noun a modifier bends to: what follows a name typed as a name ("run brooks-lint
# on the repo", "csv-to-table and then", "pdf-tools is broken"), closed classes of the grammar, not of any skill.
_FUNCTION_WORD_CLASSES = (  # determiners, prepositions, conjunctions, pronouns, auxiliaries, adverbs
    "a an the this that these those my our your his her its their some any all each every no "
    "on in to for with at from of over across against into onto by about via per as than "
    "and or but so then if when while because before after until "
    "i me we us you it they them he she "
    "is are was were be been am can could should would will shall may might must do does did has have had "
    "not now here there again first please too also just only"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORD_CLASSES.split())


def _modifies_next(text: str, words: list[tuple[int, int, str]], last: int) -> bool:
    """Whether the hyphenated run ending at word ``last`` stands before a noun it modifies:
    "customer-support tickets", "real-time updates", "open-source models". English joins
    a modifier's words by '-' before its noun, so there a slug is everyday language and needs a mark; one space,
    then an English word that is not a function word nor the start of another slug (a list of names). A Chinese
    word after it is the sentence going on."""
    if last + 1 >= len(words):
        return False
    end, (start, stop, following) = words[last][1], words[last + 1]
    if start != end + 1 or text[end] != " " or not following.isascii() or following in _FUNCTION_WORDS:
        return False
    return not _joined(text, stop, 1)


def _is_marked(text: str, words: list[tuple[int, int, str]], first: int, last: int, typed: str = "") -> bool:
    """Whether the words ``first`` to ``last`` are marked as a name: ``/name``, ``$name``, ``@name``,
    quoted or back-ticked, or beside the word "skill". ``typed`` is the prompt as typed, pastes included."""
    start, end = words[first][0], words[last][1]
    if start > 0 and text[start - 1] in _NAME_MARKS and _mark_stands_alone(text, start - 1, end):
        if text[start - 1] in "'\"" and _labels_a_control(text, start - 1, end + 1):
            return False
        if text[start - 1] == "/" and (
            not _typed_as_a_command(text, start - 1) or _names_a_route(text, start - 1, end, typed)
        ):
            return False
        return not (text[start - 1] == "`" and _names_a_code_unit(text, start - 1, end + 1))
    before = words[first - 1][2] if first else ""
    after = words[last + 1][2] if last + 1 < len(words) else ""
    return before in _SKILL_WORDS or after in _SKILL_WORDS or after.startswith(_CJK_SKILL_WORDS)


# A unit of code named in backticks ("应该是你改了 `pricing` 包里的函数名"): the word after its closing tick
# says what it is, a package, module or crate (包, 模块, 库), or an import before its opening one
# ("from `pricing` import", "import `pricing`"). It names code at hand, as a file or an
# identifier does (``at_hand.shown.names_code``), not a skill asked for, though a skill may bear
# the same name.
_CODE_UNIT_AFTER = lazy_compile(r"\s*(?:包|模块|库|(?:package|module|crate|library|lib)(?![a-z0-9]))")
_CODE_UNIT_BEFORE = ("import", "from")


def _names_a_code_unit(text: str, opening: int, after: int) -> bool:
    """Whether the back-ticked words from ``opening`` to ``after`` (past the closing tick) name a unit of code: a
    package, module or crate named so after them, or an import before them."""
    before = text[:opening].rstrip()
    if any(before.endswith(word) and not before[-len(word) - 1 : -len(word)].isalnum() for word in _CODE_UNIT_BEFORE):
        return True
    return _CODE_UNIT_AFTER.match(text, after) is not None


# A control's label in quotes ('when someone clicks "Pricing" the object ... should
# spin'): a quoted word clicked, tapped or pressed, or followed by what a screen holds (a button, a tab, a link),
# is the label a user sees, not a skill asked for, though a skill bears the same name. Quotes only: `pricing` and
# "the pricing skill" still name it.
_CONTROL_VERBS = frozenset(
    ["click", "clicks", "clicked", "clicking", "tap", "taps", "tapped", "press", "presses", "pressed", "hit"]
)
_CONTROL_AFTER = lazy_compile(
    r"\s*(?:(?:button|tab|link|menu|page|field|column|label|heading|title|toggle|checkbox|icon)s?\b"
    r"|按钮|标签|链接|菜单|页面|字段|图标|选项卡|开关|复选框|输入框)"
)
# The same in Chinese, which glues the verb to the quote ('用户点击 "Pricing" 之后', '点一下 "pdf" 按钮'): the
# text before the quote ends with the verb.
_CONTROL_VERBS_ZH = ("点击", "单击", "双击", "点一下", "点开", "按下", "轻触")


def _labels_a_control(text: str, opening: int, after: int) -> bool:
    """Whether the quoted words from ``opening`` to ``after`` (past the closing quote) label a control on a screen:
    clicked, tapped or pressed (点击, 单击), or followed by "button", "tab", "link" and the like (按钮, 标签)."""
    before = text[:opening].rstrip()
    words = before.rsplit(None, 1)
    if (words and words[-1] in _CONTROL_VERBS) or before.endswith(_CONTROL_VERBS_ZH):
        return True
    return _CONTROL_AFTER.match(text, after) is not None


# An app's route or a URL's path in prose ("The SEO audit you wrote says /pricing has no meta
# description, but look: ... curl -s https://acme.io/pricing"): a '/' word the prompt also types
# inside a URL or a path ("acme.io/pricing", "/out/pricing"), or beside a word that calls it a
# page, a route, a URL or a path ("the /pricing page", "route /pricing", "/pricing 页面", "路由
# /pricing"), is the app's, not a slash command, though a skill bears the same name. Not
# "endpoint" / 端点 / 接口: an API's endpoint is named after what it serves ("迁到后端新开的 /graphql 端点"
# hints `graphql` right), a page after its content.
_ROUTE_AFTER = lazy_compile(r"\s*(?:(?:page|route|url|path)s?(?![a-z0-9])|页面|页|路由|路径)")
_ROUTE_BEFORE = ("page", "route", "url", "path", "页面", "路由", "路径", "访问")


# Where a slash command is typed ("the /pricing copy still says 14-day trial", or a pasted table
# of pages, "| /pricing | 12,340 | 38% |"): a slash command is typed as the prompt's command, at
# its start (as Claude Code reads its commands and skills), so a '/' word names a skill at the
# start of the prompt or of a line, or after a word of using it ("use /pdf", "run /pdf on", "用
# /pdf", "调用 /pdf"; not with / then / try, prose before a page as often: "the problem with
# /pricing is"). Anywhere else it is a page's route or a path in prose ("says /pricing has no
# meta description"). On the tuning data this costs one right hint ("把 REST 调用迁到后端新开的 /graphql
# 端点", an endpoint's path that named the `graphql` skill), and silences two everyday turns; no
# tuning request types a slash command as one.
_USING = frozenset(["use", "using", "run", "invoke", "call", "via"])
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")  # what str.splitlines breaks at
_USING_CJK = ("用", "使用", "运行", "调用", "执行", "试试", "跑", "再")


def _typed_as_a_command(text: str, slash: int) -> bool:
    """Whether the '/' at ``slash`` starts the prompt or a line, or follows a word of using it ("use /pdf"). Read
    backwards from the slash, so a prompt of many '/' words costs one short look at each."""
    end = _end_of_text_before(text, slash)
    if not end or not _LINE_BREAKS.isdisjoint(text[end:slash]):
        return True
    start = end
    while start and not text[start - 1].isspace():
        start -= 1
    return text[start:end].rstrip(",:") in _USING or text.endswith(_USING_CJK, 0, end)


def _names_a_route(text: str, slash: int, end: int, typed: str) -> bool:
    """Whether the '/' word from ``slash`` to ``end`` of ``text`` is an app's route or a URL's path: a word calling it
    a page, a route, a URL or a path beside it, or the same ``/word`` inside a URL or a path anywhere in the prompt
    as ``typed`` (a pasted command's URL too)."""
    if _ROUTE_AFTER.match(text, end) is not None or text.endswith(_ROUTE_BEFORE, 0, _end_of_text_before(text, slash)):
        return True
    return _inside_a_path(typed, text[slash:end])


def _end_of_text_before(text: str, at: int) -> int:
    """Where the text before ``at`` ends, the spaces between left out."""
    while at and text[at - 1].isspace():
        at -= 1
    return at


@functools.lru_cache(maxsize=64)
def _inside_a_path(typed: str, route: str) -> bool:
    """Whether ``route`` (a '/' word) stands inside a URL or a path somewhere in the prompt as ``typed``: answered once
    a prompt and '/' word, so a prompt of many such words reads its text once a word."""
    folded = _folded_prompt(typed)
    at = folded.find(route)
    while at != -1:
        before, beyond = folded[at - 1 : at], folded[at + len(route) : at + len(route) + 1]
        if (
            before
            and not before.isspace()
            and before not in _OPENERS
            and not (beyond.isalnum() or beyond in ("-", "_"))
        ):
            return True  # inside a URL or a path: "acme.io/pricing", "/out/pricing"
        at = folded.find(route, at + 1)
    return False


@functools.lru_cache(maxsize=2)
def _folded_prompt(typed: str) -> str:
    return _folded(typed[:MAX_PROMPT_CHARS])


def _mark_stands_alone(text: str, at: int, end: int) -> bool:
    """A quote marks a name it closes around ("pdf", `pdf`: not "build a dashboard", nor GitHub's); '/', '$' or
    '@' only at a word's start and not inside a path or an address (/var/lib/postgresql/data, me@pdf.io): after a
    space, a bracket or a quote, or at the start."""
    if text[at] in _CLOSING_QUOTES:
        return text[end : end + 1] == text[at]
    before = text[at - 1] if at else " "
    after = text[end : end + 2]
    inside = after[:1] == "/" or (after[:1] in (".", "@") and after[1:].isalnum())
    return (before.isspace() or before in _OPENERS) and not inside
