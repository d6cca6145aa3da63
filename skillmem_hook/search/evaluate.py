"""How well a ranking serves someone's own questions: the figures ``skillmem eval`` prints.

Pure: question sets are parsed from text, and scored through a ``rank``
function (words in, names best first out), so the same code scores the
lexical ranking, the fused one, or any other.

Two kinds of set:
- a ranking set, JSON lines ``{"query": ..., "expect": [names]}`` (the dev
  set's format): hit@1/3/10, MRR@10 and the misses;
- a trigger set, skill-creator style: ``[{"query": ..., "should_trigger":
  bool}]`` or ``{"evals": [{"prompt": ..., "should_trigger": bool}]}`` for one
  skill: the skill "triggers" when it ranks in the top TRIGGER_RANK, and the
  set gives that rule's precision and recall.
"""

from __future__ import annotations

import json

from skillmem_hook.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    Rank = Callable[[str, int], list[str]]

DEPTH = 10
MISS_AT = 3
TRIGGER_RANK = 3  # what an agent reading the first results of a search sees
DECIMALS = 4


class Question:
    """One question and the names that answer it (any of them counts); ``label`` says where it came from."""

    __slots__ = ("expect", "label", "query")

    def __init__(self, query: str, expect: Sequence[str], label: str) -> None:
        self.query = query
        self.expect = list(expect)
        self.label = label


def parse_ranking_set(text: str, source: str) -> list[Question]:
    """The questions of a JSON-lines ranking set; a line that is not one names itself in the error."""
    questions = []
    # Lines end at LF only: a JSON string may hold U+2028 or a form feed raw, where splitlines would cut it.
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            item = json.loads(line)
        except (ValueError, RecursionError):  # a line nested past the parser's depth is no question
            raise UsageError(f"{where} is not a JSON line", _RANKING_HINT) from None
        query, expect = (item.get("query"), item.get("expect")) if isinstance(item, dict) else (None, None)
        if isinstance(expect, str):
            expect = [expect]
        if not _is_text(query) or not isinstance(expect, list) or not expect or not all(map(_is_text, expect)):
            raise UsageError(f"{where} needs a non-empty 'query' and 'expect' (a list of names)", _RANKING_HINT)
        given = item.get("id")  # an id of 0 (or false) is one: only an absent or empty id gives the line's place
        questions.append(Question(str(query), expect, where if given is None or given == "" else str(given)))
    if not questions:
        raise UsageError(f"{source} holds no question", _RANKING_HINT)
    return questions


def parse_trigger_set(content: object, source: str) -> list[tuple[str, bool]]:
    """(query, should_trigger) pairs from a parsed skill-creator trigger set."""
    items = content.get("evals") if isinstance(content, dict) else content
    if not isinstance(items, list) or not items:
        raise UsageError(f"{source} holds no trigger questions", _TRIGGER_HINT)
    pairs = []
    for number, item in enumerate(items, 1):
        query = item.get("query", item.get("prompt")) if isinstance(item, dict) else None
        wanted = item.get("should_trigger") if isinstance(item, dict) else None
        if not _is_text(query) or not isinstance(wanted, bool):
            raise UsageError(
                f"{source}: item {number} needs a 'query' (or 'prompt') and 'should_trigger'", _TRIGGER_HINT
            )
        pairs.append((str(query), wanted))
    return pairs


def rank_of(names: Sequence[str], expect: Sequence[str]) -> int:
    """1 for the first place, 0 when no expected name is among ``names``."""
    wanted = set(expect)
    return next((place for place, name in enumerate(names, 1) if name in wanted), 0)


def ranking_figures(ranks: Sequence[int]) -> dict[str, float]:
    """hit@1, hit@3, hit@10 and MRR@10 of the first-right-answer ranks (0: not in the top 10)."""
    count = max(1, len(ranks))
    figures = {f"hit@{k}": sum(1 for rank in ranks if 0 < rank <= k) / count for k in (1, 3, 10)}
    figures["mrr"] = sum(1 / rank for rank in ranks if 0 < rank <= DEPTH) / count
    return {key: round(value, DECIMALS) for key, value in figures.items()}


def score_ranking(questions: Sequence[Question], rank: Rank) -> dict[str, object]:
    """The figures of a ranking set; each miss (no expected name in the top 3), and each question found in the
    top 3 but not first (what hit@1 counts against), with the top 3 given."""
    ranks: list[int] = []
    misses: list[dict[str, object]] = []
    not_first: list[dict[str, object]] = []
    for question in questions:
        names = rank(question.query, DEPTH)
        place = rank_of(names, question.expect)
        ranks.append(place)
        if place != 1:
            item = {
                "id": question.label,
                "query": question.query,
                "expect": question.expect,
                "rank": place,
                "top": names[:MISS_AT],
            }
            (not_first if 0 < place <= MISS_AT else misses).append(item)
    return {"questions": len(questions), **ranking_figures(ranks), "misses": misses, "not_first": not_first}


class TriggerScore:
    """How 'the skill ranks in the top TRIGGER_RANK' fared against one skill's ``should_trigger`` answers."""

    __slots__ = ("false_triggers", "fired", "missed", "questions", "right", "skill", "wanted")

    def __init__(self, skill: str, fired: Sequence[tuple[str, bool, bool]]) -> None:
        self.skill = skill
        self.questions = len(fired)
        self.wanted = sum(1 for _, wanted, _ in fired if wanted)
        self.fired = sum(1 for _, _, fires in fired if fires)
        self.right = sum(1 for _, wanted, fires in fired if wanted and fires)
        self.missed = [query for query, wanted, fires in fired if wanted and not fires]
        self.false_triggers = [query for query, wanted, fires in fired if fires and not wanted]

    def as_json(self) -> dict[str, object]:
        return {
            "skill": self.skill,
            "questions": self.questions,
            "should_trigger": self.wanted,
            "precision": share(self.right, self.fired),
            "recall": share(self.right, self.wanted),
            "missed": self.missed,
            "false_triggers": self.false_triggers,
        }


def score_triggers(skill: str, pairs: Sequence[tuple[str, bool]], rank: Rank) -> TriggerScore:
    return TriggerScore(skill, [(query, wanted, skill in rank(query, TRIGGER_RANK)) for query, wanted in pairs])


def share(part: int, whole: int) -> float | None:
    """``part / whole`` rounded, or None (JSON null) when there is nothing to divide."""
    return round(part / whole, DECIMALS) if whole else None


def _is_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


_RANKING_HINT = 'write one JSON object a line: {"query": "the words", "expect": ["skill-name"]}'
_TRIGGER_HINT = (
    'write a JSON list of {"query": "the words", "should_trigger": true} beside the SKILL.md, in evals/evals.json'
)
