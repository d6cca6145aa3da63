"""Where a text names a skill: the keys a name or alias is compared by, and the skills a prompt names.

A name or alias may be any words, in any script. A name of one word ("pdf",
"docker") is everyday language, so it counts only when the text marks it as
a name: ``/pdf``, ``$pdf``, ``@pdf``, a quoted or back-ticked `pdf`, or "the
pdf skill"; a short CJK name of the repository's likewise. And whether a
text names the code in front of the agent, which the route's score rule
leaves alone. Pure: text in, keys and positions out (the route hook's, in
``agents/route.py``).
"""

from __future__ import annotations

import re
import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
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
_WORD = re.compile(r"[^\W_]+")
# A fenced block of code or output, as Markdown writes one: a line opening with ``` or ~~~ (its info string
# after it), to the line that closes it with the same fence, or to the end of the prompt.
_FENCED_BLOCK = re.compile(
    r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*(?:\n.*?^[ \t]{0,3}\1[ \t]*$|.*\Z)", re.MULTILINE | re.DOTALL
)
# A line quoted as Markdown and mail quote it; a message pasted in double quotes (ASCII, curly or corner).
_QUOTED_LINE = lazy_compile(r"^[ \t]{0,3}>.*$", re.MULTILINE)
_QUOTED_MESSAGE = lazy_compile('"[^"]{80,}"|\u201c[^\u201d]{80,}\u201d|\u300c[^\u300d]{80,}\u300d')
_SEPARATORS = frozenset(" -_")
_NAME_MARKS = frozenset("/$@`'\"")
_CLOSING_QUOTES = "`'\""
_OPENERS = frozenset("([{<\"'`\u201c\u300c\u300e\u300a\uff08")
_SKILL_WORDS = frozenset({"skill", "skills", "技能"})
# A CJK name of the repository's shorter than this needs a mark, as a one-word English name does.
MIN_UNMARKED_CJK = 4
_CJK_NAME_MARKS = _NAME_MARKS | frozenset("“「『《")
_CJK_CLOSING = frozenset(_CLOSING_QUOTES + "”」』》")
# What names the code in front of the agent: a file with a source or config extension
# (not a library written as one, Node.js or Three.js), a snake_case or camelCase
# identifier, a call, a line number, an error's type (TypeError), a path of two
# parts or more (/api/orders) (docs/route.md).
_CODE_REFERENCE = re.compile(
    r"\b(?![A-Z][a-z]*\.(?i:js)\b)\w+\.(?i:py|pyi|ipynb|ts|tsx|js|jsx|mjs|vue|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|rb|php"
    r"|sql|sh|css|scss|html|md|json|ya?ml|toml|ini|cfg|conf|lock|tf|txt)\b"
    r"|\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b|\b[a-z]{2,}[A-Z][a-z]+\w*\b|\w\(\)|\b(?i:line) \d+"
    r"|第\s*(?:\d+|[一二三四五六七八九十百千两零〇]+)\s*行"  # a line, its number in figures or in Chinese numerals
    r"|\b[A-Z]\w*(?:Error|Exception)\b|(?<![\w/])/[A-Za-z][\w.-]*/[\w./-]*"
)
# Kana, CJK ideographs, Hangul: scripts written without spaces between words.
_CJK_RANGES = (("\u3040", "\u30ff"), ("\u3400", "\u9fff"), ("\uac00", "\ud7af"), ("\uf900", "\ufaff"))


def name_key(text: str) -> str:
    """How a name or alias is compared: NFKC, case-folded, words joined by '-'; CJK text as it is."""
    folded = _folded(text)
    if _has_cjk(folded):
        return folded.strip()  # no spaces between CJK words: compared as a substring
    return "-".join(_WORD.findall(folded))


def skill_keys(names: Iterable[str], aliases: Iterable[str]) -> list[str]:
    """The keys a prompt can name a skill by, sorted: ``names`` are the repository's words, ``aliases`` the user's.

    '=word' is a one-word name (it needs a mark), '+words' a name of several
    words written without spaces (``grafana-dashboards``: typed with spaces,
    "Grafana dashboards" is everyday language, so then it needs a mark),
    '~text' a CJK name or alias (found anywhere in the text), '^text' a short
    CJK name of the repository's (it needs a mark: 帮我 or 一下 would be found
    in most Chinese prompts), and any other key a run of words however joined.
    """
    keys = {_kind(name_key(name), trusted=False, spaced=" " in name.strip()) for name in names}
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


def without_pasted_blocks(text: str) -> str:
    """``text`` with each fenced block of code or output (its ```python line too) left out: a paste, not the ask."""
    if "```" not in text and "~~~" not in text:
        return text
    return _FENCED_BLOCK.sub("\n", text)


