"""The YAML of .skillmem.yaml: one pass over PyYAML's events refuses what it would build wrong, then it builds.

A value nested too deeply: PyYAML's parser is iterative but its constructor
recursive, and 5,000 nested lists would end in a RecursionError; the message
names the top-level key. A key given twice in one mapping (an alias used as a
key compared as the key it names): PyYAML keeps the last without a word, so a
section appended below one already there would silently replace it. A merge
key, a scalar PyYAML cannot construct, a number no setting takes, and aliases
that stand for more than MAX_ALIASED values: PyYAML shares an alias's value,
but every check and every reader after it walks the value once for each alias.

Only a repository with a .skillmem.yaml imports this module, and with it PyYAML.
"""

from __future__ import annotations

import yaml

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

# The deepest a key needs: lint's per_path_ignores, a list in a mapping in a mapping in the file's.
MAX_DEPTH = 4
# The most values aliases (*name) may stand for in all, each counted spelled out: a 64 KiB file written out
# holds at most about 98,000 (`[?,?,...]`), and every command reads each value of the keys it checks.
MAX_ALIASED = 50_000
# No setting takes a number this large (PyYAML cannot even read an integer of 4,301 digits, Python's limit).
NUMBER_LIMIT = 10**18


def load_config_yaml(path: str, text: bytes, example: str) -> object:
    """The value .skillmem.yaml's bytes hold, once its events pass; ``example`` is the valid form a hint shows."""
    try:
        reading = _Reading(path, example)
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            reading.take(event)
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        problem = " ".join(str(error).split())
        raise UsageError(f"{path} is not valid YAML: {problem}", f"fix the YAML; a valid example:\n{example}") from None


class _Reading:
    """The event pass's state: the open nodes, the anchors so far, and the values counted, aliases spelled out."""

    __slots__ = (
        "aliased",
        "constructor",
        "counted",
        "example",
        "open_nodes",
        "opened",
        "path",
        "resolver",
        "scalars",
        "sizes",
    )

    def __init__(self, path: str, example: str) -> None:
        self.path = path
        self.example = example
        self.resolver: Any = yaml.resolver.Resolver()  # PyYAML's own code is untyped
        self.constructor: Any = yaml.constructor.SafeConstructor()
        self.open_nodes: list[_Mapping | None] = []  # each open mapping, or None for a list
        self.opened: list[tuple[str | None, int]] = []  # each open node's anchor, and the values counted before it
        self.sizes: dict[str, int] = {}  # each anchor's count of values, its own aliases spelled out
        self.scalars: dict[str, tuple[Any, str]] = {}  # each anchored scalar and its tag, for an alias as a key
        self.counted = 0
        self.aliased = 0

    def take(self, event: Any) -> None:
        """Read the next event of the file."""
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.close()
        elif isinstance(event, yaml.AliasEvent):
            self.node(event, self.alias(event))
        elif isinstance(event, yaml.ScalarEvent):
            self.node(event, self.scalar(event))
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self.node(event, None)
            self.open(event, _Mapping() if isinstance(event, yaml.MappingStartEvent) else None)

    def node(self, event: Any, scalar: tuple[Any, str] | None) -> None:
        """Count a node and hand it to its mapping: a scalar's (an alias's of one) event and tag, or None."""
        self.counted += 1
        parent = self.open_nodes[-1] if self.open_nodes else None
        if parent is not None:
            parent.node(self.path, scalar, event.start_mark.line + 1, self.open_nodes)

    def scalar(self, event: Any) -> tuple[Any, str]:
        """Check a scalar before it is taken; its event and resolved tag."""
        tag = self.tag(event)
        what = _CONVERTED.get(tag)
        if what is not None:  # PyYAML converts it, and may fail with a ValueError rather than a YAML error
            self.check_converted(event, tag, what)
        if event.anchor is not None:
            self.scalars[event.anchor] = (event, tag)
            self.sizes[event.anchor] = 1
        return event, tag

    def alias(self, event: Any) -> tuple[Any, str] | None:
        """Count an alias as the values of its anchor; the scalar it names, if it names one."""
        size = self.sizes.get(event.anchor, 1)  # 1: an alias inside its own anchor, a loop the key checks refuse
        self.counted += size - 1
        self.aliased += size
        if self.aliased > MAX_ALIASED:
            raise UsageError(
                f"{self.path}: line {event.start_mark.line + 1}: its aliases (*name) stand for more than "
                f"{MAX_ALIASED:,} values in all",
                "spell the values out, or repeat fewer of them; a configuration is a few lines",
            )
        return self.scalars.get(event.anchor)

    def open(self, event: Any, node: _Mapping | None) -> None:
        self.open_nodes.append(node)
        self.opened.append((event.anchor, self.counted - 1))
        depth = len(self.open_nodes)
        if depth > MAX_DEPTH:
            key = self.open_nodes[0].key if self.open_nodes[0] is not None else None
            raise UsageError(
                f"{self.path}: {key!r} is nested too deeply",
                f"fix or remove the key {key!r}; for example:\n{self.example}",
            )

    def close(self) -> None:
        self.open_nodes.pop()
        anchor, before = self.opened.pop()
        if anchor is not None:
            self.sizes[anchor] = self.counted - before

    def tag(self, scalar: Any) -> str:
        """The scalar's type, as PyYAML's composer resolves it."""
        if scalar.tag is not None and scalar.tag != "!":
            return str(scalar.tag)
        return str(self.resolver.resolve(yaml.ScalarNode, scalar.value, scalar.implicit))

    def check_converted(self, scalar: Any, tag: str, what: str) -> None:
        """Refuse a scalar PyYAML would fail to convert, or a number no setting takes; ``what``: its tag in words."""
        parent = self.open_nodes[-1] if self.open_nodes else None
        named = _named(self.open_nodes, is_key=parent is not None and parent.next_is_key)
        line = scalar.start_mark.line + 1
        text = scalar.value.replace("_", "")
        # 10**18 in binary, signed, is 63 digits; Python reads at most 4,300
        if tag == _YAML + "int" and len(text) > 64:
            value: object = NUMBER_LIMIT
        else:
            try:
                value = self.constructor.yaml_constructors[tag](self.constructor, yaml.ScalarNode(tag, scalar.value))
            except (ValueError, LookupError, AttributeError, ArithmeticError, yaml.YAMLError):
                shown = repr(scalar.value[:40]) + ("..." if len(scalar.value) > 40 else "")
                raise UsageError(
                    f"{self.path}: line {line}: {named} holds {shown}, "
                    f"which YAML takes for {what} but cannot read as one",
                    f"write {what} there, or quote the text",
                ) from None
        if isinstance(value, float) and not -float("inf") < value < float("inf"):  # .inf, -.inf and .nan
            raise UsageError(
                f"{self.path}: line {line}: {named} holds {scalar.value!r}, which no setting takes",
                "write a finite number",
            )
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not abs(value) < NUMBER_LIMIT:
            raise UsageError(
                f"{self.path}: line {line}: {named} holds a number too large: no setting takes 10**18 or more, "
                "nor one written in more than 64 characters",
                "write a smaller number, or remove the key",
            )


