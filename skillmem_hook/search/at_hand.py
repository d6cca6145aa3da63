"""Whether a turn speaks of the work in front of the agent, which the route's score rule then leaves alone.

A session's turns name its code (a file, an identifier, a line), point at
what the agent just did ("the loop you suggested", "你刚写的"), or paste its
output; a request for a skill does none of these. Pure: text in, a yes or
no out (docs/route.md says what each rule costs and gains).
"""

from __future__ import annotations

import re
import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.names import users_own, without_pasted_blocks

# What names the code in front of the agent: a file with a source or config extension
# (not a library written as one, Node.js or Three.js; not a Markdown document, plan.md or
# README.md, which a request writes or follows: 0.5.0, fourteenth pass), a snake_case or
# camelCase identifier, a call, a line number, an error's type (TypeError), a path of two
# parts or more (/api/orders) (docs/route.md).
_CODE_REFERENCE = re.compile(
    r"\b(?![A-Z][a-z]*\.(?i:js)\b)\w+\.(?i:py|pyi|ipynb|ts|tsx|js|jsx|mjs|vue|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|rb|php"
    r"|sql|sh|css|scss|html|json|ya?ml|toml|ini|cfg|conf|lock|tf|txt)\b"
    r"|\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b|\b[a-z]{2,}[A-Z][a-z]+\w*\b|\w\(\)|\b(?i:line) \d+"
    r"|第\s*(?:\d+|[一二三四五六七八九十百千两零〇]+)\s*行"  # a line, its number in figures or in Chinese numerals
    r"|\b[A-Z]\w*(?:Error|Exception)\b|(?<![\w/])/[A-Za-z][\w.-]*/[\w./-]*"
)


def names_code(text: str) -> bool:
    """Whether ``text`` names a file, an identifier or a line of the code in front of the agent.

    Such a turn ("the test in test_orders.py fails", "rename useCart") is about
    that code, so the score rule leaves it alone: in the longer turns of an
    ordinary session, four in ten name code, against a few in a hundred of the
    requests a skill serves (benchmarks/route_rule.py).
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)  # a full-width file name is the same name
    return _CODE_REFERENCE.search(text) is not None


_AT_HAND_NOUNS = (
    r"(?:tests?|functions?|methods?|files?|lines?|loops?|code|snippet|diff|commits?|branch|error|bug|class|module|"
    r"query|regex|script|build|fixture|mock|stack\s+trace|traceback|endpoint|component|hook|variable|PR|config|"
    r"changes?|migrations?|decorator|handler|cell|manifest|job|schedule|project|repo|codebase|output|logs?|warning|"
    r"test\s+suite|pipeline|workflow|Dockerfile|container|pod|image|button|page|field|column|table|schema|index|"
    r"type|interface|import|dependency|package|version|release)"
)
# What the agent did, in the past tense (0.5.0, after set H): "the `git rebase` you ran", "you said the db would be
# healthy", "you missed one call site"; any verb in -ed but one whose present ends so (need, embed), or an irregular
# past unlike its present ("can you set up" asks ahead) but "put", counted before: without it set G's "the
# aria-label you put on the close button" fires and no request gains a hint. "Are you interested" asks.
_PAST_TENSE = (
    r"(?!(?:need|feed|speed|proceed|succeed|exceed|embed|shed|bed|wed)\b)[a-z]+ed|said|ran|wrote|made|did|gave|put|"
    r"told|sent|built|broke|left|took|got|kept|chose|brought|meant|thought|found|forgot"
)
_AT_HAND = re.compile(
    rf"(?<!\bare\s)(?<!\bwere\s)\b(?:you|you've)\s+(?:just\s+|already\s+)?(?:{_PAST_TENSE})\b"
    r"|\bI\s+(?:asked|told)\s+you\b|\byour\s+(?:last|previous|latest|change|changes|fix|patch|diff|edit|version|"
    r"suggestion|code|answer|plan|idea|approach|explanation|command|script|summary|proposal|refactor|rebase|"
    r"migration|commit|tests?)\b"
    r"|\b(?:the|this|that)\s+(?:\w+\s+)?(?:above|below)\b|\babove\b|\bearlier\b"
    rf"|\b(?:this|that|these|those)\s+(?:\w+\s+)?{_AT_HAND_NOUNS}\b"
    r"|\bthe\s+(?:\w+\s+)?(?:mock|fixture|manifest|teardown|patch\s+target)s?\b|\bthe\s+test\s+(?:still|fails|passes|fixture)\b"
    r"|\bmy\s+(?:current\s+)?(?:changes|diff|branch|commit|working\s+tree)\b|\bthis\s+time\b|\bthanks\b|\bcontinue\b"
    # A follow-up on the last answer: it worked, or it missed what was meant ("ok that works. last thing: ...").
    r"|^(?:(?:ok(?:ay)?|great|nice|perfect|cool|good)[,.!]?\s*)?(?:that|it|this)\s+(?:works|worked|fixed\s+it|did\s+it)\b"
    r"|\byou\s+misunderstood\b|\b(?:that['\u2019]?s|this\s+is)\s+not\s+what\s+I\s+(?:meant|asked|said)\b|\bwhat\s+I\s+meant\b"
    # The session's own history (0.5.0, fourth pass): "revert the last commit", "since my previous push".
    r"|\b(?:last|previous)\s+(?:commit|push|merge|deploy|run|build|change|edit)s?\b",
    re.IGNORECASE,
)
# Output pasted as it was printed, no fence (0.5.0, fourth pass): pytest's "E   assert ...", a traceback, a stack
# frame, a shell or Python prompt, a log line's timestamp; and (eighth pass) Jest's or Vitest's summary ("Tests:  1
# failed, 41 passed") and failure bullet ("  ● formatPrice ..."). The turn is about that output, as
# with a fenced block.
_PASTED_OUTPUT = lazy_compile(
    r"^(?:E {2,}\S|Traceback \(most recent call last\)|[ \t]+at [\w.$<>]+[(:]|\$ \S|>>> "
    r"|\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|Tests: +\d+ (?:failed|passed)|[ \t]*\u25cf \S)",
    re.MULTILINE,
)
_OUTPUT_STARTS = frozenset("ET \t$>[0123456789\u25cf")
# Not 这个页面 (0.5.0, nineteenth pass, after set K's k2-027 and set O's o2-017, "帮我逐块过一遍这个页面", "往这个页面
# 导流"): a page is the user's product a request is about, as often as a thing the agent made.
_AT_HAND_CJK = re.compile(
    r"这段|这几行|这行|把这个|别的不动|别的都不动|上面|刚才|刚刚|你刚|你生成|你写的|你给的|你改|你把|你这么|"
    r"你这样|你加的|你建议|我刚改|我让你|这样重构|这样改|提交之前|之前那个|刚那个|当前改动|"
    r"(?:这|那)(?:个|段|行|几行|次)\s*(?:函数|文件|接口|报错|错误|测试|脚本|变量|类|组件|方法|循环|正则|部署|服务|"
    r"按钮|字段|表|查询|配置|镜像|分支|提交|模块|用例|日志|修复|改动|逻辑|代码|实现|bug)"
    # "这个 Dockerfile", "那个 endpoint": a thing at hand named in English (not "那个 Code 节点", a product's
    # part); "你理解错了", "我说的是": a correction of the last answer.
    r"|(?:这|那)(?:个|段|行|几行|次)\s*(?:Dockerfile|endpoint|function|tests?|script|PR|commit|branch|bug|config|regex|"
    r"query|migration|container|pod|image|build|pipeline|workflow|component|hook|diff|snippet|logs?|error|warning|"
    r"traceback|stack\s+trace|fixture|mock|handler|module)\b|理解错|我说的是|我的意思是|不是这个意思",
    re.IGNORECASE,
)
# 0.5.0, fourth pass: an English verb or word with a Chinese complement or particle ("revert 掉", "rerun 一下",
# "merge 吧"), the talk of a session about its code; a line that opens on 这个 / 那个 (this, that: a thing
# shown); what the agent did unasked ("你为啥改成 3", "我没让改"). Compiled on a prompt's first Chinese.
# Not (eighteenth pass, after set H's h2-025 and set I's i2-018, i2-029) 那个 as a filler before a pause ("那个……
# 我们在纠结", "那个,", "那个嗯"), which points at nothing, nor 这个你来 ("这个你来搞" after a ticket), which hands
# the task stated above to the agent: a request, not a thing shown. NFKC has made "……" dots, a full-width comma ASCII.
_AT_HAND_MIXED = lazy_compile(
    r"[A-Za-z]\s*(?:掉|一下|吧)|(?:^|\n)[ \t]*(?:这个(?!你来)|那个(?![.,、嗯呃])|这段|这些|那些|这里|那里)"
    r"|你(?:为啥|为什么|怎么)(?:要|又|把)?(?:改|删|加|动|换)|我没(?:让|叫)"
)


def at_hand(text: str) -> bool:
    """Whether ``text`` speaks of the work in front of the agent: what it just did, the code or output shown.

    "the loop you suggested", "your last change", "this function", "the mock",
    "上面这段", "你刚写的", "这个接口", "跑一遍测试": a turn of a session about its
    own code, not a request for a skill, so the score rule leaves it alone.
    On the tuning data (benchmarks/unseen_set.py --tuning, after set H) such
    words are in the first 500 characters of 51 of 715 requests and of 415 of
    885 everyday turns.
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    if without_pasted_blocks(text) != text or _pastes_output(text) or prints_a_table(text):
        return True  # code or output pasted (fenced or as printed): the turn is about it
    # The words are read in the user's own lines: a quoted mail, review or chat message speaks to the user, and its
    # "你把 ..." or "your branch" names no work of the agent's (0.5.0, eighteenth pass, after set H's h2-033).
    typed, text = text, users_own(text)
    again: bool | None = None  # `_checks_again`'s answer, once read
    if not text.isascii():
        if _AT_HAND_CJK.search(text):
            return True
        if any(run in text for run in _RUNS):  # 跑一遍 read early, as in _AT_HAND_CJK before
            again = _checks_again(text)
        if again or _AT_HAND_MIXED.search(text) or _names_a_thing_shown(text) or _just_made(text):
            return True
        if _after_its_change(text) or _reviews_its_value(text):
            return True
    if _asks_what_it_did(text) or _picks_an_option(text) or _names_your_work(text) or _leaves_as_it_is(text):
        return True
    if _corrects_a_value(text) or _has_the_agent_check(text) or _states_without_asking(text) or _sets_a_rule(text):
        return True
    if _sets_a_standing_rule(text):
        return True
    if _checks_again(text) if again is None else again:  # once: not again on a 跑一遍 read early and not silenced
        return True
    if _carries_on(text, typed) or _asks_why(text, typed):
        return True
    return _AT_HAND.search(text) is not None