def users_own(text: str) -> str:
    """``text`` without what the user pasted rather than wrote (0.5.0, fourth pass): fenced blocks, lines quoted
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
    text = _folded(users_own(prompt[:MAX_PROMPT_CHARS]))
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
            if _is_marked(text, words, index, index):
                add(start, table.get("=" + word, []))
        key, spaced = word, False
        for follower in range(index + 1, min(index + MAX_KEY_WORDS, len(words))):
            gap = text[words[follower - 1][1] : words[follower][0]]
            if len(gap) != 1 or gap not in _SEPARATORS:
                break
            key += "-" + words[follower][2]
            spaced = spaced or gap == " "
            if not _joined(text, words[follower][1], 1):
                add(start, table.get(key, []))
                if not spaced or _is_marked(text, words, index, follower):
                    add(start, table.get("+" + key, []))
    if not text.isascii():
        for key, targets in table.items():
            position = _cjk_position(text, key)
            if position >= 0:
                add(position, targets)
    ordered = sorted(found.values(), key=lambda item: (item[0], item[1].label))
    return [target for _, target in ordered[:MAX_NAMED]]


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


def _is_marked(text: str, words: list[tuple[int, int, str]], first: int, last: int) -> bool:
    """Whether the words ``first`` to ``last`` are marked as a name: ``/name``, ``$name``, ``@name``,
    quoted or back-ticked, or beside the word "skill"."""
    start, end = words[first][0], words[last][1]
    if start > 0 and text[start - 1] in _NAME_MARKS and _mark_stands_alone(text, start - 1, end):
        return True
    neighbours = [words[index][2] for index in (first - 1, last + 1) if 0 <= index < len(words)]
    return any(word in _SKILL_WORDS for word in neighbours)


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


def names_code(text: str) -> bool:
    """Whether ``text`` names a file, an identifier or a line of the code in front of the agent.

    Such a turn ("the test in test_orders.py fails", "rename useCart") is about
    that code, so the score rule leaves it alone: in the longer turns of an
    ordinary session, four in ten name code, against a few in a hundred of the
    requests a skill serves (benchmarks/route_rule.py).
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)  # a full-width file name is the same name
    return _CODE_REFERENCE.search(text) is not None


