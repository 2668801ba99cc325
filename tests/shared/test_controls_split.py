"""``ui.shared.controls`` is a facade over seven modules, one concern each (issue 25 §2).

Pages, tab modules and tests call ``controls.<name>``; the code lives in ``url_state``,
``widgets``, ``layout``, ``latex_rows``, ``lazy_tabs``, ``folds`` and ``turns`` of
``ui.shared`` (that none of them
imports the facade back is an import contract, planted in tests/house/test_layers.py).
These tests keep the facade complete, each name defined once, the modules small, and the
one seam the phone tests use (``ui.shared.layout.user_agent``) seen by every caller of
``controls.phone``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ui.shared import controls, folds, latex_rows, layout, lazy_tabs, turns, url_state, widgets

ROOT = Path(__file__).resolve().parents[2]
OWNERS = (url_state, widgets, layout, latex_rows, lazy_tabs, folds, turns)
CALLERS = [
    ROOT / "app.py",
    *sorted((ROOT / "pages").glob("*.py")),
    *sorted((ROOT / "ui").rglob("*.py")),
    *sorted((ROOT / "tests").glob("*.py")),
    *sorted((ROOT / "bench").glob("*.py")),
]


def used_names() -> set[str]:
    """Every ``controls.<name>`` and ``from ui.shared.controls import <name>`` in the project."""
    found = set()
    for path in CALLERS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "controls"
                and not node.attr.startswith("__")  # controls.__all__ here
            ):
                found.add(node.attr)
            elif isinstance(node, ast.ImportFrom) and node.module == "ui.shared.controls":
                found |= {alias.name for alias in node.names}
    return found


def test_the_facade_exports_every_name_its_callers_use():
    used = used_names()
    assert {"setup_page", "plot", "slider", "run_open_tab", "phone"} <= used  # the scan works
    missing = sorted(used - set(controls.__all__) - {"st"})  # controls.st: streamlit itself
    assert not missing, f"controls does not export {missing}"
    assert not [name for name in used if name.startswith("_")], "a private name via controls"


def test_each_exported_name_is_defined_once_in_the_module_that_owns_it():
    for name in controls.__all__:
        owners = [module for module in OWNERS if name in vars(module)]
        if name in ("setup_page", "FAVICON"):  # the facade's own: a page's frame
            assert not owners, name
            continue
        homes = [
            m for m in owners if getattr(vars(m)[name], "__module__", m.__name__) == m.__name__
        ]
        assert len(homes) == 1, (name, [m.__name__ for m in owners])
        assert getattr(controls, name) is vars(homes[0])[name], name


@pytest.mark.parametrize("module", [controls, *OWNERS], ids=lambda m: m.__name__)
def test_each_module_is_small(module):
    lines = Path(module.__file__).read_text(encoding="utf-8").count("\n")
    assert lines < 500, f"{module.__name__}: {lines} lines"  # the house limit


def test_a_phone_user_agent_reaches_every_caller_of_phone(monkeypatch):
    """The phone tests replace ``ui.shared.layout.user_agent``: ``controls.phone`` (called by
    pages), ``ui.shared.widgets`` and ``ui.shared.latex_rows`` must all read through it."""
    monkeypatch.setattr(layout, "user_agent", lambda: "Mozilla/5.0 (iPhone) Mobile/15E148")
    assert controls.phone() and widgets.phone() and latex_rows.phone()
    monkeypatch.setattr(layout, "user_agent", lambda: "Mozilla/5.0 (X11; Linux x86_64)")
    assert not (controls.phone() or widgets.phone() or latex_rows.phone())
