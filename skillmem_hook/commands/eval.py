"""``skillmem eval FILE``: how well search finds the skills for someone's own questions.

FILE is a ranking set (JSON lines ``{"query", "expect"}``, the dev set's
format), a skill-creator trigger set (``evals/evals.json`` beside a
SKILL.md), or a folder whose skills' ``evals/evals.json`` are all scored.
One JSON line by default, ``--text`` for people; exit 1 when ``--min-hit3``
is not reached (hit@3 of a ranking set, recall of the trigger sets).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from skillmem_hook.agents.route import Target, best_scored
from skillmem_hook.agents.route_index import keys_by_skill
from skillmem_hook.arguments import add_catalog_options, add_location_options, add_text_option
from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.catalog.catalog import Catalog, CatalogOptions
from skillmem_hook.catalog.placement.selection import MAX_SPELLED
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.decisive import decisive_files
from skillmem_hook.errors import EXIT_FINDINGS, EXIT_OK, FileAccessError, UsageError
from skillmem_hook.files import read_regular_file
from skillmem_hook.report import emit
from skillmem_hook.search import store as search_store
from skillmem_hook.search.evaluate import (
    parse_ranking_set,
    parse_trigger_set,
    score_ranking,
    score_triggers,
    share,
)
from skillmem_hook.search.lookup import MAX_COMPARED
from skillmem_hook.search.names import build_name_table, named_skills
from skillmem_hook.search.semantic import rank_with_meaning, semantic_index_of
from skillmem_hook.streams import write_utf8
from skillmem_hook.text_lines import counted
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from skillmem_hook.search.evaluate import Question, Rank
    from skillmem_hook.search.rank import SearchIndex

MAX_SET_BYTES = 64 * 1024 * 1024
TRIGGER_SET = os.path.join("evals", "evals.json")
FIRED_LISTED = 10  # the questions the route hint fires on that --text lists; the JSON lists each


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_location_options(parser, prompt_files=False)
    add_catalog_options(parser, view=True)
    parser.add_argument(
        "--min-hit3", type=_share, metavar="X", help="exit 1 when hit@3 (a trigger set: recall) is under X, 0 to 1"
    )
    parser.add_argument(
        "--semantic", action="store_true", help="score the ranking fused with the [semantic] extra's encoder"
    )
    add_text_option(parser, "the figures and misses for a person")
    parser.add_argument(
        "file",
        metavar="FILE",
        help="JSON lines {query, expect}, an evals/evals.json trigger set, or a folder of skills",
    )


def _share(value: str) -> float:
    number = float(value)  # argparse names this function in its error: "invalid _share value"
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"must be within 0 and 1, not {value}")
    return number


def run(options: argparse.Namespace) -> int:
    settings = load_settings(options.root, tracked=options.tracked, cache=options.cache)
    return evaluate(
        options.file,
        require_roots(settings),
        aliases=settings.aliases,
        options=settings.catalog_options(),
        semantic=options.semantic,
        text=options.text,
        min_hit3=options.min_hit3,
        flagged=bool(options.root),
    )


def evaluate(
    path: str,
    roots: Sequence[str],
    *,
    aliases: Mapping[str, Sequence[str]],
    options: CatalogOptions | None = None,
    semantic: bool = False,
    text: bool = False,
    min_hit3: float | None = None,
    flagged: bool = False,
) -> int:
    catalog = scan_roots(roots, options)
    index = _stored_index(roots, options or CatalogOptions(), aliases, flagged=flagged)
    rank = ranker(roots, options or CatalogOptions(), aliases, semantic=semantic, flagged=flagged, index=index)
    result: dict[str, object] = {"file": path, "semantic": semantic}
    if os.path.isdir(path):
        result.update(_score_trigger_sets(_trigger_sets_under(path), catalog, rank))
    else:
        content = _read_text(path)
        trigger_set = _as_trigger_set(content)
        if trigger_set is None:
            questions = parse_ranking_set(content, path)
            result.update(kind="ranking", **score_ranking(questions, rank))
            result["warnings"] = unknown_expectations(questions, catalog)
            result["route"] = route_figures(questions, catalog, index, aliases)
        else:
            result.update(_score_trigger_sets([(path, trigger_set)], catalog, rank))
    headline = result["hit@3"] if result["kind"] == "ranking" else result["recall"]
    ok = min_hit3 is None or (isinstance(headline, float) and headline >= min_hit3)
    result.update(min_hit3=min_hit3, ok=ok)
    if text:
        write_utf8(sys.stdout, describe(result))
    else:
        emit(result)
    return EXIT_OK if ok else EXIT_FINDINGS


def _stored_index(
    roots: Sequence[str], options: CatalogOptions, aliases: Mapping[str, Sequence[str]], *, flagged: bool
) -> SearchIndex:
    watched = decisive_files(os.getcwd(), tracked=False)
    # whole: eval ranks every question, so every row is read anyway; a forged one makes the index built anew
    return search_store.load_or_build(roots, options, aliases, watched, flagged=flagged, whole=True)


def ranker(
    roots: Sequence[str],
    options: CatalogOptions,
    aliases: Mapping[str, Sequence[str]],
    *,
    semantic: bool,
    flagged: bool = False,
    index: SearchIndex | None = None,
) -> Rank:
    """Words and a depth in, distinct skill names best first out: what ``skillmem search`` would answer.

    The very index search ranks with (bodies included, the stored one when current), so a figure
    measured here is the figure a user of search gets.
    """
    if index is None:
        index = _stored_index(roots, options, aliases, flagged=flagged)
    if not semantic:
        return lambda intent, depth: _distinct(hit.skill.name for hit in index.query(intent, depth))

    meaning = semantic_index_of(Catalog(index.skills, [], []), cache=options.cache)
    return lambda intent, depth: _distinct(hit.skill.name for hit in rank_with_meaning(index, meaning, intent, depth))


def route_figures(
    questions: Sequence[Question], catalog: Catalog, index: SearchIndex, aliases: Mapping[str, Sequence[str]]
) -> dict[str, object]:
    """How the route hint fares on the questions: a skill a question names, else the score rule on the
    lexical index (the hook reads no encoder): how often it fires, how often a skill it names is expected, and
    each question it fires on (``fired``: its id, the skills hinted, right or not), since a count alone said not
    which (newcomer en3)."""
    table = build_name_table(
        (Target(skill.label, skill.root, skill.path), keys)
        for skill, keys in zip(catalog.skills, keys_by_skill(catalog.skills, aliases))
    )
    fired: list[dict[str, object]] = []
    for question in questions:
        hinted = [target.label for target in named_skills(question.query, table) or best_scored(question.query, index)]
        if hinted:
            fired.append({"id": question.label, "hinted": hinted, "right": any(h in question.expect for h in hinted)})
    fires, right = len(fired), sum(1 for item in fired if item["right"])
    return {
        "fires": fires,
        "fire_rate": share(fires, len(questions)),
        "right": right,
        "precision": share(right, fires),
        "fired": fired,
    }


def unknown_expectations(questions: Sequence[Question], catalog: Catalog) -> list[dict[str, object]]:
    """A warning for each question that expects a name no skill of the roots has: scored as a plain miss otherwise.

    A typo ("dokcer-expert") gets the name it is spelled like: the first MAX_SPELLED unknown names of the set, each
    once (difflib compares a name with every skill's: 50 unknown names on each of 200 lines, each spelled, took
    17 s over 2,000 skills), and at most MAX_COMPARED characters of each, as ``read`` does.
    """
    from skillmem_hook.near import near  # noqa: PLC0415 - only a set that names no skill pays for difflib

    known = {skill.name for skill in catalog.skills} | {skill.label for skill in catalog.skills}
    spelled: dict[str, str] = {}  # each unknown name spelled, by name: its "did you mean", or ""
    warnings: list[dict[str, object]] = []
    for question in questions:
        unknown = [name for name in question.expect if name not in known]
        if not unknown:
            continue
        told = []
        for name in unknown:
            if name not in spelled and len(spelled) < MAX_SPELLED:
                close = near(name[:MAX_COMPARED], known, 1)
                spelled[name] = f" (did you mean '{close[0]}'?)" if close else ""
            told.append(f"'{name}'" + spelled.get(name, ""))
        warning = f"expects {', '.join(told)}, which {'is' if len(told) == 1 else 'are'} no skill of the roots"
        warnings.append({"id": question.label, "unknown": unknown, "warning": warning})
    return warnings


def _distinct(names: object) -> list[str]:
    return list(dict.fromkeys(names))  # type: ignore[call-overload]


def _read_text(path: str) -> str:
    try:
        data = read_regular_file(path, MAX_SET_BYTES)
    except OSError as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise FileAccessError(f"cannot read {path}: {reason}", "pass a JSON-lines file or an evals.json") from None
    try:
        return data.decode("utf-8-sig")  # a BOM (Windows editors write one) is no part of the first line
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text", "save the question set as UTF-8") from None


def _as_trigger_set(content: str) -> object | None:
    """The parsed document when it is one trigger set (a list, or an object with 'evals'); else None."""
    try:
        document = json.loads(content)
    except (ValueError, RecursionError):  # nested past the parser's depth: not a set either
        return None  # JSON lines, or broken: the ranking set's parser names the line
    return document if isinstance(document, list) or (isinstance(document, dict) and "evals" in document) else None


def _trigger_sets_under(folder: str) -> list[tuple[str, object]]:
    found = []
    for parent, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        candidate = os.path.join(parent, TRIGGER_SET)
        # A set reached through a link may lie outside the repository: not read (name the file to read it).
        linked = os.path.islink(candidate) or os.path.islink(os.path.dirname(candidate))
        if SKILL_FILE in files and not linked and os.path.isfile(candidate):
            document = _as_trigger_set(_read_text(candidate))
            # skill-creator keeps its output evals (prompt, expected_output) under the same name: not ours to score.
            if _has_trigger_answers(document):
                found.append((candidate, document))
    if not found:
        raise UsageError(
            f"no skill under {folder} has a trigger set in {TRIGGER_SET}",
            'write [{"query": ..., "should_trigger": true}] there beside a SKILL.md, or pass a file',
        )
    return found


def _has_trigger_answers(document: object) -> bool:
    items = document.get("evals") if isinstance(document, dict) else document
    return isinstance(items, list) and any(isinstance(item, dict) and "should_trigger" in item for item in items)


def _score_trigger_sets(sets: list[tuple[str, object]], catalog: Catalog, rank: Rank) -> dict[str, object]:
    scores = [
        (path, score_triggers(_skill_beside(path, catalog), parse_trigger_set(doc, path), rank)) for path, doc in sets
    ]
    return {
        "kind": "trigger",
        "precision": share(sum(score.right for _, score in scores), sum(score.fired for _, score in scores)),
        "recall": share(sum(score.right for _, score in scores), sum(score.wanted for _, score in scores)),
        "skills": [{"file": path, **score.as_json()} for path, score in scores],
    }


def _skill_beside(path: str, catalog: Catalog) -> str:
    """The name of the catalog's skill whose folder holds ``evals/`` with this set."""
    folder = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(path))))
    for skill in catalog.skills:
        if os.path.realpath(os.path.join(skill.root, skill.path)) == folder:
            return skill.name
    raise UsageError(
        f"no skill of the roots holds {path}",
        "keep a trigger set at <skill>/evals/evals.json and name the skills' folder with --root",
    )


