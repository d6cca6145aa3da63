"""The Claude Code ``UserPromptSubmit`` route hint, pure: hook input bytes in, hook output bytes (or none) out.

A prompt points clearly at a skill when it names it: the skill's name or an
alias (``search/names.py`` says when a text names one), or when the search's
best hit passes the score rule (``search/confidence.py``'s ``ScoreRule``;
docs/route.md says how it was chosen and what it gives).
"""

from __future__ import annotations

import json

from skillmem_hook.catalog import SKILL_FILE
from skillmem_hook.search.at_hand import at_hand
from skillmem_hook.search.at_hand.shown import code_named, names_code
from skillmem_hook.search.confidence import SCORE_RULE, ScoreRule
from skillmem_hook.search.names import users_own, without_ruled_out
from skillmem_hook.visible import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container

    from skillmem_hook.search.rank import Hit, SearchIndex

    Gate = tuple[str, str, bool]  # a gate of the rule: its way, its condition with the values read, whether it holds

# Only a request's first words are searched: it is stated at the start, and every
# word of a pasted log would cost the prompt a lookup.
MAX_SCORED_CHARS = 500
_CODE = "code in context"
EVENT = "UserPromptSubmit"
_QUOTE_ESCAPES = str.maketrans({'"': '\\"', "<": "\\u003c", ">": "\\u003e"})


class RouteInputError(ValueError):
    """The hook's input is not what Claude Code sends; the message says what is wrong."""


class HookInput:
    __slots__ = ("cwd", "prompt")

    def __init__(self, prompt: str, cwd: str | None) -> None:
        self.prompt = prompt
        self.cwd = cwd


def skill_file(root: str, folder: str) -> str:
    """The SKILL.md path of a skill ``folder`` below ``root``, as the configuration names the root."""
    base = root.rstrip("/") or "/"
    return f"{base}/{SKILL_FILE}" if folder == "." else f"{base}/{folder}/{SKILL_FILE}"


class Target:
    """A skill a prompt can point at: its label, and where its SKILL.md is (worked out only when named)."""

    __slots__ = ("folder", "label", "root")

    def __init__(self, label: str, root: str, folder: str) -> None:
        self.label = label
        self.root = root
        self.folder = folder

    @property
    def path(self) -> str:
        return skill_file(self.root, self.folder)


def parse_hook_input(data: bytes) -> HookInput:
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise RouteInputError("the hook input is not UTF-8") from None
    except ValueError:
        raise RouteInputError("the hook input is not JSON") from None
    if not isinstance(document, dict):
        raise RouteInputError("the hook input is not a JSON object")
    prompt, cwd = document.get("prompt"), document.get("cwd")
    if not isinstance(prompt, str):
        raise RouteInputError("the hook input has no 'prompt' string")
    if cwd is not None and not (isinstance(cwd, str) and cwd):
        raise RouteInputError("the hook input's 'cwd' is not a path")
    return HookInput(prompt, cwd)


def best_scored(
    prompt: str, index: SearchIndex, rule: ScoreRule = SCORE_RULE, spellings: Container[str] = ()
) -> list[Target]:
    """The search's best hits for the prompt that the rule names (a near tie names each), or none.

    ``spellings``: the collection's skill names in one word (``search.names.Spellings``); a camelCase word among
    them is the skill's usual spelling, not code (``at_hand.shown.code_named``)."""
    text = prompt[:MAX_SCORED_CHARS]
    if at_hand(text):
        return []
    code = names_code(text, spellings)
    chosen = code_in_context(text, index, rule, spellings) if code else scored_reading(text, index, rule)[1]
    return [Target(hit.skill.label, hit.skill.root, hit.skill.path) for hit in chosen]


def code_in_context(
    text: str, index: SearchIndex, rule: ScoreRule = SCORE_RULE, spellings: Container[str] = ()
) -> list[Hit]:
    """The hits the rule names for a prompt that names code: none, unless the code is context of a request.

    A turn that names code ("rename useCart", "why useCallback here?") is about
    the code at hand. A request of much context may name code around its ask
    ("Our Expo app builds with eas.json's preview profile ... How do we ship
    it to TestFlight?"): it is hinted when it types ``context_typed`` words or
    more, its asking sentences name no code, and their own best hit is the
    hint's first, a second witness that the ask, not the code, chose it
    (0.5.0, eighth pass). Where every sentence asks, or none, the witness is
    the sentences that name no code (0.5.0, thirteenth pass).
    """
    return code_in_context_gates(text, index, rule, spellings)[0]


