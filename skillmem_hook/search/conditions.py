"""The score rule's conditions as values: what each checks, what it found, its bound (``route --explain``).

``ScoreRule.gates`` builds one for each condition of the rule as it read a
prompt. Each is said two ways from the same numbers: ``str()`` is the rule's
own form (``best 10.84 >= 1.2 x second 10.37``), the string ``route
--explain``'s JSON carries and a program may read; ``sentence()`` says what
was checked and what was found in plain words, for a person. A condition with
alternatives (``coverage 0.13 >= 0.25, or best >= 1.5 x second (typed 26 >=
20)``) is an ``Either`` of conditions, never a string put together. Only
``--explain`` builds them: the route hook does not import this module.
"""

from __future__ import annotations

from dataclasses import dataclass


class Condition:
    """A condition of the score rule with the values it read; ``kind`` names its form."""

    __slots__ = ()
    kind = ""

    def sentence(self) -> str:
        """What was checked and what was found, in plain words."""
        raise NotImplementedError(self.kind)


@dataclass(frozen=True)
class AtLeast(Condition):
    """A value the rule read against its bound: ``typed 26 >= 8``; each kind is a subclass."""

    found: float
    bound: float
    # Each kind's: its name in the rule's form, how its two values are written, and its sentence.
    name = ""
    found_form = ""
    bound_form = ""
    said = "{found} >= {bound}"

    @property
    def found_text(self) -> str:
        return format(self.found, self.found_form)

    @property
    def bound_text(self) -> str:
        return format(self.bound, self.bound_form)

    def __str__(self) -> str:
        return f"{self.name} {self.found_text} >= {self.bound_text}"

    def sentence(self) -> str:
        return self.said.format(found=self.found_text, bound=self.bound_text)


class Typed(AtLeast):
    """The prompt types ``bound`` search words or more."""

    kind = name = "typed"
    said = "the prompt types at least {bound} words: it types {found}"


class Score(AtLeast):
    """The best hit scores ``bound`` or more (BM25F's scale)."""

    kind = name = "score"
    found_form = bound_form = "g"
    said = "the best hit scores at least {bound}: it scores {found}"


class WordsHeld(AtLeast):
    """The best hit holds ``bound`` of the typed words or more, in its name, description or sections."""

    kind = name = "words held"
    said = "the best hit holds at least {bound} of the words typed: it holds {found}"


class Coverage(AtLeast):
    """The best hit covers ``bound`` of the query or more."""

    kind = name = "coverage"
    found_form, bound_form = ".2f", "g"
    said = "the best hit covers at least {bound} of the prompt's words: it covers {found}"


def _against(best: float, second: float | None) -> str:
    """What a lead was found to be: the two scores, and how many times the second's the best's is."""
    if second is None:
        return f"it scores {best:g}, and there is no second hit"
    return f"it scores {best:g} against {second:g} ({_times(best, second)})"


def _times(best: float, second: float) -> str:
    """How many times the second's score the best's is."""
    return f"{best / second:.2f} x" if second > 0 else f"no ratio to a score of {second:g}"


@dataclass(frozen=True)
class Lead(Condition):
    """The best hit scores ``factor`` times the second or more (``second`` None: there is no second hit)."""

    best: float
    factor: float
    second: float | None
    kind = "lead"

    def __str__(self) -> str:
        return f"best {self.best:g} >= {self.factor:g} x second {0.0 if self.second is None else self.second:g}"

    def sentence(self) -> str:
        return f"the best hit scores at least {self.factor:g} x the second's score: {_against(self.best, self.second)}"


@dataclass(frozen=True)
class Share(Condition):
    """The best hit holds ``factor`` of the ``typed`` words or more: a long prompt matched by its ask."""

    held: int
    factor: float
    typed: int
    kind = "share"

    def __str__(self) -> str:
        return f"words held {self.held} >= {self.factor:.3g} x typed {self.typed}"

    def sentence(self) -> str:
        needed = f"{self.factor * self.typed:.3g}"
        return (
            f"the best hit holds at least {self.factor:.3g} of the {self.typed} words typed ({needed} words):"
            f" it holds {self.held}"
        )