def describe(result: Mapping[str, object]) -> str:
    """The figures for a person: the headline, then each miss or each skill's precision and recall."""
    leg = "lexical + semantic" if result["semantic"] else "lexical"
    if result["kind"] == "ranking":
        lines = [
            f"{_line(str(result['file']))}: {_count(result['questions'], 'question')}, {leg}",
            f"hit@1 {result['hit@1']:.3f}  hit@3 {result['hit@3']:.3f}  hit@10 {result['hit@10']:.3f}  "
            f"MRR {result['mrr']:.3f}",
        ]
        route = result.get("route")
        if isinstance(route, dict):
            lines.append(
                f"route hint (lexical): fires on {route['fires']} ({_figure(route['fire_rate'])}),"
                f" right {route['right']}, precision {_figure(route['precision'])}"
            )
            lines += _fired_lines(route["fired"])
        lines += [f"warning {_line(str(item['id']))}: {_line(item['warning'])}" for item in result["warnings"]]  # type: ignore[attr-defined]
        for title, key in (("miss", "misses"), ("not first", "not_first")):
            for miss in result[key]:  # type: ignore[attr-defined]
                lines.append(f"{title} {_line(str(miss['id']))} (rank {miss['rank'] or '-'}): {_line(miss['query'])}")
                expect, top = ", ".join(map(_line, miss["expect"])), ", ".join(map(_line, miss["top"]))
                lines.append(f"  expect {expect}; got {top or 'nothing'}")
    else:
        lines = [
            f"{_line(str(result['file']))}: trigger sets, {leg}; overall precision {_figure(result['precision'])}, "
            f"recall {_figure(result['recall'])}"
        ]
        for skill in result["skills"]:  # type: ignore[attr-defined]
            lines.append(
                f"{_line(skill['skill'])}: precision {_figure(skill['precision'])}, recall {_figure(skill['recall'])} "
                f"({_count(skill['questions'], 'question')}, {skill['should_trigger']} should trigger)"
            )
            lines += [f"  missed: {_line(query)}" for query in skill["missed"]]
            lines += [f"  triggered, should not: {_line(query)}" for query in skill["false_triggers"]]
    if result["min_hit3"] is not None:
        lines.append(f"{'ok' if result['ok'] else 'FAILED'}: minimum {result['min_hit3']}")
    return "\n".join(lines) + "\n"


def _fired_lines(fired: Sequence[Mapping[str, object]]) -> list[str]:
    """Each question the route hint fires on, at most ``FIRED_LISTED``: its id, right or wrong, the skills hinted."""
    lines = []
    for item in fired[:FIRED_LISTED]:
        hinted = ", ".join(_line(str(label)) for label in item["hinted"])  # type: ignore[attr-defined]
        lines.append(f"  fired {_line(str(item['id']))} ({'right' if item['right'] else 'wrong'}): {hinted}")
    if len(fired) > FIRED_LISTED:
        lines.append(f"  ... and {len(fired) - FIRED_LISTED:,} more (the JSON's route.fired lists each)")
    return lines


def _count(number: object, noun: str) -> str:
    return counted(int(str(number)), noun)


def _figure(value: object) -> str:
    return "-" if value is None else f"{value:.3f}"


def _line(text: str) -> str:
    """Text from the set (an id, a question, a name) on one line: runs of white space as one space, and any
    other control or invisible character escaped (``visible``), so it can neither rewrite a terminal nor hide."""
    return visible(" ".join(text.split()))
