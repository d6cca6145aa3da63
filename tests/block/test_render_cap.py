"""``max_block_tokens``: the block stays within a token cap by collapsing whole domains, largest first."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillmem_hook.block.drift import Drift
from skillmem_hook.block.markers import splice_block
from skillmem_hook.block.render import estimate_tokens, read_block, render_block
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skills import parse_skill

from ..helpers import SEED_BLOCK, run_cli, seed_tree, skill_md, write_skill

TOPICS = {"security": "find a vulnerability", "testing": "write unit tests", "docs-writing": "write the docs"}


def skill(name, description=""):
    return parse_skill(skill_md(name, description), path=name, folder=name, root="r")


def catalog(counts):
    """``counts`` skills per topic, each skill's name long enough to weigh."""
    return [
        skill(f"{domain}-skill-number-{index:04}", text)
        for domain, text in TOPICS.items()
        for index in range(counts[domain])
    ]


def test_with_no_cap_or_a_cap_that_fits_the_block_is_todays_byte_for_byte(tmp_path):
    skills = scan_roots([str(seed_tree(tmp_path))]).skills
    assert render_block(skills, max_tokens=None) == SEED_BLOCK
    assert render_block(skills, max_tokens=estimate_tokens(len(SEED_BLOCK))) == SEED_BLOCK
    assert render_block(skills, b"\r\n", max_tokens=10**6) == SEED_BLOCK.replace(b"\n", b"\r\n")


@pytest.mark.parametrize(("offset", "collapses"), [(-1, True), (0, False), (1, False)])
@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_a_block_that_fits_the_cap_exactly_collapses_nothing(offset, collapses, newline):
    skills = catalog({"security": 5, "testing": 40, "docs-writing": 10})
    full = render_block(skills, newline)
    cap = estimate_tokens(len(render_block(skills))) + offset  # the cap counts LF endings, whatever the file's
    block = render_block(skills, newline, max_tokens=cap)
    assert (block != full) is collapses
    assert (b"[40 skills: list them with skillmem search --domain testing]" in block) is collapses
    assert Drift(splice_block(b"# Agents" + newline, full), skills, max_tokens=cap).current is not collapses


def test_the_figure_stats_prints_as_the_cap_keeps_every_name(tmp_path, capsys):
    for number in range(30):
        write_skill(tmp_path / "skills", f"t{number}", skill_md(f"pytest-helper-number-{number}", "Write unit tests"))
    prompt = tmp_path / "AGENTS.md"
    prompt.write_bytes(b"# Agents\n")
    where = ["--root", tmp_path / "skills", "--prompt-file", prompt]
    tokens = run_cli(capsys, "stats", *where).data["est_tokens"]
    assert run_cli(capsys, "inject", *where, "--max-block-tokens", str(tokens)).code == 0
    assert b"pytest-helper-number-29\n" in prompt.read_bytes()
    assert b"skills: list them" not in prompt.read_bytes()
    assert run_cli(capsys, "verify", "--strict", *where, "--max-block-tokens", str(tokens)).code == 0


def test_the_largest_domain_collapses_first_and_every_header_stays():
    skills = catalog({"security": 5, "testing": 40, "docs-writing": 10})
    full = render_block(skills)
    block = render_block(skills, max_tokens=estimate_tokens(len(full)) - 1)
    lines = block.decode().splitlines()
    assert "[testing]" in lines and "[40 skills: list them with skillmem search --domain testing]" in lines
    assert "[security]" in lines and "security-skill-number-0000" in lines
    assert "docs-writing-skill-number-0009" in lines


def test_a_tiny_cap_collapses_every_domain_it_can_and_keeps_the_headers():
    block = render_block(catalog({"security": 30, "testing": 40, "docs-writing": 10}), max_tokens=1)
    assert block.decode().splitlines()[1:-1] == [
        "[security]",
        "[30 skills: list them with skillmem search --domain security]",
        "[testing]",
        "[40 skills: list them with skillmem search --domain testing]",
        "[docs-writing]",
        "[10 skills: list them with skillmem search --domain docs-writing]",
    ]


def test_a_collapsed_line_is_read_back_as_no_name():
    block = render_block(catalog({"security": 30, "testing": 3, "docs-writing": 0}), max_tokens=60)
    listed, conflict = read_block(block)
    assert not conflict
    assert set(listed) == {f"testing-skill-number-{index:04}" for index in range(3)}
    assert set(listed.values()) == {"testing"}


def test_verify_strict_accepts_what_inject_wrote_and_a_second_inject_changes_nothing():
    skills = catalog({"security": 30, "testing": 40, "docs-writing": 10})
    written = Drift(b"# Agents\n", skills, max_tokens=200).updated
    again = Drift(written, skills, max_tokens=200)
    assert again.current and not again.is_drift(strict=True) and not again.is_drift(strict=False)
    assert again.missing == again.stale == []


def test_a_full_block_under_a_new_cap_is_drift_and_names_the_collapsed_as_folded_not_stale():
    skills = catalog({"security": 2, "testing": 40, "docs-writing": 0})
    full = splice_block(b"", render_block(skills))
    drift = Drift(full, skills, max_tokens=100)
    assert drift.is_drift(strict=False) and drift.is_drift(strict=True)
    assert drift.folded == sorted(f"testing-skill-number-{index:04}" for index in range(40))
    assert drift.stale == []  # every skill is still there: none is removed


@settings(max_examples=60, deadline=None)
@given(
    st.fixed_dictionaries({domain: st.integers(0, 60) for domain in TOPICS}),
    st.integers(1, 2000),
    st.sampled_from([b"\n", b"\r\n"]),
)
def test_the_capped_block_fits_when_collapsing_can_make_it_fit_and_is_stable(counts, cap, newline):
    skills = catalog(counts)
    block = render_block(skills, newline, max_tokens=cap)
    assert block == render_block(list(reversed(skills)), newline, max_tokens=cap)  # order of discovery is no input
    smallest = render_block(skills, max_tokens=1)
    lf_size = len(block.replace(b"\r\n", b"\n"))
    assert estimate_tokens(lf_size) <= max(cap, estimate_tokens(len(smallest)))
    if estimate_tokens(len(render_block(skills))) <= cap:
        assert block == render_block(skills, newline)


def test_a_skill_added_to_a_collapsed_domain_is_drift_even_read_leniently():
    skills = catalog({"security": 2, "testing": 40, "docs-writing": 0})
    written = Drift(b"", skills, max_tokens=100).updated
    grown = Drift(written, [*skills, skill("testing-skill-number-9999", "write unit tests")], max_tokens=100)
    assert grown.missing == grown.stale == []
    assert grown.is_drift(strict=False)
    assert not Drift(written, skills, max_tokens=100).is_drift(strict=False)


def test_the_hook_report_says_a_collapsed_count_changed_not_an_edit_by_hand():
    from skillmem_hook.hooks.report import describe_drift

    skills = catalog({"security": 2, "testing": 40, "docs-writing": 0})
    written = Drift(b"", skills, max_tokens=100).updated
    grown = Drift(written, [*skills, skill("testing-skill-number-9999", "write unit tests")], max_tokens=100)
    report = describe_drift("AGENTS.md", grown, written=True)
    assert "a domain the block collapses (max_block_tokens): testing 40 -> 41\n" in report  # adopt2: which, how
    assert "edited by hand" not in report
