"""The keys of .skillmem.yaml and the check each value must pass: a UsageError naming the key, with a valid form.

An unknown key suggests the nearest known one. Each check returns the value
it passed; ``config_file.ConfigFile`` types them.
"""

from __future__ import annotations

import os

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def _one_or_list(value: object) -> object:
    """One text is a list of one, as pre-commit reads ``files:``: ``roots: skills`` says what it means."""
    return [value] if isinstance(value, str) else value


def _paths(path: str, key: str, value: object) -> object:
    value = _one_or_list(value)
    if not isinstance(value, list) or not value or not all(_usable_path(item) for item in value):
        raise UsageError(
            f"{path}: '{key}' must be a path or a list of paths", f"write it as: {key}: [path, other/path]"
        )
    return value


def _patterns(path: str, key: str, value: object) -> object:
    value = _one_or_list(value)
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip("*") for item in value):
        raise UsageError(
            f"{path}: '{key}' must be a list of skill names or prefixes ending in '*'",
            f"write it as: {key}: [my-private-skill, draft-*]",
        )
    return value


def _domain_map(path: str, key: str, value: object) -> object:
    from skillmem_hook.catalog.placement.selection import check_domain  # noqa: PLC0415 - only a file with the key pays

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
    from skillmem_hook.near import did_you_mean  # noqa: PLC0415 - only a mistyped key pays for difflib

    hint = did_you_mean(key, CHECKS, count=1)
    known = "the keys are: " + ", ".join(CHECKS)
    return f"{hint} {known}" if hint else known


def _usable_path(value: object) -> bool:
    """A non-empty text the file system can take: no NUL byte, no lone surrogate."""
    if not isinstance(value, str) or not value or "\x00" in value:
        return False
    try:
        os.fsencode(value)
    except UnicodeError:
        return False
    return True
