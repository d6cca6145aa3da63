"""Regular expressions compiled on their first use, so a run that matches none never loads ``re``.

``re`` and what it loads (enum, functools, collections) cost a warm hook
run a sixth of its instructions, and a warm run matches no pattern: the
catalog comes from the snapshot and the block compares as bytes. A
module-level ``re.compile`` is paid by every run that imports the module;
``lazy_compile`` defers it to the first method used. To mypy it is
``re.compile``; at run time a stand-in that compiles the pattern on the
first attribute asked for, then keeps that attribute (a bound method of
the compiled pattern) on itself, so later calls cost what a compiled
pattern's do.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import AnyStr

    def lazy_compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]: ...

else:

    class lazy_compile:  # named as the function mypy sees
        def __init__(self, pattern, flags=0):
            self._source = (pattern, flags)

        def __getattr__(self, name):
            import re  # noqa: PLC0415 - the point of this module: a warm run matches no pattern

            value = getattr(re.compile(*self._source), name)
            setattr(self, name, value)
            return value
