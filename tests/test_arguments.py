"""The options several commands share: a value that is wrong says so in words, as any other usage error."""

from __future__ import annotations

from .helpers import run_cli, skill_md, write_skill


def test_top_that_is_not_a_number_says_so_without_naming_a_function(capsys, tmp_path):
    tree = tmp_path / "skills"
    write_skill(tree, "k8s-deploy", skill_md("k8s-deploy", "Deploy to Kubernetes"))
    run = run_cli(capsys, "search", "--root", str(tree), "--top", "abc", "deploy")
    assert run.code == 2
    assert "_positive" not in run.error["error"]
    assert "must be a whole number, 1 or more, not 'abc'" in run.error["error"]


def test_parsing_leaves_argparse_s_gettext_as_it_found_it(capsys):
    import argparse
    import gettext

    run = run_cli(capsys, "verify", "--bogus")
    assert run.code == 2
    assert run_cli(capsys, "--help").out.startswith("usage: skillmem [-h] [--version] COMMAND ...\n")
    assert (argparse._, argparse.ngettext) == (gettext.gettext, gettext.ngettext)
