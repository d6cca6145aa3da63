from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.block.render import collapsed_count, read_block, render_block
from skillmem_hook.catalog.scan import scan_roots
from skillmem_hook.catalog.skills import parse_skill

from ..helpers import SEED_BLOCK, seed_tree, skill_md, write_skill


def test_the_seed_example_gives_exactly_the_documented_block(tmp_path):
    assert render_block(scan_roots([str(seed_tree(tmp_path))]).skills) == SEED_BLOCK


def skill(name, description="", path=None):
    path = path or name
    return parse_skill(skill_md(name, description), path=path, folder=path, root="r")


def test_names_sort_by_code_point_not_by_locale_or_case():
    names = ["beta", "Alpha", "alpha", "Zeta", "éclair", "_under", "10-x", "9-x", "名前"]
    block = render_block([skill(name) for name in names])
    assert block.decode().splitlines()[2:-1] == sorted(names)
    assert block.decode().splitlines()[2:-1] == [
        "10-x",
        "9-x",
        "Alpha",
        "Zeta",
        "_under",
        "alpha",
        "beta",
        "éclair",
        "名前",
    ]


def test_domains_follow_the_table_order_and_empty_domains_are_left_out():
    block = render_block([skill("zz", "write the docs"), skill("aa", "find a vulnerability"), skill("mm", "nothing")])
    assert block.decode().splitlines() == [
        "<<<SKILL_INDEX_BEGIN>>>",
        "[security]",
        "aa",
        "[docs-writing]",
        "zz",
        "[general]",
        "mm",
        "<<<SKILL_INDEX_END>>>",
    ]


def test_the_block_depends_only_on_the_set_of_skills():
    skills = [skill(f"skill-{number}", random.choice(["parse csv", "docker", "seo", ""])) for number in range(50)]
    expected = render_block(skills)
    for _ in range(5):
        random.shuffle(skills)
        assert render_block(skills) == expected


def test_crlf_rendering_uses_the_given_newline():
    assert render_block([skill("a")], b"\r\n") == b"<<<SKILL_INDEX_BEGIN>>>\r\n[general]\r\na\r\n<<<SKILL_INDEX_END>>>"


def test_an_empty_set_of_skills_gives_an_empty_block():
    assert render_block([]) == b"<<<SKILL_INDEX_BEGIN>>>\n<<<SKILL_INDEX_END>>>"


def test_read_block_reverses_render_block():
    skills = [skill("a, b: 'c'"), skill("pdf", "parse pdf"), skill("x", path="@acme/x")]
    for newline in (b"\n", b"\r\n", b"\r"):
        listed, conflict = read_block(render_block(skills, newline))
        assert listed == {skill.label: skill.domain for skill in skills}
        assert "@acme/x" in listed
        assert conflict is False


def test_read_block_sets_merge_conflict_lines_apart_from_names():
    block = (
        b"<<<SKILL_INDEX_BEGIN>>>\n[general]\nkept\n<<<<<<< HEAD\nours\n||||||| base\n=======\ntheirs\n"
        b">>>>>>> feature\n<<<SKILL_INDEX_END>>>"
    )
    listed, conflict = read_block(block)
    assert conflict is True
    assert listed == {"kept": "general", "ours": "general", "theirs": "general"}


def test_no_name_in_any_tree_can_break_the_block(tmp_path):
    hostile = ["[general]", "<<<SKILL_INDEX_END>>>", "a\nb", "\u202eevil", "=======", ">>>>>>> x", "ok"]
    for number, name in enumerate(hostile):
        write_skill(tmp_path, f"s{number}", ("---\nname: " + repr(name).replace("'", '"') + "\n---\n").encode())
    catalog = scan_roots([str(tmp_path)])
    assert [item.name for item in catalog.skills] == ["ok"]
    assert len(catalog.skipped) == 6


def test_the_block_is_the_same_under_any_hash_seed_and_locale(tmp_path):
    import os
    import subprocess
    import sys

    for number, name in enumerate(["Zeta", "alpha", "Émile", "éclair", "名前", "b-tool", "B-Tool-2"]):
        write_skill(tmp_path, f"s{number}", skill_md(name, "parse csv" if number % 2 else "deploy"))
    blocks = set()
    for seed, locale in [("0", "C"), ("1", "C.UTF-8"), ("12345", "en_US.UTF-8"), ("random", "tr_TR.UTF-8")]:
        env = {**os.environ, "PYTHONHASHSEED": seed, "LC_ALL": locale, "LANG": locale}
        result = subprocess.run(
            [sys.executable, "-m", "skillmem_hook", "prompt", "--root", str(tmp_path)],
            capture_output=True,
            env=env,
            check=True,
        )
        blocks.add(result.stdout)
    assert len(blocks) == 1


COLLAPSED_LINE = re.compile(r"\[([0-9]+) skills?: ")  # the pattern collapsed_count stands for, without re


@given(
    st.one_of(
        st.text(alphabet="[]0123456789 skil:s\u0663\uff11x", max_size=16),
        st.builds("[{} skill{}: {}]".format, st.integers(0, 10**6), st.sampled_from(["", "s", "S", "ss"]), st.text()),
    )
)
def test_a_collapsed_line_is_read_as_the_pattern_reads_it(line):
    found = COLLAPSED_LINE.match(line)
    assert collapsed_count(line) == (int(found.group(1)) if found else None)


@pytest.mark.parametrize(
    ("line", "count"),
    [("[12 skills: a, b]", 12), ("[1 skill: a]", 1), ("[12 skillsets: a]", None), ("[1\u0663 skills: a]", None)],
)
def test_a_collapsed_line_by_example(line, count):
    assert collapsed_count(line) == count
