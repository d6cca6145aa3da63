"""Where the skills and the prompt files are: flags, then .skillmem.yaml, then common layouts.

A flag given on the command line replaces that key of the file.
"""

from __future__ import annotations

import os

from skillmem_hook.errors import UsageError
from skillmem_hook.files import FileTooLarge, NotARegularFile, read_regular_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

CONFIG_FILE = ".skillmem.yaml"
DEFAULT_ROOTS = (".claude/skills", ".agents/skills", ".codex/skills", "skills")
DEFAULT_PROMPT_FILES = ("AGENTS.md", "CLAUDE.md")
_LIST_KEYS = ("roots", "prompt_files")
_OPTION_KEYS = {"strict": bool, "write": str}
# A configuration is a few lines; the cap keeps a runaway file from costing seconds.
CONFIG_LIMIT = 64 * 1024
_EXAMPLE = "roots: [skills]\nprompt_files: [AGENTS.md]"


class Settings:
    """The configuration in force for one run."""

    __slots__ = ("prompt_files", "roots", "strict", "write")

    def __init__(self, roots: list[str], prompt_files: list[str], strict: bool, write: str | None) -> None:
        self.roots = roots
        self.prompt_files = prompt_files
        self.strict = strict
        self.write = write


def load_settings(
    roots: Sequence[str] | None = None,
    prompt_files: Sequence[str] | None = None,
    *,
    strict: bool | None = None,
    write: str | None = None,
) -> Settings:
    """Merge the flags with the configuration file and the layout found in the current folder."""
    file = read_config_file(CONFIG_FILE)
    chosen_roots = list(roots or file.get("roots") or _existing(DEFAULT_ROOTS, os.path.isdir))  # type: ignore[call-overload]
    chosen_files = list(prompt_files or file.get("prompt_files") or _existing(DEFAULT_PROMPT_FILES, os.path.isfile))  # type: ignore[call-overload]
    return Settings(
        roots=chosen_roots,
        prompt_files=chosen_files,
        strict=bool(strict if strict else file.get("strict", False)),
        write=write if write is not None else file.get("write"),  # type: ignore[arg-type]
    )


def require_roots(settings: Settings) -> list[str]:
    return _required(settings.roots, "skills root", "--root DIR", DEFAULT_ROOTS)


def require_prompt_files(settings: Settings) -> list[str]:
    return _required(settings.prompt_files, "prompt file", "--prompt-file FILE", DEFAULT_PROMPT_FILES)


def _required(values: list[str], what: str, flag: str, looked_for: Sequence[str]) -> list[str]:
    if not values:
        raise UsageError(
            f"no {what} given, configured or found (looked for {', '.join(looked_for)})",
            f"pass {flag}, or write {CONFIG_FILE} with: {_EXAMPLE}",
        )
    return values


def read_config_file(path: str) -> dict[str, object]:
    """The checked contents of .skillmem.yaml; empty when there is none."""
    try:
        text = read_regular_file(path, CONFIG_LIMIT)
    except FileNotFoundError:
        return {}
    except NotARegularFile as error:
        raise UsageError(f"{path} is {error.kind}, not a regular file", f"make {path} a file, or remove it") from None
    except FileTooLarge as error:
        raise UsageError(
            f"{path} is {error.strerror}; a configuration holds at most {CONFIG_LIMIT:,} bytes",
            f"a configuration is a few lines, for example:\n{_EXAMPLE}",
        ) from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}", "check the file's permissions") from None
    import yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

    try:
        _check_nesting(path, yaml.parse(text, Loader=yaml.SafeLoader))
        content = yaml.safe_load(text)
    except yaml.YAMLError as error:
        problem = " ".join(str(error).split())
        raise UsageError(
            f"{path} is not valid YAML: {problem}", f"fix the YAML; a valid example:\n{_EXAMPLE}"
        ) from None
    if content is None:
        return {}
    if not isinstance(content, dict):
        raise UsageError(f"{path} must be a mapping of keys to values", f"for example:\n{_EXAMPLE}")
    return _checked(path, content)


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
            if depth > 2:
                raise UsageError(f"{path}: {key!r} is nested too deeply", _hint_for(key))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            nodes += depth == 1
        elif isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)) and depth == 1:
            if nodes % 2 == 0:
                key = getattr(event, "value", None)
            nodes += 1


def _hint_for(key: object) -> str:
    if key in _LIST_KEYS:
        return f"write it as: {key}: [path, other/path]"
    return f"fix or remove the key {key!r}; for example:\n{_EXAMPLE}"


def _checked(path: str, content: dict[object, object]) -> dict[str, object]:
    known = (*_LIST_KEYS, *_OPTION_KEYS)
    for key, value in content.items():
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not value or not all(_usable_path(item) for item in value):
                raise UsageError(f"{path}: '{key}' must be a list of paths", f"write it as: {key}: [path, other/path]")
        elif key in _OPTION_KEYS:
            expected = _OPTION_KEYS[key]
            if not isinstance(value, expected) or (expected is str and not _usable_path(value)):
                article = "a path" if expected is str else f"a {expected.__name__}"
                raise UsageError(f"{path}: '{key}' must be {article}", f"fix or remove the key '{key}'")
        else:
            raise UsageError(f"{path}: unknown key {key!r}", "the keys are: " + ", ".join(known))
    return {str(key): value for key, value in content.items()}


def _usable_path(value: object) -> bool:
    """A non-empty text the file system can take: no NUL byte, no lone surrogate."""
    if not isinstance(value, str) or not value or "\x00" in value:
        return False
    try:
        os.fsencode(value)
    except UnicodeError:
        return False
    return True


def _existing(candidates: Sequence[str], exists: Callable[[str], bool]) -> list[str]:
    return [path for path in candidates if exists(path)]
