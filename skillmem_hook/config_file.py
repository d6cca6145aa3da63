"""The .skillmem.yaml file: read it safely, check it (``config_keys``), and type it (``ConfigFile``).

Read only as a regular file of at most CONFIG_LIMIT bytes (never a FIFO or
a device, which would hang), and refused before PyYAML builds a value
nested deeper than any key needs (PyYAML's constructor is recursive). A
wrong key or value is a UsageError naming the key, with a hint showing a
valid form; an unknown key suggests the nearest known one.
"""

from __future__ import annotations

from skillmem_hook.errors import UsageError
from skillmem_hook.files import FileTooLarge, NotARegularFile, read_regular_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any, Final

CONFIG_FILE = ".skillmem.yaml"
EXAMPLE = "roots: [skills]\nprompt_files: [AGENTS.md]"
# A configuration is a few lines; the cap keeps a runaway file from costing seconds.
CONFIG_LIMIT = 64 * 1024
# The deepest a key needs: lint's per_path_ignores, a list in a mapping in a mapping in the file's.
MAX_DEPTH = 4
# The most values aliases (*name) may stand for in all, each counted spelled out: a 64 KiB file written out
# holds at most about 98,000 (`[?,?,...]`), and every command reads each value of the keys it checks.
MAX_ALIASED = 50_000
# No setting takes a number this large (PyYAML cannot even read an integer of 4,301 digits, Python's limit).
NUMBER_LIMIT = 10**18


class ConfigFile:
    """The keys of .skillmem.yaml, checked and typed; a key the file leaves out reads as its default. Frozen.

    ``lint`` and ``budget`` are the checked mappings, which their wings read
    into typed sections (``lint.options.lint_options``, ``budget.rules.BudgetSettings``)
    when a command needs them: most runs never import either wing.
    """

    __slots__ = (
        "aliases",
        "budget",
        "cache",
        "domains",
        "exclude",
        "lint",
        "max_block_tokens",
        "preamble",
        "prompt_files",
        "quiet",
        "roots",
        "strict",
        "tracked",
        "write",
    )

    def __init__(self, checked: Mapping[str, object] | None = None) -> None:
        keys = checked or {}
        self.roots: Final[Sequence[str]] = _listed(keys.get("roots"))
        self.prompt_files: Final[Sequence[str]] = _listed(keys.get("prompt_files"))
        self.strict: Final = keys.get("strict") is True
        self.write: Final = _text_or_none(keys.get("write"))
        self.tracked: Final = keys.get("tracked") is True
        self.cache: Final = keys.get("cache") is not False
        self.exclude: Final[Sequence[str]] = _listed(keys.get("exclude"))
        # Skills whose warnings the hooks do not print (a third-party pack's known ones); `index` still lists them.
        self.quiet: Final[Sequence[str]] = _listed(keys.get("quiet"))
        self.domains: Final[Mapping[str, str]] = _mapped(keys.get("domains"))
        preamble = keys.get("preamble", True)
        self.preamble: Final = preamble if isinstance(preamble, (str, bool)) else True
        self.lint: Final = _mapping_or_none(keys.get("lint"))
        self.aliases: Final[Mapping[str, list[str]]] = _mapped(keys.get("aliases"))
        tokens = keys.get("max_block_tokens")
        self.max_block_tokens: Final = tokens if isinstance(tokens, int) else None
        self.budget: Final = _mapping_or_none(keys.get("budget")) or {}


# The checks have made sure of each key's type; these only say it to the type checker.
def _listed(value: object) -> Sequence[str]:
    return value if isinstance(value, list) else ()


