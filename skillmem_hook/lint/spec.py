"""The Agent Skills spec's rules for a frontmatter's fields, as ``skills-ref`` checks them.

Pure: located fields in, (code, position, message) out. Names follow
skills-ref: stripped, NFKC-normalised, Unicode letters and digits allowed.
"""

from __future__ import annotations

import unicodedata

from skillmem_hook.lint.rules import START, Position

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.fields import Field, Fields

Problem = tuple[str, Position, str]

ALLOWED_FIELDS = ("name", "description", "license", "allowed-tools", "metadata", "compatibility")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500


def check_fields(fields: Fields, folder: str) -> list[Problem]:
    """Every spec problem of a frontmatter, for a SKILL.md in a folder named ``folder``."""
    if not fields.is_mapping:
        return [("SK104", START, "the frontmatter is not a mapping of keys to values; write 'name: ...' lines")]
    entries = fields.entries
    problems: list[Problem] = [
        ("SK106", at, f"key '{key}' is given more than once; keep one") for key, at in fields.repeated
    ]
    for key, field in entries.items():
        if key not in ALLOWED_FIELDS:
            problems.append(("SK105", field.key, f"unknown field '{key}'; move it under 'metadata:' or remove it"))
    problems += _check_name(entries.get("name"), folder)
    problems += _check_description(entries.get("description"))
    problems += _check_optional(entries)
    return problems


def _check_name(field: Field | None, folder: str) -> list[Problem]:
    if field is None:
        return [("SK110", START, "the frontmatter has no 'name'; add 'name: " + _suggest(folder) + "'")]
    at = field.value_at
    if not isinstance(field.value, str) or not field.value.strip():
        return [("SK111", at, "'name' must be non-empty text; write the skill's name")]
    name = unicodedata.normalize("NFKC", field.value.strip())
    problems: list[Problem] = []
    if len(name) > MAX_NAME:
        problems.append(("SK112", at, f"name is {len(name)} characters; shorten it to at most {MAX_NAME}"))
    if name != name.lower():
        problems.append(("SK113", at, f"name '{name}' has capitals; use '{_suggest(name)}'"))
    if not all(character.isalnum() or character == "-" for character in name):
        problems.append(("SK114", at, f"name '{name}' may hold only letters, digits and '-'; use '{_suggest(name)}'"))
    if name.startswith("-") or name.endswith("-") or "--" in name:
        problems.append(("SK115", at, f"name '{name}' has a leading, trailing or doubled '-'; remove it"))
    if unicodedata.normalize("NFKC", folder) != name:
        problems.append(
            ("SK116", at, f"name '{name}' differs from its folder '{folder}'; rename one to match the other")
        )
    return problems


def _check_description(field: Field | None) -> list[Problem]:
    if field is None:
        return [("SK120", START, "the frontmatter has no 'description'; add what the skill does and when to use it")]
    value = field.value
    if not isinstance(value, str) or not value.strip():
        return [("SK121", field.value_at, "'description' must be non-empty text; say what the skill does")]
    if len(value) > MAX_DESCRIPTION:
        return [
            (
                "SK122",
                field.value_at,
                f"description is {len(value)} characters; shorten it to at most {MAX_DESCRIPTION}",
            )
        ]
    return []


def _check_optional(entries: dict[str, Field]) -> list[Problem]:
    problems: list[Problem] = []
    compatibility = entries.get("compatibility")
    if compatibility is not None:
        value = compatibility.value
        if not isinstance(value, str):
            problems.append(("SK130", compatibility.value_at, "'compatibility' must be text; write it as one string"))
        elif len(value) > MAX_COMPATIBILITY:
            problems.append(
                (
                    "SK130",
                    compatibility.value_at,
                    f"compatibility is {len(value)} characters; shorten it to at most {MAX_COMPATIBILITY}",
                )
            )
    tools = entries.get("allowed-tools")
    if tools is not None and not _is_text_or_text_list(tools.value):
        problems.append(("SK131", tools.value_at, "'allowed-tools' must be a string or a list of strings"))
    metadata = entries.get("metadata")
    if metadata is not None and not _is_text_mapping(metadata.value):
        problems.append(("SK132", metadata.value_at, "'metadata' must map keys to text; flatten nested values"))
    return problems


def _is_text_or_text_list(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(item, str) for item in value))


def _is_text_mapping(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _suggest(text: str) -> str:
    """A spec-conforming name close to ``text``."""
    folded = unicodedata.normalize("NFKC", text).lower()
    kept = "".join(character if character.isalnum() else "-" for character in folded)
    return "-".join(part for part in kept.split("-") if part)[:MAX_NAME].strip("-") or "my-skill"