def _marked(text: str, marks: tuple[str, ...], pattern: re.Pattern[str]) -> bool:
    """Whether ``text`` holds one of ``marks`` (in lower case) and then matches ``pattern``.

    Each rule of the work at hand that needs a pattern of its own compiles it only on a prompt holding a
    word the pattern cannot match without: most warm prompts compile none of them.
    """
    folded = text.lower()
    return any(mark in folded for mark in marks) and pattern.search(text) is not None


# A correction of a thing just made (0.5.0, fifteenth pass, after set N's ne-061, "按钮颜色和品牌色不一致, 应该是
# #1A73E8"): a value stated as what it should be, 应该是 / 应该为 / 应该改成 or "should be / read / say" and a figure,
# a hex colour or a quoted value ("it should be 5433", "标题应该是「订单」"); only a thing that exists has a wrong
# value. Not a bound, which a request sets (the clause read to its comma, 。 or ;, NFKC having made
# the full-width ones ASCII) ("应该是 3 秒以内", "should be 200ms or less"). On the tuning data no
# request holds one, 2 everyday turns do. Compiled only when a prompt holds 应该 or "should".
_VALUE = r"""(?:#[0-9A-Fa-f]{3,8}\b|\d|["\u201c\u2018'\u300c])"""
_CORRECTS_A_VALUE = lazy_compile(
    rf"应该(?:是|为|改成|改为)\s*{_VALUE}(?![^,。;\n]{{0,16}}?(?:以内|以下|以上|左右|之内|之间|上下))"
    rf"|\bshould\s+(?:be|read|say)\s+{_VALUE}"
    r"(?![^,.;\n]{0,20}?\b(?:or\s+(?:less|more|fewer|under|over|below|above)|at\s+(?:most|least)|max|min)\b)",
    re.IGNORECASE,
)


