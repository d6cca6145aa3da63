"""A reaction to a thing already there: a short turn that asks nothing, opens on a thing given and judges it or states
its state. Pure: text in, a yes or no out.
"""

from __future__ import annotations

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.changed import _EDIT_MARKS
from skillmem_hook.search.at_hand.clauses import _MAKING_MARKS, _makes_new

# A turn to a coding agent asks a specialist for new work when it asks for a thing not already there; one that opens on
# a thing given (the definite or deictic thing the session has), says how it is ("the new card's padding feels cramped
# on mobile", "It doesn't", "落地页文案这版可以") and asks nothing reacts to the work at hand. Read from general parts,
# not the forms seen, and on positive evidence, not on asks missed: an imperative whose object comes first ("the
# blog post, an SEO pass", "这份合同翻译成英文") asks as plainly as one that opens on its verb, so the absence of a
# listed ask is no reaction (review4: the first form of this reading silenced such requests).
# - Short: a request's context opens on "the" as often ("The PR diff I'm looking at: ..."); a reaction is a line.
# - No need, want or how stated, no question, no agent addressed (str marks, read first).
# - The first sentence opens (after fillers) on a thing given: the / this / that / these / those / it / your (not
#   "this is a", a thing introduced); in Chinese 这 / 那 (一) and a measure word, or 它 (not 其它), first or after a
#   short topic ("落地页文案这版可以": the topic, then its subject).
# - A judgement or state of the thing after it: a verb of perception or state, a negation, "still" (looks, feels,
#   reads, is, doesn't ...); 太 / 有点 / 不错 / 可以 / 还是 / 很 / 没 / 不 / 了 ...
# - No clause does: none asks (`asks.asks`), none opens on a verb of doing (`_ASK_VERBS`), none holds an English
#   verb then "it" / "them" ("shrink it", "pivot it by region"), none holds a Chinese verb of doing not marked done
#   (改成 / 补 / 用 / 翻译 / 导出 ...; 折成了, 做得, 好用 are states), and nothing is made, added or wanted
#   (`_makes_new`).
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
# A judgement or a state said of the thing: a verb of perception or state (the -s form or the past: an imperative
# has neither), a negation, "still". A closed set of the verbs of being and seeming, not of the forms seen.
_STATES = frozenset((
    "is", "are", "was", "were", "isn't", "aren't", "wasn't", "weren't", "it's", "that's", "they're", "looks", "look",
    "looked", "feels", "feel", "felt", "reads", "seems", "seem", "seemed", "sounds", "sound", "sounded", "still",
    "doesn't", "don't", "didn't", "won't", "can't", "works", "worked", "breaks", "broke", "fails", "failed", "has",
    "have", "hasn't", "haven't", "keeps", "kept", "gets", "got",
))  # fmt: skip
_STATES_CJK = (
    "是", "像", "太", "有点", "有些", "不错", "可以", "还是", "挺", "很", "真", "蛮", "不够", "过于", "没", "不", "了",
    "好",
)  # fmt: skip
# Chinese verbs of doing: the edits of `changed._EDIT_MARKS` and the making of `clauses._MAKING_MARKS` (but 出, as
# often a state: 出现, 出错), and the doing an object-first imperative takes (改 / 成 / 补 / 用 / 翻译 / 导出 / 找出 /
# 回复 ...): one closed set. A verb marked done or described (了 / 过 / 得 / 着 after it: 折成了, 做得不错) or a
# quality (好用, 有用) states, it does not ask.
_DOING_CJK = (
    *(mark for mark in (*_EDIT_MARKS, *_MAKING_MARKS) if not mark.isascii() and mark != "出"),
    "改", "拆", "成", "补", "用", "翻译", "导出", "找出", "回复", "加", "优化", "汇总", "总结", "重写", "统一", "整理",
    "检查", "审", "分析", "转", "发",
)  # fmt: skip
_DONE_CJK = "了过得着"
_QUALITY_CJK = "好有不没难能可"
_NEGATIONS_CJK = "不没别"  # a verb negated asks nothing done: 不用再改, 别动
_GIVEN_CJK = lazy_compile(r"(?<!其)(?:[这那]一?[\u4e00-\u9fff]|它)")
_TOPIC_LENGTH = 6  # a topic or a filler before the thing given: "落地页文案" (5), "嗯," (1), "newsletter" (1)
_PUNCTUATION = ".,;:!?\"'()`\u2019"
# A sentence's clauses: an ask after a comma, a colon or a dash is an ask ("the signup form on mobile, please audit
# it for WCAG issues"); `asks.asks` reads a sentence's opening only.
_CLAUSE_MARKS = lazy_compile(r"[,:\u2014\u2013\u3001]|\s-\s")
_SENTENCE_ENDS = ".!?;\u3002\n"
# An ask by its shape, not its verb (mend5): whatever the verb, a clause that opens on a bare verb then its object or
# a particle ("tally the totals by month"), or in Chinese a verb then 一下 / 下 / 吧 or 给我, or a clause that opens
# on a coverb of an ask. The English words that open a clause but are no verb: a closed set of function words.
_LINKS = frozenset(("and", "then", "also", "now", "just", "so", "but", "plus"))
_TAKEN = frozenset((
    "the", "a", "an", "this", "that", "these", "those", "all", "each", "every", "my", "our", "its", "their", "some",
    "any", "both", "it", "them", "up", "out", "by", "into",
))  # fmt: skip
_FUNCTION_WORDS = frozenset((
    "i", "we", "you", "he", "she", "they", "me", "us", "him", "her", "my", "our", "his", "their", "a", "an", "all",
    "each", "every", "some", "any", "both", "no", "not", "yes", "and", "or", "but", "so", "yet", "because", "since",
    "though", "although", "while", "when", "if", "unless", "until", "after", "before", "then", "also", "plus", "on",
    "in", "at", "for", "with", "from", "of", "to", "by", "about", "over", "under", "like", "as", "per", "without",
    "across", "between", "through", "during", "into", "onto", "now", "still", "again", "just", "even", "only", "maybe",
    "perhaps", "yesterday", "today", "tonight", "tomorrow", "always", "never", "sometimes", "here", "there", "same",
    "what", "which", "who", "where", "why", "how", "nothing", "something", "everything", "one", "too", "very",
    "much", "more", "most", "less", "least", "way", "thanks", "thank", "great", "good", "nice", "cool", "fine",
))  # fmt: skip
_SKIPPED_CJK = " \t,:;\u3001就那好嗯"  # NFKC (at_hand) has made the full-width punctuation ASCII
_COVERBS = ("把", "将", "按", "照", "先", "再")
_LEFT_AS_IS = ("这样", "那样", "说", "你")
# A verb (a character no state, quality, particle nor place: 上下, 以下, 线下) then 一下 / 下 / 吧 ending its clause,
# or 给我 after it. The ideographs are named by range, not by \w alone: \w is the interpreter's Unicode table, and a
# character an older Python's table does not yet assign (U+9FFD on 3.9) would read as no letter there.
_ASK_SHAPE_CJK = lazy_compile(
    r"(?![了好行是对错样的罢算吗呢啊嘛来去也就都不没上以底地线天])[\w\u3400-\u9fff\uf900-\ufaff]"
    r"(?:(?:一?下[吧呢啊]?|吧)[\s.!~\u3002]*$|给我)"
)
_OBJECTS = ("it", "them")  # "shrink it", "pivot it by region": a verb then its object, an imperative


