"""Words for search: English words stemmed, Chinese runs cut into bigrams (and unigrams).

Pure. Documents and queries go through the same functions, so a word in
either form meets itself.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from itertools import chain, repeat

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.visible import DEFAULT_IGNORABLE

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
# Compiled on first use: CJK's classes cost a route prompt 3 ms to compile, and an ASCII text needs neither
# (no CJK in it, so _ASCII_WORDS finds what _WORDS would).
_CJK_RUNS = lazy_compile(rf"[{CJK}]+")
_WORDS = lazy_compile(rf"[^\W_{CJK}]+")
# What a reader sees as nothing (variation selectors, zero-width spaces and joiners, the soft hyphen, tags) is
# dropped before words are cut: hidden between two ideographs it split their bigram, inside a word it cut it in
# two, so a description was not found by its own words.
_IGNORABLE = lazy_compile(f"[{DEFAULT_IGNORABLE}]")
_ASCII_WORDS = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})")
# Words that say how someone asks, not what they ask for.
ENGLISH_STOP_WORDS = frozenset(
    """a about after again all also am an and any are as at be been before being both but by can could did do does
    doing done for from get gets getting got had has have having he her here how i if in into is it its just let like
    make me might more most much my need needs no not now of on once one only or other our out over please same
    should so some something such than that the their them then there these they this those to too under up us use
    using very want wanted wants was way we were what when where which while who why will with without would you
    your yours help ve ll re don t s d m""".split()  # noqa: SIM905 - a word list reads better as text
)
# Chinese asking words ("how", "is there a way", "I want"): cut out before bigrams,
# so they neither match nor join their neighbours into false bigrams.
CHINESE_STOP_PHRASES = (
    "有没有办法",
    "有没有",
    "有什么",
    "怎么办",
    "怎么样",
    "怎么",
    "如何",
    "能不能",
    "可不可以",
    "是不是",
    "为什么",
    "什么",
    "一下",
    "我想",
    "想要",
    "我们",
    "帮我",
    "一个",
    "这个",
    "那个",
    "哪些",
    "现成的",
    "的",
    "了",
    "吗",
    "呢",
    "吧",
    "啊",
    "呀",
    "我",
    "你",
    "把",
    "被",
    "让",
    "要",
    "想",
    "该",
    "得",
    "就",
    "都",
    "也",
    "还",
    "又",
    "在",
    "和",
    "与",
    "或",
    "及",
    "是",
)
_STOP_MARKS = "".join(phrase for phrase in CHINESE_STOP_PHRASES if len(phrase) == 1) + (
    "\u3000-\u3002\uff01-\uff0f\uff1a-\uff1f"  # full-width spaces and punctuation: separators
)
_LONG_STOP_PHRASES = sorted((phrase for phrase in CHINESE_STOP_PHRASES if len(phrase) > 1), key=len, reverse=True)
# Longest first; the one-character words as a class, which the regex engine scans fast. The leading
# class of every phrase's first character lets the engine pass most characters without trying the
# phrases one by one (a third of the cut's time on a Chinese body).
_CHINESE_STOP = lazy_compile(
    f"(?=[{''.join(sorted({phrase[0] for phrase in _LONG_STOP_PHRASES}))}{_STOP_MARKS}])"
    f"(?:{'|'.join(_LONG_STOP_PHRASES)}|[{_STOP_MARKS}])"
)
_SUFFIXES = (
    ("izations", "ize"),
    ("ization", "ize"),
    ("ations", "ate"),
    ("ation", "ate"),
    ("ments", ""),
    ("ment", ""),
    ("ness", ""),
    ("ities", "ity"),
    ("ies", "y"),
    ("ing", ""),
    ("ed", ""),
    ("ly", ""),
    ("es", "e"),
    ("s", ""),
)
_KEEP_S = ("ss", "us", "is")
# A run's bigrams as slices; the stop phrases and punctuation cut most runs to a few characters.
_PAIRS = tuple(slice(start, start + 2) for start in range(64))


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (an ASCII text is answered without compiling the class)."""
    return not text.isascii() and _CJK_RUNS.search(text) is not None


def cjk_characters(text: str) -> int:
    """How many CJK characters ``text`` holds, by the class its words are cut by (an ASCII text: 0, uncompiled)."""
    return 0 if text.isascii() else sum(map(len, _CJK_RUNS.findall(text)))


def normalize(text: str) -> str:
    """NFKC (full-width letters and digits become ASCII) and case-folded."""
    return unicodedata.normalize("NFKC", text).casefold()


