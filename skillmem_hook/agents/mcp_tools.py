"""The two MCP tools as plain values: their schemas, one rule for their arguments, and what a call returns.

Independent of the MCP SDK, so it is tested without it. The input schemas
state the whole rule a call is checked against (JSON types as JSON has them:
``"5"`` and ``true`` are not integers; sizes capped; no unknown argument), so
a client that validates before sending never sees a refusal. Whatever the
client sends is echoed back at most as a short, escaped prefix.
"""

from __future__ import annotations

from skillmem_hook.agents.library import MAX_TOP_K
from skillmem_hook.errors import UsageError
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from skillmem_hook.agents.library import SkillLibrary

# A task in a user's words fits in a few sentences; the route hook reads 16 KiB of a prompt.
MAX_INTENT_CHARS = 4096
MAX_NAME_CHARS = 256
ECHO_CHARS = 60
DEFAULT_TOP_K = 5

_RESULT = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "the skill's name, as skill_read takes it"},
        "description": {"type": "string", "description": "what the skill does, from its SKILL.md"},
        "domain": {"type": "string", "description": "the domain the index places it in"},
        "path": {"type": "string", "description": "its SKILL.md, relative to the repository for a relative root"},
        "score": {"type": "number", "minimum": 0, "description": "the search score, higher is better"},
        "confidence": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "the chance that this skill serves the task, if any skill does (see match)",
        },
    },
    "required": ["name", "description", "domain", "path", "score", "confidence"],
    "additionalProperties": False,
}
TOOLS: dict[str, dict[str, Any]] = {
    "skill_search": {
        "description": (
            "Find the skills that fit a task, best first. Each result has the skill's name, description, "
            "domain, the path of its SKILL.md (relative to the repository), a score and a confidence; match "
            "says whether any skill fits (strong, weak, none), mode which ranking answered (fused, lexical)."
        ),
        "input": {
            "type": "object",
            "properties": {
                "intent": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": MAX_INTENT_CHARS,
                    "description": "the task in the user's own words, any language",
                },
                "top_k": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_TOP_K,
                    "default": DEFAULT_TOP_K,
                    "description": f"how many results at most, 1 to {MAX_TOP_K}",
                },
            },
            "required": ["intent"],
            "additionalProperties": False,
        },
        "output": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "maxLength": ECHO_CHARS + 1,
                    "description": f"the intent searched for, cut to its first {ECHO_CHARS} characters",
                },
                "match": {
                    "type": "string",
                    "enum": ["strong", "weak", "none"],
                    "description": "how well the best result fits: 'none' when no skill holds the task's words",
                },
                "mode": {
                    "type": "string",
                    "enum": ["fused", "lexical"],
                    "description": (
                        "which ranking answered: fused (the words and a sentence encoder, the [semantic] extra) or "
                        "lexical (the words alone: the extra is not installed, or the skills' vectors are still "
                        "being built, and the same intent asked later is answered fused)"
                    ),
                },
                "count": {"type": "integer", "minimum": 0, "description": "how many results"},
                "results": {"type": "array", "items": _RESULT, "maxItems": MAX_TOP_K},
                "notices": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "skills roots outside the repository that it names: their skills are not its own",
                },
            },
            "required": ["query", "match", "mode", "count", "results"],
            "additionalProperties": False,
        },
    },
    "skill_read": {
        "description": (
            "The full text of one skill's SKILL.md (at most 1 MiB), by its name as skill_search returns it; "
            "case and separators may differ ('Web Scraper' finds web-scraper) when only one skill fits, "
            "and a name no skill has finds the one skill in a folder of that name (its path's last folder)."
        ),
        "input": {
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": MAX_NAME_CHARS,
                    "description": "the skill's name, or @owner/name when two owners share it",
                },
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "output": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "the skill read, by its name as skill_search returns it"},
                "path": {"type": "string", "description": "its SKILL.md, relative to the repository"},
                "text": {"type": "string", "description": "the SKILL.md's text"},
                "notice": {
                    "type": "string",
                    "description": "its skills root lies outside the repository, which names it: not the repository's",
                },
                "note": {
                    "type": "string",
                    "description": "no skill has the name asked for: the skill was read by its folder's name",
                },
            },
            "required": ["name", "path", "text"],
            "additionalProperties": False,
        },
    },
}


