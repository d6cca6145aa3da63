"""The skills an agent may ask about, kept current with the disk: what the MCP tools call.

Independent of the MCP SDK, so it is tested without it. The catalog is built
at the first call or by the watcher (the server answers ``initialize`` before
it: an MCP client gives a server seconds to start, and indexing 2,000 skills
from scratch takes that), and rebuilt when a snapshot of the skill folders
(``catalog/store/stamps.py``) shows a change, so an added or edited skill is
returned within about a quarter second, without a call waiting for the
check. The search index is the one ``skillmem search`` keeps on disk: loaded
when current, patched for the skills that changed, and stored again.
"""

from __future__ import annotations

import functools
import os
import threading
import time

from skillmem_hook.agents.route import skill_file
from skillmem_hook.catalog.catalog import Catalog
from skillmem_hook.catalog.discovery.safe_read import MAX_SKILL_BYTES, read_skill_file
from skillmem_hook.catalog.listing import outside_notices
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.store.stamps import take_snapshot
from skillmem_hook.config import load_settings, require_roots
from skillmem_hook.decisive import decisive_files
from skillmem_hook.errors import UsageError
from skillmem_hook.search import store as search_store
from skillmem_hook.search.confidence import confidence, fit
from skillmem_hook.search.fields import StoredIndexError
from skillmem_hook.search.lookup import (
    nearest_names,
    read_by_folder,
    skills_at_path,
    skills_in_folder,
    skills_named,
    why_not_offered,
)
from skillmem_hook.search.semantic import (
    QUICK_TEXTS,
    Encoder,
    fit_with_meaning,
    rank_with_meaning,
    semantic_index_of,
    semantic_installed,
)
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy as np
    from numpy.typing import NDArray

    from skillmem_hook.catalog.catalog import Catalog
    from skillmem_hook.catalog.skills import Skill
    from skillmem_hook.catalog.store.stamps import StatSnapshot
    from skillmem_hook.config import Settings
    from skillmem_hook.search.rank import Hit, SearchIndex
    from skillmem_hook.search.semantic import SemanticIndex

# A watcher thread checks the disk every WATCH_INTERVAL seconds (longer when a
# check is slow, so it never takes more than a tenth of a core), and a call
# checks for itself only when the watcher has not within RECHECK_AFTER: calls
# do not pay for the check, and a change is seen within about a quarter second,
# sooner than anyone can add a skill and get a model to ask for it.
WATCH_INTERVAL = 0.25
# How long a search waits for the skill vectors before it answers with the lexical ranking alone (and says so).
# A build that must encode a collection (seconds) is not waited for at all: see ``VectorBuildEncoder``.
SEMANTIC_WAIT = 4.0
RECHECK_AFTER = 0.5
MAX_TOP_K = 50


class VectorBuildEncoder(Encoder):
    """The encoder of the server's vector builds: it tells the waiting calls when a build turns out long.

    Handed more texts at once than a question's (a collection's first vectors:
    about 10 s for 2,000 skills), it sets ``long_build``, and the calls answer
    with the words alone at once, saying so, instead of each waiting
    SEMANTIC_WAIT in vain (new user m5: 2 s a call, then another ranking).
    """

    long_build: threading.Event | None = None

    def encode(self, texts: list[str]) -> NDArray[np.float32]:
        if len(texts) > QUICK_TEXTS and self.long_build is not None:
            self.long_build.set()
        return super().encode(texts)


def skill_summary(skill: Skill) -> dict[str, str]:
    path = skill_file(skill.root, skill.path)
    return {"name": skill.label, "description": skill.description, "domain": skill.domain, "path": path}


