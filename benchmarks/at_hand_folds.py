"""The learned at-hand veto judged on whole sets it never saw: two folds by set, and leave-one-set-out on the newest.

    python3 benchmarks/at_hand_folds.py --outcomes /tmp/outcomes.json [--leave-out AF AG AH AI]

Every tuning request and everyday turn is routed once by the package's code
(``Judge.routed``, every collection; cached in ``--outcomes``, needs the
collections' roots as ``unseen_set.py --tuning`` does). The sets (a request
set with the turns it came with; the first everyday files go with ``dev``,
``everyday-e`` is ``E``) are split into two folds, alternately in the order
B, C, D, ... Z, AA ... AI, dev. For each fold: the model is trained on the
other (``at_hand_model.train``), its veto's threshold chosen on the other
only (out-of-fold scores of an inner split of it, the same way), and the
held-out fold is scored: everyday turns fired before and after, right hints
lost, wrong hints silenced, precision and fire per group. Only a hint of the
score rule can be vetoed; a skill named by its name is not.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import at_hand_model  # noqa: E402
from at_hand_learned import Model  # noqa: E402
from at_hand_model import Example, turn_set  # noqa: E402

RIGHT_COST = 2.0  # a right hint lost weighs two silenced fires when the threshold is chosen
DECAYS = (1e-4, 1e-3, 1e-2, 3e-2)  # the L2 strengths tried; a tie goes to the stronger


def outcomes(path: Path) -> dict[str, list[dict]]:  # type: ignore[type-arg]
    """Each request's and turn's route outcome, read from ``path`` or computed there."""
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    from request_sets import TUNING_SETS, TUNING_TURNS, Judge, collection_roots, read_requests, read_turns

    judge = Judge(collection_roots())
    found: dict[str, list[dict]] = {"requests": [], "turns": []}  # type: ignore[type-arg]
    for name, paths in TUNING_SETS.items():
        for r in read_requests(paths):
            way, names = judge.routed(r.collection, r.query)
            found["requests"].append(
                {
                    "set": name,
                    "id": r.id,
                    "group": r.group,
                    "query": r.query,
                    "expect": r.expect,
                    "way": way,
                    "names": names,
                }
            )
    for t in read_turns(TUNING_TURNS):
        fires = {key: judge.routed(key, t.text) for key in judge.skills}
        found["turns"].append(
            {"id": t.id, "source": t.source, "text": t.text, "fires": {k: v for k, v in fires.items() if v[1]}}
        )
    path.write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
    return found


class Item:
    """One request or turn: its example, and what the route does with it."""

    __slots__ = ("example", "row")

    def __init__(self, example: Example, row: dict) -> None:  # type: ignore[type-arg]
        self.example = example
        self.row = row

    @property
    def key(self) -> str:
        return self.example.key

    def scored_fires(self) -> int:
        """The hints the veto can silence: the score rule's (a request's one, or a turn's per collection)."""
        if self.example.at_hand:
            return sum(way == "scored" for way, _ in self.row["fires"].values())
        return int(self.row["way"] == "scored")


def items(found: dict[str, list[dict]]) -> list[Item]:  # type: ignore[type-arg]
    requests = [Item(Example(row["query"], False, row["set"]), row) for row in found["requests"]]
    return requests + [Item(Example(row["text"], True, turn_set(row["source"])), row) for row in found["turns"]]


def folds(keys: list[str]) -> tuple[set[str], set[str]]:
    ordered = sorted(set(keys), key=lambda key: (key == "dev", len(key), key))
    return set(ordered[0::2]), set(ordered[1::2])


def scores(train_on: list[Item], judged: list[Item], decay: float) -> list[float]:
    bias, weights = at_hand_model.train([item.example for item in train_on], decay)
    model = Model(at_hand_model.encode(bias, weights, 0.0))
    return [model.score(item.example.text[:500]) for item in judged]


def out_of_fold(chosen: list[Item], decay: float) -> list[float]:
    """Scores of ``chosen`` by models trained on its other half, split by set as the outer folds are."""
    first, second = folds([item.key for item in chosen])
    result = [0.0] * len(chosen)
    for held in (first, second):
        judged = [at for at, item in enumerate(chosen) if item.key in held]
        got = scores([item for item in chosen if item.key not in held], [chosen[at] for at in judged], decay)
        for at, score in zip(judged, got):
            result[at] = score
    return result


def effect(chosen: list[Item], vetoed: list[bool]) -> dict[str, int]:
    """What vetoing the marked items' scored hints changes: turns and fires silenced, right and wrong hints lost."""
    counts = dict.fromkeys(("turns_fired", "turns_silenced", "fires_silenced", "right_lost", "wrong_silenced"), 0)
    for item, veto in zip(chosen, vetoed):
        row = item.row
        if item.example.at_hand:
            if row["fires"]:
                counts["turns_fired"] += 1
                scored = item.scored_fires()
                if veto and scored:
                    counts["fires_silenced"] += scored
                    counts["turns_silenced"] += scored == len(row["fires"])
        elif veto and row["way"] == "scored":
            counts["right_lost" if any(n in row["expect"] for n in row["names"]) else "wrong_silenced"] += 1
    return counts


