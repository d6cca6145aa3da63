"""The pre-commit hooks, one module per hook id of .pre-commit-hooks.yaml, each a console script's entry point.

``index`` holds ``skill-index`` and ``skill-verify`` (one comparison, written
or only told), ``lint`` holds ``skill-lint``, ``budget`` ``skill-budget``, and
``report`` what they tell a person. Their reader is a person: plain lines of
UTF-8 text on stderr, errors included, never a JSON line.
"""
