"""The code and output in front of the agent: a file, an identifier or a line named, output pasted as printed, a
command's table, a thing shown named by 这个 / 那个. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re
import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _marked
from skillmem_hook.search.names import in_pasted_block

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container

# What names the code in front of the agent: a file with a source or config extension
# (not a library written as one, Node.js or Three.js; not a Markdown document, plan.md or
# README.md, which a request writes or follows: 0.5.0, fourteenth pass), a snake_case or
# camelCase identifier, a call, a line number, an error's type (TypeError), a path of two
# parts or more (/api/orders) (docs/route.md).
_CODE_REFERENCE = re.compile(
    r"\b(?![A-Z][a-z]*\.(?i:js)\b)\w+\.(?i:py|pyi|ipynb|ts|tsx|js|jsx|mjs|vue|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|rb|php"
    r"|sql|sh|css|scss|html|json|ya?ml|toml|ini|cfg|conf|lock|tf|txt)\b"
    r"|\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b|\b(?P<camel>[a-z]{2,}[A-Z][a-z]+\w*)\b|\w\(\)|\b(?i:line) \d+"
    r"|第\s*(?:\d+|[一二三四五六七八九十百千两零〇]+)\s*行"  # a line, its number in figures or in Chinese numerals
    r"|\b[A-Z]\w*(?:Error|Exception)\b|(?<![\w/])/[A-Za-z][\w.-]*/[\w./-]*"
)


def names_code(text: str, spellings: Container[str] = ()) -> bool:
    """Whether ``text`` names a file, an identifier or a line of the code in front of the agent.

    Such a turn ("the test in test_orders.py fails", "rename useCart") is about
    that code, so the score rule leaves it alone: in the longer turns of an
    ordinary session, four in ten name code, against a few in a hundred of the
    requests a skill serves (benchmarks/route_rule.py). ``spellings``: the
    collection's skill names in one word (``search.names.Spellings``), see ``code_named``.
    """
    return code_named(text, spellings) is not None


def code_named(text: str, spellings: Container[str] = ()) -> str | None:
    """The first word of ``text`` that names code (``names_code``), or None.

    A camelCase word that is, case-folded, a skill's name in ``spellings`` is a product's usual spelling, the skill
    named ("fuzz my parser with libFuzzer", skill ``libfuzzer``), not code (0.5.0, thirty-first pass); it is still
    code called ("libFuzzer()"), in a path or a member ("src/libFuzzer", "fuzz.libFuzzer", "libFuzzer.run"), or in a
    fenced block.
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)  # a full-width file name is the same name
    for match in _CODE_REFERENCE.finditer(text):
        if not (match.lastgroup == "camel" and _spells_a_skill(text, match.start(), match.end(), spellings)):
            return match.group()
    return None


def _spells_a_skill(text: str, start: int, end: int, spellings: Container[str]) -> bool:
    """Whether the camelCase word from ``start`` to ``end`` is a skill's name spelled as its product is, in the
    user's own words: not called, not a path's or a member's part, not in a fenced block."""
    word = text[start:end]
    if not word.isascii():  # "libFuzzer测试": \w runs on into the Chinese sentence
        word = word[: next(at for at, character in enumerate(word) if not character.isascii())]
    if word not in spellings:
        return False
    before, after = text[start - 1 : start] if start else "", text[end : end + 2]
    if before in ("/", ".") or after[:1] in ("(", "/") or (after[:1] == "." and after[1:].isalnum()):
        return False
    return not in_pasted_block(text, start)


# Output pasted as it was printed, no fence (0.5.0, fourth pass): pytest's "E   assert ...", a traceback, a stack
# frame, a shell or Python prompt, a log line's timestamp; and (eighth pass) Jest's or Vitest's summary ("Tests:  1
# failed, 41 passed") and failure bullet ("  ● formatPrice ..."). The turn is about that output, as
# with a fenced block.
_PASTED_OUTPUT = lazy_compile(
    r"^(?:E {2,}\S|Traceback \(most recent call last\)|[ \t]+at [\w.$<>]+[(:]|\$ \S|>>> "
    r"|\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|Tests: +\d+ (?:failed|passed)|[ \t]*\u25cf \S)",
    re.MULTILINE,
)
_OUTPUT_STARTS = frozenset("ET \t$>[0123456789\u25cf")


# A thing shown, named by 这个 / 那个 and what it is like (0.5.0, thirteenth pass, after set L's le-030,
# "把工具目录里那个三百多行的文件拆一下"): `_AT_HAND_CJK` reads the noun right after 这个 / 那个, this reads it after
# a Chinese modifier ending in 的; no space, Latin letter, digit or punctuation in the modifier (NFKC has made the
# full-width ones ASCII; "这个 Rust 写的日志库" is a product, set H's h2-027), and no 这些 ("Button/Input/Card
# 这些做成带变体的组件" is a list, set D's d2-023). Compiled only when a prompt holds 的 and one of 这个, 那个,
# 这段, 那段: a Chinese prompt of 的 alone compiled it at a cost of 0.5 % of its instructions.
_THING_SHOWN = lazy_compile(
    r"(?:这|那)(?:个|段)[^\sA-Za-z0-9,.!?;:。、]{1,10}?的(?:函数|文件|接口|报错|错误|测试|脚本|变量|类|组件|方法|循环"
    r"|正则|部署|服务|页面|按钮|字段|表|查询|配置|镜像|分支|提交|模块|用例|日志|修复|改动|逻辑|代码|实现)(?!库|包|框架|工具)"
)


_SHOWN_MARKS = ("这个", "那个", "这段", "那段")


def _names_a_thing_shown(text: str) -> bool:
    """Whether ``text`` names a thing at hand as 这个 / 那个, a modifier and its noun ("那个三百多行的文件")."""
    return "的" in text and _marked(text, _SHOWN_MARKS, _THING_SHOWN)


def _pastes_output(text: str) -> bool:
    """Whether a line of ``text`` is output as printed (``_PASTED_OUTPUT``); the pattern is compiled only when a
    line opens with a character such a line opens with, so most warm prompts compile nothing."""
    if _OUTPUT_STARTS.isdisjoint(line[:1] for line in text.split("\n")):
        return False
    return _PASTED_OUTPUT.search(text) is not None


# A command's table pasted as printed (0.5.0, twelfth pass, after set K's ke-064: `kubectl get pods` without a fence):
# two lines in a row, each of TABLE_COLUMNS fields or more set apart by two spaces or more, whose fields start in
# TABLE_COLUMNS of the same columns. Prose is not laid out so; `kubectl get`, `docker ps` and `go test`'s summary are.
# Read as the work at hand, not as a paste left out of what is scored: so read, set F's f3-036 (a figures table,
# then its ask) fired a wrong hint (docs/notes/route.md).
TABLE_COLUMNS = 3


def prints_a_table(text: str) -> bool:
    """Whether ``text`` holds a table as a command prints it: two lines in a row whose fields start in the same
    columns."""
    if "  " not in text:
        return False
    above: set[int] = set()
    for line in text.split("\n"):
        starts = _field_starts(line)
        if len(above & starts) >= TABLE_COLUMNS:
            return True
        above = starts
    return False


def _field_starts(line: str) -> set[int]:
    """The columns where ``line``'s fields start, fields set apart by two spaces or more; none for fewer than
    TABLE_COLUMNS fields (a sentence is one field, a key and its value two)."""
    starts: set[int] = set()
    at = 0
    for part in line.split("  "):
        if part.strip():
            starts.add(at + len(part) - len(part.lstrip()))
        at += len(part) + 2
    return starts if len(starts) >= TABLE_COLUMNS else set()