@functools.lru_cache(maxsize=65536)  # a collection repeats its words: each is cut once
def stem(word: str) -> str:
    """A light English stemmer: plural, -ing, -ed, -ation, -ment; a final 'e' and a doubled consonant go too.

    Crude on purpose: both sides of a match get the same cut, which is all ranking needs.
    """
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(_KEEP_S):
                break
            word = word[: -len(suffix)] + replacement
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def tokens(text: str, *, unigrams: bool = False, stop_words: bool = True, stemming: bool = True) -> list[str]:
    """The search words of ``text``: its English words, then its Chinese ones; repeats kept.

    English: stop words dropped, stemmed; a camelCase word gives its parts too.
    Chinese, Japanese, Korean runs: overlapping bigrams (a lone character for a
    run of one); with ``unigrams``, every character too, prefixed with '#'
    so that a unigram never meets a one-character run's token.
    """
    if text.isascii():
        runs, cjk = _ASCII_WORDS.findall(text), []
    else:
        text = _normalized(text, stop_words)
        runs, cjk = _WORDS.findall(text), _CJK_RUNS.findall(text)
    # map and chain call the cached _english_words from C: no Python frame per word.
    words = list(chain.from_iterable(map(_english_words, runs, repeat(stop_words), repeat(stemming))))
    for run in cjk:
        size = len(run)
        if size < 3:  # a run of one is its own word, a run of two its one bigram: no new string
            words.append(run)
        elif size <= len(_PAIRS):  # a slice makes a bigram in one step; adding two characters takes three
            words.extend(map(run.__getitem__, _PAIRS[: size - 1]))
        else:
            words.extend(map(str.__add__, run, run[1:]))
        if unigrams and size > 1:
            words.extend("#" + character for character in run)
    return words


def searchable(text: str, *, stop_words: bool = True, stemming: bool = True) -> tuple[str, int]:
    """``text`` as the index scans it, and its number of search words.

    English words stemmed, then the Chinese runs (stop phrases cut out), each
    between spaces: ``" cach api 数据库迁移 "``. A query's English word ``w``
    is found as ``" w "``, a bigram as itself; so the index never builds a
    bigram, and a run's bigrams cannot span two runs.
    """
    if text.isascii():
        runs, chinese = _ASCII_WORDS.findall(text), []
    else:
        text = _normalized(text, stop_words)
        runs, chinese = _WORDS.findall(text), _CJK_RUNS.findall(text)
    english = [word for run in runs for word in _english_words(run, stop_words, stemming)]
    lengths = list(map(len, chinese))
    # A run of n characters gives n - 1 bigrams, a run of one gives itself.
    count = len(english) + sum(lengths) - len(lengths) + lengths.count(1)
    return " " + " ".join(english + chinese) + " ", count


@functools.lru_cache(maxsize=65536)
def _english_words(run: str, stop_words: bool, stemming: bool) -> tuple[str, ...]:
    parts = [run] if run.islower() or run.isdigit() else _CAMEL.split(run)
    words = []
    for part in (run, *parts) if len(parts) > 1 else parts:
        word = part.casefold()
        if not (stop_words and word in ENGLISH_STOP_WORDS):
            words.append(stem(word) if stemming else word)
    return tuple(words)


def is_bigram(word: str) -> bool:
    """True for a Chinese (Japanese, Korean) bigram that ``tokens`` gives."""
    return len(word) == 2 and not word.isascii() and _CJK_RUNS.fullmatch(word) is not None


def pattern_of(word: str) -> str:
    """What ``word`` (from ``tokens``) looks like inside a ``searchable`` text."""
    if word.startswith("#"):  # a unigram: the character anywhere in a Chinese run
        return word[1:]
    if is_bigram(word):  # a bigram: anywhere in a run
        return word
    return f" {word} "  # an English word, or a one-character run: the whole of it


def _normalized(text: str, stop_words: bool) -> str:
    """NFKC, after the default-ignorable characters are dropped and the stop phrases and the full-width
    punctuation (which alone would need it) become spaces."""
    if _IGNORABLE.search(text):  # a third of a sub's time where none is (most texts)
        text = _IGNORABLE.sub("", text)
    if stop_words:
        text = cut_chinese_stop_phrases(text)
    return text if unicodedata.is_normalized("NFKC", text) else unicodedata.normalize("NFKC", text)


def cut_chinese_stop_phrases(text: str) -> str:
    """Each Chinese stop phrase, and each full-width punctuation mark, becomes a space."""
    return _CHINESE_STOP.sub(" ", text)
