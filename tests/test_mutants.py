"""The mutation check's list stays usable: each mutant names a module and tests that exist.

Whether each ``find`` text still occurs in its module is left to
``python3 tests/mutants.py --check``, run before a refactor (tests/README.md):
a test here would fail every change to those lines.
"""

from __future__ import annotations

import yaml

from .mutants import MUTANTS, REPO, load


def test_every_mutant_names_a_module_and_test_files_that_exist():
    mutants, accepted = load()
    assert len(mutants) >= 30
    assert accepted <= {mutant.id for mutant in mutants}
    for mutant in mutants:
        assert (REPO / mutant.file).is_file(), mutant.id
        # The package, or the tools that write the data it ships (tools/zh_en_dictionary.py: R488, R489).
        assert mutant.file.startswith(("skillmem_hook/", "tools/")) and mutant.find != mutant.replace, mutant.id
        assert mutant.tests and all((REPO / test).exists() for test in mutant.tests), mutant.id


def test_a_mutant_applies_only_where_its_text_occurs_exactly_once():
    mutant = load()[0][0]
    assert mutant.mutated(f"a\n{mutant.find}\nb") == f"a\n{mutant.replace}\nb"
    assert mutant.mutated("nothing here") is None
    assert mutant.mutated(mutant.find * 2) is None


def test_no_mutant_repeats_an_id_or_a_key():
    """YAML keeps the last of two equal keys: a merge left a second ``tests:``, so a mutant ran the wrong tests."""
    document = yaml.compose(MUTANTS.read_text(encoding="utf-8"))
    entries = next(value for key, value in document.value if key.value == "mutants").value
    ids = []
    for entry in entries:
        keys = [key.value for key, _ in entry.value]
        assert len(keys) == len(set(keys)), keys
        ids.append(dict((key.value, value.value) for key, value in entry.value)["id"])
    assert len(ids) == len(set(ids))