_VALUE_MARKS = ("应该", "should")


def _corrects_a_value(text: str) -> bool:
    """Whether ``text`` states the value a thing at hand should have: "应该是 #1A73E8", "it should be 5433",
    "阈值是 0.85, 不是 0.8", "it's `--dry-run`."."""
    return _marked(text, _VALUE_MARKS, _CORRECTS_A_VALUE) or _marked(text, _IS_MARKS, _VALUE_IS)


# The value a thing at hand has, stated against the agent's (0.5.0, sixteenth pass, after set O's oe-061 and oe-024):
# "是 0.85, 不是 0.8" (a value, then 不是 and a value: "是 X, 不是 Y" with words, a request's brief, is not one), and
# "it's / it is" and a value closing its clause ("it's `--dry-run`."; not "it's 'not pythonic', ...", a judgement
# quoted mid-sentence). NFKC has made the full-width comma ASCII. Compiled only when a prompt holds 不是 or "it".
_IS_MARKS = ("不是", "it's", "it is", "it\u2019s")
_VALUE_IS = lazy_compile(
    rf"是\s*{_VALUE}[^,。;\n]{{0,24}},\s*(?:而)?不是\s*{_VALUE}"
    r"|\bit(?:['\u2019]s|\s+is)\s+(?:`[^`\n]{1,40}`|\d[\w.%-]*|#[0-9A-Fa-f]{3,8}\b)\s*(?:[.;]|$)",
    re.IGNORECASE | re.MULTILINE,
)


# The agent told to check its own work (sixteenth pass, after set M's me-063, "图例和线对不上 ... 你查一下是不是
# 数据排序的问题"): 你 and a verb of checking, then 一下; only what exists is checked. Not 你看一下
# ("你看一下怎么实现" may ask ahead). On the tuning data no request holds one.
_CHECK_MARKS = ("你",)
_AGENT_CHECKS = lazy_compile(r"你(?:查|检查|排查|核对|核实|确认)一下")


def _has_the_agent_check(text: str) -> bool:
    """Whether ``text`` tells the agent to check a thing at hand: "你查一下是不是数据排序的问题"."""
    return _marked(text, _CHECK_MARKS, _AGENT_CHECKS)


# A check or run of the work at hand asked again, the agent unaddressed (0.5.0, twentieth pass, after set Q's qe-057,
# "再检查一遍边界情况"): 再 and a verb of checking or running, then 一遍 / 一次 / 一轮 ("X 再过一遍", "再跑一遍测试";
# not 再 and 一下, the next step of a request's plan, "先确认名字没被占用, 再查一下配额"); a verb of running or
# checking and "again" / "one more time" / "once more" in its clause ("run the tests again"; not "ran it again", a
# request's symptom, nor "try again later", a message quoted), "tests again?", "double-check" a thing named by "the",
# "that" or "it", and "rerun" told ("and rerun", "can you rerun"; not "a prompt I can rerun"). Only what exists is
# checked again, and such a turn names no new deliverable. On the tuning data no request holds one. 跑一遍 / 跑一次
# (a run of the work at hand, read in `_AT_HAND_CJK` since the fourth pass) is read beside it since the twenty-second
# (`_RUNS`), so a request that asks for a new thing and then a run of it ("帮我写一个迁移脚本, 然后跑一遍测试") is not
# silenced.
_AGAIN_MARKS = ("再", "跑一", "again", "one more time", "once more", "double", "rerun", "re-run")
_CHECKS_AGAIN = lazy_compile(
    r"再次?\s*(?:检查|排查|查|核对|核实|过|跑|测|试|审|验证|确认|看|运行|执行)\s*(?:一遍|一次|一轮|遍)"
    r"|\b(?:run|check|test|try|verify|build|lint|go\s+over|look\s+(?:at|over))\b[^.?!;\n]{0,40}?"
    r"\b(?:again|one\s+more\s+time|once\s+more)\b(?!\s+later)"
    r"|\b(?:tests?|lint|build|checks?|CI)\s+again\b|\bdouble[- ]?check\s+(?:that|it|this|these|those|the|again)\b"
    r"|(?:^|[,;:]\s*|\b(?:and|then|please|just|now|you)\s+)re-?run\b",
    re.IGNORECASE | re.MULTILINE,
)


# The check asked again is the ask itself (0.5.0, twenty-second pass, after hostile7's "Extract the tables from
# quarterly.pdf into CSV, then double-check the totals", "帮我写一个数据库迁移脚本, 然后再跑一遍测试"): it opens
# the prompt, after fillers and the agent addressed ("ok now run it again", "can you double-check that?",
# "你自己再检查一遍"; NFKC has made the full-width punctuation ASCII, not 。), or no clause outside it is led by a
# verb of making a new thing (write, build, create, generate, extract, convert, set up, draft, design, implement,
# scaffold, make a; 写 / 做 / 搞 / 建 / 搭 / 画 / 出 / 开发 / 设计 and a measure word, 生成 / 创建 / 新建 / 起草 not
# before 的). A request that asks for a new thing and adds a check of it asks for the thing: "Write a pre-commit
# hook that will double-check the commit message format" names no work at hand. Not "add" or 加 ("加上详细输出再跑
# 一次" adds to what exists), nor "fix", "strip", "load", "deploy", which act on it. On the tuning data this
# changes no reading: the 19 turns the twentieth pass silenced all open on the check or make nothing new.
# Read with str methods, and the pattern of making compiled only on a prompt holding one of its words: compiled on
# every check found, the two patterns cost a warm route of a short turn at hand 4 to 8 % of its instructions.
_OPENING_FILLERS = (  # a longer word before the shorter it begins with ("okay", "ok")
    "go ahead and", "can you", "could you", "would you", "will you", "yourself", "alright", "please", "okay",
    "right", "then", "just", "now", "and", "pls", "you", "ok", "so", "你自己", "好的", "麻烦", "好", "嗯", "那", "行",
    "你", "请",
)  # fmt: skip
_SKIPPED = " \t\n,.!:;\u3002"  # NFKC has made the full-width punctuation ASCII, not 。
_MAKING_MARKS = (
    "write", "build", "create", "generate", "extract", "convert", "set", "draft", "design", "implement", "scaffold",
    "make", "写", "做", "搞", "建", "搭", "画", "出", "生成", "创建", "新建", "开发", "设计", "起草", "实现",
)  # fmt: skip
_MAKING = lazy_compile(
    r"(?:^|[,.;:!?\n]\s*|\b(?:and|then|also|please|pls|just|first|now|so|you|me|us|to|let['\u2019]?s)\s+)"
    r"(?:write|build|create|generate|extract|convert|set\s+up|draft|design|implement|scaffold|make\s+(?:a|an|me|us|new)"
    r")\b"
    r"|(?:写|做|搞|建|搭|画|出|生成|创建|新建|开发|设计|起草|实现)(?:一个|一份|一套|一张|一篇|一版|一段|个|份|套|张|篇)"
    r"|(?:生成|创建|新建|起草)(?!的)",
    re.IGNORECASE | re.MULTILINE,
)
_RUNS = ("跑一遍", "跑一次")


