"""Read a frontmatter's top-level fields with the line and column of each key and value.

Pure: text in, values out. The common shape (``key: value`` lines, which
``catalog.frontmatter.read_simple_mapping`` recognises) is located without
PyYAML; anything else goes through PyYAML's composer, whose nodes carry
marks. Every scalar stays a string, as the catalog reads it.
"""

from __future__ import annotations

import re

from skillmem_hook.catalog.skillfile.frontmatter import read_simple_mapping
from skillmem_hook.lint.rules import Position

_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):")
# Deeper than this, a collection is kept as an empty one of its kind: the
# rules only look one level into ``metadata`` and ``allowed-tools``.
_DEPTH = 2
_TEXT_TAG = "tag:yaml.org,2002:str"


class Field:
    """One top-level entry: its value (str, list or dict) and where its key and value start.

    ``key_at``: for a mapping value, where each of its own keys is (SK132 points at the nested one at fault).
    """

    __slots__ = ("is_text", "key", "key_at", "plain", "value", "value_at")

    def __init__(
        self, key: Position, value: object, value_at: Position, key_at: dict[str, Position] | None = None
    ) -> None:
        self.key = key
        self.value = value
        self.value_at = value_at
        self.key_at = key_at
        # Whether YAML reads the value as text (a plain 123 or true is not): then the catalog reads this same text.
        self.is_text = True
        # Whether the value is a scalar written plain, neither quoted nor a block: `true` is a boolean, "true" text.
        self.plain = False


class YamlProblem(ValueError):
    """The text is not one valid YAML document; ``at`` is where the parser stopped."""

    def __init__(self, problem: str, at: Position) -> None:
        super().__init__(problem)
        self.problem = problem
        self.at = at


class Fields:
    """The frontmatter's entries by key, with keys given twice and whether the whole is a mapping."""

    __slots__ = ("entries", "is_mapping", "repeated")

    def __init__(self, entries: dict[str, Field], repeated: list[tuple[str, Position]], *, is_mapping: bool) -> None:
        self.entries = entries
        self.repeated = repeated
        self.is_mapping = is_mapping


def read_located_fields(text: str, first_line: int) -> Fields:
    """The fields of frontmatter text whose first line is line ``first_line`` of the file.

    Raises YamlProblem when the text is not valid YAML.
    """
    text = text.replace("\r\n", "\n")
    simple = read_simple_mapping(text)
    if simple is not None and all(type(value) is str for value in simple.values()):
        # One line a field; a nested map's values are typed by YAML's core schema here (version: 1.0 is a number).
        return _locate_simple(text, simple, first_line)  # type: ignore[arg-type]
    return _compose(text, first_line)


def _locate_simple(text: str, values: dict[str, str], first_line: int) -> Fields:
    entries: dict[str, Field] = {}
    for number, line in enumerate(text.split("\n")):
        match = _KEY_LINE.match(line)
        if match is not None and match.group(1) in values:
            key = match.group(1)
            written = line[match.end() :].lstrip(" ")
            value_col = len(line) - len(written) + 1
            entries[key] = Field(
                Position(first_line + number, 1), values[key], Position(first_line + number, value_col)
            )
            entries[key].plain = written[:1] not in ("'", '"', "|", ">")
    return Fields(entries, [], is_mapping=True)


def _compose(text: str, first_line: int) -> Fields:
    import yaml  # noqa: PLC0415 - only a frontmatter beyond the simple shape pays for PyYAML

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        root = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        at = Position(first_line + mark.line, mark.column + 1) if mark else Position(first_line, 1)
        raise YamlProblem(" ".join(str(error.problem or error).split()), at) from None
    except (yaml.YAMLError, RecursionError) as error:
        raise YamlProblem(" ".join(str(error).split()) or type(error).__name__, Position(first_line, 1)) from None
    if root is None:
        return Fields({}, [], is_mapping=True)
    if not isinstance(root, yaml.MappingNode):
        return Fields({}, [], is_mapping=False)
    entries: dict[str, Field] = {}
    repeated: list[tuple[str, Position]] = []
    for key_node, value_node in root.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else repr(_plain(key_node, 0))
        key_at = _position(key_node, first_line)
        if key in entries:
            repeated.append((key, key_at))
        inner = (
            {str(_key_text(k)): _position(k, first_line) for k, _ in value_node.value}
            if isinstance(value_node, yaml.MappingNode)
            else None
        )
        entries[key] = Field(key_at, _plain(value_node, _DEPTH), _position(value_node, first_line), inner)
        entries[key].is_text = isinstance(value_node, yaml.ScalarNode) and value_node.tag == _TEXT_TAG
        # A plain scalar's style is None to the pure loader and '' to libyaml's.
        entries[key].plain = isinstance(value_node, yaml.ScalarNode) and not value_node.style
    return Fields(entries, repeated, is_mapping=True)


def _position(node: object, first_line: int) -> Position:
    mark = getattr(node, "start_mark", None)
    if mark is None:
        return Position(first_line, 1)
    return Position(first_line + mark.line, mark.column + 1)


def _plain(node: object, depth: int) -> object:
    """A node as str, list or dict, ``depth`` levels deep (aliases are never expanded further)."""
    import yaml  # noqa: PLC0415 - only a frontmatter beyond the simple shape pays for PyYAML

    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, depth - 1) for item in node.value] if depth > 0 else []
    if isinstance(node, yaml.MappingNode) and depth > 0:
        return {_key_text(key): _plain(value, depth - 1) for key, value in node.value}
    return {}


def _key_text(node: object) -> object:
    import yaml  # noqa: PLC0415 - only a frontmatter beyond the simple shape pays for PyYAML

    return node.value if isinstance(node, yaml.ScalarNode) else ("<collection>",)