def _mapped(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _mapping_or_none(value: object) -> Mapping[str, object] | None:
    return value if isinstance(value, dict) else None


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


class SearchSettings:
    """What search needs of the configuration in force: the route index keeps it, as JSON, for a warm prompt. Frozen.

    ``as_json`` and ``from_json`` round-trip the route index's ``search`` object
    byte for byte, so indexes kept before this type existed stay valid.
    """

    __slots__ = ("aliases", "cache", "domains", "exclude", "tracked")

    def __init__(
        self,
        *,
        tracked: bool,
        cache: bool,
        exclude: Sequence[str],
        domains: Mapping[str, str],
        aliases: Mapping[str, Sequence[str]],
    ) -> None:
        self.tracked: Final = tracked
        self.cache: Final = cache
        self.exclude: Final = exclude
        self.domains: Final = domains
        self.aliases: Final = aliases

    def as_json(self) -> dict[str, object]:
        return {
            "tracked": self.tracked,
            "cache": self.cache,
            "exclude": list(self.exclude),
            "domains": dict(self.domains),
            "aliases": {name: list(words) for name, words in self.aliases.items()},
        }

    @classmethod
    def from_json(cls, value: object) -> SearchSettings:
        """Raises ValueError for anything ``as_json`` does not write."""
        if not isinstance(value, dict) or set(value) != set(_SEARCH_KINDS):
            raise ValueError("the route index keeps no search settings")
        if not all(isinstance(value[key], kind) for key, kind in _SEARCH_KINDS.items()):
            raise ValueError("the route index keeps search settings of another shape")
        return cls(**value)


_SEARCH_KINDS = {"tracked": bool, "cache": bool, "exclude": list, "domains": dict, "aliases": dict}


def read_config_file(path: str) -> ConfigFile:
    """The checked contents of .skillmem.yaml; every key's default when there is none."""
    try:
        text = read_regular_file(path, CONFIG_LIMIT)
    except FileNotFoundError:
        return ConfigFile()
    except NotARegularFile as error:
        raise UsageError(f"{path} is {error.kind}, not a regular file", f"make {path} a file, or remove it") from None
    except FileTooLarge as error:
        raise UsageError(
            f"{path} is {error.strerror}; a configuration holds at most {CONFIG_LIMIT:,} bytes",
            f"a configuration is a few lines, for example:\n{EXAMPLE}",
        ) from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}", "check the file's permissions") from None
    import yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

    try:
        _check_events(path, yaml.parse(text, Loader=yaml.SafeLoader))
        content = yaml.safe_load(text)
    except yaml.YAMLError as error:
        problem = " ".join(str(error).split())
        raise UsageError(f"{path} is not valid YAML: {problem}", f"fix the YAML; a valid example:\n{EXAMPLE}") from None
    if content is None:
        return ConfigFile()
    if not isinstance(content, dict):
        raise UsageError(f"{path} must be a mapping of keys to values", f"for example:\n{EXAMPLE}")
    from skillmem_hook.config_keys import check_config  # noqa: PLC0415 - a warm route prompt reads no configuration

    return ConfigFile(check_config(path, content))


def _check_events(path: str, events: Iterable[Any]) -> None:
    """Refuse, before PyYAML builds the value, what it would build wrong, slowly or not at all.

    A value nested too deeply: PyYAML's parser is iterative but its
    constructor recursive, and 5,000 nested lists would end in a
    RecursionError; the message names the top-level key. A key given twice in
    one mapping (an alias used as a key compared as the key it names): PyYAML
    keeps the last without a word, so a section appended below one already
    there would silently replace it. A merge key, a scalar PyYAML cannot
    construct, a number no setting takes, and aliases that stand for more
    than MAX_ALIASED values: PyYAML shares an alias's value, but every check
    and every reader after it walks the value once for each alias.
    """
    import yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

    reading = _Reading(path)
    for event in events:
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            reading.close()
        elif isinstance(event, yaml.AliasEvent):
            reading.node(event, reading.alias(event))
        elif isinstance(event, yaml.ScalarEvent):
            reading.node(event, reading.scalar(event))
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            reading.node(event, None)
            reading.open(event, _Mapping() if isinstance(event, yaml.MappingStartEvent) else None)