def _checks_again(text: str) -> bool:
    """Whether ``text`` asks a check or run of the work at hand again, and that is its whole ask: "再检查一遍边界情况",
    "run the tests again"; not "Generate a changelog and double-check the version numbers"."""
    if not any(mark in text.lower() for mark in _AGAIN_MARKS):
        return False
    runs = [at for at in (text.find(run) for run in _RUNS) if at != -1]
    if runs:  # 跑一遍 / 跑一次 (再 or not), found without the pattern
        start = min(runs)
        start, end = (start - 1 if text[start - 1 : start] == "再" else start), start + 3
    else:
        found = _CHECKS_AGAIN.search(text)
        if found is None:
            return False
        start, end = found.span()
    if _opens(text[:start].lower()):
        return True  # the check opens the prompt
    rest = text[:start] + "\n" + text[end:]  # the verb of making is another clause's, not the check's own
    return not _marked(rest, _MAKING_MARKS, _MAKING)


# The task carried on to its next case (0.5.0, twenty-second pass, after set R's re-019, re-088 and re-091; narrowed
# after hostile9): a back-reference to something done in the session, in a clause that opens, after fillers, on
# "same" and a thing done ("same fix in the staging module", "same thing but for the header"), or on "same for X"
# as the whole clause ("same for the footer."); on a verb told and "the same" before its next case ("do the same for
# the other file"), or "the same" and a thing done within four words ("Apply the same margin and font fix to the
# credit note"); or a clause ending on "the same way" that names no "every / all / each / both" (a rule's
# uniformity, "Configure ESLint in every package the same way.", not a back-reference; nor "go the same way", a
# fate). Not "the same" and a thing of the request's own ("Run the same test suite on Windows, macOS and Linux",
# "Same day delivery for a Shopify store", "Keep the same API contract in the v2 rewrite": hostile9), nor a verb
# in -ing ("running the same JQL for", a request's routine), nor after a label's colon ("today: same for Telegram",
# set M's m1-010). In Chinese 也 and a back-reference: 也按 / 也照 and 同样 / 这样 / 这个 / 一样 ("settings 页面也按
# 同样的 color token 改一下"), 也这样 / 也一样 and a verb of changing, 也加上 / 也补上 and 同样 / 一样 / 类似的, or
# 也加上 / 也补上 / 也改一下 closing the clause, its object the topic before ("order service 和 inventory service
# 也加上,"). Not 照着 (a request's model: "照着这份 JD 改一下我的简历"), nor "the exact same thing for", set Q's
# request style. NFKC has made the full-width comma ASCII. Three patterns, each compiled only on a prompt holding
# its own marks ("same"; "same" and "way"; 也 and its next word) (docs/notes/route.md, tidy3).
_DONE = r"(?:thing|fix|change|treatment|edit|tweak)(?:e?s)?"  # a thing done in the session, named as such
_CARRIES_ON = lazy_compile(
    r"(?:^|[.!?;,\n]\s*)(?:(?:now|ok|okay|and|then|also|please|pls|just|so|great|cool|nice|perfect)\b[,!.]?\s+)*"
    rf"(?:(?:the\s+)?same\s+{_DONE}(?:\s+but)?\s+(?:for|to|in|on)\b"
    r"|(?:the\s+)?same\s+(?:for|to|in|on)(?:[ \t]+[\w'./-]+){1,5}[ \t]*(?:[.!?;,]|$)"
    rf"|(?![a-z]{{3,}}ing\b)[a-z]+\s+the\s+same(?:(?:\s+[\w-]+){{0,3}}?\s+{_DONE})?\s+(?:for|to|in|on)\b)",
    re.IGNORECASE | re.MULTILINE,
)
_SAME_WAY = lazy_compile(
    r"(?<!\bgo\s)(?<!\bwent\s)(?<!\bgone\s)\bthe\s+same\s+way\s*(?:[,.;!]|$)", re.IGNORECASE | re.MULTILINE
)
_EVERY = frozenset(("every", "all", "each", "both"))  # a rule's uniformity, read as words (no pattern to compile)
_CARRY_MARKS_CJK = ("也按", "也照", "也这样", "也一样", "也加", "也补", "也改")
_CARRIES_ON_CJK = lazy_compile(
    r"也(?:按|照)(?:同样|这样|这个|一样)|也(?:这样|一样)(?:改|修|处理|弄|做|搞|加)|也(?:加上|加个|补上)(?:同样|一样|类似)的"
    r"|也(?:加上|补上|补一下|改一下|改下|加一下)\s*(?:[,.;!?。\n]|$)",
    re.MULTILINE,
)


def _carries_on(text: str, typed: str) -> bool:
    """Whether ``text`` carries the task on to its next case, and that is its whole ask: "do the same for the other
    file", "settings 页面也按同样的 color token 改一下", "order service 和 inventory service 也加上"; not a first turn
    whose later clause carries its own ask on ("I want: the pill slides over ... Same treatment for the signup
    button")."""
    start = _carry_on_clause(text)
    if start is None:
        return False
    # the clause opens the prompt, or no other clause asks for a new thing
    return _opens(text[:start].lower()) or not _others_ask_new(text, start, _clause_end(text, start + 1), typed)


def _carry_on_clause(text: str) -> int | None:
    """Where the clause of ``text`` that carries the task on starts (its stop or comma before), or None."""
    folded = text.lower()
    if "same" in folded:
        found = _CARRIES_ON.search(text)
        if found is not None:
            return found.start()
        if "way" in folded and (start := _same_way(text)) is not None:
            return start
    if not any(mark in folded for mark in _CARRY_MARKS_CJK):
        return None
    found = _CARRIES_ON_CJK.search(text)
    if found is None:
        return None
    return max(text.rfind(end, 0, found.start()) for end in ",.!?;:\n\u3002") + 1


