"""Request sets and everyday turns as the benchmarks read them, and what the shipped search and route hook make of each.

A request set is one or more JSON-lines files of ``{"id", "collection",
"query", "expect"}`` (the dev set's format), with an optional ``lang``
(``en``, ``zh`` or ``mixed``; read from the query's script when absent). A folder stands
for every ``dev-*.jsonl`` below it. Everyday turns are JSON lines of
``{"id", "lang", "turn"}`` or plain text, one turn a line; each is asked of
every collection, and the route hook must stay silent on all of them.

``Judge`` holds each collection's catalog, the stored index the hook and
``skillmem search`` load (bodies included) and, on request, the semantic
leg, and answers for one request: the lexical and fused rankings, their
``match`` words, and what the route hook would name (a skill the prompt
names, else the score rule's choice: ``agents/route.py``'s own code).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SKILLMEM_SHARED_DATA") or REPO.parent / "shared" / "data")
DATA = REPO / "benchmarks" / "data"
sys.path.insert(0, str(REPO))

from skillmem_hook.agents.route import Target, best_scored  # noqa: E402
from skillmem_hook.agents.route_index import keys_by_skill  # noqa: E402
from skillmem_hook.catalog.scan import scan_roots  # noqa: E402
from skillmem_hook.search.confidence import SCORE_RULE, ScoreRule, fit  # noqa: E402
from skillmem_hook.search.names import Spellings, build_name_table, named_skills  # noqa: E402
from skillmem_hook.search.rank import SearchIndex  # noqa: E402
from skillmem_hook.search.store import read_body  # noqa: E402

# The tuning data of round three (issue 31): every default of 0.5.0 was chosen on these (D and F once scored).
TUNING_SETS = {
    "dev": [SHARED / "search-dev"],
    "B": [DATA / "requests-b"],
    "C": [DATA / "requests-c"],
    "T": [DATA / "requests-t"],
    "D": [DATA / "requests-d"],  # held out once (0.5.0), tuning since its score
    "F": [DATA / "requests-f"],  # held out once (0.5.0's second pass), tuning in its third
    "G": [DATA / "requests-g"],  # held out once (0.5.0's third pass), tuning since
    "H": [DATA / "requests-h"],  # held out once (0.5.0's fourth pass), tuning since
    "I": [DATA / "requests-i"],  # held out once (0.5.0's sixth pass), tuning since
    "J": [DATA / "requests-j"],  # held out once (0.5.0's eighth pass), tuning since
    "K": [DATA / "requests-k"],  # held out once (0.5.0's ninth pass), tuning since
    "L": [DATA / "requests-l"],  # held out once (0.5.0's twelfth pass), tuning since
    "M": [DATA / "requests-m"],  # held out once (0.5.0, after set L), tuning since
    "N": [DATA / "requests-n"],  # held out once (0.5.0, after the thirteenth and fourteenth passes), tuning since
    "O": [DATA / "requests-o"],  # held out once (0.5.0, after the fifteenth route pass), tuning since
    "P": [DATA / "requests-p"],  # held out once (0.5.0, after the eighteenth route and fifteenth search passes)
    "Q": [DATA / "requests-q"],  # held out once (0.5.0, after the nineteenth route and sixteenth search passes)
    "R": [DATA / "requests-r"],  # held out once (0.5.0, after the twentieth route and eighteenth search passes)
    "S": [DATA / "requests-s"],  # held out once (0.5.0, after the twenty-second and twenty-fourth route passes)
    "U": [DATA / "requests-u"],  # held out once (0.5.0, after the twenty-second pass narrowed again on set S)
    "V": [DATA / "requests-v"],  # held out once (0.5.0, after the twenty-sixth route pass)
    "X": [DATA / "requests-x"],  # held out once (0.5.0, after the twenty-seventh route pass)
    # Sets W, Y, Z ask of skills gathered from public repositories (gathered_collection.py; z3 asks of cn).
    **(
        {"W": [DATA / "requests-w"], "Y": [DATA / "requests-y"], "Z": [DATA / "requests-z"]}
        if os.environ.get("SKILLS_W_ROOT")
        else {}
    ),
    # Sets AA, AB and AC ask of collection aa (gathered_collection.py --list data/requests-aa/collection.tsv).
    **(
        {"AA": [DATA / "requests-aa"], "AB": [DATA / "requests-ab"], "AC": [DATA / "requests-ac"]}
        if os.environ.get("SKILLS_AA_ROOT")
        else {}
    ),
    # Sets AD, AE and AF ask of collection ad (gathered_collection.py --list data/requests-ad/collection.tsv).
    **(
        {"AD": [DATA / "requests-ad"], "AE": [DATA / "requests-ae"], "AF": [DATA / "requests-af"]}
        if os.environ.get("SKILLS_AD_ROOT")
        else {}
    ),
    # Sets AG, AH and AI ask of collection ag (gathered_collection.py --list data/requests-ag/collection.tsv).
    **(
        {"AG": [DATA / "requests-ag"], "AH": [DATA / "requests-ah"], "AI": [DATA / "requests-ai"]}
        if os.environ.get("SKILLS_AG_ROOT")
        else {}
    ),
    # Set AK asks of collection aj (data/requests-aj/collection.tsv): held out once (forty-ninth pass), tuning since.
    **({"AK": [DATA / "requests-ak"]} if os.environ.get("SKILLS_AJ_ROOT") else {}),
}
TUNING_TURNS = [
    *sorted(DATA.glob("everyday-*.txt")),
    DATA / "requests-t" / "everyday-t.jsonl",
    DATA / "everyday-e" / "everyday-e.jsonl",
    DATA / "requests-f" / "fe" / "everyday-f.jsonl",
    DATA / "requests-g" / "ge" / "everyday-g.jsonl",
    DATA / "requests-h" / "he" / "everyday-h.jsonl",
    DATA / "requests-i" / "ie" / "everyday-i.jsonl",
    DATA / "requests-j" / "je" / "everyday-j.jsonl",
    DATA / "requests-k" / "ke" / "everyday-k.jsonl",
    DATA / "requests-l" / "le" / "everyday-l.jsonl",
    DATA / "requests-m" / "me" / "everyday-m.jsonl",
    DATA / "requests-n" / "ne" / "everyday-n.jsonl",
    DATA / "requests-o" / "oe" / "everyday-o.jsonl",
    DATA / "requests-p" / "pe" / "everyday-p.jsonl",
    DATA / "requests-q" / "qe" / "everyday-q.jsonl",
    DATA / "requests-r" / "re" / "everyday-r.jsonl",
    DATA / "requests-s" / "se" / "everyday-s.jsonl",
    DATA / "requests-u" / "ue" / "everyday-u.jsonl",
    DATA / "requests-v" / "ve" / "everyday-v.jsonl",
    DATA / "requests-w" / "we" / "everyday-w.jsonl",
    DATA / "requests-y" / "ye" / "everyday-y.jsonl",
    DATA / "requests-z" / "ze" / "everyday-z.jsonl",
    DATA / "requests-aa" / "aae" / "everyday-aa.jsonl",
    DATA / "requests-ab" / "abe" / "everyday-ab.jsonl",
    DATA / "requests-ac" / "ace" / "everyday-ac.jsonl",
    DATA / "requests-ad" / "ade" / "everyday-ad.jsonl",
    DATA / "requests-ae" / "aee" / "everyday-ae.jsonl",
    DATA / "requests-af" / "afe" / "everyday-af.jsonl",
    DATA / "requests-ag" / "age" / "everyday-ag.jsonl",
    DATA / "requests-ah" / "ahe" / "everyday-ah.jsonl",
    DATA / "requests-ai" / "aie" / "everyday-ai.jsonl",
    # Written for the forty-ninth pass in three forms of set AJ's everyday fires, never held out.
    DATA / "everyday-akt" / "everyday-akt.jsonl",
    DATA / "requests-ak" / "ake" / "everyday-akh.jsonl",  # held out once (the forty-ninth pass), tuning since
    DATA / "requests-ak" / "ake" / "everyday-akg.jsonl",
]
_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


class Request:
    __slots__ = ("collection", "expect", "id", "lang", "query", "source")

    def __init__(self, row: dict[str, object], source: str) -> None:
        self.id = str(row.get("id", ""))
        self.source = source
        self.collection = str(row["collection"])
        self.query = str(row["query"])
        self.lang = str(row.get("lang") or language_of(self.query))
        self.expect = [str(name) for name in row["expect"]]  # type: ignore[attr-defined]

    @property
    def group(self) -> str:
        """The collection and the request's language: ``cn/en`` is English asked of the Chinese-described one."""
        return f"{self.collection}/{self.lang}"

    @property
    def number(self) -> int:
        digits = self.id.rsplit("-", 1)[-1]
        return int(digits) if digits.isdigit() else 0