def call_tool(library: SkillLibrary, name: str, arguments: Mapping[str, object] | None) -> dict[str, Any]:
    """The structured result of one call; raises UsageError (a tool error with a hint) for a bad call."""
    if name not in TOOLS:
        raise UsageError(f"no tool named {echo(name)}", "call skill_search or skill_read")
    values = check_arguments(TOOLS[name]["input"], arguments or {})
    if name == "skill_search":
        intent = str(values["intent"])
        top_k = values.get("top_k", DEFAULT_TOP_K)
        assert isinstance(top_k, int)
        answer = library.answer(intent, top_k)
        hits = answer["results"]
        assert isinstance(hits, list)
        results = [{key: _text(value) for key, value in hit.items()} for hit in hits]
        query = intent if len(intent) <= ECHO_CHARS else intent[:ECHO_CHARS] + "…"  # never echoed whole
        found = {"query": _text(query), "match": answer["match"], "mode": answer["mode"]}
        notices = {"notices": answer["notices"]} if "notices" in answer else {}
        return {**found, "count": len(results), "results": results, **notices}
    return {key: _text(value) for key, value in library.read_skill(str(values["name"])).items()}


def _text(value: object) -> object:
    """A value JSON can carry: a file name's byte that is not UTF-8 (a lone surrogate) shows as an escape."""
    if isinstance(value, str) and not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return visible(value)
    return value


def check_arguments(schema: Mapping[str, Any], arguments: Mapping[str, object]) -> dict[str, object]:
    """``arguments`` checked against a tool's input schema: the one rule, stated where clients read it."""
    properties: Mapping[str, Mapping[str, Any]] = schema["properties"]
    unknown = sorted(set(arguments) - set(properties))
    if unknown:
        raise UsageError(
            f"unknown argument {echo(unknown[0])}", f"the arguments are {', '.join(properties)} (see the tool's schema)"
        )
    for required in schema["required"]:
        if required not in arguments:
            raise UsageError(f"the argument {required!r} is missing", _describe(required, properties[required]))
    return {key: _checked(key, value, properties[key]) for key, value in arguments.items()}


def _checked(key: str, value: object, rule: Mapping[str, Any]) -> object:
    if rule["type"] == "string":
        if not isinstance(value, str):
            raise UsageError(f"{key} must be a JSON string, not {_json_type(value)}", _describe(key, rule))
        if len(value) > rule["maxLength"]:
            raise UsageError(
                f"{key} is {len(value):,} characters long; at most {rule['maxLength']:,} are read",
                _describe(key, rule),
            )
        if not value.strip():
            raise UsageError(f"{key} is empty", _describe(key, rule))
        return value
    # An integer as JSON Schema counts one: a number with no fraction, never true/false or "5".
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not is_number or (isinstance(value, float) and not value.is_integer()):
        raise UsageError(f"{key} must be a JSON integer, not {_json_type(value)}", _describe(key, rule))
    number = int(value)  # type: ignore[call-overload]
    if not rule["minimum"] <= number <= rule["maximum"]:
        raise UsageError(
            f"{key} must be from {rule['minimum']} to {rule['maximum']}, not {number}", _describe(key, rule)
        )
    return number


def _describe(key: str, rule: Mapping[str, Any]) -> str:
    return f"{key}: {rule['description']}"


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"the string {echo(value)}"
    if isinstance(value, (int, float)):
        return f"the number {echo(repr(value))}"
    return "an array" if isinstance(value, list) else "an object"


def echo(text: str) -> str:
    """What a client sent, shown back: quoted, escaped, and no more than a short prefix."""
    shown = visible(text[:ECHO_CHARS])
    return f"'{shown}…'" if len(text) > ECHO_CHARS else f"'{shown}'"
