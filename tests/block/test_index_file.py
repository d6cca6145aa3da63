from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from skillmem_hook.block.index_file import escape_markdown, render_index_file, repository_path
from skillmem_hook.catalog.skills import Skill
from skillmem_hook.visible import visible

# CommonMark with GitHub's table and strikethrough rules, HTML allowed: what GitHub would interpret.
MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def skill(name: str, description: str = "", path: str | None = None, root: str = "skills") -> Skill:
    return Skill(name=name, description=description, path=name if path is None else path, root=root, warnings=[])


def rendered_items(data: bytes) -> list[list]:
    """The inline tokens of each list item of the rendered index."""
    tokens = MARKDOWN.parse(data.decode("utf-8"))
    return [token.children for token in tokens if token.type == "inline" and token.map and token.level == 3]


def plain_text(children: list) -> str:
    kinds = {token.type for token in children}
    assert kinds <= {"text", "strong_open", "strong_close", "link_open", "link_close"}, kinds
    return "".join(token.content for token in children if token.type == "text")


def links(children: list) -> list[str]:
    return [unquote(token.attrs["href"]) for token in children if token.type == "link_open"]


@pytest.mark.parametrize(
    "description",
    [
        "Build a <Widget> with <details><summary>x</summary></details>",
        "Use *stars*, _underscores_, `code`, | pipes |, [links](http://x) and ![img](y)",
        "Entities &amp; &copy; ~~struck~~ $math$ \\ backslash",
        "<!-- a comment --> <script>alert(1)</script>",
    ],
)
def test_markdown_and_html_in_a_description_show_as_written(description):
    data = render_index_file([skill("tool", description)])
    (children,) = rendered_items(data)
    assert plain_text(children) == f"tool: {description} (skills/tool)"
    html = MARKDOWN.render(data.decode("utf-8"))
    assert "<Widget>" not in html
    assert "<details>" not in html
    assert "<script>" not in html


names = st.text(
    st.characters(exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn")), min_size=1, max_size=12
).map(str.strip)


@given(name=names.filter(bool), description=st.text(st.characters(exclude_categories=("Cc", "Cs", "Co", "Cn"))))
@example(name="\U000e0100", description="")  # a variation selector alone (category Mn), found by CI after fixh17
def test_any_name_and_description_render_as_exactly_their_text(name, description):
    data = render_index_file([skill(name, description, path="s")])
    (children,) = rendered_items(data)
    shown = visible(" ".join(description.split())) or "(no description)"  # a bidi control shows as an escape
    # a name as a person sees it: a hidden character (a variation selector out of place) shows as its escape
    assert plain_text(children) == f"{visible(name)}: {shown} (skills/s)"
    assert links(children) == ["skills/s/SKILL.md"]


def test_a_skill_at_a_root_shows_the_root_never_root_slash_dot():
    data = render_index_file([skill("template", "A template", path=".", root="template")])
    assert b"template/." not in data
    (children,) = rendered_items(data)
    assert plain_text(children) == "template: A template (template)"
    assert links(children) == ["template/SKILL.md"]


def test_links_are_relative_to_the_index_files_folder_and_survive_spaces_and_other_scripts():
    folder = "反重力 - 超强技能/skills/安全 (审计)/007"
    data = render_index_file([skill("007", "x", path=folder)], "docs")
    (children,) = rendered_items(data)
    assert plain_text(children) == f"007: x (skills/{folder})"
    assert links(children) == [f"../skills/{folder}/SKILL.md"]


def test_paths_are_relative_to_the_repository_whatever_the_root_was_given_as():
    absolute = os.path.join(os.getcwd(), "skills")
    assert repository_path(absolute, "a/b") == "skills/a/b"
    assert repository_path("./skills/", ".") == "skills"
    assert render_index_file([skill("a", root=absolute)]) == render_index_file([skill("a", root="skills")])


def test_the_index_is_the_same_bytes_whatever_the_order_of_the_skills():
    skills = [skill("b", "parse json"), skill("a", "deploy docker"), skill("c")]
    assert render_index_file(skills) == render_index_file(list(reversed(skills)))
    assert render_index_file(skills).decode().count("\n## ") == 3


def test_escaping_touches_only_what_markdown_would_read():
    assert escape_markdown("a-b.c (d) #e") == "a-b.c (d) #e"
    assert escape_markdown("<x>*_`|[]&~$!\\") == "\\<x\\>\\*\\_\\`\\|\\[\\]\\&\\~\\$\\!\\\\"


def test_the_index_file_links_resolve_to_real_skill_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "skills" / "a b").mkdir(parents=True)
    (tmp_path / "skills" / "a b" / "SKILL.md").write_text("---\nname: a\n---\n")
    data = render_index_file([skill("a", path="a b")], "docs")
    (children,) = rendered_items(data)
    (link,) = links(children)
    assert (Path("docs") / link).resolve() == (tmp_path / "skills" / "a b" / "SKILL.md").resolve()


def test_control_characters_and_line_breaks_from_a_skill_show_as_escapes_in_one_list_item():
    folder = "x\n\nloose paragraph\x1b[2K"
    description = "bell\x07 esc\x1b[31mRED bs\b del\x7f nul\x00 bidi\u202e"
    data = render_index_file([skill("tool\x07", description, path=folder)])
    assert not any(byte in data for byte in (b"\x1b", b"\x07", b"\x08", b"\x7f", b"\x00", "\u202e".encode()))
    (children,) = rendered_items(data)
    assert "loose paragraph" in plain_text(children)
    assert data.decode().splitlines()[-1].startswith("- **tool\\\\x07**: bell\\\\x07 esc\\\\x1b")