class _Reading:
    """The event pass's state: the open nodes, the anchors so far, and the values counted, aliases spelled out."""

    __slots__ = ("aliased", "constructor", "counted", "open_nodes", "opened", "path", "resolver", "scalars", "sizes")

    def __init__(self, path: str) -> None:
        import yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

        self.path = path
        self.resolver = yaml.resolver.Resolver()
        self.constructor = yaml.constructor.SafeConstructor()
        self.open_nodes: list[_Mapping | None] = []  # each open mapping, or None for a list
        self.opened: list[tuple[str | None, int]] = []  # each open node's anchor, and the values counted before it
        self.sizes: dict[str, int] = {}  # each anchor's count of values, its own aliases spelled out
        self.scalars: dict[str, tuple[Any, str]] = {}  # each anchored scalar and its tag, for an alias as a key
        self.counted = 0
        self.aliased = 0

    def node(self, event: Any, scalar: tuple[Any, str] | None) -> None:
        """Count a node and hand it to its mapping: a scalar's (an alias's of one) event and tag, or None."""
        self.counted += 1
        parent = self.open_nodes[-1] if self.open_nodes else None
        if parent is not None:
            parent.node(self.path, scalar, event.start_mark.line + 1, self.open_nodes)

    def scalar(self, event: Any) -> tuple[Any, str]:
        """Check a scalar before it is taken; its event and resolved tag."""
        tag = _tag(self.resolver, event)
        what = _CONVERTED.get(tag)
        if what is not None:  # PyYAML converts it, and may fail with a ValueError rather than a YAML error
            parent = self.open_nodes[-1] if self.open_nodes else None
            named = _named(self.open_nodes, is_key=parent is not None and parent.next_is_key)
            _check_converted(self.path, self.constructor, event, (tag, what), named)
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
                f"fix or remove the key {key!r}; for example:\n{EXAMPLE}",
            )

    def close(self) -> None:
        self.open_nodes.pop()
        anchor, before = self.opened.pop()
        if anchor is not None:
            self.sizes[anchor] = self.counted - before


_YAML = "tag:yaml.org,2002:"
_MERGE = _YAML + "merge"
# The scalars PyYAML's safe constructor converts, with what each must be; any other reads as text or fails as YAML.
_CONVERTED = {_YAML + "int": "a whole number", _YAML + "float": "a number", _YAML + "bool": "true or false"}
_CONVERTED[_YAML + "timestamp"] = "a date"


def _tag(resolver: Any, scalar: Any) -> str:
    """The scalar's type, as PyYAML's composer resolves it."""
    import yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

    if scalar.tag is not None and scalar.tag != "!":
        return str(scalar.tag)
    return str(resolver.resolve(yaml.ScalarNode, scalar.value, scalar.implicit))


def _check_converted(path: str, constructor: Any, scalar: Any, kind: tuple[str, str], named: str) -> None:
    """Refuse a scalar PyYAML would fail to convert, or a number no setting takes; ``kind``: its tag, and in words."""
    tag, what = kind
    import yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

    line = scalar.start_mark.line + 1
    text = scalar.value.replace("_", "")
    if tag == _YAML + "int" and len(text) > 64:  # 10**18 in binary, signed, is 63; Python reads at most 4,300 digits
        value: object = NUMBER_LIMIT
    else:
        try:
            value = constructor.yaml_constructors[tag](constructor, yaml.ScalarNode(tag, scalar.value))
        except (ValueError, LookupError, AttributeError, ArithmeticError, yaml.YAMLError):
            shown = repr(scalar.value[:40]) + ("..." if len(scalar.value) > 40 else "")
            raise UsageError(
                f"{path}: line {line}: {named} holds {shown}, which YAML takes for {what} but cannot read as one",
                f"write {what} there, or quote the text",
            ) from None
    if isinstance(value, float) and not -float("inf") < value < float("inf"):  # .inf, -.inf and .nan
        raise UsageError(
            f"{path}: line {line}: {named} holds {scalar.value!r}, which no setting takes", "write a finite number"
        )
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not abs(value) < NUMBER_LIMIT:
        raise UsageError(
            f"{path}: line {line}: {named} holds a number too large: no setting takes 10**18 or more, "
            "nor one written in more than 64 characters",
            "write a smaller number, or remove the key",
        )


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