class Turn:
    __slots__ = ("id", "lang", "source", "text")

    def __init__(self, text: str, source: str, number: int, lang: str | None = None, ident: str | None = None) -> None:
        self.text = text
        self.source = source
        self.lang = lang or language_of(text)
        self.id = ident or f"{Path(source).stem}:{number}"


def language_of(text: str) -> str:
    return "zh" if _CJK.search(text) else "en"


def request_files(paths: list[Path]) -> list[Path]:
    """Each path a file, or a folder's ``dev-*.jsonl`` at any depth, sorted."""
    files: list[Path] = []
    for path in paths:
        files += sorted(path.rglob("dev-*.jsonl")) if path.is_dir() else [path]
    return files


def read_requests(paths: list[Path]) -> list[Request]:
    found = []
    for file in request_files(paths):
        source = _label(file)
        found += [Request(row, source) for row in json_values(file)]
    return found


def read_turns(paths: list[Path]) -> list[Turn]:
    """Each turn of each file: JSON values ``{"id", "lang", "turn"}`` (a turn may hold line breaks), or one a line."""
    found = []
    for file in paths:
        if file.suffix == ".jsonl":
            for number, row in enumerate(json_values(file), 1):
                found.append(Turn(str(row["turn"]), _label(file), number, row.get("lang"), row.get("id")))
        else:
            lines = [line for line in file.read_text(encoding="utf-8-sig").splitlines() if line.strip()]
            found += [Turn(line, _label(file), number) for number, line in enumerate(lines, 1)]
    return found


