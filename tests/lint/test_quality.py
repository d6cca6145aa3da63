"""The quality rules (off by default): a trigger in the description, a body under 500 lines, a Chinese keyword."""

from __future__ import annotations

import pytest

from skillmem_hook.lint.quality import check_quality


def codes(description, body_lines=10):
    return {code for code, _, _ in check_quality(description, None, body_lines)}


@pytest.mark.parametrize(
    "description",
    [
        "Parse PDFs. Use when the user asks for a table 表格.",
        "Triggers on PDF questions 表格",
        "解析 PDF。当用户要求'把 Azure 上的资源和一份很长的说明整理成表格以便进一步分析'时使用。",
        "解析 PDF。触发词：表格",
        "适用于表格",
        "使用调试工具包智能调试时使用",
    ],
)
def test_a_description_with_a_trigger_passes(description):
    assert "SK401" not in codes(description)


@pytest.mark.parametrize("description", ["Parse PDFs into tables", "解析 PDF。当然可以。时间"])
def test_a_description_without_a_trigger_is_flagged(description):
    assert "SK401" in codes(description)


def test_a_chinese_keyword_and_the_body_length():
    assert "SK403" in codes("Use when parsing")
    assert "SK403" not in codes("Use when parsing 解析")
    assert "SK402" in codes("Use when 解析", body_lines=501)
    assert "SK402" not in codes("Use when 解析", body_lines=500)


def test_no_description_is_left_to_the_spec_rules():
    assert codes(None) == codes("") == set()
