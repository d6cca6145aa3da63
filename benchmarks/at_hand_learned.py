"""A learned reading of the work at hand (0.5.0, forty-fifth pass; measured, not shipped): a turn about the session's
own work, or an ask for a specialist's new work.

A logistic regression over hashed general features of a prompt's first
words: its English words and word pairs, its CJK characters and character
pairs, its opening word, and its shape (length, question marks, code-like
words, lines). Trained by ``benchmarks/at_hand_model.py`` on the tuning
everyday turns (at hand) and requests (not), deterministically, into a
model file: a header line of JSON (buckets, scale, bias, threshold) and one
signed byte per bucket. Tried as a veto where the route's score rule would
hint, and not kept: it silenced the route's own tested requests
(docs/notes/route.md, forty-fifth pass). The package never imports this.
"""

from __future__ import annotations

import json
import math
import os
import re
import unicodedata
import zlib

MODEL_FILE = os.path.join(os.path.dirname(os.path.realpath(__file__)), "results", "at-hand-model.bin")
MAGIC = b"skillmem-at-hand-model 1\n"
_LATIN = re.compile(r"[a-z0-9_'][a-z0-9_'.\-/]*")
# A word that reads as code: snake_case, a path or file name, a call, camelCase (read before lower-casing).
_CJK_RUNS = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]+")
_CODE = re.compile(r"`|\w_\w|\w\.\w{1,4}\b|\w\(|[a-z][A-Z]")


def features(text: str) -> list[str]:
    """The features of ``text`` (its first 500 characters are what the route reads), each once."""
    text = unicodedata.normalize("NFKC", text)
    found = {"bias"}
    if _CODE.search(text):
        found.add("shape:code")
    lower = text.lower()
    words = _LATIN.findall(lower)
    words = [word.strip(".-/'") or word for word in words]
    for at, word in enumerate(words):
        found.add(f"w:{word}")
        if at:
            found.add(f"b:{words[at - 1]} {word}")
    if words and lower.lstrip()[:1].isascii():
        found.add(f"first:{words[0]}")
    runs = _CJK_RUNS.findall(text)  # search.tokenize's CJK class
    if runs and text.lstrip().startswith(runs[0]):
        found.add(f"cfirst:{runs[0][:2]}")
    for run in runs:
        found.add("cjk")
        for at, char in enumerate(run):
            found.add(f"c:{char}")
            if at:
                found.add(f"d:{run[at - 1 : at + 1]}")
    stripped = text.rstrip()
    found.add(f"len:{min(len(stripped), 2000).bit_length()}")
    found.add(f"lines:{min(stripped.count(chr(10)), 4)}")
    if stripped.endswith("?"):  # a full-width one too: NFKC made it ASCII
        found.add("shape:ends?")
    questions = text.count("?")
    found.add(f"shape:questions{min(questions, 3)}")
    return sorted(found)


def bucket(feature: str, buckets: int) -> int:
    """The feature's bucket: a stable hash (CRC-32 of its UTF-8), not Python's salted one."""
    return zlib.crc32(feature.encode("utf-8")) % buckets


class Model:
    """The weights read from a model file: one per bucket, scaled."""

    __slots__ = ("bias", "buckets", "scale", "threshold", "weights")

    def __init__(self, data: bytes) -> None:
        if not data.startswith(MAGIC):
            raise ValueError("not a skillmem at-hand model")
        header_end = data.index(b"\n", len(MAGIC))
        header = json.loads(data[len(MAGIC) : header_end])
        self.buckets = int(header["buckets"])
        self.scale = float(header["scale"])
        self.bias = float(header["bias"])
        self.threshold = float(header["threshold"])
        self.weights = data[header_end + 1 :]
        if len(self.weights) != self.buckets:
            raise ValueError("the model's weights do not fill its buckets")

    def score(self, text: str) -> float:
        """The log-odds that ``text`` is about the session's own work."""
        found = features(text)
        weights, buckets = self.weights, self.buckets
        total = sum((weights[bucket(f, buckets)] ^ 0x80) - 0x80 for f in found)  # a byte read as signed
        return self.bias + total * self.scale / math.sqrt(len(found))


_MODEL: list[Model] = []


def model() -> Model:
    """The model ``at_hand_model.py`` wrote to ``MODEL_FILE``, read once."""
    if not _MODEL:
        with open(MODEL_FILE, "rb") as file:
            _MODEL.append(Model(file.read()))
    return _MODEL[0]


def about_its_work(text: str) -> bool:
    """Whether the learned reading takes ``text`` as a turn about the session's own work (a veto of a hint)."""
    built = model()
    return built.score(text) > built.threshold
