"""What a request asks for: its sentences, and the ones that ask.

Pure. People give an agent context before (or after) the ask: "Our Postgres
reports time out since we passed 40M rows. We're on RDS with two read
replicas. Where do I start?" The company, the numbers and the tools around
it say less about the skill wanted than the question or the imperative does.
A side task tacked on ("Also, while you're at it, bump .nvmrc to Node 20")
is context too: the skill is wanted for the main ask.
"""

from __future__ import annotations

import functools
import re

from skillmem_hook.lazy_pattern import lazy_compile

# A sentence ends at a full stop, a question or exclamation mark, a semicolon (ASCII or full-width)
# or a line break; a full stop only before a space, so "Next.js" and "3.11" stay whole, and an ASCII question
# mark or semicolon not inside an address's query ("/search?q=<svg>").
_SENTENCE_END = re.compile("(?<=[\u3002\uff01\uff1f\uff1b])|(?<=[!?;])(?![A-Za-z0-9_=&/%#])|(?<=\\.)(?=\\s)|\n+")
# An English sentence asks when it is a question, or opens (after a filler word) with a request or an imperative.
_FILLER = r"(?:(?:so|ok|okay|hey|hi|now|and|but|also|then|pls|please|just|basically|honestly|ideally),?\s+)*"
_ENGLISH_ASK = (
    rf"^{_FILLER}(?:"
    r"(?:can|could|would|will)\s+(?:you|we|i|someone)\b|how\b|what\b|which\b|where\b|why\b|who\b|when\b|"
    r"is\s+there\b|are\s+there\b|any\b|should\s+(?:i|we)\b|do\s+(?:i|we|you)\b|does\b|"
    r"(?:i|we)\s+(?:need|want|would\s+like|'d\s+like|d\s+like)\b|(?:i|we)['\u2019]d\s+like\b|looking\s+for\b|let['\u2019]?s\b|"
    r"help|please|write|build|make|create|generate|set\s+up|add|draft|design|plan|show|tell|give|explain|review|"
    r"find|migrate|convert|turn|put|sketch|outline|list|walk|recommend|suggest|analy[sz]e|compare|summari[sz]e|"
    r"audit|check|scan|estimate|calculate|prepare|produce|translate|refactor|optimi[sz]e|figure|teach|guide|"
    r"document|implement|deploy|automate|scrape|extract|clean|split|merge|track|monitor|test|debug|profile"
    r")"
)
_CHINESE_ASK = (
    r"帮我|帮忙|帮着|给我|请你|请帮|麻烦|能不能|能否|可不可以|可以帮|有没有|怎么|如何|怎样|哪些|哪个|哪种|哪里|从哪|"
    r"什么|为啥|为什么|吗|呢|想让你|想请你|需要你|求|出一份|出个|写一|写个|做一|做个|搞一|搞个|整理|汇总|推荐|设计一"
)
_QUESTION_MARKS = ("?", "\uff1f")
# A side task: a sentence that opens with "also", "btw", "one more thing", "另外", "顺便" (after an "oh and"), or
# says "while you're at it" / "顺手" anywhere. "还有没有..." (is there still...) asks the main question.
_SIDE_TASK = lazy_compile(  # only a prompt of several sentences asks: a route prompt of one compiles nothing
    r"^(?:(?:ok|oh|and|so),?\s+)*(?:also|plus|btw|by\s+the\s+way|p\.?s\.?|side\s+note|small\s+side\s+thing|"
    r"unrelated|separately|one\s+more\s+thing)\b|^(?:另外|顺便|还有(?!没有)|顺手|对了)"
    r"|while\s+you['\u2019]re\s+(?:at\s+it|in\s+there|there)|顺便|顺手",
    re.IGNORECASE,
)


# A choice between options: "should we X or Y?", "is it better to X, or Y?", "是 X 还是 Y?", "要不要 X? 还是 Y?".
# Beside another ask ("which way do you recommend?", "我想要一个长期的规划") its options are context: an
# advice request names the options and then asks for what the skill does. "还是" also
# means "still" ("插件还是 MV2"), so a Chinese choice is a question or weighs its options (比较好, 更合适).
# Read with str methods, not a pattern: compiling one cost a route prompt of several sentences 2.8 million
# instructions.
_CHOICE_OPENERS = frozenset(("should", "would", "do", "does"))
_CHOICE_PHRASES = ("is it better", "are we better off")
_CHOICE_WORDS = 7  # the opener stands among a question's first words: "The team is split: should it ..."
_WEIGHING = ("\u6bd4\u8f83\u597d", "\u66f4\u597d", "\u66f4\u5408\u9002", "\u597d\u5462")  # 比较好 更好 更合适 好呢
_PUNCTUATION = ".,;:!?\"'()"


def sentences(text: str) -> list[str]:
    """The text's sentences, stripped, empty ones left out."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


def asks(sentence: str) -> bool:
    """Whether a sentence asks: a question, a request or an imperative."""
    if sentence.endswith(_QUESTION_MARKS):
        return True
    english, chinese = _ask_patterns()
    return english.match(sentence) is not None or chinese.search(sentence) is not None


@functools.lru_cache(maxsize=1)
def _ask_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Compiled at the first query of several sentences: a route prompt of one pays nothing for them."""
    return re.compile(_ENGLISH_ASK, re.IGNORECASE), re.compile(_CHINESE_ASK)


def side_task(sentence: str) -> bool:
    """Whether a sentence adds a task beside the main one: "Also, can you bump .nvmrc while you're at it?"."""
    return _SIDE_TASK.search(sentence) is not None


def choice(sentence: str) -> bool:
    """Whether a sentence asks to choose between options: "Should we pause it with a Logic App, or script it?"."""
    if "\u8fd8\u662f" in sentence:  # 还是
        after = sentence[sentence.index("\u8fd8\u662f") :]
        if sentence.endswith(_QUESTION_MARKS) or any(word in after for word in _WEIGHING):
            return True
    if not sentence.endswith("?"):
        return False
    words = [word.strip(_PUNCTUATION) for word in sentence.casefold().split()]
    lead = " ".join(words[:_CHOICE_WORDS])
    opener = next((n for n, word in enumerate(words[:_CHOICE_WORDS]) if word in _CHOICE_OPENERS), None)
    if opener is None and not any(phrase in lead for phrase in _CHOICE_PHRASES):
        return False
    return "or" in words[(opener or 0) + 1 :]


def asking_part(text: str) -> str | None:
    """The sentences of ``text`` that ask, joined; None when it is one sentence, or every or no sentence asks.

    A side task is not an ask beside a main one; when only a side task asks,
    the other sentences are the main task ("I want a briefing on X. Also,
    can you rename the app?": X is what a skill is wanted for). A choice
    question beside another ask is context: "Should we open a Discord, or is
    GitHub Discussions enough? I want a plan that keeps users answering each
    other" asks for the plan, and the options are what it is weighed against.
    """
    parts = sentences(text)
    if len(parts) < 2:
        return None
    asking = [part for part in parts if asks(part)]
    main = [part for part in asking if not side_task(part)]
    options = [part for part in main if choice(part)]
    if options and len(options) < len(main):
        main = [part for part in main if part not in options]
    if asking and not main:
        main = [part for part in parts if not side_task(part)]
    if not main or len(main) == len(parts):
        return None
    return " ".join(main)
