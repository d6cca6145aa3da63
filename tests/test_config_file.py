"""The typed reading of .skillmem.yaml (ConfigFile) and the search settings the route index keeps as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.config_file import ConfigFile, SearchSettings, read_config_file
from skillmem_hook.errors import UsageError


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


# What a hostile .skillmem.yaml can do through PyYAML: the event pass refuses each before PyYAML builds the value.


def refusal(text: str) -> UsageError:
    Path(".skillmem.yaml").write_text(text)
    with pytest.raises(UsageError) as raised:
        read_config_file(".skillmem.yaml")
    return raised.value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # PyYAML keeps roots: [other], without a word.
        ("&k roots: [skills]\n*k : [other]\n", "the key 'roots' is given twice, on lines 1 and 2"),
        ("lint:\n  &s select: [SK1]\n  *s : [SK2]\n", "the key 'lint: select' is given twice, on lines 2 and 3"),
    ],
)
def test_an_alias_used_as_a_key_is_the_key_it_names(text, message):
    assert refusal(text).message == f".skillmem.yaml: {message}; YAML would keep only the last"


def test_an_alias_of_a_key_in_another_mapping_is_no_repetition():
    Path(".skillmem.yaml").write_text("domains: {&n pdf: devops}\naliases: {*n : [invoices]}\n")
    file = read_config_file(".skillmem.yaml")
    assert (file.domains, file.aliases) == ({"pdf": "devops"}, {"pdf": ["invoices"]})


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("<<: {roots: [skills]}\n", "line 1: '<<'"),
        # PyYAML merges both (it does not keep only the last): the file is refused for its merge keys.
        ("roots: [skills]\n<<: {strict: true}\n<<: {tracked: true}\n", "line 2: '<<'"),
        ("lint:\n  quality: true\n  <<: {ignore: [SK1]}\n", "line 3: 'lint: <<'"),
        ("lint:\n  !!merge select: {ignore: [SK1]}\n", "line 2: 'lint: select'"),
        ("&m <<: {strict: true}\n", "line 1: '<<'"),
        ("domains: {&m <<: devops}\nlint:\n  *m : {ignore: [SK1]}\n", "line 1: 'domains: <<'"),
    ],
)
def test_a_merge_key_is_refused_for_what_it_is(text, where):
    error = refusal(text)
    assert error.message.startswith(f".skillmem.yaml: {where} is a merge key; .skillmem.yaml takes none")
    assert "given twice" not in error.message
    assert error.hint.startswith("write the keys out")


def test_a_quoted_merge_key_is_an_ordinary_key():
    Path(".skillmem.yaml").write_text("lint:\n  per_path_ignores: {'<<': [SK1]}\n")
    assert read_config_file(".skillmem.yaml").lint == {"per_path_ignores": {"<<": ["SK1"]}}


def test_a_key_given_twice_is_shown_escaped_in_the_hint_too():
    error = refusal('domains:\n  "a\\nb\\u202e\\x1b[2J": x\n  "a\\nb\\u202e\\x1b[2J": y\n')
    assert error.message.startswith(".skillmem.yaml: the key 'domains: a\\nb\\u202e\\x1b[2J' is given twice")
    assert error.hint == "give 'a\\nb\\u202e\\x1b[2J' once, with everything both say"


TOO_LARGE = "holds a number too large: no setting takes 10**18 or more, nor one written in more than 64 characters"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Python reads no integer of more than 4,300 digits: this was "unexpected error: ValueError".
        ("max_block_tokens: " + "9" * 5000 + "\n", "line 1: 'max_block_tokens' " + TOO_LARGE),
        ("roots: [skills]\nmax_block_tokens: 1000000000000000000\n", "line 2: 'max_block_tokens' " + TOO_LARGE),
        ("max_block_tokens: -1_000_000_000_000_000_000\n", "line 1: 'max_block_tokens' " + TOO_LARGE),
        ("max_block_tokens: 1" + "0" * 64 + "\n", "line 1: 'max_block_tokens' " + TOO_LARGE),
        ("max_block_tokens: " + "0" * 64 + "1\n", "line 1: 'max_block_tokens' " + TOO_LARGE),  # octal 1, 65 long
        ("budget: {context_window: 0x" + "f" * 6000 + "}\n", "line 1: 'budget: context_window' " + TOO_LARGE),
        # budget's checks turned these into OverflowErrors.
        ("budget: {context_window: 1" + "0" * 400 + "}\n", "line 1: 'budget: context_window' " + TOO_LARGE),
        (
            "budget:\n  parameters:\n    codex: {scan_depth: .inf}\n",
            "line 3: 'budget: parameters: codex: scan_depth' holds '.inf', which no setting takes",
        ),
        ("budget: {parameters: {codex: {scan_depth: 1.0e+400}}}\n", "line 1: 'budget: parameters: codex: scan_depth' "),
        ("budget: {parameters: {codex: {scan_depth: 1.0e+18}}}\n", "line 1: 'budget: parameters: codex: scan_depth' "),
        ("max_block_tokens: .NaN\n", "line 1: 'max_block_tokens' holds '.NaN', which no setting takes"),
        ("domains: {pdf: devops, ? " + "9" * 5000 + " : devops}\n", "line 1: a key under 'domains' " + TOO_LARGE),
        ("? " + "9" * 5000 + "\n: x\n", "line 1: a top-level key " + TOO_LARGE),
    ],
)
def test_a_number_no_setting_takes_is_refused_naming_its_key(text, message):
    assert refusal(text).message.startswith(f".skillmem.yaml: {message}")


def test_the_largest_numbers_a_setting_may_hold_are_read():
    Path(".skillmem.yaml").write_text("max_block_tokens: 999_999_999_999_999_999\n")
    assert read_config_file(".skillmem.yaml").max_block_tokens == 10**18 - 1
    Path(".skillmem.yaml").write_text("max_block_tokens: " + "0" * 63 + "1\n")  # 64 characters: octal 1
    assert read_config_file(".skillmem.yaml").max_block_tokens == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "max_block_tokens: !!int abc\n",
            "line 1: 'max_block_tokens' holds 'abc', which YAML takes for a whole number",
        ),
        ('max_block_tokens: !!int ""\n', "line 1: 'max_block_tokens' holds '', which YAML takes for a whole number"),
        ("strict: !!bool maybe\n", "line 1: 'strict' holds 'maybe', which YAML takes for true or false"),
        ("budget:\n  context_window: !!float x\n", "line 2: 'budget: context_window' holds 'x', which YAML takes for"),
        ("roots: [skills, 2001-13-45]\n", "line 1: 'roots' holds '2001-13-45', which YAML takes for a date"),
        ("roots: [!!timestamp soon]\n", "line 1: 'roots' holds 'soon', which YAML takes for a date"),
    ],
)
def test_a_value_pyyaml_cannot_convert_is_refused_naming_its_key(text, message):
    # Each was "unexpected error: ValueError" (KeyError, IndexError, AttributeError): a bug report, not a hint.
    assert refusal(text).message.startswith(f".skillmem.yaml: {message}")


@given(st.sampled_from(["int", "float", "bool", "timestamp", "str", "null"]), st.text(max_size=80))
def test_any_tagged_text_is_read_or_refused_as_a_usage_error(tag, text):
    Path(".skillmem.yaml").write_text(f"max_block_tokens: !!{tag} {json.dumps(text)}\n")
    try:
        read_config_file(".skillmem.yaml")
    except UsageError as error:
        assert error.message.startswith(".skillmem.yaml")


def test_aliases_that_stand_for_more_values_than_the_limit_are_refused():
    # A 58 KB file whose 3,000 lines of `pN: *a` stand for 15 million codes: lint took minutes, aliases 5.6 s.
    codes = "[" + ",".join(["SK1"] * 5000) + "]"
    lines = ["lint:", "  per_path_ignores:", f"    p0: &a {codes}", *(f"    p{n}: *a" for n in range(1, 3000))]
    error = refusal("\n".join(lines) + "\n")
    assert error.message == ".skillmem.yaml: line 13: its aliases (*name) stand for more than 50,000 values in all"


def words_aliased(times: int, more: str = "") -> str:
    """50 aliases of a list of 999 words (1,000 values each, the list with them): 50,000 values at ``times=50``."""
    words = "[&w w0, " + ", ".join(f"w{n}" for n in range(1, 999)) + "]"
    return "aliases:\n  a0: &a " + words + "\n" + "".join(f"  a{n}: *a\n" for n in range(1, times + 1)) + more


def test_aliases_up_to_the_limit_are_read_and_one_more_value_is_refused():
    Path(".skillmem.yaml").write_text(words_aliased(50))
    assert len(read_config_file(".skillmem.yaml").aliases) == 51
    Path(".skillmem.yaml").write_text(words_aliased(50, "  b: [*w]\n"))  # one scalar more
    with pytest.raises(UsageError, match="stand for more than 50,000 values"):
        read_config_file(".skillmem.yaml")


def test_an_anchor_counts_the_aliases_inside_it_spelled_out():
    # b holds 25 aliases of a (1,000 values each): b stands for 25,001, so one alias of it passes the limit.
    words = "[" + ", ".join(f"w{n}" for n in range(999)) + "]"
    text = f"aliases:\n  a: &a {words}\n  b: &b [" + ", ".join(["*a"] * 25) + "]\n"
    Path(".skillmem.yaml").write_text(text)
    with pytest.raises(UsageError, match="'aliases: b' must be a list of words"):  # read: 25,000 aliased
        read_config_file(".skillmem.yaml")
    error = refusal(text + "  c: *b\n")
    assert error.message == ".skillmem.yaml: line 4: its aliases (*name) stand for more than 50,000 values in all"


def test_a_billion_laughs_is_refused_at_its_first_lines():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, 10)]
    assert refusal("\n".join(lines) + "\n").message.startswith(".skillmem.yaml: line 5: its aliases")


def test_an_integer_too_long_for_python_is_exit_2_through_the_cli(capsys):
    from .helpers import run_cli

    Path(".skillmem.yaml").write_text("roots: [skills]\nmax_block_tokens: " + "9" * 5000 + "\n")
    run = run_cli(capsys, "verify")
    assert run.code == 2
    assert run.error["error"] == ".skillmem.yaml: line 2: 'max_block_tokens' " + TOO_LARGE
