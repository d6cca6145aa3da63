"""Build the learned at-hand reading's model (``at_hand_learned.py``) from the tuning data: measured, not shipped.

    python3 benchmarks/at_hand_model.py [--out FILE]     # write the model (default benchmarks/results/, not kept)

At hand (1): every tuning everyday turn (``request_sets.TUNING_TURNS``); not
(0): every tuning request (``request_sets`` paths, every set whatever the
environment names). A logistic regression over ``learned.features``, hashed
into ``BUCKETS``, each class weighed to half the total, trained by plain SGD
in a fixed order (by the CRC-32 of the text), so the same data give the same
bytes. ``THRESHOLD`` is the veto's log-odds, chosen by
``benchmarks/at_hand_folds.py`` (the note says on what).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from at_hand_learned import MAGIC, MODEL_FILE, bucket, features  # noqa: E402
from request_sets import DATA, SHARED, TUNING_TURNS, read_requests, read_turns  # noqa: E402

BUCKETS = 1 << 17
EPOCHS = 8
RATE = 0.2
DECAY = 0.03  # L2 on the weights a step touches; chosen with THRESHOLD by at_hand_folds.py on every set
THRESHOLD = 0.365  # the veto's log-odds, chosen likewise (out-of-fold scores)
# Every tuning set, named as request_sets.TUNING_SETS names them, whatever the environment holds.
SET_PATHS = {"dev": SHARED / "search-dev"} | {
    path.name.removeprefix("requests-").upper(): path for path in sorted(DATA.glob("requests-*"))
}


class Example:
    __slots__ = ("at_hand", "features", "key", "text")

    def __init__(self, text: str, at_hand: bool, key: str) -> None:
        self.text = text
        self.at_hand = at_hand
        self.key = key  # the set it belongs to: a request's, or the set a turn file came with
        self.features = features(text[:500])


def turn_set(source: str) -> str:
    """The set a turn file came with: ``requests-ai/aie/...`` is AI's, ``everyday-e`` E's, ``everyday-akt`` AKT's
    (written for a pass, no request set beside it), the first four dev's."""
    parts = Path(source).parts
    for part in parts:
        if part.startswith("requests-"):
            return part.removeprefix("requests-").upper()
    return "E" if "everyday-e" in parts else "AKT" if "everyday-akt" in parts else "dev"


def examples() -> list[Example]:
    """Every tuning request (not at hand) and everyday turn (at hand)."""
    found = [Example(r.query, False, key) for key, path in SET_PATHS.items() for r in read_requests([path])]
    return found + [Example(t.text, True, turn_set(t.source)) for t in read_turns(TUNING_TURNS)]


def train(chosen: list[Example], decay: float = DECAY) -> tuple[float, list[float]]:
    """The bias and the bucket weights a logistic regression learns on ``chosen``, deterministically."""
    weights = [0.0] * BUCKETS
    bias = 0.0
    positives = sum(example.at_hand for example in chosen)
    weigh = {True: len(chosen) / (2 * max(1, positives)), False: len(chosen) / (2 * max(1, len(chosen) - positives))}
    rows = [([bucket(f, BUCKETS) for f in e.features], float(e.at_hand), weigh[e.at_hand]) for e in chosen]
    order = sorted(range(len(rows)), key=lambda at: (zlib.crc32(chosen[at].text.encode("utf-8")), at))
    for epoch in range(EPOCHS):
        rate = RATE / (1 + epoch)
        for at in order:
            buckets, label, weight = rows[at]
            norm = 1 / math.sqrt(len(buckets))
            z = bias + norm * sum(weights[b] for b in buckets)
            p = 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))
            step = rate * weight * (p - label)
            bias -= step
            for b in buckets:
                weights[b] -= step * norm + rate * decay * weights[b]
    return bias, weights


def encode(bias: float, weights: list[float], threshold: float) -> bytes:
    """The model file: the header line, then each weight as a signed byte of ``scale``."""
    scale = max(abs(w) for w in weights) / 127 or 1.0
    header = {"buckets": len(weights), "scale": float(f"{scale:.6g}"), "bias": round(bias, 4), "threshold": threshold}
    scale = header["scale"]
    data = bytes(max(-127, min(127, round(w / scale))) & 0xFF for w in weights)
    return MAGIC + json.dumps(header, sort_keys=True).encode("ascii") + b"\n" + data


def build(chosen: list[Example] | None = None, threshold: float = THRESHOLD) -> bytes:
    bias, weights = train(examples() if chosen is None else chosen)
    return encode(bias, weights, threshold)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(MODEL_FILE), help="where to write the model")
    options = parser.parse_args()
    data = build()
    target = options.out
    if not target.exists() or target.read_bytes() != data:
        target.write_bytes(data)
    print(f"{target}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
