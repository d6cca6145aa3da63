"""How the agent works here: a plan or what suffices stated, a rule of the tools to use, a standing instruction from
now on, a go-ahead or a hold on the agent's next step, a thing to leave as it is. Pure: text in, a yes or no out.
"""

from __future__ import annotations

import re

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.clauses import _makes_a_thing, _makes_new, _marked, _opens

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


# A standing instruction: how the agent works from now on (0.5.0, twenty-seventh pass, after set V's ve-016, "From now
# on make small commits with conventional commit messages ... Don't squash anything and don't push.", and ve-088,
# "以后写 test 的时候用 pytest 的 fixture, 不要每个 case 里都手动 setup 一遍。mock 也尽量少用 ..."): a prompt that opens
# (after fillers, `_opens`) on "from now on", "going forward", "moving forward", "from here on (out)", "for the rest of
# this session", "henceforth", 以后 (not 以后的, a time's thing), 今后, 往后, 从今以后, 从现在开始 / 起, or whose first
# clause ends on the English mark ("Use pnpm from now on."). The clause the mark opens or closes (or, the mark alone in
# its clause, "From now on,", the next one) is the rule; no other clause asks for new work (search/asks.py, then
# ``_asks_new``), and no sentence is a question: "From now on we use pnpm; please migrate the web app to it" asks for
# real new work. Not 下次 / "next time" ("下次开会前帮我准备 ..." plans one event), nor "in the future" ("in the future
# we may need X, design for it"). Mid-prompt a mark is a request's own ("以后每季度都要做, 能不能写个程序", set F's
# f2-015): on the tuning data every request that holds one holds it mid-prompt. Compiled only on the marks. Widened
# (thirty-sixth pass) to the common ways of saying it, not to a set's wording: "from now onwards", "from this point on /
# forward", "from here onwards", "for the rest / remainder of this session / conversation / chat / task", 此后, 从今天起
# / 开始, 接下来都 / 一律 / 统一 / 所有 / (这个)会话里 (接下来 alone is the next step, "接下来帮我 ...").
_STANDING_MARKS = (
    "from now", "forward", "from here on", "from this point", "rest of th", "remainder of th", "henceforth",
    "以后", "今后", "往后", "从现在", "此后", "从今天", "接下来", "everything in", "anything in", "all in", "work in",
)  # fmt: skip
_STANDING = lazy_compile(
    r"\b(?:from\s+now\s+on(?:wards?)?|going\s+forward|moving\s+forward|from\s+here\s+on(?:\s+out|wards?)?"
    r"|from\s+this\s+point\s+(?:on(?:wards?)?|forward)|henceforth"
    r"|for\s+the\s+(?:rest|remainder)\s+of\s+(?:this|the)\s+(?:session|conversation|chat|task|project))\b"
    r"|(?:从今以后|从今往后|以后(?!的)|今后|往后|此后|从现在(?:开始|起)|从今天(?:开始|起)|接下来(?:都|一律|统一|所有|的?(?:这个)?会话里))"
    # The session's scope (0.5.0, thirty-ninth pass, after set AB's abe-023, "Please stay on `feature/rate-limit` for
    # everything in this task"): "for everything / anything / all (the work) in this task / session".
    r"|\bfor\s+(?:everything|anything|all(?:\s+(?:of\s+)?the\s+work)?)\s+in\s+"
    r"(?:this|the)\s+(?:session|conversation|chat|task)\b",
    re.IGNORECASE,
)
# A rule with no opener (thirty-ninth pass, after set AC's ace-087, "后面所有 landing page 的文案都别用 ..."; since
# mend3 only of later work, review3's 1a: "Each microservice needs to have a multi-stage Dockerfile ..." and "所有的接口
# 文档都要用 OpenAPI 3.1 规范重新生成" are requests): a class of later work and what it should, must or never does,
# opening the prompt as its first clause: "All new endpoints should ...", "Every future migration must ...", "Any
# page from here on has to ..."; 后面 / 以后的 / 今后的 / 之后的 (所有) ..., 所有 / 每个 / 任何 新 ... 都要 / 都别 /
# 一律 / 必须. Its own predicate makes nothing now (`_makes_a_thing`: "后面所有接口文档都要重新生成" is work); what each
# later thing has may be added to it ("后面所有接口都要加上请求日志", "All new endpoints must add a request id").
# Compiled only when the prompt holds a class word, a later mark and a modal.
_CLASS_WORDS = ("all ", "every ", "any ", "each ", "后面", "以后", "今后", "之后", "往后", "所有", "每个", "任何")
_LATER_MARKS = ("new ", "future ", "later ", "upcoming ", "subsequent ", "from here", "from now", "后", "新")
_MODAL_MARKS = ("should", "must", "need", "has to", "have to", "都要", "都得", "都别", "都不要", "都用", "一律", "必须")
_MODAL = r"(?:should|must|needs?\s+to|has\s+to|have\s+to)\b"
_LATER_RULE = lazy_compile(
    r"\b(?:all|every|any|each)\s+(?:(?:of\s+)?(?:the|our)\s+)?(?:new|future|later|upcoming|subsequent)\s+"
    rf"(?:[\w-]+\s+){{0,3}}?{_MODAL}"
    rf"|\b(?:all|every|any|each)\s+(?:[\w-]+\s+){{1,4}}?from\s+(?:here|now)(?:\s+on)?\s+{_MODAL}"
    r"|(?:(?:后面|以后|今后|之后|往后)的?|(?:所有|每个|任何)的?新)[^,.;!?:\n\u3002]{0,30}?"
    r"(?:都要|都得|都别|都不要|都用|一律|必须)",
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
    commits ... Don't push.", "以后写 test 的时候用 pytest 的 fixture, 不要 ...", "All new endpoints should ..."."""
    folded = text.lower()
    opener = any(mark in folded for mark in _STANDING_MARKS)
    if "?" in text or not (opener or _may_rule_later_work(folded)):
        return False
    clauses = [clause.strip() for clause in _CLAUSE_END.split(text) if clause.strip()]
    rule = _standing_rule(clauses[0], folded) if opener and clauses else None
    if rule is None and clauses and _may_rule_later_work(clauses[0].lower()):
        rule = _rule_of_later_work(clauses[0])
    if rule is None:
        return False
    if _CALENDAR.search("\n".join(clauses[: rule + 1])):  # the rule's own (not an example after it: "每周省 3 小时")
        return False
    from skillmem_hook.search.asks import asks  # noqa: PLC0415 - a prompt naming its skill needs no search

    # A Chinese clause of new work may ask without a mark asks() hears ("从现在开始用 pnpm。给 API 服务加一个 Redis
    # 缓存层。", review2's C3 in Chinese, thirty-ninth pass): read for new work whether or not it asks.
    return not any(
        (asks(clause) or not clause.isascii()) and _asks_new(clause) for at, clause in enumerate(clauses) if at != rule
    )


def _standing_rule(first: str, folded: str) -> int | None:
    """Which clause is the rule a standing mark sets, when ``first`` (the prompt's first clause) opens on the mark
    or ends on the English one: 0, or 1 after a mark alone ("From now on,"); None when it does neither."""
    found = _STANDING.search(first)
    if found is None:
        return None
    if _opens(folded[: found.start()]):
        return 0 if first[found.end() :].strip() else 1  # "From now on," alone: the next clause is the rule
    if found.group().isascii() and not first[found.end() :].strip():
        return 0  # "Use pnpm from now on."
    return None


def _may_rule_later_work(folded: str) -> bool:
    """Whether ``folded`` (lower case) holds a class word, a mark of later work and a modal, as `_LATER_RULE` needs."""
    return (
        any(word in folded for word in _CLASS_WORDS)
        and any(mark in folded for mark in _LATER_MARKS)
        and any(mark in folded for mark in _MODAL_MARKS)
    )


def _rule_of_later_work(first: str) -> int | None:
    """0 when ``first`` (the prompt's first clause) opens on a class of later work and what it should or must do,
    and that makes nothing now ("后面所有接口文档都要重新生成" makes them); else None."""
    found = _LATER_RULE.search(first)
    if found is None or not _opens(first[: found.start()].lower()) or _makes_a_thing(first[found.end() :]):
        return None
    return 0


# Beside a standing instruction a bare imperative is another rule of it (0.5.0, thirty-sixth pass, after set AA's
# aae-059, "从现在开始, 所有改动都在 `feature/cache-layer` 分支上做 ... 提交说明用中文写, 说清楚改了什么。跑任何
# 数据库相关的命令之前先问我。": "say clearly what changed" is how to write the commit message). A clause asks for new
# work when it addresses the agent for it (please, can / could / would you, 帮, 给我, 请, 麻烦) or asks for a new
# thing (`_makes_new`: made, wanted, migrated, added; review2's C3, "From now on we use pnpm. Add a Redis cache
# layer ..."): "From now on we use pnpm; please migrate the web app to it", "Going forward we deploy with Helm. Write
# the chart".
_ADDRESSED_MARKS = ("please", "you", "帮", "给我", "请", "麻烦")
_ADDRESSED = lazy_compile(r"\bplease\b|\b(?:can|could|would|will)\s+you\b|帮|给我|请|麻烦", re.IGNORECASE)


def _asks_new(clause: str) -> bool:
    """Whether ``clause`` (one that asks) asks for new work: addressed, making, wants stated, or a migration."""
    return _marked(clause, _ADDRESSED_MARKS, _ADDRESSED) or _makes_new(clause)


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


# A go-ahead, or a hold on the agent's next step (0.5.0, thirty-sixth pass, after set AA's aae-019, "terraform plan
# says: Plan: 2 to add ... that's what I expected, go ahead and apply", and aae-023, "Before you touch
# `payments/webhooks.py` any further, write the plan as a short list and wait for me to say go"): the user approves
# what the agent proposed (go ahead, proceed, ship it, LGTM, looks good and a verb of landing it; 可以 / 没问题 /
# LGTM and 合 / 推 / 上线 / 继续, 就这么办, 按这个来) or tells it to wait for a word before its next step (wait for
# me / my OK, until I say, ask / check with me first, hold off; 先问我, 等我确认 / 说 / 同意). Either is how the
# session goes on, not a request, when nothing else in the prompt asks: no sentence outside the mark asks
# (search/asks.py), no verb of making, no wants stated; a plan asked for beside a hold ("write the plan as a short
# list") is how to work too. Requests hold these marks beside their ask ("... then wait for my go-ahead", "ship it.
# Unrelated: could you audit ...", "Then go ahead and do it"): their other sentences ask. Compiled only on the marks.
_NOD_MARKS = (
    "go ahead", "go-ahead", "proceed", "ship it", "lgtm", "looks good", "sounds good", "looks right", "looks fine",
    "sounds right", "sounds fine", "wait for", "until i", "with me", "ask me", "hold off", "可以", "没问题", "就这么",
    "按这个", "先问", "等我", "问过我", "跟我确认",
)  # fmt: skip
_LANDED = r"(?:apply|merge|commit|push|deploy|ship|land|release|run|do|proceed|go|continue)\b"
_NOD = lazy_compile(
    rf"\bgo\s+ahead\b(?:\s+(?:and|with)\s+(?:\w+\s+)?{_LANDED}(?:\s+(?:it|them|that|this))?)?"
    r"|\bproceed\b|\bship\s+it\b(?=\s*(?:[,.;!\n]|$))|\blgtm\b|\b(?:looks|sounds)\s+(?:good|right|fine)\b"
    r"|\bwait\s+for\s+(?:me|my)\b(?:\s+(?:to\s+\w+(?:\s+go)?|ok|okay|go-ahead|approval|sign-off|confirmation))?"
    r"|\buntil\s+I\s+(?:say|confirm|approve|give|sign)\b|\b(?:ask|check\s+with)\s+me\s+(?:first|before)\b|\bhold\s+off\b"
    r"|(?:可以|没问题|lgtm)[,.]?\s*(?:直接)?(?:合|merge|推|push|上线|部署|发布|提交|commit|apply|执行|继续)"
    r"(?:吧|了)?(?=\s*(?:[,.;!?\n\u3002]|$))"
    r"|就这么(?:办|做|改|定)|按这个(?:来|方案)|先问(?:一下)?我|(?:先)?跟我确认|等我(?:确认|说|同意|点头|回复|看过|ok)",
    re.IGNORECASE,
)
# A check-in point (0.5.0, thirty-ninth pass, after set AC's ace-018): the agent stops at a point of its work and
# reports ("pause and tell me", "stop after the migration", "let me know once it compiles", "before you move on to the
# handlers", 做完告诉我, 先停一下). A pattern of its own, compiled on its phrases, not on "stop" or "tell me" (review3's
# 5: a fresh hook process paid the compile on every prompt holding them).
_CHECK_IN_MARKS = (
    "pause and", "pause, and", "pause here", "pause there", "pause after", "stop and", "stop, and", "stop here",
    "stop there", "stop after", "tell me once", "tell me as soon", "tell me before", "let me know once",
    "let me know as soon", "let me know before", "before you move", "before you go", "before you carry", "before mov",
    "before go", "before carr", "告诉我", "通知我", "跟我", "先停", "停下来",
)  # fmt: skip
_CHECK_IN = lazy_compile(
    r"\b(?:pause|stop)(?:\s+(?:there|here|after\s+(?:that|this|it|each|every|the)\b[^,.;:!?\n]{0,40}?))?\s*,?\s*and\s+"
    r"(?:tell|show|ping)\s+me\b[^.;!?\n]*|\b(?:pause|stop)\s+(?:there|here|after\s+(?:that|this|it|each|every|the))\b"
    r"|\b(?:tell\s+me|let\s+me\s+know)\s+(?:once|as\s+soon\s+as|before\s+you)\b"
    r"|\bbefore\s+(?:you\s+)?(?:move|moving|go|going|carry|carrying)\s+on\b"
    r"|(?:做|弄|改|跑|写)完[^,.;:!?\n\u3002]{0,12}?(?:先)?(?:告诉|通知|跟)我(?:说)?(?:一声)?|先停(?:一下|下来)?|停下来",
    re.IGNORECASE,
)
# A plan asked for beside a hold: the plan is the hold's first step ("write the plan as a short list and wait",
# "explain your plan in 3-4 bullets and wait for me to say go", 先列个计划等我确认).
_PLAN = lazy_compile(
    r"\b(?:write|draft|make|give\s+me|show\s+me|lay\s+out|list|explain|outline|propose)\s+(?:out\s+)?"
    r"(?:the|a|your)\s+(?:[\w-]+\s+){0,2}?plan\b(?:\s+(?:as|in)\s+(?:a\s+)?(?:[\w-]+\s+){0,2}?(?:list|bullets?))?"
    r"|(?:先)?(?:写|列|出|给我|做)(?:个|一个|一份|份|下)?(?:计划|方案|步骤)",
    re.IGNORECASE,
)

# The work the user's word lets start, told after the hold ("show me the plan and wait for my OK, then rewrite", set
# R's r1-022; "wait for my go-ahead and then migrate"): a request whose next step is new work.
_AFTER_THE_WORD = lazy_compile(
    r"\b(?:wait\s+for\s+(?:me|my)|until\s+I|ask\s+me|check\s+with\s+me)\b[^.;!?\n]*?(?:,|\band)\s*then\s+(?!the\b|I\b)\w",
    re.IGNORECASE,
)

# The work a go-ahead lists after a colon (0.5.0, thirty-eighth pass, after set AB's ab1-035, "... Leaning toward
# the plugin ... Go ahead: server and client setup, a cap of 3 workspaces per user, the custom role ..., and the
# migration"): the user weighed the options and lists what to build, a request (the approval reading had silenced it).
_GO_AHEAD_LISTED = lazy_compile(r"\b(?:go\s+ahead|proceed)\s*:\s*\S", re.IGNORECASE)

# A thing asked to be given beside a hold, not the plan: "give me a list of the idiom fixes you'd apply, then wait for
# my go-ahead" (set U's u1-024) asks for a review.
_GIVEN_MARKS = ("give", "show", "tell", "send", "给我")
_GIVEN = lazy_compile(r"\b(?:give|show|tell|send)\s+(?:me|us)\b|给我", re.IGNORECASE)


# The user's own part beside a hold, a sentence that says what the user will do ("I want to review that part myself",
# "I'll handle the merge myself", 我自己来看): no work asked of the agent (0.5.0, thirty-ninth pass, set AC's ace-018).
_OWN_PART_MARKS = ("myself", "我自己")
_OWN_PART = lazy_compile(r"[^.!?;\n\u3002]*(?:\bmyself\b|我自己)[^.!?;\n\u3002]*[.!?;\u3002]?", re.IGNORECASE)


def _nods_or_holds(text: str) -> bool:
    """Whether ``text`` approves the agent's next step or holds it for the user's word, and asks for nothing else:
    "that's what I expected, go ahead and apply", "write the plan as a short list and wait for me to say go",
    "可以, 合吧", "跑数据库命令之前先问我"."""
    nods, checks_in = _marked(text, _NOD_MARKS, _NOD), _marked(text, _CHECK_IN_MARKS, _CHECK_IN)
    if not (nods or checks_in) or _AFTER_THE_WORD.search(text) or _GO_AHEAD_LISTED.search(text):
        return False
    rest = _NOD.sub(" ", text) if nods else text
    rest = _PLAN.sub(" ", _CHECK_IN.sub(" ", rest) if checks_in else rest)
    rest = _OWN_PART.sub(" ", rest) if _marked(rest, _OWN_PART_MARKS, _OWN_PART) else rest
    if _asks_new(rest) or _marked(rest, _GIVEN_MARKS, _GIVEN):
        return False
    from skillmem_hook.search.asks import asks, sentences  # noqa: PLC0415 - a prompt naming its skill needs no search

    return not any(asks(sentence) for sentence in sentences(rest))
