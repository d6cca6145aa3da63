"""A SKILL.md's frontmatter as the agents read it: strictly (Codex, Copilot CLI) and leniently (the rest).

The edge that reads: each skill's SKILL.md, through the safe reader. Codex's
loader reads the frontmatter with a strict YAML reader (serde_yaml) and
refuses a file it cannot read; Gemini CLI and OpenCode fall back to a
line-by-line reading, as the catalog does (``_declared``), with no fallback
to the folder's name or the body's first heading.
"""

from __future__ import annotations

from skillmem_hook.catalog.discovery.safe_read import read_skill_file
from skillmem_hook.catalog.skillfile import frontmatter
from skillmem_hook.catalog.skillfile.frontmatter import UnclosedFrontmatter, frontmatter_span
from skillmem_hook.errors import SkillmemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.catalog.skills import Skill

# A skill with disable-model-invocation: true is no skill of the catalog (catalog/skillfile/declared.py's USER_ONLY):
# no agent lists it to the model, so it is no loss of any listing either.
STRICT_KEYS = ("name", "description", "when_to_use")


class Fields:
    """What the agents read of one SKILL.md.

    ``strict`` holds the keys a strict YAML reader finds (``error`` says why
    it cannot read them); ``name`` and ``description`` are what a lenient
    reader finds declared (None when the file does not declare one).
    """

    __slots__ = ("description", "name", "strict")

    def __init__(self, strict: dict[str, object], name: str | None, description: str | None) -> None:
        self.strict = strict
        self.name = name
        self.description = description


def read_fields(skill: Skill, *, user_root: bool = True, boundary: str | None = None) -> Fields:
    """The skill's SKILL.md read strictly and leniently; a file the safe reader refuses reads as neither.

    ``user_root`` and ``boundary``: who named the skill's root, the safe reader's rule (``CatalogOptions``').
    """
    import yaml  # noqa: PLC0415 - only budget pays for it

    try:
        data = read_skill_file(skill.root, skill.path, user_root=user_root, boundary=boundary)
        span = frontmatter_span(data)
    except (SkillmemError, UnclosedFrontmatter) as error:
        return Fields(
            {"error": f"its SKILL.md cannot be read as a skill: {getattr(error, 'message', error)}"}, None, None
        )
    declared = _declared(data, span)
    if span is None:
        return Fields({"error": "no frontmatter ('---' block); Codex's loader requires one"}, *declared)
    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's reader, ten times faster, where built
        fields = yaml.load(data[span[0] : span[1]].decode("utf-8"), Loader=loader)  # noqa: S506 - a safe loader
    except (yaml.YAMLError, UnicodeDecodeError):
        return Fields({"error": "its frontmatter is not valid YAML, which Codex's loader refuses"}, *declared)
    if not isinstance(fields, dict):
        return Fields({"error": "its frontmatter is not a mapping, which Codex's loader refuses"}, *declared)
    return Fields({key: value for key, value in fields.items() if key in STRICT_KEYS}, *declared)


def _declared(data: bytes, span: tuple[int, int, int] | None) -> tuple[str | None, str | None]:
    """The name and description the frontmatter declares, read leniently (no fallback to the folder or a heading)."""
    if span is None:
        return None, None
    try:
        fields, _ = frontmatter.read_fields(data[span[0] : span[1]].decode("utf-8"))
    except UnicodeDecodeError:
        return None, None
    if not isinstance(fields, dict):
        return None, None
    name, description = fields.get("name"), fields.get("description")
    return (name if isinstance(name, str) else None), (description if isinstance(description, str) else None)


def one_line(text: str) -> str:
    """loader.rs's sanitize_single_line: runs of whitespace as one space."""
    return " ".join(text.split())
