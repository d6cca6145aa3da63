"""Whether a turn speaks of the work in front of the agent, which the route's score rule then leaves alone.

A session's turns name its code (a file, an identifier, a line), point at
what the agent just did ("the loop you suggested", "你刚写的"), or paste its
output; a request for a skill does none of these. Pure: text in, a yes or
no out (docs/route.md says what each rule costs and gains).

Each reading lives with what it reads: ``shown`` the code and
output in front of the agent, ``its_work`` what the agent did or wrote, ``questioned`` its work checked, checked
again or asked why, ``carried_on`` the task carried on, ``how_to_work`` a rule, a standing instruction, a go-ahead
or a hold, ``progress`` the
work's state asked, ``means`` what the agent can see, reach or run asked, ``divided`` the work
divided (the user takes a part, the agent goes on), ``aloud`` a doubt about a
result thought aloud, ``changed`` a change of what is there asked (not new work), ``relayed`` a remark on it
relayed and the edit asked, ``reacted`` a short reaction to a thing given, asking nothing, ``switched`` the approach
of the work at hand switched to a way named, ``shaped`` the shape of the next answer set or the risk of a change
weighed, and ``clauses`` the readings of a prompt's clauses they share.
"""

from __future__ import annotations

import re
import unicodedata

from skillmem_hook.lazy_pattern import lazy_compile
from skillmem_hook.search.at_hand.aloud import _thinks_aloud
from skillmem_hook.search.at_hand.carried_on import _carries_on
from skillmem_hook.search.at_hand.changed import _changes_what_is_there
from skillmem_hook.search.at_hand.clauses import _RISK_MARKS, _SHAPE_MARKS, _SWITCH_MARKS, _marked
from skillmem_hook.search.at_hand.divided import _divides_the_work
from skillmem_hook.search.at_hand.how_to_work import (
    _leaves_as_it_is,
    _nods_or_holds,
    _sets_a_rule,
    _sets_a_standing_rule,
    _states_without_asking,
)
from skillmem_hook.search.at_hand.its_work import (
    _asks_what_it_did,
    _corrects_a_value,
    _just_made,
    _picks_an_option,
    _reviews_its_value,
)
from skillmem_hook.search.at_hand.means import _asks_its_means
from skillmem_hook.search.at_hand.progress import _asks_its_progress
from skillmem_hook.search.at_hand.questioned import (
    _RUNS,
    _after_its_change,
    _asks_why,
    _checks_again,
    _has_the_agent_check,
)
from skillmem_hook.search.at_hand.relayed import _relays_an_edit
from skillmem_hook.search.at_hand.shown import _names_a_thing_shown, _pastes_output, prints_a_table
from skillmem_hook.search.names import users_own, without_pasted_blocks

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
    if _sets_a_standing_rule(text) or _nods_or_holds(text):
        return True
    if _checks_again(text) if again is None else again:  # once: not again on a 跑一遍 read early and not silenced
        return True
    if _carries_on(text, typed) or _asks_why(text, typed) or _AT_HAND.search(text) is not None:
        return True
    return _asks_of_the_session(text, typed)


def _asks_of_the_session(text: str, typed: str) -> bool:
    """Whether ``text`` speaks of the session itself: its progress, the agent's means, the work divided between the
    two, a doubt about a result thought aloud, a change of what is there asked and nothing new, a remark on it
    relayed and the edit asked, a short reaction to a thing given that asks nothing, the approach of the work at hand
    switched to a way named, the next answer's shape set or a change's risk weighed, and nothing new asked."""
    if _asks_its_progress(text, typed) or _asks_its_means(text, typed) or _relays_an_edit(text, typed):
        return True
    if _divides_the_work(text, typed) or _thinks_aloud(text, typed) or _changes_what_is_there(text, typed):
        return True
    if len(text) > _MOST_STEERING_CHARS:  # a reaction or a steer is a line: a longer turn never imports their readings
        return False
    if len(text) <= _MOST_REACTION_CHARS:
        from skillmem_hook.search.at_hand.reacted import _reacts_to_a_thing_given  # noqa: PLC0415 - a short turn only

        if _reacts_to_a_thing_given(text):
            return True
    return _steers_the_work(text, typed)


def _steers_the_work(text: str, typed: str) -> bool:
    """Whether the short turn ``text`` switches the approach of the work at hand, sets the shape of the next answer or
    weighs a change's risk, and asks nothing new; each reading imported only on a turn holding one of its marks."""
    folded = text.lower()
    if any(mark in folded for mark in _SWITCH_MARKS):
        from skillmem_hook.search.at_hand.switched import _switches_the_approach  # noqa: PLC0415 - a switch's marks

        if _switches_the_approach(text, typed):
            return True
    shape, risk = any(mark in folded for mark in _SHAPE_MARKS), any(mark in text for mark in _RISK_MARKS)
    if not (shape or risk):
        return False
    from skillmem_hook.search.at_hand.shaped import _shapes_the_answer, _weighs_the_change  # noqa: PLC0415 - its marks

    return (shape and _shapes_the_answer(text, typed)) or (risk and _weighs_the_change(text, typed))


_MOST_REACTION_CHARS = 200  # `reacted._MOST_CHARS`, read here so that a longer turn does not import the module
_MOST_STEERING_CHARS = 240  # `clauses._MOST_COLUMNS`: a longer turn is no steer of the work at hand either


# "your" and any noun of the work at hand: the agent's own work (0.5.0, twelfth pass, after set K's ke-064, "after
# applying your manifest"; before it, `_AT_HAND`'s list of its own). Compiled only when a prompt holds "your": in
# `_AT_HAND`, compiled by every warm route, it cost a long prompt 0.9 % of its instructions.
_YOUR_WORK = lazy_compile(rf"\byour\s+{_AT_HAND_NOUNS}\b", re.IGNORECASE)


def _names_your_work(text: str) -> bool:
    """Whether ``text`` names the agent's work as "your" and a noun of the work at hand ("your manifest")."""
    return _marked(text, ("your",), _YOUR_WORK)