def _same_way(text: str) -> int | None:
    """Where the clause of ``text`` starts that ends on "the same way" and names no "every / all / each / both"."""
    for found in _SAME_WAY.finditer(text):
        start = max(text.rfind(end, 0, found.start()) for end in ".!?;\n") + 1
        if _EVERY.isdisjoint(re.split(r"\W+", text[start : found.start()].lower())):
            return start
    return None


# A clause that asks for something new (0.5.0, twenty-second pass narrowed again, after set S's s1-020, "... I want:
# the pill slides over ... Same treatment for the signup button"): one led by a verb of making (`_MAKING`), or the
# user's wants stated, "I want:" / "we need a" / "I'd like to" (a colon, an article or "to" after the verb: "I need
# it before the deploy" states no new thing), 我想要 / 我们需要 / 我希望. A turn carrying the session's task on, or
# asking why, asks for nothing new beside it. Compiled only on the marks.
_WANT_MARKS = ("want", "need", "like", "想要", "需要", "希望")
_WANTS = lazy_compile(
    r"\b(?:I|we)(?:\s+(?:really|also|just|would)|['\u2019]d)?\s+(?:want|need|like)(?:\s*:|\s+(?:a|an|to|some)\b)"
    r"|我们?(?:想要|需要|希望)",
    re.IGNORECASE,
)


def _others_ask_new(text: str, start: int, end: int, typed: str) -> bool:
    """Whether the clauses of ``text`` outside ``start:end`` ask for a new thing: a verb of making, or wants stated.

    Read in the prompt as ``typed`` (the clause taken out where found there): a quoted message's words are not the
    user's, but one taken out wrongly (set S's s1-020: the quote closing ``class="on"`` read as one opening a
    message, which swallowed its "I want:") leaves the request no ask of its own; a spec quoted is a request's.
    """
    at = typed.find(text[start:end])
    clauses = typed[:at] + "\n" + typed[at + end - start :] if at != -1 else text[:start] + "\n" + text[end:]
    return _marked(clauses, _MAKING_MARKS, _MAKING) or _marked(clauses, _WANT_MARKS, _WANTS)


# A question why the agent did or chose something (0.5.0, twenty-second pass, after set R's re-060, "为什么把连接池从
# 二十调到了五十?"; narrowed after hostile9): a clause that opens on 为什么 / 为啥 (你 before it or not) and 把 (a thing
# the agent moved), its clause in the past (了 / 过) or the agent named (你 in the prompt) ("为什么把 try catch 删了?"),
# and not a symptom after a change (后 / 以后 / 之后 / 反而 / 却: "为什么把 MySQL 连接池调大后 QPS 反而下降"); 为什么 /
# 为啥 and 这里 / 这儿 (a place shown: "为什么这里要加锁?", "这里为啥要 deep copy?"); "why'd you", and "why" with "here"
# or "there" before its question mark ("why a Set there?", "why 2 here?"). "did you" is `_asks_what_it_did`'s. Never
# when the prompt also asks how (how / 如何 / 怎么 / 怎样), to compare, or for a new thing (`_MAKING`): "Why use Redis
# there? Compare Redis and Memcached", "为什么把 Neon 分支用于迁移测试更安全? 如何创建 Neon 分支" ask ahead. Not "why"
# of a general topic ("why is my Postgres slow", "讲讲为什么用状态机编排"), nor 怎么把 (how to). Compiled on the marks.
_WHY_MARKS = ("为什么", "为啥", "why")
_ASKS_WHY = lazy_compile(
    r"(?:^|[.!?;:,\n]\s*)你?(?:为什么|为啥)(?:要)?(?:(把)|这里|这儿)|(?:这里|这儿)(?:为什么|为啥)"
    r"|\bwhy['\u2019]d\s+you\b|\bwhy\b[^.?!\n]{0,60}\b(?:here|there)\s*\?",
    re.IGNORECASE | re.MULTILINE,
)
_ASKS_AHEAD = lazy_compile(r"\b(?:how|compare|versus|vs)\b|如何|怎么(?!样|会|回事)|怎样|比较|对比", re.IGNORECASE)
_AHEAD_MARKS = ("how", "compare", "versus", "vs", "如何", "怎么", "怎样", "比较", "对比")


def _asks_why(text: str, typed: str) -> bool:
    """Whether ``text`` asks why the agent did or chose something: "为什么把连接池调到了五十?", "why a Set there?"; not
    when it also asks how, to compare, or for a new thing."""
    if not any(mark in text.lower() for mark in _WHY_MARKS):
        return False
    found = _ASKS_WHY.search(text)
    if found is None:
        return False
    # "why ... there?" ends its clause on its own question mark; read on from it, the next sentence was its clause
    clause_end = found.end() if text[found.end() - 1 : found.end()] == "?" else _clause_end(text, found.end())
    if found.group(1):  # 为什么把: a choice already made (了 / 过, or 你), not a symptom after a change
        clause = text[found.end() : clause_end]
        if _after_a_change(clause) or not ("你" in text or "了" in clause or "过" in clause):
            return False
    if _marked(text, _AHEAD_MARKS, _ASKS_AHEAD):
        return False
    return not _others_ask_new(text, found.start(), clause_end, typed)


def _clause_end(text: str, start: int) -> int:
    """Where the clause of ``text`` from ``start`` ends: its first stop, question mark or line break (read with str
    methods: a pattern compiled for it cost a warm route of a why question more than the reading itself)."""
    ends = [at for at in (text.find(mark, start) for mark in ".!?;。\n") if at != -1]
    return min(ends) if ends else len(text)


def _after_a_change(clause: str) -> bool:
    """Whether ``clause`` tells a symptom after a change: 调大后, 以后, 反而, 却 (not 后端, 后台)."""
    if "反而" in clause or "却" in clause:
        return True
    at = clause.find("后")
    while at != -1:
        if clause[at + 1 : at + 2] not in ("端", "台", "缀", "续", "面"):
            return True
        at = clause.find("后", at + 1)
    return False


