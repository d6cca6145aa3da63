from __future__ import annotations

from pathlib import Path

import pytest

from skillmem_hook.config import load_settings, require_prompt_files, require_roots
from skillmem_hook.errors import UsageError


def test_flags_win_over_the_file_key_by_key():
    Path(".skillmem.yaml").write_text("roots: [a, b]\nprompt_files: [P.md]\nstrict: true\n")
    settings = load_settings(["flag-root"], None)
    assert settings.roots == ["flag-root"]
    assert settings.prompt_files == ["P.md"]
    assert settings.strict is True


def test_common_layouts_are_detected_when_nothing_is_configured():
    for folder in (".claude/skills", "skills", ".codex/skills"):
        Path(folder).mkdir(parents=True)
    Path("CLAUDE.md").write_text("x")
    Path("AGENTS.md").mkdir()  # a folder is not a prompt file
    settings = load_settings()
    assert settings.roots == [".claude/skills", ".codex/skills", "skills"]
    assert settings.prompt_files == ["CLAUDE.md"]


def test_nothing_found_is_a_usage_error_whose_hint_shows_the_config():
    settings = load_settings()
    with pytest.raises(UsageError) as raised:
        require_roots(settings)
    assert "roots: [skills]" in raised.value.hint
    with pytest.raises(UsageError, match="no prompt file"):
        require_prompt_files(settings)


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        ("rots: [a]\n", "unknown key 'rots'", "did you mean 'roots'? the keys are: roots, prompt_files, strict, write"),
        ("roots: skills\n", "'roots' must be a list of paths", "roots: [path, other/path]"),
        ("prompt_files: [1]\n", "'prompt_files' must be a list of paths", "prompt_files:"),
        ("strict: maybe\n", "'strict' must be a bool", "strict: true"),
        ("exclude: draft\n", "'exclude' must be a list of skill names", "exclude: [my-private-skill"),
        ("domains: {x: nowhere}\n", "'nowhere' is not a domain", "the domains are: security, testing"),
        ("preamble: [a]\n", "'preamble' must be one line of text", "preamble:"),
        ("- a\n", "must be a mapping", "roots: [skills]"),
        ("roots: [a\n", "is not valid YAML", "roots: [skills]"),
    ],
)
def test_bad_configuration_names_the_key(text, message, hint):
    Path(".skillmem.yaml").write_text(text)
    with pytest.raises(UsageError) as raised:
        load_settings()
    assert message in raised.value.message
    assert hint in raised.value.hint


def test_an_empty_config_file_is_no_configuration():
    Path(".skillmem.yaml").write_text("")
    assert load_settings(["r"], ["p"]).roots == ["r"]
