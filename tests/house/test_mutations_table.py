"""The table of bench/mutations.py is valid against the current tree (runs no mutation).

A refactor that moves a mutated snippet or renames a target test fails here, in a
second, instead of in the mutation run (minutes) or, worse, in a run that plants
nothing and reports a stale mutation as killed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bench.mutations import MUTATIONS, Mutation

ROOT = Path(__file__).resolve().parents[2]
IDS = [m.name for m in MUTATIONS]


def test_names_are_unique_and_there_are_page_level_mutations():
    assert len(set(IDS)) == len(IDS)
    assert 15 <= len(MUTATIONS) <= 25
    # Page tests (AppTest) are the only guard of some behaviour: show they still are.
    assert sum(m.page for m in MUTATIONS) >= 4


@pytest.mark.parametrize("mutation", MUTATIONS, ids=IDS)
def test_snippet_occurs_exactly_once_and_the_mutant_is_valid_python(mutation: Mutation):
    source = (ROOT / mutation.path).read_text(encoding="utf-8")
    assert source.count(mutation.old) == 1, f"{mutation.path}: {mutation.old!r}"
    assert mutation.new != mutation.old
    mutant = source.replace(mutation.old, mutation.new)
    ast.parse(mutant)  # a syntax error would be "killed" by any test: it must not be one
    assert mutant.count(mutation.new) >= 1


@pytest.mark.parametrize("mutation", MUTATIONS, ids=IDS)
def test_every_target_test_exists(mutation: Mutation):
    assert mutation.targets
    for target in mutation.targets:
        path, _, node = target.partition("::")
        file = ROOT / path
        assert file.is_file() and file.name.startswith("test_"), target
        if node:
            function = re.sub(r"\[.*\]$", "", node).split("::")[-1]
            text = file.read_text(encoding="utf-8")
            assert re.search(rf"^\s*def {re.escape(function)}\(", text, re.M), target
    assert not any(a.startswith("--") for a in mutation.args), "options go in PYTEST"


def test_the_command_runs_the_targets_with_pytest_and_stops_at_the_first_failure():
    command = MUTATIONS[0].command()
    assert command[1:3] == ["-m", "pytest"] and "-x" in command
    assert command[-len(MUTATIONS[0].targets) :] == list(MUTATIONS[0].targets)
