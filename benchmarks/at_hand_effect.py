"""What the package's reading of the work at hand silences on the tuning data, against the route outcomes of a base.

    python3 benchmarks/at_hand_effect.py --outcomes OUTCOMES.json [--misses]

``OUTCOMES.json`` is every tuning request and everyday turn as the route of a
base commit answered it (``at_hand_folds.outcomes``, written by that script
when the file is missing: run it at the base, with every collection's root
as ``unseen_set.py --tuning`` takes them). The reading only silences: a
prompt it reads as the work at hand gets no hint of the score rule (a skill
named by its name keeps its hint), so its effect is read off the base's
fires without routing again: each fire of the score rule whose first
``MAX_SCORED_CHARS`` the package's ``at_hand`` now reads is silenced. The
script prints the everyday turns silenced (per file) and still firing, the
right hints lost, the wrong hints silenced, and the fire and precision of
every request group the reading moved. ``unseen_set.py --tuning`` at both
commits gives the same figures by routing every prompt again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from at_hand_folds import outcomes  # noqa: E402

from skillmem_hook.agents.route import MAX_SCORED_CHARS  # noqa: E402
from skillmem_hook.search.at_hand import at_hand  # noqa: E402


def silenced(text: str) -> bool:
    """Whether the score rule's hint for ``text`` is silenced now (``best_scored``'s first gate)."""
    return at_hand(text[:MAX_SCORED_CHARS])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outcomes", type=Path, required=True, help="the base's route outcomes (JSON)")
    parser.add_argument("--misses", action="store_true", help="list each turn silenced and each request changed")
    options = parser.parse_args()
    found = outcomes(options.outcomes)
    _turns(found["turns"], misses=options.misses)
    _requests(found["requests"], misses=options.misses)
    return 0


def _turns(rows: list[dict], *, misses: bool) -> None:  # type: ignore[type-arg]
    print("| turn file | turns | fired before | fired after | fires before | fires after |")
    print("|---|---:|---:|---:|---:|---:|")
    files: dict[str, list[int]] = {}
    gone, left = [], []
    for row in rows:
        fires = row["fires"]
        after = {key: fire for key, fire in fires.items() if not (fire[0] == "scored" and silenced(row["text"]))}
        counts = files.setdefault(row["source"], [0, 0, 0, 0, 0])
        counts[0] += 1
        counts[1] += bool(fires)
        counts[2] += bool(after)
        counts[3] += len(fires)
        counts[4] += len(after)
        if fires and not after:
            gone.append(row)
        elif after:
            left.append((row, after))
    total = [sum(column) for column in zip(*files.values())]
    for source, counts in [*files.items(), ("all", total)]:
        if counts[1] or source == "all":
            print(f"| {source} | " + " | ".join(str(count) for count in counts) + " |")
    if misses:
        for row in gone:
            print(f"- silenced {row['id']}: {row['text'][:110]!r}")
        for row, after in left:
            names = "; ".join(f"{key}: {', '.join(fire[1])}" for key, fire in after.items())
            print(f"- still fires {row['id']} ({names}): {row['text'][:110]!r}")


def _requests(rows: list[dict], *, misses: bool) -> None:  # type: ignore[type-arg]
    groups: dict[tuple[str, str], list[int]] = {}
    lost, silenced_wrong = [], []
    for row in rows:
        fired = bool(row["names"])
        right = any(name in row["expect"] for name in row["names"])
        gone = fired and row["way"] == "scored" and silenced(row["query"])
        counts = groups.setdefault((row["set"], row["group"]), [0, 0, 0, 0, 0])
        counts[0] += 1
        counts[1] += fired
        counts[2] += right
        counts[3] += fired and not gone
        counts[4] += right and not gone
        if gone:
            (lost if right else silenced_wrong).append(row)
    print(f"\nright hints lost: {len(lost)}; wrong hints silenced: {len(silenced_wrong)}")
    print("\n| set | group | requests | fire before | fire after | precision before | precision after |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (name, group), (n, fires, right, fires_after, right_after) in groups.items():
        if fires != fires_after:
            print(
                f"| {name} | {group} | {n} | {fires / n:.2f} | {fires_after / n:.2f} | {_share(right, fires)} | "
                f"{_share(right_after, fires_after)} |"
            )
    if misses:
        for row in lost + silenced_wrong:
            kind = "right lost" if row in lost else "wrong silenced"
            print(f"- {kind} {row['id']} ({', '.join(row['names'])}): {row['query'][:110]!r}")


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "-"


if __name__ == "__main__":
    sys.exit(main())
