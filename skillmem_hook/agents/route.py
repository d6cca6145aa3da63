"""The Claude Code ``UserPromptSubmit`` route hint, pure: hook input bytes in, hook output bytes (or none) out.

A prompt points clearly at a skill when it names it: the skill's name or an
alias (an alias may be any words, in any script), or when the search's best
hit passes the score rule (``search/confidence.py``'s ``ScoreRule``;
docs/route.md says how it was chosen and what it gives). A name of
one word ("pdf", "docker") is everyday language, so it counts only when the
prompt marks it as a name: ``/pdf``, ``$pdf``, ``@pdf``, a quoted or
back-ticked `pdf`, or "the pdf skill".
"""

from __future__ import annotations

import json
import re
import unicodedata

from skillmem_hook.catalog.skillfile import SKILL_FILE
from skillmem_hook.search.confidence import SCORE_RULE, ScoreRule
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from skillmem_hook.search.rank import SearchIndex

# Only a request's first words are searched: it is stated at the start, and every
# word of a pasted log would cost the prompt a lookup.
MAX_SCORED_CHARS = 500
# Only the start of a prompt is read: a name is given near the start, and a
# pasted log of megabytes must not delay the prompt.
MAX_PROMPT_CHARS = 16 * 1024
MAX_NAMED = 3
MAX_KEY_WORDS = 8
EVENT = "UserPromptSubmit"
_WORD = re.compile(r"[^\W_]+")
_SEPARATORS = frozenset(" -_")
_NAME_MARKS = frozenset("/$@`'\"")
_CLOSING_QUOTES = "`'\""
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
_QUOTE_ESCAPES = str.maketrans({'"': '\\"', "<": "\\u003c", ">": "\\u003e"})
# Kana, CJK ideographs, Hangul: scripts written without spaces between words.
_CJK_RANGES = (("\u3040", "\u30ff"), ("\u3400", "\u9fff"), ("\uac00", "\ud7af"), ("\uf900", "\ufaff"))


class RouteInputError(ValueError):
    """The hook's input is not what Claude Code sends; the message says what is wrong."""


class HookInput:
    __slots__ = ("cwd", "prompt")

    def __init__(self, prompt: str, cwd: str | None) -> None:
        self.prompt = prompt
        self.cwd = cwd


def skill_file(root: str, folder: str) -> str:
    """The SKILL.md path of a skill ``folder`` below ``root``, as the configuration names the root."""
    base = root.rstrip("/") or "/"
    return f"{base}/{SKILL_FILE}" if folder == "." else f"{base}/{folder}/{SKILL_FILE}"


class Target:
    """A skill a prompt can point at: its label, and where its SKILL.md is (worked out only when named)."""

    __slots__ = ("folder", "label", "root")

    def __init__(self, label: str, root: str, folder: str) -> None:
        self.label = label
        self.root = root
        self.folder = folder

    @property
    def path(self) -> str:
        return skill_file(self.root, self.folder)


def parse_hook_input(data: bytes) -> HookInput:
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise RouteInputError("the hook input is not UTF-8") from None
    except ValueError:
        raise RouteInputError("the hook input is not JSON") from None
    if not isinstance(document, dict):
        raise RouteInputError("the hook input is not a JSON object")
    prompt, cwd = document.get("prompt"), document.get("cwd")
    if not isinstance(prompt, str):
        raise RouteInputError("the hook input has no 'prompt' string")
    if cwd is not None and not (isinstance(cwd, str) and cwd):
        raise RouteInputError("the hook input's 'cwd' is not a path")
    return HookInput(prompt, cwd)


def name_key(text: str) -> str:
    """How a name or alias is compared: NFKC, case-folded, words joined by '-'; CJK text as it is."""
    folded = _folded(text)
    if _has_cjk(folded):
        return folded.strip()  # no spaces between CJK words: compared as a substring
    return "-".join(_WORD.findall(folded))


def skill_keys(names: Iterable[str], aliases: Iterable[str]) -> list[str]:
    """The keys a prompt can name a skill by, sorted: ``names`` are the repository's words, ``aliases`` the user's.

    '=word' is a one-word name (it needs a mark), '~text' a CJK name or alias
    (found anywhere in the text), '^text' a short CJK name of the repository's
    (it needs a mark: 帮我 or 一下 would be found in most Chinese prompts), and
    any other key a run of words.
    """
    keys = {_kind(name_key(name), trusted=False) for name in names}
    keys |= {_kind(name_key(alias), trusted=True) for alias in aliases}
    return sorted(key for key in keys if len(key.lstrip("=~^")) > (1 if key[:1] in ("~", "^") else 0))


