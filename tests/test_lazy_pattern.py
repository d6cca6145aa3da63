"""lazy_compile: a pattern compiled on its first use, and then just that pattern."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from skillmem_hook.lazy_pattern import lazy_compile

from .helpers import REPO


@given(st.text(alphabet="ab-_ \n", max_size=20))
def test_it_matches_as_re_compile_does_flags_included(text):
    for pattern, flags in ((r"[\W_]+", 0), (r"^a+$", re.MULTILINE), ("(?m)^b", 0), ("A", re.IGNORECASE)):
        lazy, real = lazy_compile(pattern, flags), re.compile(pattern, flags)
        assert lazy.sub("-", text) == real.sub("-", text)
        assert lazy.findall(text) == real.findall(text)
        assert bool(lazy.search(text)) == bool(real.search(text))


def test_bytes_patterns_too():
    assert lazy_compile(rb"@(\w+)\.md").findall(b"see @a.md and @b.md") == [b"a", b"b"]


def test_nothing_is_compiled_until_a_method_is_used_then_it_is_kept():
    pattern = lazy_compile("x+")
    assert "sub" not in vars(pattern)
    assert pattern.sub("y", "axxb") == "ayb"
    assert vars(pattern)["sub"].__self__ == re.compile("x+")  # re's own compiled pattern, bound: no wrapper call


def test_making_one_loads_no_re():
    code = "import sys; from skillmem_hook.lazy_pattern import lazy_compile as c; c('a'); print('re' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # -S: no site, so nothing else loads re first
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=False, env=env)
    assert result.stdout == "False\n", result.stderr
