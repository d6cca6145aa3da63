"""Where a prompt names a skill by its folder's name or by a title joined by "+" or "/" (newcomer-ad 10, 11).

A collection whose ``name`` fields are titles ("Cloudflare R2 Object Storage") lives in folders a user types
(``cloudflare-r2``): the folder's name names the skill where a name marked as one would, and only there; a
title's "+" and "/" join its words where it is marked.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.agents.route import Target
from skillmem_hook.search.names import build_name_table, folder_keys, named_skills, skill_keys, titled_key

# (folder, name): the titled skills of newcomer-ad's collection, and skills whose folder is their name.
SKILLS = [
    ("cloudflare-r2", "Cloudflare R2 Object Storage"),
    ("tailwind-v4-shadcn", "Tailwind v4 + shadcn/ui Stack"),
    ("blob", "Object Store"),
    ("pdf", "pdf"),
    ("docs", "pdf-tools"),  # its folder's name, "docs", is everyday language: it needs a mark as well
    ("csv", "csv-to-table"),
    ("other/csv-to-table", "Table Maker"),  # a folder named as another skill is: that name wins
]


def table(skills=SKILLS):
    folders = [(folder.rsplit("/", 1)[-1], skill_keys([name], [])) for folder, name in skills]
    return build_name_table(
        (Target(name, "skills", folder), keys) for (folder, name), keys in zip(skills, folder_keys(folders))
    )


def names(prompt, skills=SKILLS):
    return [target.label for target in named_skills(prompt, table(skills))]


@pytest.mark.parametrize(
    "prompt",
    [
        "Use the cloudflare-r2 skill to upload the invoices",
        "use the Cloudflare R2 skill to upload the invoices",  # spaced, marked
        "Use /cloudflare-r2 to upload the invoices",
        "/cloudflare-r2 upload the invoices",
        "upload the invoices with `cloudflare-r2`",
        "upload the invoices with 'cloudflare_r2'",
        'upload the invoices with "CLOUDFLARE-R2"',
        "用 cloudflare-r2 技能上传发票",
        "用 /cloudflare-r2 上传发票",
    ],
)
def test_a_folder_s_name_marked_as_a_name_names_its_skill(prompt):
    assert names(prompt) == ["Cloudflare R2 Object Storage"]


@pytest.mark.parametrize(
    "prompt",
    [
        "upload the invoices to cloudflare-r2 today",  # a slug typed whole: a name would count, a folder does not
        "cloudflare-r2 upload the invoices",
        "the bucket on cloudflare r2 is full",
        "upload them to https://acme.io/cloudflare-r2 please",
        "the /cloudflare-r2 page is slow",  # a page's route, not a slash command
        "when someone clicks 'cloudflare-r2' the upload starts",  # a control's label
        "write the docs for the team",  # a one-word folder's name unmarked
        "the `cloudflare-r2` package exports upload()",  # a unit of code in backticks
    ],
)
def test_a_folder_s_name_not_marked_as_a_name_names_nothing(prompt):
    assert names(prompt) == []


def test_a_one_word_folder_s_name_needs_a_mark_as_a_one_word_name_does():
    assert names("fix the `docs` skill's wording") == ["pdf-tools"]
    assert names("use the blob skill") == ["Object Store"]
    assert names("store it in a blob") == []


def test_a_folder_named_as_a_skill_is_that_skill_not_the_folder_s():
    assert names("use the csv-to-table skill") == ["csv-to-table"]  # not "Table Maker", in other/csv-to-table
    assert names("use the `csv` skill") == ["csv-to-table"]
    assert "!csv-to-table" not in table()  # the table holds no folder key that a name holds
    assert "!pdf" not in table()  # a folder named as its own skill adds nothing


def test_a_cjk_folder_s_name_is_no_key_of_its_own():
    assert folder_keys([("代码审查", ["+code-review"])]) == [["+code-review"]]


@pytest.mark.parametrize(
    "prompt",
    [
        "Use the Tailwind v4 + shadcn/ui Stack skill for the admin app.",
        "Use `Tailwind v4 + shadcn/ui Stack` for the admin app.",
        'Use "tailwind v4+shadcn / ui stack" for the admin app.',
        "use the Tailwind-v4 + shadcn/ui-Stack skill",
        "用 Tailwind v4 + shadcn/ui Stack 技能搭后台",
        '后台用 "Tailwind v4 + shadcn/ui Stack" 来搭',
    ],
)
def test_a_title_with_a_plus_or_a_slash_marked_as_a_name_is_that_name(prompt):
    assert names(prompt) == ["Tailwind v4 + shadcn/ui Stack"]


@pytest.mark.parametrize(
    "prompt",
    [
        "Set up Tailwind v4 + shadcn/ui Stack for the admin app.",  # unmarked: a stack described, not a name
        "Use `Tailwind v4` + shadcn/ui Stack for the admin app.",  # the marks close round part of it
        "Use the Tailwind v4 / shadcn/ui Stack2 skill",  # another title
    ],
)
def test_a_title_with_a_plus_or_a_slash_unmarked_or_other_names_nothing(prompt):
    assert names(prompt) == []


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Tailwind v4 + shadcn/ui Stack", "tailwind-v4+shadcn/ui-stack"),
        ("Search & Replace", "search&replace"),
        ("CI/CD Pipelines", "ci/cd-pipelines"),
        ("AI SDK Core", None),  # no join but separators: its words' key is all it has
        ("C++ Style", None),  # "++" joins no words
        ("Q&A (beta)", None),  # a bracket between words
        ("/pdf", None),
        ("代码/审查", None),
    ],
)
def test_a_title_s_key_keeps_its_joins(name, key):
    assert titled_key(name) == key


_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=6)
_GAPS = st.sampled_from([" ", "-", "_", " + ", "+", "/", " / ", " & ", "&"])


@given(words=st.lists(_WORDS, min_size=2, max_size=6), gaps=st.lists(_GAPS, min_size=5, max_size=5))
def test_any_title_in_backticks_or_before_skill_names_its_skill(words, gaps):
    title = words[0] + "".join(gap + word for gap, word in zip(gaps, words[1:]))
    skills = [("folder", title), ("other", "zz-other")]
    assert names(f"please use `{title}` now", skills) == [title]
    assert names(f"please use the {title.upper()} skill now", skills) == [title]
