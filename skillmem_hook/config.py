"""Where the skills and the prompt files are: flags, then .skillmem.yaml, then common layouts.

A flag given on the command line replaces that key of the file.
"""

from __future__ import annotations

import os

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

CONFIG_FILE = ".skillmem.yaml"
DEFAULT_ROOTS = (".claude/skills", ".agents/skills", ".codex/skills", "skills")
DEFAULT_PROMPT_FILES = ("AGENTS.md", "CLAUDE.md")
_LIST_KEYS = ("roots", "prompt_files")
_OPTION_KEYS = {"strict": bool, "write": str}
_ALIASES_KEY = "aliases"  # skill name or prefix* -> extra words that search weighs like the name
_EXAMPLE = "roots: [skills]\nprompt_files: [AGENTS.md]"


class Settings:
    """The configuration in force for one run."""

    __slots__ = ("aliases", "prompt_files", "roots", "strict", "write")

    def __init__(
        self,
        roots: list[str],
        prompt_files: list[str],
        strict: bool,
        write: str | None,
        aliases: dict[str, list[str]] | None = None,
    ) -> None:
        self.roots = roots
        self.prompt_files = prompt_files
        self.strict = strict
        self.write = write
        self.aliases = aliases or {}


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
        aliases=file.get(_ALIASES_KEY),  # type: ignore[arg-type]
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
        with open(path, "rb") as file:
            text = file.read()
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}", "check the file's permissions") from None
    import yaml  # noqa: PLC0415 - only a repository with a config file pays for PyYAML

    try:
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


def _checked(path: str, content: dict[object, object]) -> dict[str, object]:
    known = (*_LIST_KEYS, *_OPTION_KEYS, _ALIASES_KEY)
    for key, value in content.items():
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not value or not all(isinstance(item, str) and item for item in value):
                raise UsageError(f"{path}: '{key}' must be a list of paths", f"write it as: {key}: [path, other/path]")
        elif key in _OPTION_KEYS:
            expected = _OPTION_KEYS[key]
            if not isinstance(value, expected):
                raise UsageError(f"{path}: '{key}' must be a {expected.__name__}", f"fix or remove the key '{key}'")
        elif key == _ALIASES_KEY:
            _check_aliases(path, value)
        else:
            raise UsageError(f"{path}: unknown key {key!r}", "the keys are: " + ", ".join(known))
    return {str(key): value for key, value in content.items()}


def _check_aliases(path: str, value: object) -> None:
    """``aliases:`` maps a skill name (or ``prefix*``) to a list of words."""
    if not isinstance(value, dict) or not all(
        isinstance(name, str)
        and name
        and isinstance(words, list)
        and all(isinstance(word, str) and word.strip() for word in words)
        for name, words in value.items()
    ):
        raise UsageError(
            f"{path}: 'aliases' must map skill names to lists of words",
            "write it as: aliases: {viking-memory-guide: [记忆, remember], 'azure-*': [微软云]}",
        )


def _existing(candidates: Sequence[str], exists: Callable[[str], bool]) -> list[str]:
    return [path for path in candidates if exists(path)]
