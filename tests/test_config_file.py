"""The typed reading of .skillmem.yaml (ConfigFile) and the search settings the route index keeps as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillmem_hook.config_file import ConfigFile, SearchSettings, read_config_file


def test_a_missing_file_and_an_empty_one_read_as_every_default():
    Path("empty.yaml").write_text("# nothing yet\n")
    for file in (read_config_file("absent.yaml"), read_config_file("empty.yaml"), ConfigFile()):
        assert (file.roots, file.prompt_files, file.exclude, file.quiet) == ((), (), (), ())
        assert (file.strict, file.tracked, file.cache, file.preamble) == (False, False, True, True)
        assert (file.write, file.max_block_tokens, file.lint, file.budget) == (None, None, None, {})
        assert (file.domains, file.aliases) == ({}, {})


def test_each_key_is_read_as_written():
    Path(".skillmem.yaml").write_text(
        "roots: [skills]\nprompt_files: [AGENTS.md]\nstrict: true\nwrite: INDEX.md\ntracked: true\ncache: false\n"
        "exclude: [old-*]\nquiet: [vendor-*]\ndomains: {a: frontend}\npreamble: false\nlint: {quality: true}\n"
        "aliases: {a: [b]}\nmax_block_tokens: 500\nbudget: {agents: [codex]}\n"
    )
    file = read_config_file(".skillmem.yaml")
    assert (file.roots, file.prompt_files, file.exclude, file.quiet) == (
        ["skills"],
        ["AGENTS.md"],
        ["old-*"],
        ["vendor-*"],
    )
    assert (file.strict, file.tracked, file.cache, file.preamble) == (True, True, False, False)
    assert (file.write, file.max_block_tokens, file.lint, file.budget) == (
        "INDEX.md",
        500,
        {"quality": True},
        {"agents": ["codex"]},
    )
    assert (file.domains, file.aliases) == ({"a": "frontend"}, {"a": ["b"]})


KEPT = '{"tracked":false,"cache":true,"exclude":["old-*"],"domains":{"a":"frontend"},"aliases":{"a":["记忆","b"]}}'


def test_the_kept_search_settings_come_back_as_the_same_json_bytes():
    # The route index (format 7) keeps them as JSON: an index kept before they were typed must stay valid.
    settings = SearchSettings.from_json(json.loads(KEPT))
    assert (settings.tracked, settings.cache, settings.exclude) == (False, True, ["old-*"])
    assert json.dumps(settings.as_json(), ensure_ascii=False, separators=(",", ":")) == KEPT


@pytest.mark.parametrize(
    "kept",
    [
        False,  # no "search" key at all
        {"tracked": False, "cache": True, "exclude": [], "domains": {}},
        {"tracked": False, "cache": True, "exclude": [], "domains": {}, "aliases": {}, "more": 1},
        {"tracked": "no", "cache": True, "exclude": [], "domains": {}, "aliases": {}},
        {"tracked": False, "cache": True, "exclude": None, "domains": {}, "aliases": {}},
    ],
)
def test_kept_search_settings_of_another_shape_are_refused(kept):
    with pytest.raises(ValueError, match="search settings"):
        SearchSettings.from_json(kept)
