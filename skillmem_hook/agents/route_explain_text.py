"""``route --explain --text``: each condition of the rule as a sentence a person reads without the code.

The JSON keeps each condition as the rule states it (``best 10.84 >= 1.2 x second 10.37``), which a program
may read; the text says what was checked and what it found ("[no] much context: not a
scattered tie of 3 (coverage < 0.3)" was [no] on one prompt and [ok] on another, and said neither).
A condition of a form not known here is shown as the rule states it.
"""

from __future__ import annotations

import re

from skillmem_hook.search.confidence import SCORE_RULE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_NUMBER = r"(-?[0-9.]+(?:e[-+]?[0-9]+)?)"


def _ratio(best: str, second: str) -> str:
    low = float(second)
    return f"{float(best) / low:.2f} x" if low > 0 else "no second"


def _lead(match: re.Match[str]) -> str:
    best, times, second = match[1], match[2], match[3]
    ratio = _ratio(best, second)
    return f"the best hit scores at least {times} x the second's score: {best} against {second} ({ratio})"


def _scatter(match: re.Match[str]) -> str:
    return (
        f"the {match[1]} best hits are not a near tie of skills whose names share no word while the best covers"
        f" under {match[2]} of the prompt's words (such a tie means the context points nowhere in particular)"
    )


# (the rule's form of a condition, its sentence), tried in order: the longest forms first.
_READINGS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(rf"best {_NUMBER} >= {_NUMBER} x second {_NUMBER}"), _lead),
    (
        re.compile(rf"coverage {_NUMBER} >= {_NUMBER}"),
        lambda m: f"the best hit covers at least {m[2]} of the prompt's words: it covers {m[1]}",
    ),
    (
        re.compile(rf"words held {_NUMBER} >= {_NUMBER} x typed {_NUMBER}"),
        lambda m: (
            f"the best hit holds at least {m[2]} of the {m[3]} words typed ({float(m[2]) * float(m[3]):.3g} words):"
            f" it holds {m[1]}"
        ),
    ),
    (re.compile(rf"not a scattered tie of {_NUMBER} \(coverage < {_NUMBER}\)"), _scatter),
    (
        re.compile(rf"typed {_NUMBER} >= {_NUMBER}"),
        lambda m: f"the prompt types at least {m[2]} words: it types {m[1]}",
    ),
    (re.compile(rf"score {_NUMBER} >= {_NUMBER}"), lambda m: f"the best hit scores at least {m[2]}: it scores {m[1]}"),
    (
        re.compile(rf"words held {_NUMBER} >= {_NUMBER}"),
        lambda m: f"the best hit holds at least {m[2]} of the words typed: it holds {m[1]}",
    ),
]

# The alternatives a condition may carry after its first form.
_OR_ELSE = [
    (
        re.compile(rf", or best >= {_NUMBER} x second \(typed {_NUMBER} >= {_NUMBER}\)"),
        r", or, on a prompt of \3 typed words or more (this one types \2), the best scores at least \1 x the second's",
    ),
    (
        re.compile(rf", or best >= {_NUMBER} x second: waived by the lead"),
        r", or the best scores at least \1 x the second's: it does, so this holds",
    ),
    (re.compile(rf", or best >= {_NUMBER} x second"), r", or the best scores at least \1 x the second's"),
]

# What each way of the score rule asks, said once before its first line.
_WAYS = {
    "much context": (
        f"much context: a prompt of {SCORE_RULE.context_typed} typed words or more is hinted only when its best hit"
        " stands out; every line below must hold"
    ),
    "held words": "held words: one way to a hint; every line below must hold (or every line of the clear lead)",
    "clear lead": "clear lead: the other way to a hint; every line below must hold (or every line of held words)",
}


def readable(condition: str) -> str:
    """``condition`` as a sentence: its leading form read (what is asked, then what was found), the rest kept."""
    for pattern, reading in _READINGS:
        found = pattern.match(condition)
        if found is not None:
            rest = condition[found.end() :]
            for alternative, said in _OR_ELSE:
                rest = alternative.sub(said, rest)
            return reading(found) + rest
    return condition


def rule_lines(rows: list[dict[str, object]]) -> list[str]:
    """The rule's conditions for a person: a line before each of the score rule's ways, then each condition."""
    lines = ["conditions ([ok] holds, [no] fails):"] if rows else []
    said: set[str] = set()
    for row in rows:
        way = str(row["way"])
        if way in _WAYS and way not in said:
            said.add(way)
            lines.append(f"  {_WAYS[way]}:")
        lines.append(f"  [{'ok' if row['holds'] else 'no'}] {way}: {readable(str(row['condition']))}")
    return lines
