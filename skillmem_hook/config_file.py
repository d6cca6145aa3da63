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
    from collections.abc import Mapping, Sequence
    from typing import Any, Final

CONFIG_FILE = ".skillmem.yaml"
EXAMPLE = "roots: [skills]\nprompt_files: [AGENTS.md]"
# A configuration is a few lines; the cap keeps a runaway file from costing seconds.
CONFIG_LIMIT = 64 * 1024


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
    from skillmem_hook.config_yaml import load_config_yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

    content = load_config_yaml(path, text, EXAMPLE)
    if content is None:
        return ConfigFile()
    if not isinstance(content, dict):
        raise UsageError(f"{path} must be a mapping of keys to values", f"for example:\n{EXAMPLE}")
    from skillmem_hook.config_keys import check_config  # noqa: PLC0415 - a warm route prompt reads no configuration

    return ConfigFile(check_config(path, content))