def _kind(key: str, *, trusted: bool) -> str:
    if _has_cjk(key):
        return "~" + key if trusted or len(key) >= MIN_UNMARKED_CJK else "^" + key
    return key if "-" in key or trusted else "=" + key


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
    import unicodedata  # noqa: PLC0415 - most prompts in English never load it

    return unicodedata.normalize("NFKC", text).casefold()


def _has_cjk(text: str) -> bool:
    return not text.isascii() and any(low <= character <= high for character in text for low, high in _CJK_RANGES)


def named_skills(prompt: str, table: dict[str, list[Target]]) -> list[Target]:
    """The skills the prompt names, in the order it names them (at most MAX_NAMED)."""
    text = _folded(prompt[:MAX_PROMPT_CHARS])
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
            if _is_marked(text, words, index):
                add(start, table.get("=" + word, []))
        key = word
        for follower in range(index + 1, min(index + MAX_KEY_WORDS, len(words))):
            gap = text[words[follower - 1][1] : words[follower][0]]
            if len(gap) != 1 or gap not in _SEPARATORS:
                break
            key += "-" + words[follower][2]
            if not _joined(text, words[follower][1], 1):
                add(start, table.get(key, []))
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


def _is_marked(text: str, words: list[tuple[int, int, str]], index: int) -> bool:
    start, end, _ = words[index]
    if start > 0 and text[start - 1] in _NAME_MARKS:
        return True
    neighbours = [words[index + step][2] for step in (-1, 1) if 0 <= index + step < len(words)]
    return (end < len(text) and text[end] in _CLOSING_QUOTES) or any(word in _SKILL_WORDS for word in neighbours)


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


def best_scored(prompt: str, index: SearchIndex, rule: ScoreRule = SCORE_RULE) -> list[Target]:
    """The search's best hits for the prompt that the rule names (a near tie names each), or none."""
    text = prompt[:MAX_SCORED_CHARS]
    if names_code(text):
        return []
    hits = index.query(text, top=rule.most)
    if not hits:
        return []
    evidence, _, typed = index.reading(text, hits[0])
    chosen = rule.chosen(hits, evidence, typed)
    return [Target(hit.skill.label, hit.skill.root, hit.skill.path) for hit in chosen]


def route_line(targets: list[Target], *, named: bool = True) -> str:
    """One short line for the model: which skill(s), and where their instructions are.

    ``named``: the prompt names the skills; else the search found them, and
    several are a near tie that the model chooses from. The label and the
    path are the repository's text, so they are quoted: a line break, a
    control character or markup in them (``</user-prompt-submit-hook>``)
    shows as an escape and can neither add a line nor close a tag.
    """
    listed = "; ".join(f"{quoted(target.label)} ({quoted(target.path)})" for target in targets)
    if named:
        noun = "skill" if len(targets) == 1 else "skills"
        return f"Skill hint: this prompt points at the {noun} {listed}. Read the SKILL.md before you start."
    if len(targets) == 1:
        return f"Skill hint: the skill {listed} fits this prompt. Read its SKILL.md before you start."
    return (
        f"Skill hint: one of the skills {listed} fits this prompt. Read the SKILL.md of the best fit before you start."
    )


def quoted(text: str) -> str:
    """``text`` in double quotes: its backslashes, quotes, angle brackets, control and invisible characters escaped.

    Invisible: Unicode's format characters (zero-width ones, the tag characters a
    model reads but a person does not see). The line goes to a model, not a person.
    """
    # The backslash first, before the escapes visible() writes: a name ending in one would
    # otherwise escape the closing quote, and its text would read as the hook's own.
    shown = visible(text.replace("\\", "\\\\")).translate(_QUOTE_ESCAPES)
    if not shown.isascii():
        shown = "".join(_escaped_format(c) if unicodedata.category(c) == "Cf" else c for c in shown)
    return '"' + shown + '"'


def _escaped_format(character: str) -> str:
    code = ord(character)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def hook_output(line: str) -> bytes:
    """The JSON Claude Code reads from a UserPromptSubmit hook, adding ``line`` to the model's context."""
    document = {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": line}}
    return (json.dumps(document, ensure_ascii=True, sort_keys=True) + "\n").encode("ascii")
