"""The keys of .skillmem.yaml, each with the check its value must pass.

A wrong key or value is a UsageError naming the key, with a hint showing a
valid form; an unknown key suggests the nearest known one.
"""

from __future__ import annotations

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

EXAMPLE = "roots: [skills]\nprompt_files: [AGENTS.md]"


def _paths(path: str, key: str, value: object) -> object:
    if not isinstance(value, list) or not value or not all(isinstance(item, str) and item for item in value):
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
    from skillmem_hook.catalog.selection import check_domain  # noqa: PLC0415

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
    if not isinstance(value, str) or not value:
        raise UsageError(f"{path}: '{key}' must be a str", f"fix or remove the key '{key}'")
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


CHECKS: dict[str, Callable[[str, str, object], object]] = {
    "roots": _paths,
    "prompt_files": _paths,
    "strict": _bool,
    "write": _text,
    "tracked": _bool,
    "cache": _bool,
    "exclude": _patterns,
    "domains": _domain_map,
    "preamble": _preamble,
    "lint": _lint,
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
    import difflib  # noqa: PLC0415 - only a mistyped key pays for it

    near = difflib.get_close_matches(key, list(CHECKS), n=1)
    known = "the keys are: " + ", ".join(CHECKS)
    return f"did you mean '{near[0]}'? {known}" if near else known
