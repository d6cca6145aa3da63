"""``route --explain --text``: each condition of the rule as a sentence a person reads without the code.

The JSON keeps each condition in the rule's own form (``best 10.84 >= 1.2 x second 10.37``), which a program
may read; the text says what was checked and what it found, each condition telling its own
(``search/conditions.py``), under a line on what each way of the score rule needs.
"""

from __future__ import annotations

from skillmem_hook.search.conditions import Condition
from skillmem_hook.search.confidence import SCORE_RULE

# What each way of the score rule asks, said once before its first line.
_WAYS = {
    "much context": (
        f"much context: a prompt of {SCORE_RULE.context_typed} typed words or more is hinted only when its best hit"
        " stands out; every line below must hold"
    ),
    "held words": "held words: one way to a hint; every line below must hold (or every line of the clear lead)",
    "clear lead": "clear lead: the other way to a hint; every line below must hold (or every line of held words)",
}


def readable(condition: object) -> str:
    """``condition`` as a person reads it: a condition of the score rule in its sentence; a gate before the rule,
    already said in words (``the prompt names no code``), as it is."""
    return condition.sentence() if isinstance(condition, Condition) else str(condition)


def rule_lines(rows: list[dict[str, object]]) -> list[str]:
    """The rule's conditions for a person: a line before each of the score rule's ways, then each condition."""
    lines = ["conditions ([ok] holds, [no] fails):"] if rows else []
    said: set[str] = set()
    for row in rows:
        way = str(row["way"])
        if way in _WAYS and way not in said:
            said.add(way)
            lines.append(f"  {_WAYS[way]}:")
        lines.append(f"  [{'ok' if row['holds'] else 'no'}] {way}: {readable(row['condition'])}")
    return lines
