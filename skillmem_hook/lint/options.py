"""Which rules run, from the ``lint:`` key of .skillmem.yaml.

```yaml
lint:
  select: [SK1, SK201]     # codes or code prefixes; default: every rule but quality
  ignore: [SK116]          # taken away from what is selected
  per_path_ignores:        # glob of the SKILL.md path -> codes ignored there
    legacy/*/SKILL.md: [SK2]
  quality: true            # also run the SK4xx quality rules
  ranking: true            # also run SK501 (skills that steal each other's requests)
  severity: {SK105: warning}   # codes or prefixes -> error or warning
  baseline: .skillmem-lint-baseline.json   # findings listed there do not fail (skillmem lint --write-baseline)
```
"""

from __future__ import annotations

import fnmatch

from skillmem_hook.errors import UsageError
from skillmem_hook.lint.rules import QUALITY, RANKING, RULES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

_KEYS = ("select", "ignore", "per_path_ignores", "quality", "ranking", "severity", "baseline")
_LEVELS = ("error", "warning")
_EXAMPLE = "lint:\n  ignore: [SK116]\n  per_path_ignores:\n    legacy/*/SKILL.md: [SK2]\n  quality: true"


class LintOptions:
    """The rules that run, where each is ignored, each one's severity, and the baseline: the typed ``lint:``. Frozen."""

    __slots__ = ("baseline", "enabled", "per_path", "severity")

    def __init__(
        self,
        enabled: frozenset[str],
        per_path: list[tuple[str, frozenset[str]]],
        severity: dict[str, str] | None = None,
        baseline: str | None = None,
    ) -> None:
        self.enabled: Final = enabled
        self.per_path: Final = tuple(per_path)
        self.severity: Final[Mapping[str, str]] = severity or {}
        self.baseline: Final = baseline  # relative to the configuration file's folder

    def applies(self, code: str, path: str) -> bool:
        if code not in self.enabled:
            return False
        return not any(code in codes and fnmatch.fnmatchcase(path, pattern) for pattern, codes in self.per_path)


def lint_options(section: object, where: str = ".skillmem.yaml") -> LintOptions:
    """The options of a checked ``lint:`` mapping (None: the defaults). Raises UsageError naming the key."""
    section = check_lint_section({} if section is None else section, where)
    quality = bool(section.get("quality", False))
    select = section.get("select")
    if isinstance(select, list):
        enabled = _expand(select)
    else:
        enabled = {code for code, rule in RULES.items() if rule.group not in (QUALITY, RANKING)}
    if quality:
        enabled |= {code for code, rule in RULES.items() if rule.group == QUALITY}
    if section.get("ranking", False):
        enabled |= {code for code, rule in RULES.items() if rule.group == RANKING}
    enabled -= _expand(section.get("ignore") or [])
    per_path_section = section.get("per_path_ignores") or {}
    assert isinstance(per_path_section, dict)  # check_lint_section made sure
    per_path = [(str(pattern), frozenset(_expand(codes))) for pattern, codes in per_path_section.items()]
    severity: dict[str, str] = {}
    levels = section.get("severity") or {}
    assert isinstance(levels, dict)  # check_lint_section made sure
    # Shorter prefixes first, so the most specific one (SK105 over SK1) decides.
    for prefix, level in sorted(levels.items(), key=lambda item: len(str(item[0]))):
        severity.update(dict.fromkeys(_expand([prefix]), str(level)))
    baseline = section.get("baseline")
    return LintOptions(frozenset(enabled), per_path, severity, baseline if isinstance(baseline, str) else None)


def check_lint_section(section: object, where: str) -> dict[str, object]:
    """The ``lint:`` mapping, checked: known keys, lists of known codes, a bool."""
    if not isinstance(section, dict):
        raise UsageError(f"{where}: 'lint' must be a mapping", f"for example:\n{_EXAMPLE}")
    for key, value in section.items():
        if key in ("select", "ignore"):
            _check_codes(value, f"{where}: 'lint.{key}'")
        elif key == "per_path_ignores":
            _check_per_path(value, where)
        elif key == "severity":
            _check_severity(value, where)
        elif key == "baseline":
            if not isinstance(value, str) or not value:
                raise UsageError(f"{where}: 'lint.baseline' must be a file path", "write: baseline: lint-baseline.json")
        elif key in ("quality", "ranking"):
            if not isinstance(value, bool):
                raise UsageError(f"{where}: 'lint.{key}' must be true or false", f"write: {key}: true")
        else:
            raise UsageError(f"{where}: unknown key 'lint.{key}'", "the keys under lint are: " + ", ".join(_KEYS))
    return {str(key): value for key, value in section.items()}


def _check_per_path(value: object, where: str) -> None:
    if not isinstance(value, dict):
        raise UsageError(f"{where}: 'lint.per_path_ignores' must map path globs to codes", _EXAMPLE)
    for pattern, codes in value.items():
        if not isinstance(pattern, str):
            raise UsageError(f"{where}: 'lint.per_path_ignores' keys must be path globs", _EXAMPLE)
        _check_codes(codes, f"{where}: 'lint.per_path_ignores.{pattern}'")


def _check_severity(value: object, where: str) -> None:
    if not isinstance(value, dict):
        raise UsageError(f"{where}: 'lint.severity' must map rule codes to error or warning", "write: {SK105: warning}")
    for code, level in value.items():
        _check_codes([code], f"{where}: 'lint.severity'")
        if level not in _LEVELS:
            raise UsageError(f"{where}: 'lint.severity.{code}' must be error or warning", f"write: {code}: warning")


def _check_codes(value: object, what: str) -> None:
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise UsageError(f"{what} must be a list of rule codes", "write it as: [SK116, SK2]")
    for code in dict.fromkeys(value):  # each once: a list of thousands (or one repeated by aliases) costs few
        if not _expand([code]):
            raise UsageError(f"{what}: {code!r} is no rule code or prefix", "the codes: " + ", ".join(RULES))


def _expand(codes: object) -> set[str]:
    """The rule codes that the given codes or prefixes (``SK1``, ``SK201``) name."""
    if not isinstance(codes, list):
        return set()
    named = {code for code in codes if isinstance(code, str) and code}  # each once, as above
    return {known for code in named for known in RULES if known.startswith(code)}
