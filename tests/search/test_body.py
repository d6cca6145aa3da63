"""The body field: what follows the frontmatter, without code or markup, capped."""

from __future__ import annotations

from skillmem_hook.search.body import BODY_CAP, body_text


def test_the_frontmatter_is_not_body():
    assert body_text(b"---\nname: x\ndescription: secret words\n---\n# Title\nUse it for grafana.\n") == (
        "Title Use it for grafana."
    )


def test_fenced_code_links_and_markup_are_cut():
    text = b"---\nname: x\n---\nRun **this**:\n```sh\nrm -rf build\n```\nSee [docs](https://example.org/a).\n~~~\nx\n"
    assert body_text(text) == "Run this : See docs"  # the unclosed ~~~ fence runs to the end


def test_a_file_without_frontmatter_is_all_body_and_an_unclosed_one_is_none():
    assert body_text(b"# Deploy\nto kubernetes") == "Deploy to kubernetes"
    assert body_text(b"---\nname: x\nno end") == ""


def test_the_body_is_capped_and_bad_bytes_do_not_stop_it():
    long = b"---\nname: x\n---\n" + b"word \xff " * 2000
    text = body_text(long)
    assert len(text) == BODY_CAP
    assert text.startswith("word \ufffd word")
