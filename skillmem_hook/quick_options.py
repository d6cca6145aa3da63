"""The options of a command given plainly, read without argparse; anything else is argparse's to read.

A command's ``add_arguments`` declares its options on whatever parser it is
given. Declared on an ``OptionTable``, they are read here when every word is
plain: an option spelled in full (``--root DIR``, ``--root=DIR``, a flag),
and the positional words together. Anything else (``--help``, ``--version``,
an abbreviation, a short option, ``--``, a bad value, a missing one, a word
argparse would refuse) makes ``parse`` answer None, and argparse reads the
words instead, so help and every error are argparse's own. What ``parse``
returns is what argparse returns for the same words
(``tests/test_quick_options.py`` holds the two equal). It exists because
argparse and its gettext cost a run several milliseconds to load and build
(benchmarks/README.md).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

# A value argparse's store actions read, and what each kind of action sets.
# types.SimpleNamespace, which Lib/types.py itself defines as this: importing types costs a warm hook
# some 1.7 million instructions (3% of python's own start) for one class.
_NAMESPACE = type(sys.implementation)
_TAKES_VALUE = ("store", "append")
_FLAGS = {"store_true": True, "store_false": False}
_KEYWORDS = frozenset({"action", "dest", "default", "type", "choices", "help", "metavar"})


class _Option:
    __slots__ = ("choices", "const", "default", "dest", "group", "kind", "type")

    def __init__(self, dest: str, kind: str, keywords: dict[str, Any], group: int | None) -> None:
        self.dest = dest
        self.kind = kind
        self.const = _FLAGS.get(kind)
        default = keywords.get("default")
        self.default = (not self.const) if kind in _FLAGS and "default" not in keywords else default
        self.type: Callable[[str], object] | None = keywords.get("type")
        self.choices = keywords.get("choices")
        self.group = group


class OptionTable:
    """Stands in for argparse's parser in ``add_arguments``: records each option it can read, and what it cannot."""

    def __init__(self) -> None:
        self.options: dict[str, _Option | None] = {}  # None: given, argparse reads the words (--version)
        self.positionals: list[tuple[_Option, object]] = []  # each with its nargs
        self.readable = True
        self._groups = 0

    def add_argument(self, *names: str, **keywords: Any) -> None:
        self._add(names, keywords, None)

    def add_mutually_exclusive_group(self, **keywords: Any) -> _Group:
        self._groups += 1
        return _Group(self, self._groups)

    def _add(self, names: Sequence[str], keywords: dict[str, Any], group: int | None) -> None:
        kind = keywords.get("action", "store")
        positional = not names[0].startswith("-")
        if kind == "version" and not positional:  # given, argparse prints it
            self.options.update(dict.fromkeys(names))
            return
        known = _KEYWORDS | {"nargs"} if positional else _KEYWORDS
        converted_default = isinstance(keywords.get("default"), str) and "type" in keywords  # argparse converts it
        if kind not in (*_TAKES_VALUE, *_FLAGS) or not set(keywords) <= known or converted_default:
            self.readable = False
            return
        if positional:  # one word, or any number of them
            nargs = keywords.get("nargs")
            if kind != "store" or nargs not in (None, "*") or self.positionals:
                self.readable = False
                return
            self.positionals.append((_Option(keywords.get("dest", names[0]), kind, keywords, None), nargs))
            return
        long_name = next((name for name in names if name.startswith("--")), names[0])
        dest = keywords.get("dest") or long_name.lstrip("-").replace("-", "_")
        option = _Option(dest, kind, keywords, group)
        self.options.update(dict.fromkeys(names, option))

    def parse(self, words: Sequence[str]) -> argparse.Namespace | None:
        """The options as argparse would read ``words``; None when argparse is to read them."""
        values = {option.dest: option.default for option in self.options.values() if option is not None}
        given: dict[int, str] = {}
        positional_words: list[str] = []
        after_positionals = False
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            if not word.startswith("-") or word == "-":
                if after_positionals:  # argparse would read the later words as unrecognised
                    return None
                positional_words.append(word)
                continue
            after_positionals = bool(positional_words)
            name, equals, inline = word.partition("=")
            option = self.options.get(name)
            if option is None or (option.group is not None and given.setdefault(option.group, name) != name):
                return None
            if option.const is not None:
                if equals:
                    return None
                values[option.dest] = option.const
                continue
            if not equals:
                if index == len(words) or words[index].startswith("-"):
                    return None
                inline, index = words[index], index + 1
            value = _converted(option, inline)
            if value is _REFUSED:
                return None
            values[option.dest] = [*(values[option.dest] or []), value] if option.kind == "append" else value  # type: ignore[misc]
        if not self._take_positionals(positional_words, values):
            return None
        return _NAMESPACE(**values)  # type: ignore[return-value]

    def _take_positionals(self, words: list[str], values: dict[str, object]) -> bool:
        if not self.positionals:
            return not words
        option, nargs = self.positionals[0]
        if nargs == "*":
            converted = [_converted(option, word) for word in words]
            if _REFUSED in converted:
                return False
            values[option.dest] = converted if words or option.default is None else option.default
            return True
        if len(words) != 1:
            return False
        values[option.dest] = _converted(option, words[0])
        return values[option.dest] is not _REFUSED


class _Group:
    """A mutually exclusive group: at most one of its options given."""

    def __init__(self, table: OptionTable, number: int) -> None:
        self._table = table
        self._number = number

    def add_argument(self, *names: str, **keywords: Any) -> None:
        self._table._add(names, keywords, self._number)


_REFUSED = object()


def _converted(option: _Option, word: str) -> object:
    """``word`` through the option's type and choices; _REFUSED where argparse would say it is wrong."""
    try:
        value = option.type(word) if option.type is not None else word
    except Exception:  # noqa: BLE001 - argparse reads it again, and says what is wrong
        return _REFUSED
    if option.choices is not None and value not in option.choices:
        return _REFUSED
    return value


def quick_parse(declare: Callable[[Any], None], words: Sequence[str]) -> argparse.Namespace | None:
    """The options ``declare`` adds, read from ``words`` without argparse; None when argparse is to read them."""
    table = OptionTable()
    declare(table)
    return table.parse(words) if table.readable else None
