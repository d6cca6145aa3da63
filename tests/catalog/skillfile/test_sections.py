from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.catalog.skillfile.declared import SkillText, read_skill_text
from skillmem_hook.catalog.skillfile.names import SkillProblem
from skillmem_hook.catalog.skillfile.sections import extract_sections

BODY = """# Terraform Helper

Some intro text that is not kept.

## When to Use This Skill
- writing modules for AWS
- reviewing a plan before apply

## Do not use this skill when
- the task is about Ansible

```bash
# not a heading: a comment in a code block
```

## 何时使用
- 需要管理基础设施即代码时

## Instructions
Run terraform plan first.
"""


def test_when_to_use_lines_then_headings_are_kept():
    sections = extract_sections(BODY).splitlines()
    assert sections == [
        "writing modules for AWS",
        "reviewing a plan before apply",
        "需要管理基础设施即代码时",
        "Terraform Helper",
        "When to Use This Skill",
        "Do not use this skill when",
        "何时使用",
        "Instructions",
    ]


def test_do_not_use_sections_code_blocks_and_plain_paragraphs_are_left_out():
    sections = extract_sections(BODY)
    assert "Ansible" not in sections
    assert "code block" not in sections
    assert "intro text" not in sections
    assert "terraform plan first" not in sections


def test_the_result_is_capped():
    body = "".join(f"## Heading number {n}\n" for n in range(1000))
    assert len(extract_sections(body, cap=100)) == 100


def test_read_skill_text_stores_the_sections_and_a_bad_body_byte_costs_nothing():
    data = b"---\nname: a\ndescription: d\n---\n## Use when\n- deploying \xff things\n"
    text = read_skill_text(data)
    assert text.description == "d"
    assert text.sections.splitlines() == ["deploying \ufffd things", "Use when"]


_PIECES = st.sampled_from(
    [
        b"---\n",
        b"name: a\n",
        b"description: d\n",
        b"# Title\n",
        b"## When to use\n",
        b"- for x\n",
        b"```\n",
        b"\n",
        b"\xff",
        b"\x00",
        "é ## 何时使用\n".encode(),
        b"disable-model-invocation: true\n",
        b"metadata:\n  k: v\n",
    ]
)


@given(st.lists(_PIECES, max_size=14).map(b"".join))
def test_what_a_file_declares_without_its_sections_is_the_rest_of_what_it_declares(data):
    """The hooks' read (sections=False) is the eager read but for the sections, a refusal included."""
    try:
        eager = read_skill_text(data)
    except SkillProblem as problem:
        with pytest.raises(SkillProblem, match=re.escape(str(problem))):
            read_skill_text(data, sections=False)
        return
    lazy = read_skill_text(data, sections=False)
    assert lazy.sections is None
    assert {name: getattr(lazy, name) for name in SkillText.__slots__ if name != "sections"} == {
        name: getattr(eager, name) for name in SkillText.__slots__ if name != "sections"
    }