_AT_HAND_NOUNS = (
    r"(?:tests?|functions?|methods?|files?|lines?|loops?|code|snippet|diff|commits?|branch|error|bug|class|module|"
    r"query|regex|script|build|fixture|mock|stack\s+trace|traceback|endpoint|component|hook|variable|PR|config|"
    r"changes?|migrations?|decorator|handler|cell|manifest|job|schedule|project|repo|codebase|output|logs?|warning|"
    r"test\s+suite|pipeline|workflow|Dockerfile|container|pod|image|button|page|field|column|table|schema|index|"
    r"type|interface|import|dependency|package|version|release)"
)
# What the agent did, in the past tense (0.5.0, after set H): "the `git rebase` you ran", "you said the db would be
# healthy", "you missed one call site"; any verb in -ed but one whose present ends so (need, embed), or an irregular
# past unlike its present ("can you set up" asks ahead) but "put", counted before: without it set G's "the
# aria-label you put on the close button" fires and no request gains a hint. "Are you interested" asks.
_PAST_TENSE = (
    r"(?!(?:need|feed|speed|proceed|succeed|exceed|embed|shed|bed|wed)\b)[a-z]+ed|said|ran|wrote|made|did|gave|put|"
    r"told|sent|built|broke|left|took|got|kept|chose|brought|meant|thought|found|forgot"
)
_AT_HAND = re.compile(
    rf"(?<!\bare\s)(?<!\bwere\s)\b(?:you|you've)\s+(?:just\s+|already\s+)?(?:{_PAST_TENSE})\b"
    r"|\bI\s+(?:asked|told)\s+you\b|\byour\s+(?:last|previous|latest|change|changes|fix|patch|diff|edit|version|"
    r"suggestion|code|answer|plan|idea|approach|explanation|command|script|summary|proposal|refactor|rebase|"
    r"migration|commit|tests?)\b"
    r"|\b(?:the|this|that)\s+(?:\w+\s+)?(?:above|below)\b|\babove\b|\bearlier\b"
    rf"|\b(?:this|that|these|those)\s+(?:\w+\s+)?{_AT_HAND_NOUNS}\b"
    r"|\bthe\s+(?:\w+\s+)?(?:mock|fixture|manifest|teardown|patch\s+target)s?\b|\bthe\s+test\s+(?:still|fails|passes|fixture)\b"
    r"|\bmy\s+(?:current\s+)?(?:changes|diff|branch|commit|working\s+tree)\b|\bthis\s+time\b|\bthanks\b|\bcontinue\b"
    # A follow-up on the last answer: it worked, or it missed what was meant ("ok that works. last thing: ...").
    r"|^(?:(?:ok(?:ay)?|great|nice|perfect|cool|good)[,.!]?\s*)?(?:that|it|this)\s+(?:works|worked|fixed\s+it|did\s+it)\b"
    r"|\byou\s+misunderstood\b|\b(?:that['\u2019]?s|this\s+is)\s+not\s+what\s+I\s+(?:meant|asked|said)\b|\bwhat\s+I\s+meant\b"
    # The session's own history (0.5.0, fourth pass): "revert the last commit", "since my previous push".
    r"|\b(?:last|previous)\s+(?:commit|push|merge|deploy|run|build|change|edit)s?\b",
    re.IGNORECASE,
)
# Output pasted as it was printed, no fence (0.5.0, fourth pass): pytest's "E   assert ...", a traceback, a stack
# frame, a shell or Python prompt, a log line's timestamp. The turn is about that output, as with a fenced block.
_PASTED_OUTPUT = lazy_compile(
    r"^(?:E {2,}\S|Traceback \(most recent call last\)|[ \t]+at [\w.$<>]+[(:]|\$ \S|>>> "
    r"|\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d)",
    re.MULTILINE,
)
_OUTPUT_STARTS = frozenset("ET \t$>[0123456789")
_AT_HAND_CJK = re.compile(
    r"这段|这几行|这行|把这个|跑一遍|跑一次|别的不动|别的都不动|上面|刚才|刚刚|你刚|你生成|你写的|你给的|你改|你把|你这么|"
    r"你这样|你加的|你建议|我刚改|我让你|这样重构|这样改|提交之前|之前那个|刚那个|当前改动|"
    r"(?:这|那)(?:个|段|行|几行|次)\s*(?:函数|文件|接口|报错|错误|测试|脚本|变量|类|组件|方法|循环|正则|部署|服务|页面|"
    r"按钮|字段|表|查询|配置|镜像|分支|提交|模块|用例|日志|修复|改动|逻辑|代码|实现|bug)"
    # "这个 Dockerfile", "那个 endpoint": a thing at hand named in English (not "那个 Code 节点", a product's
    # part); "你理解错了", "我说的是": a correction of the last answer.
    r"|(?:这|那)(?:个|段|行|几行|次)\s*(?:Dockerfile|endpoint|function|tests?|script|PR|commit|branch|bug|config|regex|"
    r"query|migration|container|pod|image|build|pipeline|workflow|component|hook|diff|snippet|logs?|error|warning|"
    r"traceback|stack\s+trace|fixture|mock|handler|module)\b|理解错|我说的是|我的意思是|不是这个意思",
    re.IGNORECASE,
)
# 0.5.0, fourth pass: an English verb or word with a Chinese complement or particle ("revert 掉", "rerun 一下",
# "merge 吧"), the talk of a session about its code; a line that opens on 这个 / 那个 (this, that: a thing
# shown); what the agent did unasked ("你为啥改成 3", "我没让改"). Compiled on a prompt's first Chinese.
_AT_HAND_MIXED = lazy_compile(
    r"[A-Za-z]\s*(?:掉|一下|吧)|(?:^|\n)[ \t]*(?:这个|那个|这段|这些|那些|这里|那里)"
    r"|你(?:为啥|为什么|怎么)(?:要|又|把)?(?:改|删|加|动|换)|我没(?:让|叫)"
)


def at_hand(text: str) -> bool:
    """Whether ``text`` speaks of the work in front of the agent: what it just did, the code or output shown.

    "the loop you suggested", "your last change", "this function", "the mock",
    "上面这段", "你刚写的", "这个接口", "跑一遍测试": a turn of a session about its
    own code, not a request for a skill, so the score rule leaves it alone.
    On the tuning data (benchmarks/unseen_set.py --tuning, after set H) such
    words are in the first 500 characters of 51 of 715 requests and of 415 of
    885 everyday turns.
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
        if _AT_HAND_CJK.search(text) or _AT_HAND_MIXED.search(text):
            return True
    if without_pasted_blocks(text) != text or _pastes_output(text):
        return True  # code or output pasted (fenced or as printed): the turn is about it
    return _AT_HAND.search(text) is not None


def _pastes_output(text: str) -> bool:
    """Whether a line of ``text`` is output as printed (``_PASTED_OUTPUT``); the pattern is compiled only when a
    line opens with a character such a line opens with, so most warm prompts compile nothing."""
    if _OUTPUT_STARTS.isdisjoint(line[:1] for line in text.split("\n")):
        return False
    return _PASTED_OUTPUT.search(text) is not None