def _reacts_to_a_thing_given(text: str) -> bool:
    """Whether ``text`` (the user's own words) is a short reaction to a thing given, asking nothing: "the new card's
    padding feels cramped on mobile", "落地页文案这版可以"; not "the login page needs a rate limiter" (a need), nor
    "the docker image is 2GB, shrink it" (an ask), nor "这份合同翻译成英文" (an ask, its object first)."""
    if len(text) > _MOST_CHARS or len(words := text.lower().split()) > _MOST_WORDS:
        return False
    if not words or any(word.startswith(_NEEDS) for word in words) or any(need in text for need in _NEEDS_CJK):
        return False
    folded = " ".join(words)
    if any(mark in folded for mark in _ASKING_MARKS):  # read before `asks.asks`, whose patterns cost 2 to 4 ms
        return False
    if not _judges_a_thing_given(_first_sentence(text)):  # str methods, before `sentences` and `asks`
        return False
    from skillmem_hook.search.asks import asks, sentences  # noqa: PLC0415 - only a short judgement of a thing given

    parts = sentences(text)
    clauses = [clause for part in parts for clause in _CLAUSE_MARKS.split(part)]
    named = _names_its_thing(_first_sentence(text))  # an ask by its shape needs a thing named, not "it" (mend5)
    if any(_opens_on_a_verb(c) or _does(c) or (named and _asks_by_its_shape(c)) for c in clauses):
        return False
    return not any(asks(clause.strip()) for clause in clauses) and not _makes_new(text)


def _first_sentence(text: str) -> str:
    """``text`` up to its first sentence's end (a stop, a question or exclamation mark, a semicolon, a line break)."""
    ends = [at for at in (text.find(mark) for mark in _SENTENCE_ENDS) if at > 0]
    return text[: min(ends)] if ends else text


def _judges_a_thing_given(sentence: str) -> bool:
    """Whether ``sentence`` opens on a thing given and then says how it is: "the toast animation feels sluggish",
    "It still reads like marketing copy", "这版配色太灰了", "落地页文案这版可以"."""
    if not sentence.isascii():
        given = _given_cjk(sentence)
        if given >= 0:
            return any(state in sentence[given:] for state in _STATES_CJK)
    words = _after_fillers(sentence)
    if not words or words[0] not in _GIVEN:
        return False
    after = words[2:3] if words[1:2] == ["is"] else words[1:2]
    if any(word in _INTRODUCED for word in after):
        return False
    return words[0] in ("it's", "that's") or any(word in _STATES or word.endswith("n't") for word in words[1:])


