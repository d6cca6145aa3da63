"""The .skillmem.yaml file: read it safely, check each key's value, and type it (``ConfigFile``).

Read only as a regular file of at most CONFIG_LIMIT bytes (never a FIFO or
a device, which would hang), and refused before PyYAML builds a value
nested deeper than any key needs (PyYAML's constructor is recursive). A
wrong key or value is a UsageError naming the key, with a hint showing a
valid form; an unknown key suggests the nearest known one.
"""

from __future__ import annotations

import os

from skillmem_hook.errors import UsageError
from skillmem_hook.files import FileTooLarge, NotARegularFile, read_regular_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any, Final

CONFIG_FILE = ".skillmem.yaml"
EXAMPLE = "roots: [skills]\nprompt_files: [AGENTS.md]"
# A configuration is a few lines; the cap keeps a runaway file from costing seconds.
CONFIG_LIMIT = 64 * 1024
# The deepest a key needs: lint's per_path_ignores, a list in a mapping in a mapping in the file's.
MAX_DEPTH = 4


def _paths(path: str, key: str, value: object) -> object:
    if not isinstance(value, list) or not value or not all(_usable_path(item) for item in value):
        raise UsageError(f"{path}: '{key}' must be a list of paths", f"write it as: {key}: [path, other/path]")
    return value


def _patterns(path: str, key: str, value: object) -> object:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip("*") for item in value):
        raise UsageError(
            f"{path}: '{key}' must be a list of skill names or prefixes ending in '*'",
            f"write it as: {key}: [my-private-skill, draft-*]",
        )
    return value


def _domain_map(path: str, key: str, value: object) -> object:
    from skillmem_hook.catalog.placement.selection import check_domain  # noqa: PLC0415

    if not isinstance(value, dict) or not all(
        isinstance(name, str) and name.strip("*") and isinstance(domain, str) for name, domain in value.items()
    ):
        raise UsageError(
            f"{path}: '{key}' must map skill names (or prefixes ending in '*') to domains",
            f"write it as: {key}: {{brainstorming: engineering, 'canvas-*': frontend}}",
        )
    for name, domain in value.items():
        check_domain(domain, f"{path}: {key}: {name}")
    return value


def _bool(path: str, key: str, value: object) -> object:
    if not isinstance(value, bool):
        raise UsageError(f"{path}: '{key}' must be a bool", f"write it as: {key}: true (or false)")
    return value


def _text(path: str, key: str, value: object) -> object:
    if not _usable_path(value):
        raise UsageError(f"{path}: '{key}' must be a path", f"fix or remove the key '{key}'")
    return value


def _preamble(path: str, key: str, value: object) -> object:
    if value is False:
        return value
    if not isinstance(value, str) or not value.strip() or "\n" in value or "\r" in value:
        raise UsageError(
            f"{path}: '{key}' must be one line of text, or false for none",
            f"write it as: {key}: 'Skills available here; read a skill's SKILL.md before you use it.'",
        )
    return value


def _lint(path: str, key: str, value: object) -> object:
    from skillmem_hook.lint.options import check_lint_section  # noqa: PLC0415 - only a file with the key pays

    if not isinstance(value, dict):
        raise UsageError(f"{path}: '{key}' must be a mapping", "write it as: lint: {ignore: [SK401]}")
    check_lint_section(value, path)
    return value


def _aliases(path: str, key: str, value: object) -> object:
    """Skill names (or prefixes ending in ``*``) to lists of words that search weighs like the name."""
    example = f"write it as: {key}: {{viking-memory-guide: [记忆, remember], 'azure-*': [微软云]}}"
    if not isinstance(value, dict):
        raise UsageError(f"{path}: '{key}' must map skill names to lists of words", example)
    for name, words in value.items():
        # A '*' anywhere but at the end would look like a pattern and match nothing, without a word.
        if not isinstance(name, str) or not name.strip() or "*" in name[:-1] or name == "*":
            raise UsageError(
                f"{path}: '{key}' has the key {name!r}: a skill's name, or a prefix ending in one '*'", example
            )
        if not isinstance(words, list) or not all(isinstance(word, str) and word.strip() for word in words):
            raise UsageError(f"{path}: '{key}: {name}' must be a list of words, none blank", example)
    return value


def _token_cap(path: str, key: str, value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise UsageError(f"{path}: '{key}' must be a whole number of tokens, 1 or more", f"write it as: {key}: 2000")
    return value


def _budget(path: str, key: str, value: object) -> object:
    from skillmem_hook.budget.rules import check_budget_section  # noqa: PLC0415 - only a file with the key pays

    if not isinstance(value, dict):
        raise UsageError(f"{path}: '{key}' must be a mapping", "write it as: budget: {agents: [claude-code, codex]}")
    check_budget_section(value, path)
    return value


CHECKS: dict[str, Callable[[str, str, object], object]] = {
    "roots": _paths,
    "prompt_files": _paths,
    "strict": _bool,
    "write": _text,
    "tracked": _bool,
    "cache": _bool,
    "exclude": _patterns,
    "quiet": _patterns,
    "domains": _domain_map,
    "preamble": _preamble,
    "lint": _lint,
    "aliases": _aliases,
    "max_block_tokens": _token_cap,
    "budget": _budget,
}


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
        _check_nesting(path, yaml.parse(text, Loader=yaml.SafeLoader))
        content = yaml.safe_load(text)
    except yaml.YAMLError as error:
        problem = " ".join(str(error).split())
        raise UsageError(f"{path} is not valid YAML: {problem}", f"fix the YAML; a valid example:\n{EXAMPLE}") from None
    if content is None:
        return ConfigFile()
    if not isinstance(content, dict):
        raise UsageError(f"{path} must be a mapping of keys to values", f"for example:\n{EXAMPLE}")
    return ConfigFile(check_config(path, content))


def _check_nesting(path: str, events: Iterable[object]) -> None:
    """Refuse a value nested deeper than a list of paths, before PyYAML builds it.

    PyYAML's parser is iterative but its constructor recursive: 5,000 nested
    lists would end in a RecursionError. The message names the top-level key.
    """
    import yaml  # noqa: PLC0415 - imported already by the caller

    depth = 0
    nodes = 0  # complete nodes in the top mapping: keys and values alternate
    key: object = None
    for event in events:
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise UsageError(
                    f"{path}: {key!r} is nested too deeply", f"fix or remove the key {key!r}; for example:\n{EXAMPLE}"
                )
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            nodes += depth == 1
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)) and depth == 1:
            if nodes % 2 == 0:
                key = getattr(event, "value", None)
            nodes += 1


def _usable_path(value: object) -> bool:
    """A non-empty text the file system can take: no NUL byte, no lone surrogate."""
    if not isinstance(value, str) or not value or "\x00" in value:
        return False
    try:
        os.fsencode(value)
    except UnicodeError:
        return False
    return True


def check_config(path: str, content: dict[object, object]) -> dict[str, object]:
    """The file's keys and values, checked."""
    checked: dict[str, object] = {}
    for key, value in content.items():
        check = CHECKS.get(key) if isinstance(key, str) else None
        if check is None:
            raise UsageError(f"{path}: unknown key {key!r}", _unknown_key_hint(str(key)))
        checked[str(key)] = check(path, str(key), value)
    return checked


def _unknown_key_hint(key: str) -> str:
    import difflib  # noqa: PLC0415 - only a mistyped key pays for it

    near = difflib.get_close_matches(key, list(CHECKS), n=1)
    known = "the keys are: " + ", ".join(CHECKS)
    return f"did you mean '{near[0]}'? {known}" if near else known