class SkillLibrary:
    """The current catalog of the configured roots, and the two questions an agent asks of it."""

    def __init__(
        self,
        roots: Sequence[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        semantic_wait: float | None = SEMANTIC_WAIT,
    ) -> None:
        self._flag_roots = list(roots or ())
        self._semantic_wait = semantic_wait  # None: wait for the vectors however long they take, even a long build
        self._clock = clock
        self._lock = threading.Lock()
        self._checked_at = float("-inf")
        self._snapshot: StatSnapshot | None = None
        self._catalog: Catalog | None = None
        self._index: SearchIndex | None = None
        self._load_index: Callable[..., SearchIndex] = search_store.load_or_build  # set by each refresh
        self._meaning: SemanticIndex | None = None  # built at the first search after a change, when installed
        self._meaning_build: threading.Thread | None = None
        self._meaning_settled: threading.Event | None = None  # set when the build ends, or turns out long
        self._generation = 0  # one more at each rebuilt catalog: vectors of an older one are never kept
        self._failed_generation = -1
        self._cache = True
        self._encoder: Encoder | None = None  # kept across rebuilds: loading the weights takes a second
        # What a refresh is doing, read without the lock by a call that timed out waiting for it (``building``):
        # the work, and when the last one ended (a call left just after it ended waited on it too).
        self._building: str | None = None
        self._built: tuple[str, float] | None = None
        settings = load_settings(self._flag_roots or None)
        roots = require_roots(settings)  # fail at start, not at the first call
        # Each root outside the repository that the repository names, with its notice: said in the answers.
        self._notices = _notices_by_root(roots, settings)
        options = settings.catalog_options()
        self._read_rule = (options.user_roots, options.boundary)  # who named the roots: read_skill_file's rule

    def notices(self) -> list[str]:
        """A line for each skills root outside the repository that the repository names (for the instructions)."""
        return [f"skills root {visible(root)} {notice}" for root, notice in self._notices.items()]

    def catalog(self) -> Catalog:
        """The catalog as the disk holds it now (rebuilt when a skill or the configuration changed)."""
        with self._lock:
            if self._catalog is None or self._clock() - self._checked_at >= RECHECK_AFTER:
                self._refresh()
            assert self._catalog is not None
            return self._catalog

    def building(self, since: float) -> str | None:
        """What the catalog's refresh is doing now, or did until after ``since`` (``time.monotonic``), for a call
        that gave up waiting on it; None when no refresh ran meanwhile (then the disk or git itself was slow)."""
        now, ended = self._building, self._built
        if now is not None:
            return now
        return ended[0] if ended is not None and ended[1] >= since else None

    def _refresh(self) -> None:
        started = self._clock()
        if self._snapshot is None or not self._snapshot.is_current():
            try:
                self._rebuild()
            finally:
                if self._building is not None:
                    self._built, self._building = (self._building, time.monotonic()), None
        self._checked_at = started

    def _rebuild(self) -> None:
        """The catalog and its search index anew: at the first call, or after a change to a skill or the settings."""
        why = "at the server's start" if self._snapshot is None else "after a change to a skill or to the configuration"
        self._building = f"the skill folders being read {why}"
        # Configuration first: a new .skillmem.yaml can name other roots.
        settings = load_settings(self._flag_roots or None)
        roots, options = require_roots(settings), settings.catalog_options()
        self._notices = _notices_by_root(roots, settings)
        self._read_rule = (options.user_roots, options.boundary)
        # Before the scan: a change during it shows next time.
        watched = decisive_files(os.getcwd(), tracked=settings.tracked)
        snapshot = take_snapshot(roots, watched)
        catalog = scan_roots(roots, options)
        # Once a change, not once a call: a query is then a few milliseconds. The index ``skillmem
        # search`` keeps (bodies included, its own snapshot), so both rank alike and share the work.
        # Every row read once, here (``rows``: the semantic leg numbers them all), so a forged one is a bad index,
        # built anew and replaced, not an error at some later call; a postings line is checked as a query
        # reads it (``answer``), not all of them at start (0.8 s at 2,000 skills). The snapshot is kept
        # only with the index, so an index that failed is tried again, never left None behind it.
        flagged = bool(self._flag_roots)
        self._building = f"the search index of {len(catalog.skills):,} skills being built (or loaded, when kept) {why}"
        self._load_index = functools.partial(
            search_store.load_or_build, roots, options, settings.aliases, watched, flagged=flagged
        )
        index = self._load_index(rows=True)
        if _held(index.skills) != _held(catalog.skills):
            # Not the skills the scan accepted (a row the scan refuses, one missing, a description the tree
            # does not hold): the stored index is not served, but built from the disk anew and replaced.
            index = self._load_index(rows=True, anew=True)
        self._catalog, self._snapshot, self._index = catalog, snapshot, index
        self._generation += 1
        if self._meaning is not None:
            self._encoder, self._meaning = self._meaning.encoder, None
        self._cache = options.cache

    def watch(self, interval: float = WATCH_INTERVAL, stop: threading.Event | None = None) -> threading.Thread:
        """Start the daemon thread that keeps the catalog current between calls, until ``stop`` is set.

        A scan finds the configuration and the cache from the current folder: a
        watcher left running in a process that changes folder (a test suite)
        would write its entries into another repository's cache.
        """
        stopped = stop or threading.Event()

        def keep_current() -> None:
            while not stopped.is_set():
                started = time.monotonic()
                with self._lock:
                    try:
                        self._refresh()
                    except Exception:  # noqa: BLE001 - the next call checks again and reports why, as a tool error
                        self._checked_at = float("-inf")
                stopped.wait(max(interval, 9 * (time.monotonic() - started)))

        thread = threading.Thread(target=keep_current, name="skillmem-watch", daemon=True)
        thread.start()
        return thread

    def search(self, intent: str, top_k: int = 5) -> list[dict[str, object]]:
        """The ``top_k`` skills that fit ``intent``, best first (``answer`` without the word for the whole answer)."""
        results = self.answer(intent, top_k)["results"]
        assert isinstance(results, list)
        return results

    def answer(self, intent: str, top_k: int = 5) -> dict[str, object]:
        """``skillmem search``'s answer: ``match`` ('strong', 'weak' or 'none'), the results, best first, and
        ``mode``: 'fused' (``search --semantic``'s ranking) or 'lexical' (no [semantic] extra, or no vectors yet).
        """
        if not intent.strip():
            raise UsageError("the intent is empty", "describe the task in a few words, in any language")
        if not 1 <= top_k <= MAX_TOP_K:
            raise UsageError(f"top_k must be between 1 and {MAX_TOP_K}, not {top_k}", "ask for 5 or 10 results")
        self.catalog()
        with self._lock:
            self._start_meaning()
            builder, settled = self._meaning_build, self._meaning_settled
        if builder is not None and self._semantic_wait is None:
            builder.join()
        elif builder is not None and settled is not None:  # a short build, within the call's budget
            settled.wait(self._semantic_wait)
        with self._lock:
            index, meaning = self._index, self._meaning
        assert index is not None
        wanted = max(top_k, 2)  # as the CLI: the second hit tells a clear lead from a near tie
        try:
            hits, found = _ranked(index, meaning, intent, wanted)
        except StoredIndexError:  # a forged postings line among the words: a bad index, built anew and replaced
            with self._lock:
                self._index = index = self._load_index(anew=True)
                self._meaning, self._generation = None, self._generation + 1  # vectors numbered the old rows
            hits, found = _ranked(index, None, intent, wanted)
            meaning = None
        results = [
            {**skill_summary(hit.skill), "score": round(hit.score, 4), "confidence": confidence(hit, hits[0])}
            for hit in hits[:top_k]
        ]
        answer: dict[str, object] = {"match": found, "mode": "lexical" if meaning is None else "fused"}
        answer["results"] = results
        if self._notices:
            answer["notices"] = self.notices()
        return answer

    def _start_meaning(self) -> None:
        """Build the current catalog's skill vectors in a thread, when the [semantic] extra is installed; lock held.

        A cold build of 2,000 skills takes about 10 s: longer than a tool call may
        take. Searches meanwhile get the lexical ranking, and say so; the build
        goes on. A build that finds its vectors kept takes a fraction of a second,
        and the calls wait for it (``SEMANTIC_WAIT`` at most).
        """
        if self._meaning is not None or self._meaning_build is not None or self._catalog is None:
            return
        if self._failed_generation == self._generation or not semantic_installed():
            return

        # Over the index's skills, so the two legs number them alike (a stored index has its own objects).
        assert self._index is not None
        catalog = Catalog(self._index.skills, [], [])
        cache, encoder, generation = self._cache, self._encoder, self._generation
        settled = self._meaning_settled = threading.Event()

        def build() -> None:
            try:
                builder = encoder if isinstance(encoder, VectorBuildEncoder) else VectorBuildEncoder(keep_model=cache)
                builder.long_build = settled
                meaning: SemanticIndex | None = semantic_index_of(catalog, cache=cache, encoder=builder)
            except Exception:  # noqa: BLE001 - the lexical ranking still answers; a new catalog tries again
                meaning = None
            with self._lock:
                self._meaning_build = None
                if meaning is None:
                    self._failed_generation = generation
                elif generation == self._generation:
                    self._meaning = meaning
                else:  # the catalog changed meanwhile: keep the loaded weights, not the vectors
                    self._encoder = meaning.encoder
            settled.set()  # after the vectors are in place, so that a call woken by it finds them

        self._meaning_build = threading.Thread(target=build, name="skillmem-meaning", daemon=True)
        self._meaning_build.start()

    def read(self, name: str) -> str:
        """The SKILL.md text of the skill called ``name`` (its name, or @owner/name)."""
        return self.read_skill(name)["text"]

    def read_skill(self, name: str) -> dict[str, str]:
        """The skill called ``name``: its label, the path of its SKILL.md and that file's text."""
        catalog = self.catalog()
        skill = find_skill(catalog.skills, name, catalog)
        # The one safe reader: no link out of the root, regular files only, size-capped, never blocking.
        user_root, boundary = self._read_rule
        data = read_skill_file(skill.root, skill.path, MAX_SKILL_BYTES, user_root=user_root, boundary=boundary)
        text = data.decode("utf-8", errors="replace")
        found = {"name": skill.label, "path": skill_file(skill.root, skill.path), "text": text}
        if not skills_named([skill], name) and not skills_at_path([skill], name):  # its folder's name found it
            found["note"] = read_by_folder(name, skill, found["path"])
        if skill.root in self._notices:
            found["notice"] = f"skills root {visible(skill.root)} {self._notices[skill.root]}"
        return found


def _held(skills: Sequence[Skill]) -> list[tuple[str, str, str, str]]:
    """What an index must hold of each skill to answer as the scan does: root, folder, name and description."""
    return sorted((skill.root, skill.path, skill.name, skill.description) for skill in skills)


def _notices_by_root(roots: Sequence[str], settings: Settings) -> dict[str, str]:
    return {item["root"]: item["notice"] for item in outside_notices(roots, settings.catalog_options())}


def find_skill(skills: Sequence[Skill], name: str, catalog: Catalog | None = None) -> Skill:
    """The skill whose label or name is ``name``; raises UsageError naming what to do instead.

    An exact label or name wins; otherwise one compared as the route hook
    compares names (case, width and separators aside: ``Web-Scraper``,
    ``web scraper``), when only one skill fits; otherwise, when no skill has
    that name, the one skill whose folder's name it is, compared alike. A
    skill ``catalog`` (the skills' own) excludes or leaves out that ``name``
    names is not read: the error says so and why, as ``skillmem read`` says it.
    """
    wanted = name.strip()  # for the messages: skills_named strips the name itself
    found = skills_named(skills, name)
    if len(found) == 1:
        return found[0]
    if not found:  # no skill has that name: the one in a folder of that name is it; several are only suggested
        in_folder = skills_in_folder(skills, name) or skills_at_path(skills, name)  # team-a/deploy: by its path
        if len(in_folder) == 1:
            return in_folder[0]
    shown = visible(wanted[:60]) + ("…" if len(wanted) > 60 else "")
    if found:
        labels = ", ".join(sorted(skill.label for skill in found)[:10])
        raise UsageError(
            f"several skills are named '{shown}': {labels}", "ask again with the exact name or @owner/name"
        )
    near = nearest_names(skills, wanted)
    why = why_not_offered(catalog, name) if catalog is not None else None
    raise UsageError(
        f"no skill named '{shown}'" + (f": {visible(why[0])}" if why else ""),
        f"{near + ' ' if near else ''}use a name as skill_search returns it; excluded skills cannot be read",
    )


def _ranked(index: SearchIndex, meaning: SemanticIndex | None, intent: str, wanted: int) -> tuple[list[Hit], str]:
    """The best ``wanted`` hits for ``intent`` and their match word, fused when ``meaning`` is there."""
    if meaning is not None:
        hits = rank_with_meaning(index, meaning, intent, wanted)
        return hits, fit_with_meaning(index, meaning, intent, hits)
    hits = index.query(intent, wanted)
    return hits, fit(index, intent, hits)