def json_values(file: Path) -> list[dict]:  # type: ignore[type-arg]
    """Every JSON object in the file, one a line or spread over several (a writer's pretty-printed line), BOM or not."""
    text = file.read_text(encoding="utf-8-sig")
    decoder = json.JSONDecoder()
    values, at = [], 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return values
        value, at = decoder.raw_decode(text, at)
        values.append(value)


def _label(file: Path) -> str:
    """A file as the tables name it: relative to the repository or the shared data, else its last two parts."""
    resolved = file.resolve()
    for base in (REPO, SHARED.resolve().parent):
        if resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return "/".join(resolved.parts[-2:])


def collection_roots() -> dict[str, str]:
    """SKILLS_CN_ROOT / SKILLS_EN_ROOT, else the shared archives extracted (``search_quality.py``'s rule); SKILLS_W_ROOT
    adds set W's, SKILLS_AA_ROOT collection aa, SKILLS_AD_ROOT collection ad, SKILLS_AG_ROOT collection ag,
    SKILLS_AJ_ROOT collection aj."""
    from search_quality import collection_roots as extracted

    roots = extracted(SHARED)
    if os.environ.get("SKILLS_W_ROOT"):  # set W's collection, when built (gathered_collection.py)
        roots["w"] = os.environ["SKILLS_W_ROOT"]
    if os.environ.get("SKILLS_AA_ROOT"):  # collection aa, when built (gathered_collection.py --list ...)
        roots["aa"] = os.environ["SKILLS_AA_ROOT"]
    if os.environ.get("SKILLS_AD_ROOT"):  # collection ad, when built (--list data/requests-ad/...); no set yet
        roots["ad"] = os.environ["SKILLS_AD_ROOT"]
    if os.environ.get("SKILLS_AG_ROOT"):  # collection ag, when built (--list data/requests-ag/...)
        roots["ag"] = os.environ["SKILLS_AG_ROOT"]
    if os.environ.get("SKILLS_AJ_ROOT"):  # collection aj, when built (--list data/requests-aj/...); no set yet
        roots["aj"] = os.environ["SKILLS_AJ_ROOT"]
    return roots