@dataclass(frozen=True)
class NotScattered(Condition):
    """The ``most`` best hits are not a near tie of unrelated skills while the best covers under ``bound``.

    ``hits`` is how many there are, ``coverage`` the best's, ``best`` and ``last`` the scores of the first and the
    ``most``-th (0 without one), ``near`` the share of the best's score that ties, ``unrelated`` whether no two of
    the ``most`` best share a word of their names.
    """

    most: int
    bound: float
    hits: int
    coverage: float
    best: float
    last: float
    near: float
    unrelated: bool
    kind = "scatter"

    def __str__(self) -> str:
        return f"not a scattered tie of {self.most} (coverage < {self.bound:g})"

    def sentence(self) -> str:
        asked = (
            f"the {self.most} best hits are not a near tie of skills whose names share no word while the best covers"
            f" under {self.bound:g} of the prompt's words (such a tie means the context points nowhere in particular)"
        )
        return f"{asked}: {self._found()}"

    def _found(self) -> str:
        """What the hits were, in the order the rule looks: too few, the coverage, the tie, the names."""
        covers = f"the best covers {self.coverage:.2f}"
        if self.hits < self.most:
            return {0: "there is no hit", 1: "there is only 1 hit"}.get(self.hits, f"there are only {self.hits} hits")
        if self.coverage >= self.bound:
            return covers
        scores = f"the last of them scores {self.last:g}"
        if self.last < self.near * self.best:
            return f"{scores}, under {self.near:g} x the best's {self.best:g}"
        tie = f"{scores}, at least {self.near:g} x the best's {self.best:g}"
        if not self.unrelated:
            return f"{tie}, but two of their names share a word"
        return f"{tie}, no two of their names share a word, and {covers}"


@dataclass(frozen=True)
class LeadInstead(Condition):
    """The alternative of a lead of ``factor`` times the second (the values read are the lead's own line):
    ``when`` the prompt types enough for it, if only then; ``waived`` when it stood in for a condition that failed.
    """

    factor: float
    best: float
    second: float | None
    when: Typed | None = None
    waived: bool = False
    kind = "lead instead"
    joint = ", or "

    def __str__(self) -> str:
        when = f" ({self.when})" if self.when is not None else ""
        return f"best >= {self.factor:g} x second{when}" + (": waived by the lead" if self.waived else "")

    def sentence(self) -> str:
        where = ""
        if self.when is not None:
            typed = self.when
            where = f"on a prompt of {typed.bound_text} typed words or more (this one types {typed.found_text}), "
        found = "there is no second hit" if self.second is None else f"it scores {_times(self.best, self.second)}"
        waived = ", so the lead stands in for what the best hit lacks" if self.waived else ""
        return f"{where}the best hit scores at least {self.factor:g} x the second's score: {found}{waived}"


@dataclass(frozen=True)
class CjkShare(Condition):
    """The share held with each typed CJK word counted ``weight`` of a word (``counted`` words in all), against a
    best hit described in English that covers enough of the query (``covers``)."""

    held: int
    factor: float
    typed: int
    weight: float
    cjk: int
    counted: float
    covers: Coverage
    kind = "cjk share"
    joint = "; "

    def __str__(self) -> str:
        return (
            f"held with a CJK word as {self.weight:g} of a word: words held {self.held} >= {self.factor:.3g} x"
            f" (typed {self.typed} - {1 - self.weight:g} x CJK {self.cjk}) = {self.factor * self.counted:.3g}"
            f" (English-described best, {self.covers})"
        )

    def sentence(self) -> str:
        return (
            f"with each of the {self.cjk} CJK words typed counted as {self.weight:g} of a word, since the best hit is"
            f" described in English and covers at least {self.covers.bound_text} of the prompt's words (it covers"
            f" {self.covers.found_text}), the {self.typed} words typed count as {self.counted:.3g}: the best hit holds"
            f" at least {self.factor:.3g} of them ({self.factor * self.counted:.3g} words): it holds {self.held}"
        )


@dataclass(frozen=True)
class Either(Condition):
    """``first``, or any of ``alternatives``: a condition the rule also takes as held another way."""

    first: Coverage | Share
    alternatives: tuple[LeadInstead | CjkShare, ...]
    kind = "either"

    def __str__(self) -> str:
        return str(self.first) + "".join(f"{other.joint}{other}" for other in self.alternatives)

    def sentence(self) -> str:
        return self.first.sentence() + "".join(f"; or {other.sentence()}" for other in self.alternatives)