def _given_cjk(sentence: str) -> int:
    """Where the thing given ends in a Chinese ``sentence`` that opens on it, after at most a short topic or a filler
    (这版 / 那封 / 这篇 / 它; "落地页文案这版", "嗯,这张图"); -1 when it does not."""
    found = _GIVEN_CJK.search(sentence)  # a verb of doing in the topic is read with the clauses
    if found is None:
        return -1
    topic = sentence[: found.start()]
    # A judgement before it is the sentence's own, of another subject ("标题还是太长, 它 ...").
    if _topic_length(topic) > _TOPIC_LENGTH or any(state in topic for state in _STATES_CJK):
        return -1
    return found.end()


def _topic_length(topic: str) -> int:
    """The length of a topic: each Chinese character one, each word of Latin letters or digits one ("deck" 1)."""
    return sum(1 for c in topic if not c.isascii() and c.isalpha()) + sum(
        1 for word in topic.split() if any(c.isascii() and c.isalnum() for c in word)
    )


def _does(clause: str) -> bool:
    """Whether ``clause`` asks a thing done: an English verb then "it" / "them" ("shrink it with a multi-stage
    build"), or a Chinese verb of doing not marked done ("翻译成英文", "用多阶段构建"; not "折成了三行")."""
    words = _after_fillers(clause)
    if any(word in _OBJECTS and at > 0 and words[at - 1] not in _GIVEN for at, word in enumerate(words)):
        return bool(words) and words[0] not in _GIVEN and not any(word in _STATES for word in words)
    return not clause.isascii() and _doing_at(clause)


def _doing_at(clause: str) -> bool:
    """Whether ``clause`` holds a Chinese verb of doing neither marked done, nor a quality (好用, 有用), nor negated in
    the three characters before it (不用再改, 别动)."""
    for verb in _DOING_CJK:
        at = clause.find(verb)
        while at >= 0:
            after = clause[at + len(verb) : at + len(verb) + 2]
            before = clause[max(at - 3, 0) : at]
            quality = before[-1:] != "" and before[-1:] in _QUALITY_CJK
            if (
                not quality
                and not any(mark in after for mark in _DONE_CJK)
                and not any(mark in before for mark in _NEGATIONS_CJK)
            ):
                return True
            at = clause.find(verb, at + 1)
    return False


def _names_its_thing(sentence: str) -> bool:
    """Whether ``sentence`` names the thing it judges ("the export is slow", "这份报表太乱了"), not only points at it
    (it / it's / that's, "this is", 它, "这条是"): a pronoun's thing is the session's, and a request for other work
    names what it asks about."""
    given = -1 if sentence.isascii() else _given_cjk(sentence)
    if given >= 0:
        rest = sentence[given:].lstrip()
        return not sentence[:given].endswith("它") and not rest.startswith(_STATES_CJK)
    words = _after_fillers(sentence)
    if not words or words[0] in ("it", "it's", "that's", "its"):
        return False
    return words[0] not in _GIVEN or words[1:2] == [] or words[1] not in _STATES


def _asks_by_its_shape(clause: str) -> bool:
    """Whether ``clause`` is shaped as an ask, whatever its verb: in English a bare verb then its object or particle
    ("tally the totals by month", "then sort them by date"); in Chinese a verb then 一下 / 下 / 吧 or 给我 (a clause
    opening on 给我 `asks` reads), or a clause opening on a coverb of an ask (把 / 将 / 按 / 照 / 先 / 再: "按月汇总",
    "把空行去掉")."""
    if clause.isascii():
        words = _after_fillers(clause)
        while words and words[0] in _LINKS:
            words = words[1:]
        return len(words) > 1 and _bare_verb(words[0]) and words[1] in _TAKEN
    opening = clause.lstrip(_SKIPPED_CJK)
    # "先这样", "再说": nothing asked; "按你的方案", "照你说的": the agent's own plan agreed to, no new work
    if opening.startswith(_COVERBS) and not opening.startswith(_LEFT_AS_IS, 1):
        return True
    marked = "下" in clause or "吧" in clause or "给我" in clause  # the pattern compiled only on a clause that has one
    return marked and _ASK_SHAPE_CJK.search(clause) is not None


def _bare_verb(word: str) -> bool:
    """Whether ``word`` can be a bare verb opening an imperative: letters, no function word, no state, and none of
    the forms an imperative never takes (-s, -ed, -ing, an adverb's -ly)."""
    if not word.isalpha() or word in _FUNCTION_WORDS or word in _STATES or word in _GIVEN:
        return False
    if word.endswith("ly") and len(word) > 5 and not word.endswith("ply"):  # an adverb; "tally", "apply" are verbs
        return False
    return not word.endswith(("ed", "ing")) and not (word.endswith("s") and not word.endswith(("ss", "us")))


def _opens_on_a_verb(clause: str) -> bool:
    """Whether ``clause`` opens (after fillers) on a verb of editing, checking or going on: an imperative."""
    words = _after_fillers(clause)
    return bool(words) and words[0] in _ASK_VERBS


def _after_fillers(text: str) -> list[str]:
    """The words of ``text`` in lower case, their punctuation stripped, from the first that is not a filler."""
    words = [word.strip(_PUNCTUATION) for word in text.lower().split()]
    while words and words[0] in _FILLERS:
        words = words[1:]
    return words
