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
        assert mutant.file.startswith("skillmem_hook/") and mutant.find != mutant.replace, mutant.id
        assert mutant.tests and all((REPO / test).exists() for test in mutant.tests), mutant.id


def test_a_mutant_applies_only_where_its_text_occurs_exactly_once():
    mutant = load()[0][0]
    assert mutant.mutated(f"a\n{mutant.find}\nb") == f"a\n{mutant.replace}\nb"
    assert mutant.mutated("nothing here") is None
    assert mutant.mutated(mutant.find * 2) is None


class _OneKeyEach(yaml.SafeLoader):
    """A loader that refuses a key given twice in one mapping, which PyYAML would let the last win."""

    def construct_mapping(self, node, deep=False):
        keys = [self.construct_object(key, deep=deep) for key, _ in node.value]
        twice = {key for key in keys if keys.count(key) > 1}
        assert not twice, f"line {node.start_mark.line + 1}: {sorted(twice)} given twice"
        return super().construct_mapping(node, deep=deep)


def test_no_mutant_gives_a_key_twice():
    # A merge once left R69 with two tests: lines; the second silently replaced the first.
    yaml.load(MUTANTS.read_text(encoding="utf-8"), Loader=_OneKeyEach)
