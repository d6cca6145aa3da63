from __future__ import annotations

import json

import pytest

from skillmem_hook.errors import FileAccessError, MarkerError, UsageError
from skillmem_hook.report import emit, run_reporting_errors


@pytest.mark.parametrize("count", [0, 1, 999, 1000, 1001, 2500])
def test_an_iterator_value_gives_the_bytes_json_dumps_gives_for_a_list(capsys, count):
    items = [{"name": f"skill-{number}", "path": "a/é\n\u2028"} for number in range(count)]
    emit({"count": count, "skills": iter(items), "after": [1, 2]})
    out = capsys.readouterr().out
    assert out == json.dumps({"count": count, "skills": items, "after": [1, 2]}) + "\n"
    assert out.count("\n") == 1


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (UsageError("bad flag", "see --help"), 2),
        (FileAccessError("cannot read", "check it"), 2),
        (MarkerError("line 3", "fix markers"), 2),
        (KeyboardInterrupt(), 130),
        (ValueError("oops"), 2),
    ],
)
def test_every_failure_becomes_one_json_line_and_its_exit_code(capsys, error, code):
    def fail() -> int:
        raise error

    assert run_reporting_errors(lambda: "skillmem test", fail) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert json.loads(line)["tool"] == "skillmem test"


def test_success_passes_the_code_through(capsys):
    assert run_reporting_errors(lambda: "t", lambda: 3) == 3
    assert capsys.readouterr().err == ""