_YAML = "tag:yaml.org,2002:"
_MERGE = _YAML + "merge"
# The scalars PyYAML's safe constructor converts, with what each must be; any other reads as text or fails as YAML.
_CONVERTED = {_YAML + "int": "a whole number", _YAML + "float": "a number", _YAML + "bool": "true or false"}
_CONVERTED[_YAML + "timestamp"] = "a date"


def _named(open_nodes: Sequence[_Mapping | None], *, is_key: bool) -> str:
    """The node being read, by the keys above it: 'budget: context_window', or a key under 'lint'."""
    keys = [node.key for node in open_nodes if node is not None and node.key is not None]
    if is_key:
        keys = keys[:-1] if open_nodes[-1] is not None and open_nodes[-1].key is not None else keys
        return f"a key under {': '.join(keys)!r}" if keys else "a top-level key"
    return repr(": ".join(keys)) if keys else "the file"


class _Mapping:
    """An open mapping of the file: its keys so far, with their lines, and whether the next node is a key."""

    __slots__ = ("key", "lines", "next_is_key")

    def __init__(self) -> None:
        self.lines: dict[str, int] = {}
        self.key: str | None = None  # the key whose value is being read
        self.next_is_key = True

    def node(self, path: str, scalar: tuple[Any, str] | None, line: int, open_nodes: Sequence[_Mapping | None]) -> None:
        """Take the next node of this mapping: a key, refused when the mapping has it already, or its value.

        ``scalar`` is the node's scalar event (the anchor's, for an alias of a scalar) and resolved tag, or None.
        """
        if not self.next_is_key:
            self.next_is_key = True
            return
        self.next_is_key = False
        event, tag = scalar if scalar is not None else (None, None)
        self.key = event.value if event is not None and isinstance(event.value, str) else None
        if self.key is None:
            return
        if tag == _MERGE:
            raise UsageError(
                f"{path}: line {line}: {_named(open_nodes, is_key=False)} is a merge key; .skillmem.yaml takes "
                "none, since PyYAML merges every '<<' of a mapping and a key written out overrides them",
                "write the keys out; an anchor (&name) and its aliases (*name) can still repeat a value",
            )
        if self.key not in self.lines:
            self.lines[self.key] = line
            return
        where = _named(open_nodes, is_key=False)
        first = self.lines[self.key]
        lines = f"lines {first} and {line}" if first != line else f"line {line}"
        raise UsageError(
            f"{path}: the key {where} is given twice, on {lines}; YAML would keep only the last",
            f"give {self.key!r} once, with everything both say",
        )
