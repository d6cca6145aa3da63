"""A reaction to a thing already there: a short turn that asks nothing and opens on a thing given. Pure: text in, a
yes or no out.
"""

from __future__ import annotations

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _makes_new

# A turn to a coding agent asks a specialist for new work when it asks for a thing not already there; one that asks
# nothing, and whose subject is a thing given (the definite or deictic thing the session has: "the new card's
# padding feels cramped on mobile", "It doesn't", "落地页文案这版可以"), reacts to the work at hand (0.5.0,
# forty-second pass, after set AE's reactions). Read from general parts, not the forms seen: the sentences and their
# clauses (`asks.sentences`, split again at a comma, a colon or a dash), none of which asks (`asks.asks`: a question,
# a request, an imperative opener); nothing made, added or wanted (`_makes_new`); no need, want or how stated (a
# request stated as a need: "need metrics, logs and alerts done properly"); and the first sentence's subject given:
# it opens (after fillers) on the / this / that / these / those / it / your (not "this is a", a thing introduced), or
# holds a Chinese demonstrative and a measure word (这版 / 那封 / 这段 / 这张 ...) or 它. Short only: a request's
# context opens on "the" as often ("The PR diff I'm looking at: one 900-line main.tf ..."); a reaction is a line.
_MOST_WORDS = 30
_MOST_CHARS = 200
_FILLERS = frozenset(("ok", "okay", "hmm", "hm", "so", "well", "honestly", "ah", "oh", "yeah", "right"))
_GIVEN = frozenset(("the", "this", "that", "these", "those", "it", "its", "it's", "that's", "your"))
_INTRODUCED = ("a", "an")  # "this is a new repo", "the a ...": a thing introduced, not given
# A need, a want, a norm or a how stated: "needs", "wanted", "looking for", "the first call should be cached".
_NEEDS = ("need", "want", "wish", "how", "looking", "should", "must")
_NEEDS_CJK = ("想", "需要", "要", "应该", "必须")
# A question or the agent addressed, read with str methods before `asks.asks` compiles its patterns.
_ASKING_MARKS = (
    "?", "please", "can you", "could you", "would you", "will you", "let's", "help", "帮", "请", "麻烦", "吗", "能不能",
    "一下",
)  # fmt: skip
# The verbs of editing, checking and going on that open an imperative clause `asks.asks` does not list ("Change the
# retry count to 3", "Proceed: the schema, ..."): one small closed set, read at a clause's first word.
_ASK_VERBS = frozenset((
    "change", "fix", "rename", "revert", "undo", "update", "remove", "delete", "drop", "move", "swap", "replace",
    "rewrite", "redo", "tweak", "shorten", "trim", "bump", "set", "use", "keep", "leave", "proceed", "go", "ship",
    "run", "rerun", "try", "look", "read", "open", "pull", "push", "commit", "apply", "rotate", "regenerate",
))  # fmt: skip
_GIVEN_CJK = lazy_compile(r"[这那]一?[版封份段张页条句]|它")
_PUNCTUATION = ".,;:!?\"'()`\u2019"
# A sentence's clauses: an ask after a comma, a colon or a dash is an ask ("the signup form on mobile, please audit
# it for WCAG issues"); `asks.asks` reads a sentence's opening only.
_CLAUSE_MARKS = lazy_compile(r"[,:\u2014\u2013\u3001]|\s-\s")


def _reacts_to_a_thing_given(text: str) -> bool:
    """Whether ``text`` (the user's own words) is a short reaction to a thing given, asking nothing: "the new card's
    padding feels cramped on mobile", "落地页文案这版可以"; not "the login page needs a rate limiter" (a need), nor
    "this is a fresh repo, scaffold it" (an ask)."""
    if len(text) > _MOST_CHARS or len(words := text.lower().split()) > _MOST_WORDS:
        return False
    if not words or any(word.startswith(_NEEDS) for word in words) or any(need in text for need in _NEEDS_CJK):
        return False
    folded = " ".join(words)
    if any(mark in folded for mark in _ASKING_MARKS):  # read before `asks.asks`, whose patterns cost 2 to 4 ms
        return False
    from skillmem_hook.search.asks import asks, sentences  # noqa: PLC0415 - only a short turn that needs nothing

    parts = sentences(text)
    if not parts or not _opens_on_a_thing_given(parts[0]):
        return False
    clauses = [clause for part in parts for clause in _CLAUSE_MARKS.split(part)]
    if any(_opens_on_a_verb(clause) for clause in clauses):
        return False
    return not any(asks(clause.strip()) for clause in clauses) and not _makes_new(text)


def _opens_on_a_verb(clause: str) -> bool:
    """Whether ``clause`` opens (after fillers) on a verb of editing, checking or going on: an imperative."""
    words = _after_fillers(clause)
    return bool(words) and words[0] in _ASK_VERBS


def _opens_on_a_thing_given(sentence: str) -> bool:
    """Whether ``sentence`` opens (after fillers) on a determiner or pronoun of a thing given, or holds a Chinese
    demonstrative and a measure word: "the new card's padding ...", "ok it doesn't ...", "文案这版可以"."""
    if not sentence.isascii() and _GIVEN_CJK.search(sentence):
        return True
    words = _after_fillers(sentence)
    if not words or words[0] not in _GIVEN:
        return False
    after = words[2:3] if words[1:2] == ["is"] else words[1:2]
    return not any(word in _INTRODUCED for word in after)


def _after_fillers(text: str) -> list[str]:
    """The words of ``text`` in lower case, their punctuation stripped, from the first that is not a filler."""
    words = [word.strip(_PUNCTUATION) for word in text.lower().split()]
    while words and words[0] in _FILLERS:
        words = words[1:]
    return words
