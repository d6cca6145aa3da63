"""The Agent Skills spec's rules for a frontmatter's fields, as ``skills-ref`` checks them.

Pure: located fields in, (code, position, message) out. Names follow
skills-ref: stripped, NFKC-normalised, Unicode letters and digits allowed.
"""

from __future__ import annotations

import unicodedata

from skillmem_hook.lint.agent_fields import check_other_field
from skillmem_hook.lint.invisible import check_invisible
from skillmem_hook.lint.rules import START, Position, Problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from skillmem_hook.lint.fields import Field, Fields

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
        if key not in ALLOWED_FIELDS:  # an agent's own field, a near miss of one, or unknown
            problems += check_other_field(key, field, ALLOWED_FIELDS)
    problems += _check_name(entries.get("name"), folder)
    problems += _check_description(entries.get("description"))
    problems += _check_optional(entries)
    return problems


def _check_name(field: Field | None, folder: str) -> list[Problem]:
    """The name's problems, one finding per cause: a name written as a title is one finding, not three.

    When the folder's name is a valid name, the fix suggested is the
    folder's name, so following it also ends the mismatch (SK116 is then
    not reported separately).
    """
    if field is None:
        return [("SK110", START, "the frontmatter has no 'name'; add 'name: " + _suggest(folder) + "'")]
    at = field.value_at
    if not isinstance(field.value, str) or not field.value.strip():
        return [("SK111", at, "'name' must be non-empty text; write the skill's name")]
    name = unicodedata.normalize("NFKC", field.value.strip())
    folder = unicodedata.normalize("NFKC", folder)
    problems: list[Problem] = []
    if len(name) > MAX_NAME:
        problems.append(("SK112", at, f"name is {len(name)} characters; shorten it to at most {MAX_NAME}"))
    breaches = form_breaches(name)
    folder_fits = not form_breaches(folder) and len(folder) <= MAX_NAME
    if breaches:
        code, _ = breaches[0]
        fix = f"use '{folder}' (the folder's name)" if folder_fits else f"use '{_suggest(name)}'"
        if folder == name and not folder_fits:
            fix += ", and rename the folder to match"
        problems.append((code, at, f"name '{name}' " + " and ".join(what for _, what in breaches) + f"; {fix}"))
        if folder_fits:
            return problems
    if folder != name:
        if breaches:
            fix = f"rename the folder to '{_suggest(name)}' too"
        elif folder_fits:
            fix = f"write 'name: {folder}' or rename the folder to '{name}'"
        else:
            fix = f"rename the folder to '{name}'"
        problems.append(("SK116", at, f"name '{name}' differs from its folder '{folder}'; {fix}"))
    return problems


def form_breaches(name: str) -> list[tuple[str, str]]:
    """(code, what is wrong) for each way the name breaks the spec's form, the most telling first."""
    breaches = []
    if not all(character.isalnum() or character == "-" for character in name):
        breaches.append(("SK114", "holds characters other than letters, digits and '-'"))
    if name != name.lower():
        breaches.append(("SK113", "has capitals"))
    if name.startswith("-") or name.endswith("-") or "--" in name:
        breaches.append(("SK115", "has a leading, trailing or doubled '-'"))
    return breaches


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
    return check_invisible(value, field.value_at)


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
        problems.append(("SK132", *_metadata_problem(metadata)))
    return problems


def _metadata_problem(metadata: Field) -> tuple[Position, str]:
    """Where ``metadata`` goes wrong (the first nested key, when it can be located) and what to do."""
    if not isinstance(metadata.value, dict):
        return metadata.value_at, "'metadata' must map keys to text; write 'key: value' lines under it"
    for key, value in metadata.value.items():
        if not isinstance(value, str):
            at = metadata.key_at.get(str(key), metadata.value_at) if metadata.key_at else metadata.value_at
            return at, f"metadata '{key}' holds a list or mapping; metadata values must be text: write it as one string"
    return metadata.value_at, "'metadata' keys must be text"


def _is_text_or_text_list(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(item, str) for item in value))


def _is_text_mapping(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _suggest(text: str) -> str:
    """A spec-conforming name close to ``text``."""
    folded = unicodedata.normalize("NFKC", text).lower()
    kept = "".join(character if character.isalnum() else "-" for character in folded)
    return "-".join(part for part in kept.split("-") if part)[:MAX_NAME].strip("-") or "my-skill"