def utility(counts: dict[str, int]) -> float:
    return counts["turns_silenced"] + counts["wrong_silenced"] - RIGHT_COST * counts["right_lost"]


def choose_threshold(chosen: list[Item], got: list[float]) -> float:
    """The threshold of the best utility on ``chosen``; a tie goes to the higher (fewer vetoes). No veto: +inf."""
    fired = sorted({score for item, score in zip(chosen, got) if item.scored_fires()}, reverse=True)
    best, best_value = float("inf"), 0.0
    for candidate in fired:
        threshold = candidate - 1e-9
        value = utility(effect(chosen, [score > threshold for score in got]))
        if value > best_value:
            best, best_value = threshold, value
    return best


def choose(chosen: list[Item]) -> tuple[float, float]:
    """The L2 strength and the threshold of the best utility on ``chosen``'s out-of-fold scores."""
    best: tuple[float, float, float] = (-1.0, 0.0, float("inf"))
    for decay in DECAYS:
        scored = out_of_fold(chosen, decay)
        threshold = choose_threshold(chosen, scored)
        value = utility(effect(chosen, [score > threshold for score in scored]))
        print(f"  (decay {decay:g}: threshold {threshold:.3f}, utility {value:g} on the training sets)")
        if value >= best[0]:
            best = (value, decay, threshold)
    return best[1], best[2]


def groups(chosen: list[Item], vetoed: list[bool]) -> dict[str, tuple[int, int, int, int, int]]:
    """Per set and group: requests, fires and right before, fires and right after."""
    table: dict[str, list[int]] = {}
    for item, veto in zip(chosen, vetoed):
        row = item.row
        if item.example.at_hand:
            continue
        cells = table.setdefault(f"{row['set']} {row['group']}", [0, 0, 0, 0, 0])
        right = any(n in row["expect"] for n in row["names"])
        fired = bool(row["names"])
        kept = fired and not (veto and row["way"] == "scored")
        cells[0] += 1
        cells[1] += fired
        cells[2] += fired and right
        cells[3] += kept
        cells[4] += kept and right
    return {key: tuple(value) for key, value in sorted(table.items())}  # type: ignore[misc]


def judge_held_out(name: str, all_items: list[Item], held: set[str]) -> dict[str, object]:
    train_on = [item for item in all_items if item.key not in held]
    judged = [item for item in all_items if item.key in held]
    print(f"\n## {name}")
    decay, threshold = choose(train_on)
    got = scores(train_on, judged, decay)
    vetoed = [score > threshold for score in got]
    counts = effect(judged, vetoed)
    print(f"held out {' '.join(sorted(held, key=lambda k: (k == 'dev', len(k), k)))}")
    print(f"chosen on the training fold: decay {decay:g}, threshold {threshold:.3f}")
    print(json.dumps(counts))
    print(
        f"exchange: -{counts['turns_silenced']} turns fired ({counts['fires_silenced']} fires) "
        f"for -{counts['right_lost']} right hints, -{counts['wrong_silenced']} wrong hints"
    )
    for item, veto in zip(judged, vetoed):
        if veto and item.scored_fires():
            kind = (
                "turn"
                if item.example.at_hand
                else ("RIGHT" if any(n in item.row["expect"] for n in item.row["names"]) else "wrong")
            )
            print(f"- vetoed {kind} {item.row['id']}: {item.example.text[:90]!r}")
    low = []
    for group, (requests, fires, right, kept, kept_right) in groups(judged, vetoed).items():
        before = f"{right / fires:.2f}" if fires else "-"
        after = f"{kept_right / kept:.2f}" if kept else "-"
        if fires != kept:
            print(f"  {group}: precision {before} -> {after}, fire {fires / requests:.2f} -> {kept / requests:.2f}")
        if (kept and kept_right / kept < 0.9) or kept / requests < 0.3:
            low.append(f"{group} {after}/{kept / requests:.2f}")
    print("groups under a bar after (precision/fire):", "; ".join(low))
    return {"decay": decay, "threshold": threshold, **counts}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outcomes", type=Path, required=True, help="the route's outcomes (computed if absent)")
    parser.add_argument("--leave-out", nargs="*", default=[], help="sets to hold out one at a time")
    options = parser.parse_args()
    all_items = items(outcomes(options.outcomes))
    first, second = folds([item.key for item in all_items])
    figures = {
        "fold 1": judge_held_out("fold 1", all_items, first),
        "fold 2": judge_held_out("fold 2", all_items, second),
    }
    for key in options.leave_out:
        figures[key] = judge_held_out(f"set {key}", all_items, {key})
    print("\n## the shipped model, chosen on every set (out-of-fold scores)")
    decay, threshold = choose(all_items)
    print(f"decay {decay:g}, threshold {threshold:.3f}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