def code_in_context_gates(
    text: str, index: SearchIndex, rule: ScoreRule = SCORE_RULE, spellings: Container[str] = ()
) -> tuple[list[Hit], list[Gate]]:
    """``code_in_context``'s hits, and each of its gates read, to the first that fails: ``route --explain`` shows
    them, so the one that silenced a prompt is a line of its own."""
    from skillmem_hook.search.asks import asking_part  # noqa: PLC0415 - a prompt naming its skill needs no search

    if not rule.context_typed:
        return [], [(_CODE, "the rule hints a prompt that names code (context_typed is 0)", False)]
    own = users_own(text)
    ask, part = asking_part(own), "its asking sentences"  # first: a turn of one sentence ends here at no search cost
    if ask is None:
        ask, part = plain_part(own, spellings), "its sentences that name no code"
    gates: list[Gate] = [(_CODE, "a sentence asks apart from the code, or a sentence names no code", ask is not None)]
    if ask is None:
        return [], gates
    code = code_named(ask, spellings)
    gates.append((_CODE, f"{part} name no code" + (f" ({quoted(code)})" if code else ""), code is None))
    if code is not None:
        return [], gates
    typed = index.typed_words(own)
    gates.append((_CODE, f"much context: typed {typed} >= {rule.context_typed}", typed >= rule.context_typed))
    if typed < rule.context_typed:
        return [], gates
    chosen = scored_reading(text, index, rule)[1]
    if not chosen:  # the rule's own conditions say why
        return [], gates
    witness = index.query(ask, top=1, english_at_large=rule.english_at_large)
    same = bool(witness) and witness[0].skill.label == chosen[0].skill.label
    best = quoted(witness[0].skill.name) if witness else "none"
    gates.append((_CODE, f"the best hit of {part} ({best}) is the hint's first ({quoted(chosen[0].skill.name)})", same))
    return (chosen if same else []), gates


def plain_part(text: str, spellings: Container[str] = ()) -> str | None:
    """The sentences of ``text`` that name no code, joined; None when it is one sentence, or every or no sentence
    names code.

    The witness of a request whose sentences all ask, or none does ("As a backend dev on a Node/TypeScript API,
    I want to upsert orders ... with the JS SDK"; set K's k1-035): what it says around its code (0.5.0, thirteenth
    pass).
    """
    from skillmem_hook.search.asks import sentences  # noqa: PLC0415 - a prompt naming its skill needs no search

    parts = sentences(text)
    plain = [part for part in parts if not names_code(part, spellings)]
    return " ".join(plain) if plain and len(plain) < len(parts) else None


def scored_reading(text: str, index: SearchIndex, rule: ScoreRule = SCORE_RULE) -> tuple[str, list[Hit]]:
    """The words of ``text`` that the score rule's verdict rests on, and the hits it names there (maybe none).

    A forwarded mail or a quoted ticket is context: the hint comes from the
    user's words. What the user rules out ("I'm not asking for a Vault
    setup") is left out only where the whole prompt is hinted: it silences or
    narrows a hint, never adds one.
    """
    own = users_own(text)
    chosen = _chosen(own, index, rule)
    kept = without_ruled_out(own)
    if chosen and kept != own:
        return kept, _chosen(kept, index, rule)
    return own, chosen


def _chosen(text: str, index: SearchIndex, rule: ScoreRule) -> list[Hit]:
    """The hits of ``text`` that ``rule`` names (none when it abstains)."""
    hits = index.query(text, top=rule.most, english_at_large=rule.english_at_large)
    if not hits:
        return []
    evidence, _, typed, cjk = index.reading(text, hits[0])
    chosen = rule.chosen(hits, evidence, typed, cjk)
    return [] if chosen and english_among_cjk(text, chosen[0], index) else chosen


def english_among_cjk(text: str, best: Hit, index: SearchIndex) -> bool:
    """Whether an English prompt's best hit is a skill described in English in a collection described mostly in CJK.

    The words they share are rare there because the collection is not English, not because they say much: a long
    English request's everyday words ("actually", "explain", "every") lift the few English-described skills of a
    Chinese-described collection (0.5.0, after set L; search weighs such words by English at large, the rule, which
    reads the collection's own rarity, stays silent). Not the other way round: a Chinese skill among English ones is
    found by Chinese words that say what it does, and a Chinese prompt is hinted to it.
    """
    from skillmem_hook.search.tokenize import has_cjk  # noqa: PLC0415 - a prompt naming its skill needs no search

    if has_cjk(text) or has_cjk(best.skill.description):
        return False
    return index.described_in_cjk()


def route_line(targets: list[Target], *, named: bool = True) -> str:
    """One short line for the model: which skill(s), and where their instructions are.

    ``named``: the prompt names the skills; else the search found them, and
    several are a near tie that the model chooses from. The label and the
    path are the repository's text, so they are quoted: a line break, a
    control character or markup in them (``</user-prompt-submit-hook>``)
    shows as an escape and can neither add a line nor close a tag.
    """
    listed = "; ".join(f"{quoted(target.label)} ({quoted(target.path)})" for target in targets)
    if named:
        noun = "skill" if len(targets) == 1 else "skills"
        return f"Skill hint: this prompt points at the {noun} {listed}. Read the SKILL.md before you start."
    if len(targets) == 1:
        return f"Skill hint: the skill {listed} fits this prompt. Read its SKILL.md before you start."
    return (
        f"Skill hint: one of the skills {listed} fits this prompt. Read the SKILL.md of the best fit before you start."
    )


def quoted(text: str) -> str:
    """``text`` in double quotes: its backslashes, quotes, angle brackets, control and invisible characters escaped.

    Invisible: ``visible``'s set, Unicode's default-ignorable characters (zero-width ones, the tag characters and
    the variation selectors a model reads but a person does not see). The line goes to a model, not a person.
    """
    # The backslash first, before the escapes visible() writes: a name ending in one would
    # otherwise escape the closing quote, and its text would read as the hook's own.
    return '"' + visible(text.replace("\\", "\\\\")).translate(_QUOTE_ESCAPES) + '"'


def hook_output(line: str) -> bytes:
    """The JSON Claude Code reads from a UserPromptSubmit hook, adding ``line`` to the model's context."""
    document = {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": line}}
    return (json.dumps(document, ensure_ascii=True, sort_keys=True) + "\n").encode("ascii")