def _opens(before: str) -> bool:
    """Whether ``before`` (lower case) holds only fillers and the agent addressed: "ok now ", "can you ", "你自己"."""
    while before := before.lstrip(_SKIPPED):
        filler = next((word for word in _OPENING_FILLERS if before.startswith(word)), None)
        if filler is None or (filler.isascii() and before[len(filler) : len(filler) + 1].isalnum()):
            return False
        before = before[len(filler) :]
    return True


# A turn that asks nothing and states a plan or settles a value (sixteenth pass, after set M's me-062, "计划是这样:
# 今天把支付回调的幂等处理做完, 周四联调 ...", and set O's oe-060, "... 基础镜像是 node:20-alpine, 保持一致就行。"): a
# plan stated (计划是, 安排是, "the plan is"), or a last sentence that says what suffices (就行, 就好, 即可), in a
# prompt none of whose sentences asks (search/asks.py): it answers the agent or tells it the state of the work. A
# request that states its plan asks for something too ("我打算这样 ... 帮我看看"). Compiled only on the marks.
_STATED_MARKS = ("计划是", "安排是", "the plan is", "就行", "就好", "即可")
_STATED = lazy_compile(r"计划是|安排是|\bthe\s+plan\s+is\b|(?:就行|就好|即可)\W*$", re.IGNORECASE)


def _states_without_asking(text: str) -> bool:
    """Whether ``text`` states a plan, or what suffices, and none of its sentences asks."""
    if not _marked(text.rstrip(), _STATED_MARKS, _STATED):
        return False
    from skillmem_hook.search.asks import asks, sentences  # noqa: PLC0415 - a prompt naming its skill needs no search

    return not any(asks(sentence) for sentence in sentences(text))


# A rule of how the agent works here, and no ask (0.5.0, twenty-sixth pass, after set U's ue-062, "我们这边统一用
# Python 3.11, 别用 3.12 才有的写法。另外依赖请用 `uv add` 加, 不要手动改 `pyproject.toml`。"): a tool or a way told
# as the one to use or not (统一用, 一律用, 请用, 别用, 不要用; "always / please use", "don't / never use", "we use",
# "stick to"), in every sentence of a prompt, none of which asks (search/asks.py): it sets the session's conventions,
# it asks for no new thing. A request that states its rules says more, or asks ("测试组要统一用 robotframework ...
# 帮忙写几个用例"; set O's o2-007, "... 想請你幫我寫一份設定檔 ..., 不要用 latest", which asks.py, reading simplified
# Chinese, does not hear ask). Not 只用 / "only use", a request's spec ("整站只用一个蓝色", set K's k2-018).
# Compiled only on the marks.
_RULE_MARKS = ("统一用", "一律用", "请用", "别用", "不要用", "use", "stick")
_SETS_A_RULE = lazy_compile(
    r"(?:统一|一律|请|别|不要)用|\b(?:always|please|never|don['\u2019]?t|do\s+not|we)\s+use\b"
    r"|\bstick\s+(?:to|with)\b",
    re.IGNORECASE,
)


def _sets_a_rule(text: str) -> bool:
    """Whether ``text`` tells the tool or way to use here, and none of its sentences asks: "统一用 Python 3.11, 别用
    3.12 才有的写法", "we use poetry here, not pip"."""
    if not _marked(text, _RULE_MARKS, _SETS_A_RULE):
        return False
    from skillmem_hook.search.asks import asks, sentences  # noqa: PLC0415 - a prompt naming its skill needs no search

    return all(_SETS_A_RULE.search(sentence) and not asks(sentence) for sentence in sentences(text))


# A standing instruction: how the agent works from now on (0.5.0, twenty-seventh pass, after set V's ve-016, "From
# now on make small commits with conventional commit messages ... Don't squash anything and don't push.", and ve-088,
# "以后写 test 的时候用 pytest 的 fixture, 不要每个 case 里都手动 setup 一遍。mock 也尽量少用 ..."): a prompt that
# opens (after fillers, `_opens`) on "from now on", "going forward", "moving forward", "from here on (out)", "for the
# rest of this session", "henceforth", 以后 (not 以后的, a time's thing), 今后, 往后, 从今以后, 从现在开始 / 起, or
# whose first clause ends on the English mark ("Use pnpm from now on."). The clause the mark opens or closes (or,
# the mark alone in its clause, "From now on,", the next one) is the rule; no other clause asks (search/asks.py),
# and no sentence is a question: "From now on we use pnpm; please migrate the web app to it" asks for real new work.
# Not 下次 / "next time" ("下次开会前帮我准备 ..." plans one event), nor "in the future" ("in the future we may need
# X, design for it"). Mid-prompt a mark is a request's own ("以后每季度都要做, 能不能写个程序", set F's f2-015):
# on the tuning data every request that holds one holds it mid-prompt. Compiled only on the marks.
_STANDING_MARKS = ("from now", "forward", "from here on", "rest of th", "henceforth", "以后", "今后", "往后", "从现在")
_STANDING = lazy_compile(
    r"\b(?:from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out)?|henceforth"
    r"|for\s+the\s+rest\s+of\s+(?:this|the)\s+(?:session|conversation|chat))\b"
    r"|(?:从今以后|从今往后|以后(?!的)|今后|往后|从现在(?:开始|起))",
    re.IGNORECASE,
)
# A clause ends at a comma, a semicolon, a stop (before a space: "3.11" and "Next.js" stay whole), an exclamation or
# question mark, a colon or a line break; NFKC has made the full-width ones ASCII, not 。 or 、.
_CLAUSE_END = re.compile(r"[,;!?:\n\u3002]|\.(?=\s|$)")
# A calendar's repeat after the mark is a scheduled chore to set up ("以后每周一都帮我把 Jira 工单汇总成周报", "from
# now on, every Monday send me ..."), a task, where "以后每次提交前都跑测试" is how to work.
_CALENDAR = lazy_compile(
    r"\b(?:every\s+(?:day|night|morning|evening|week|month|quarter|year|weekday|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"|daily|nightly|weekly|monthly|quarterly|yearly)\b|每(?:天|日|晚|早|周|星期|礼拜|个?月|季度?|年)",
    re.IGNORECASE,
)


