"""The lint rules: a stable code, a name, a severity and a group for each; and the finding they produce.

Codes never change meaning. SK1xx: the frontmatter, as the Agent Skills
spec (``skills-ref``) and the agents that read fields beyond it
(``agent_fields.py``) want it; SK2xx: files SKILL.md points at; SK3xx: the
repository (the whole catalog); SK4xx: quality, off unless configured; SK5xx: how search
ranks the skills against each other, off unless configured (it queries the
search index once or more per skill).
"""

from __future__ import annotations

ERROR = "error"
WARNING = "warning"

SPEC, FILES, REPOSITORY, QUALITY, RANKING = "spec", "files", "repository", "quality", "ranking"


class Rule:
    __slots__ = ("code", "group", "name", "severity")

    def __init__(self, code: str, name: str, severity: str, group: str) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.group = group


# fmt: off
RULES: dict[str, Rule] = {rule.code: rule for rule in (
    Rule("SK101", "no-frontmatter", ERROR, SPEC),
    Rule("SK102", "unclosed-frontmatter", ERROR, SPEC),
    Rule("SK103", "invalid-yaml", ERROR, SPEC),
    Rule("SK104", "frontmatter-not-mapping", ERROR, SPEC),
    Rule("SK105", "unknown-field", ERROR, SPEC),
    Rule("SK106", "duplicate-key", ERROR, SPEC),
    Rule("SK107", "near-miss-field", ERROR, SPEC),
    Rule("SK110", "name-missing", ERROR, SPEC),
    Rule("SK111", "name-empty", ERROR, SPEC),
    Rule("SK112", "name-too-long", ERROR, SPEC),
    Rule("SK113", "name-not-lowercase", ERROR, SPEC),
    Rule("SK114", "name-characters", ERROR, SPEC),
    Rule("SK115", "name-hyphens", ERROR, SPEC),
    Rule("SK116", "name-folder-mismatch", ERROR, SPEC),
    Rule("SK120", "description-missing", ERROR, SPEC),
    Rule("SK121", "description-empty", ERROR, SPEC),
    Rule("SK122", "description-too-long", ERROR, SPEC),
    Rule("SK123", "description-invisible-character", ERROR, SPEC),
    Rule("SK130", "compatibility-invalid", ERROR, SPEC),
    Rule("SK131", "allowed-tools-invalid", ERROR, SPEC),
    Rule("SK132", "metadata-invalid", ERROR, SPEC),
    Rule("SK133", "agent-field-invalid", ERROR, SPEC),
    Rule("SK134", "agent-field-one-agent-only", WARNING, SPEC),
    Rule("SK201", "missing-file", ERROR, FILES),
    Rule("SK202", "path-leaves-skill", WARNING, FILES),
    Rule("SK203", "body-not-scanned", WARNING, FILES),
    Rule("SK204", "skill-file-leaves-repository", ERROR, FILES),
    Rule("SK301", "duplicate-skill", ERROR, REPOSITORY),
    Rule("SK302", "not-utf8", ERROR, REPOSITORY),
    Rule("SK401", "no-trigger", WARNING, QUALITY),
    Rule("SK402", "body-too-long", WARNING, QUALITY),
    Rule("SK403", "no-chinese-keyword", WARNING, QUALITY),
    Rule("SK501", "request-stolen", WARNING, RANKING),
)}
# fmt: on


class Finding:
    """One problem at one place: ``path:line:col: CODE message``. Line and column start at 1.

    ``also``: the (line, col) of each other place the same problem is (a
    missing file mentioned again), shown after the message; the message
    itself, what a baseline keys on, stays the same however many there are.
    """

    __slots__ = ("also", "code", "col", "level", "line", "message", "path")

    def __init__(
        self, code: str, path: str, line: int, col: int, message: str, *, also: tuple[tuple[int, int], ...] = ()
    ) -> None:
        self.code = code
        self.path = path
        self.line = line
        self.col = col
        self.message = message
        self.also = also
        self.level: str | None = None  # the configuration's severity for the rule, when it sets one

    @property
    def rule(self) -> Rule:
        return RULES[self.code]

    @property
    def severity(self) -> str:
        return self.level or RULES[self.code].severity

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.code)

    @property
    def full_message(self) -> str:
        """The message, and how many times and on which other lines the same problem is, when it is more than once."""
        if not self.also:
            return self.message
        lines = sorted({line for line, _ in self.also} - {self.line})
        where = f"; also on line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}" if lines else ""
        return f"{self.message} (named {len(self.also) + 1} times{where})"

    def as_json(self) -> dict[str, object]:
        found: dict[str, object] = {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "code": self.code,
            "rule": self.rule.name,
            "severity": self.severity,
            "message": self.message,
        }
        if self.also:
            found["also"] = [{"line": line, "col": col} for line, col in self.also]
        return found

    def as_text(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.full_message}"

    def __repr__(self) -> str:
        return f"Finding({self.as_text()!r})"


class Position:
    """Where something starts in a file, 1-based; ``also``: where else the same problem is (a path named again)."""

    __slots__ = ("also", "col", "line")

    def __init__(self, line: int, col: int, also: tuple[tuple[int, int], ...] = ()) -> None:
        self.line = line
        self.col = col
        self.also = also


START = Position(1, 1)

# A rule's code, where, and the message: what each check returns before it becomes a Finding.
Problem = tuple[str, Position, str]