class Judge:
    """Each collection's index (and semantic leg), and what search and the hook answer for a prompt."""

    def __init__(self, roots: dict[str, str], *, semantic: bool = False, vectors: str | None = None) -> None:
        self.skills = {key: scan_roots([root]).skills for key, root in roots.items()}
        self.lexical = {
            key: SearchIndex.build(skills, bodies=[read_body(skill) for skill in skills])
            for key, skills in self.skills.items()
        }
        self.names = {key: _name_table(skills) for key, skills in self.skills.items()}
        self.meanings: dict[str, object] = {}
        if semantic:
            from skillmem_hook.search.semantic import Encoder, SemanticIndex

            encoder = Encoder()
            for key, skills in self.skills.items():
                cache = None if vectors is None else f"{vectors}-{key}.bin"
                self.meanings[key] = SemanticIndex(skills, encoder, cache)

    def ranked(self, key: str, query: str, *, semantic: bool = False, top: int = 10) -> list[str]:
        """The names search answers, best first (distinct)."""
        return list(dict.fromkeys(hit.skill.name for hit in self.hits(key, query, semantic=semantic, top=top)))

    def hits(self, key: str, query: str, *, semantic: bool = False, top: int = 10) -> list:  # type: ignore[type-arg]
        if not semantic:
            return self.lexical[key].query(query, top)
        from skillmem_hook.search.semantic import rank_with_meaning

        return rank_with_meaning(self.lexical[key], self.meanings[key], query, top)  # type: ignore[arg-type]

    def match(self, key: str, query: str, *, semantic: bool = False) -> str:
        """The ``match`` word search answers with."""
        hits = self.hits(key, query, semantic=semantic, top=5)
        if not semantic:
            return fit(self.lexical[key], query, hits)
        from skillmem_hook.search.semantic import fit_with_meaning

        return fit_with_meaning(self.lexical[key], self.meanings[key], query, hits)  # type: ignore[arg-type]

    def routed(self, key: str, prompt: str, rule: ScoreRule = SCORE_RULE) -> tuple[str, list[str]]:
        """What the hook names for ``prompt``: ("named", names) for a skill named, ("scored", names) or ("", [])."""
        named = named_skills(prompt, self.names[key])
        if named:
            return "named", [target.label for target in named]
        scored = best_scored(prompt, self.lexical[key], rule, Spellings(self.names[key]))
        return ("scored", names) if (names := _labels(scored)) else ("", [])


class Cosines:
    """A request's cosines to every skill of its collection: its whole text, its ask (None: none) and each sentence."""

    __slots__ = ("ask", "sentences", "whole")

    def __init__(self, whole: object, ask: object, sentences: list) -> None:  # type: ignore[type-arg]
        self.whole = whole
        self.ask = ask
        self.sentences = sentences


def request_texts(query: str) -> list[str]:
    """What the semantic leg may encode of a request, as it cuts each text: the whole, its ask, each sentence."""
    from skillmem_hook.search.asks import asking_part, sentences
    from skillmem_hook.search.semantic import MAX_TEXT_CHARS

    ask = asking_part(query)
    return [text[:MAX_TEXT_CHARS] for text in (query, *([ask] if ask else []), *(sentences(query) or [query]))]


def request_cosines(judge: Judge, requests: list[Request]) -> list[Cosines]:
    """Each request's ``Cosines`` (numpy arrays), every distinct text encoded once, 200 to a batch."""
    import numpy as np

    from skillmem_hook.search.asks import asking_part

    texts: dict[str, int] = {}
    for request in requests:
        for text in request_texts(request.query):
            texts.setdefault(text, len(texts))
    encoder = next(iter(judge.meanings.values())).encoder  # type: ignore[attr-defined]
    ordered = list(texts)
    vectors = np.concatenate([encoder.encode(ordered[at : at + 200]) for at in range(0, len(ordered), 200)])
    found = []
    for request in requests:
        skills = judge.meanings[request.collection].vectors  # type: ignore[attr-defined]
        whole, *rest = request_texts(request.query)
        ask = rest.pop(0) if asking_part(request.query) else None
        found.append(
            Cosines(
                skills @ vectors[texts[whole]],
                None if ask is None else skills @ vectors[texts[ask]],
                [skills @ vectors[texts[text]] for text in rest],
            )
        )
    return found


def _labels(targets: list[Target]) -> list[str]:
    return [target.label for target in targets]


def _name_table(skills: list) -> dict[str, list[Target]]:  # type: ignore[type-arg]
    """The route index's table: a skill's name, its own aliases and its folder's name (no configuration here)."""
    return build_name_table(
        (Target(skill.label, skill.root, skill.path), keys) for skill, keys in zip(skills, keys_by_skill(skills, {}))
    )


def fires_right(named: list[str], expect: list[str]) -> tuple[bool, bool]:
    """Whether a hint fires, and whether a skill it names is expected."""
    return bool(named), any(name in expect for name in named)