def _sets_a_standing_rule(text: str) -> bool:
    """Whether ``text`` sets how the agent works from now on and asks for nothing else: "From now on make small
    commits ... Don't push.", "以后写 test 的时候用 pytest 的 fixture, 不要 ..."."""
    folded = text.lower()
    if not any(mark in folded for mark in _STANDING_MARKS) or "?" in text:
        return False
    clauses = [clause.strip() for clause in _CLAUSE_END.split(text) if clause.strip()]
    found = _STANDING.search(clauses[0]) if clauses else None
    if found is None:
        return False
    if _opens(folded[: found.start()]):
        rule = 0 if clauses[0][found.end() :].strip() else 1  # "From now on," alone: the next clause is the rule
    elif found.group().isascii() and not clauses[0][found.end() :].strip():
        rule = 0  # "Use pnpm from now on."
    else:
        return False
    if _CALENDAR.search(text):
        return False
    from skillmem_hook.search.asks import asks  # noqa: PLC0415 - a prompt naming its skill needs no search

    return not any(asks(clause) for at, clause in enumerate(clauses) if at != rule)


# A report of what broke after the agent's change (0.5.0, twenty-sixth pass, after set U's ue-046, "你推上去以后
# GitHub Actions 又红了", and ue-070, "合并以后编译不过了"): 你 and a verb of changing, then 以后 / 之后 ("你推上去
# 以后", "你上次改完之后"; not "你帮我部署之后", a plan), or a prompt that opens, after fillers, on a change and 以后 /
# 之后 ("改完以后", "合并以后", "上线以后") and asks nothing ahead (not "上线以后怎么回滚"). Mid-sentence a change is a
# request's own workflow ("合并后集群自动同步", set C's dev-xl-020). English says it as "since your change" or "after
# you pushed", read already (`_AT_HAND`). Compiled only on the marks.
_AFTER_MARKS = ("以后", "之后")
_AFTER_ITS_CHANGE = lazy_compile(
    r"你(?:上次|刚才|刚刚|刚|这次)?(?:推|提交|合|改|部署|上线|发布|升级|重构|更新|删|加|换|动)[^\s,.!?;:]{0,3}?(?:以后|之后)"
)
_OPENS_AFTER_A_CHANGE = lazy_compile(r"(?:推上去|合并|合进去|改完|部署|上线|发布|升级)(?:了|完)?(?:以后|之后)")


def _after_its_change(text: str) -> bool:
    """Whether ``text`` tells what happened after the agent's change: "你推上去以后 GitHub Actions 又红了"."""
    if not any(mark in text for mark in _AFTER_MARKS):
        return False
    if _AFTER_ITS_CHANGE.search(text) is not None:
        return True
    found = _OPENS_AFTER_A_CHANGE.search(text)
    return found is not None and _opens(text[: found.start()].lower()) and not _marked(text, _AHEAD_MARKS, _ASKS_AHEAD)


# A value the agent wrote, reviewed (0.5.0, twenty-sixth pass, after set U's ue-067, "`retry` 的上限你写成了 10
# 次 ... 改成最多 5 次"): 你 and a verb of setting, then 成了 ("你写成了", "你设成了", "你配成了"; "你改成了" is
# `_AT_HAND_CJK`'s 你改). Only a thing that exists was set so. No English form on the tuning data: "you set it
# to" reads as often as an ask ("can you set it up"), and no tuning turn says it. Compiled only on 成了.
_REVIEWS_ITS_VALUE = lazy_compile(r"你(?:写|设|设置|配|配置|调|定|填|弄|做)成了")


def _reviews_its_value(text: str) -> bool:
    """Whether ``text`` reviews a value the agent set: "上限你写成了 10 次"."""
    return "成了" in text and _REVIEWS_ITS_VALUE.search(text) is not None


# "your" and any noun of the work at hand: the agent's own work (0.5.0, twelfth pass, after set K's ke-064, "after
# applying your manifest"; before it, `_AT_HAND`'s list of its own). Compiled only when a prompt holds "your": in
# `_AT_HAND`, compiled by every warm route, it cost a long prompt 0.9 % of its instructions.
_YOUR_WORK = lazy_compile(rf"\byour\s+{_AT_HAND_NOUNS}\b", re.IGNORECASE)


def _names_your_work(text: str) -> bool:
    """Whether ``text`` names the agent's work as "your" and a noun of the work at hand ("your manifest")."""
    return _marked(text, ("your",), _YOUR_WORK)


# An order to leave a thing as it is (0.5.0, thirteenth pass, after set L's le-031, "Leave the HTML as it is, just
# change the subject line"): only what exists can be left alone, so the turn is about the work at hand. "leave / keep
# ... as it is / as is / as they are", "leave ... alone" (not "keep ... alone"), "don't touch"; in Chinese the
# order's own words, "别动", "不要碰", "先别动" (not "先不动": set J's j2-027, a request, leaves its emails' bodies
# so; nor "卡住不动", "看不动"). Compiled only when a prompt holds one of the marks.
_LEAVE_MARKS = (" as is", " as it is", " as they are", " alone", "touch", "别动", "别碰", "不要动", "不要碰")
_LEAVES_AS_IT_IS = lazy_compile(
    r"\bleave\s+(?:[\w'-]+\s+){1,4}?(?:as\s+(?:it\s+is|is|they\s+are)|alone)\b"
    r"|\bkeep\s+(?:[\w'-]+\s+){1,4}?as\s+(?:it\s+is|is|they\s+are)\b|\bdon['\u2019]?t\s+touch\b"
    r"|(?<![特区分告级类性识差个])(?:别|不要)(?:碰|动)(?!不动|画|态|作|力|手|词|人)",
    re.IGNORECASE,
)


def _leaves_as_it_is(text: str) -> bool:
    """Whether ``text`` orders a thing left as it is: "leave the HTML as it is", "don't touch the lockfile", "别动"."""
    return _marked(text, _LEAVE_MARKS, _LEAVES_AS_IT_IS)


# A thing just made, named so with no one named as its maker (0.5.0, nineteenth pass, after set P's pe-091, "刚写的
# landing page copy 太 salesy 了"): 刚 (刚才, 刚刚) and a verb of making, then 的, opening a clause or after 把 or 你
# ("把刚加的那段删掉"); in a session the maker left unsaid is the agent. Not after a maker named ("我刚写的论文",
# "开发刚写的代码": the user's or a colleague's work, which a request brings), nor 刚出的 / 刚发的 (a release).
# NFKC has made the full-width comma ASCII. On the tuning data no request holds one, 9 everyday turns do.
# Compiled only when a prompt holds 刚.
_JUST_MADE = lazy_compile(
    r"(?:^|(?<=[\s,.!?;:。、把你]))(?:刚才|刚刚|刚)(?:写|加|改|生成|做|画|输出|导出|整理|翻译|起草|给)(?:好|完|出来)?的",
    re.MULTILINE,
)


def _just_made(text: str) -> bool:
    """Whether ``text`` names a thing just made, its maker unsaid: "刚写的 landing page copy", "把刚加的那段删掉"."""
    return _marked(text, ("刚",), _JUST_MADE)


# A thing shown, named by 这个 / 那个 and what it is like (0.5.0, thirteenth pass, after set L's le-030,
# "把工具目录里那个三百多行的文件拆一下"): `_AT_HAND_CJK` reads the noun right after 这个 / 那个, this reads it after
# a Chinese modifier ending in 的; no space, Latin letter, digit or punctuation in the modifier (NFKC has made the
# full-width ones ASCII; "这个 Rust 写的日志库" is a product, set H's h2-027), and no 这些 ("Button/Input/Card
# 这些做成带变体的组件" is a list, set D's d2-023). Compiled only when a prompt holds 的 and one of 这个, 那个,
# 这段, 那段: a Chinese prompt of 的 alone compiled it at a cost of 0.5 % of its instructions.
_THING_SHOWN = lazy_compile(
    r"(?:这|那)(?:个|段)[^\sA-Za-z0-9,.!?;:。、]{1,10}?的(?:函数|文件|接口|报错|错误|测试|脚本|变量|类|组件|方法|循环"
    r"|正则|部署|服务|页面|按钮|字段|表|查询|配置|镜像|分支|提交|模块|用例|日志|修复|改动|逻辑|代码|实现)(?!库|包|框架|工具)"
)


_SHOWN_MARKS = ("这个", "那个", "这段", "那段")


def _names_a_thing_shown(text: str) -> bool:
    """Whether ``text`` names a thing at hand as 这个 / 那个, a modifier and its noun ("那个三百多行的文件")."""
    return "的" in text and _marked(text, _SHOWN_MARKS, _THING_SHOWN)


# A choice among the options the agent just gave (0.5.0, ninth pass, after set J's je-027): "go with option 2", "option
# B", "the second one" opening a clause or after a verb of choosing ("go with the queue-based one"; not "draft the
# first one", set G's g3-022, a request), "方案二", "选第二个", "第二种吧". Compiled only when a prompt holds one of
# the marks, so most warm prompts compile nothing.
_OPTION_MARKS = ("option", " one", "方案", "第")
_PICKS_AN_OPTION = lazy_compile(
    r"\boption\s+(?:\d|[a-d]\b|one|two|three|four)"
    r"|(?:^|[,;:!?]\s*|\b(?:with|pick|take|choose|prefer|like|go\s+for)\s+)the\s+(?:first|second|third|fourth|last"
    r"|latter|former|other|\w+-\w+)\s+one\b(?!\s+(?:of|who|that|which)\b)"
    r"|方案\s*(?:\d|[一二三四五A-Da-d])|(?:选|用|就|按)第\s*(?:\d|[一二三四五])\s*(?:个|种)|第\s*(?:\d|[一二三四五])\s*(?:个|种)吧",
    re.IGNORECASE,
)


def _picks_an_option(text: str) -> bool:
    """Whether ``text`` picks one of the options the agent offered: a turn about the session, not a request."""
    return _marked(text, _OPTION_MARKS, _PICKS_AN_OPTION)


# A question on what the agent did (0.5.0, seventh pass, after set I's ie-015): "why did you add ...", "did you run
# the tests?", "have you run ..." ("have you changed" is `_AT_HAND`'s "you changed"); "have you migrate our docs" (have
# the agent do it) asks ahead. Read with str methods: one more alternative in `_AT_HAND`, compiled by every warm
# route, cost it more than the rest of the pass.
_ASKED_BACK = ("did you ", "have you done", "have you seen", "have you run")


def _asks_what_it_did(text: str) -> bool:
    """Whether ``text`` asks what the agent did: "did you" and a word, or "have you done / seen / run"."""
    folded = text.lower()
    for phrase in _ASKED_BACK:
        start = folded.find(phrase)
        while start != -1:
            before, after = folded[start - 1 : start] if start else " ", folded[start + len(phrase) :][:1]
            word_follows = phrase.endswith(" ")  # "did you " needs its verb; "have you run" must end a word
            if not before.isalpha() and after.isalpha() == word_follows:
                return True
            start = folded.find(phrase, start + 1)
    return False


def _pastes_output(text: str) -> bool:
    """Whether a line of ``text`` is output as printed (``_PASTED_OUTPUT``); the pattern is compiled only when a
    line opens with a character such a line opens with, so most warm prompts compile nothing."""
    if _OUTPUT_STARTS.isdisjoint(line[:1] for line in text.split("\n")):
        return False
    return _PASTED_OUTPUT.search(text) is not None


# A command's table pasted as printed (0.5.0, twelfth pass, after set K's ke-064: `kubectl get pods` without a fence):
# two lines in a row, each of TABLE_COLUMNS fields or more set apart by two spaces or more, whose fields start in
# TABLE_COLUMNS of the same columns. Prose is not laid out so; `kubectl get`, `docker ps` and `go test`'s summary are.
# Read as the work at hand, not as a paste left out of what is scored: so read, set F's f3-036 (a figures table,
# then its ask) fired a wrong hint (docs/notes/route.md).
TABLE_COLUMNS = 3


def prints_a_table(text: str) -> bool:
    """Whether ``text`` holds a table as a command prints it: two lines in a row whose fields start in the same
    columns."""
    if "  " not in text:
        return False
    above: set[int] = set()
    for line in text.split("\n"):
        starts = _field_starts(line)
        if len(above & starts) >= TABLE_COLUMNS:
            return True
        above = starts
    return False


def _field_starts(line: str) -> set[int]:
    """The columns where ``line``'s fields start, fields set apart by two spaces or more; none for fewer than
    TABLE_COLUMNS fields (a sentence is one field, a key and its value two)."""
    starts: set[int] = set()
    at = 0
    for part in line.split("  "):
        if part.strip():
            starts.add(at + len(part) - len(part.lstrip()))
        at += len(part) + 2
    return starts if len(starts) >= TABLE_COLUMNS else set()
