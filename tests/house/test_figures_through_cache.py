"""One way to get a figure (issue 30): a module that draws reaches a figure module only
through ``figure_cache.builders(<figure module>)``, made once at import.

``tests/sweeps/test_figures_cached.py`` checks the figures every page and tab draws at its
defaults; this reads the source, so a figure drawn only for some settings (an upload, a
framework, a preset) cannot bypass the cache either.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest
from plotly.basedatatypes import BaseFigure

from ui.shared import figure_cache

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "ui" / "shared" / "figure_cache.py"


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def builds(function) -> bool:
    """A builder: returns a figure (or a tuple led by one) and takes none to change."""
    if not inspect.isfunction(function) or figure_cache.returns(function) is None:
        return False
    hints = inspect.get_annotations(function, eval_str=True)
    given = [hint for name, hint in hints.items() if name != "return"]
    return not any(isinstance(h, type) and issubclass(h, BaseFigure) for h in given)


def figure_modules() -> set[str]:
    """The modules of ``ui/`` that define a builder."""
    found = set()
    for path in sorted((ROOT / "ui").rglob("*.py")):
        name = module_name(path).removesuffix(".__init__")
        if path == CACHE:  # from_spec: the cache's own rebuilding
            continue
        module = importlib.import_module(name)
        if any(builds(v) and v.__module__ == name for v in vars(module).values()):
            found.add(name)
    return found


FIGURE_MODULES = figure_modules()


def drawing_files() -> list[Path]:
    """Everything that may draw: pages, page folders and shared machinery, less the
    figure modules themselves and the cache."""
    found = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    for folder in ("features", "shared"):
        found += sorted((ROOT / "ui" / folder).rglob("*.py"))
    return [p for p in found if p != CACHE and module_name(p) not in FIGURE_MODULES]


def bypasses(tree: ast.Module) -> list[str]:
    """Where ``tree`` reaches a builder other than through a module-level
    ``figure_cache.builders(<figure module>)``."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def statement(node):
        while not isinstance(node, ast.stmt):
            node = parents[node]
        return node

    def is_builders_call(node) -> bool:
        func = node.func if isinstance(node, ast.Call) else None
        return getattr(func, "attr", getattr(func, "id", None)) == "builders"

    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                bound = alias.asname or alias.name
                if f"{node.module}.{alias.name}" in FIGURE_MODULES:
                    modules.add(bound)
                elif node.module in FIGURE_MODULES and builds(
                    getattr(importlib.import_module(node.module), alias.name, None)
                ):
                    found.append(f"{node.lineno}: builder imported by name: {alias.name}")
        elif isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {a.name}" for a in node.names if a.name in FIGURE_MODULES
            ]
        elif is_builders_call(node) and statement(node) not in tree.body:
            found.append(f"{node.lineno}: builders() inside a function: made on every rerun")
        elif isinstance(node, ast.Attribute) and node.attr in ("cached", "CachedModule"):
            found.append(f"{node.lineno}: figure_cache.{node.attr}: use builders()")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id in modules):
            continue
        if not (is_builders_call(parents[node]) and statement(node) in tree.body):
            found.append(f"{node.lineno}: raw figure module {node.id}")
    return found


def test_the_figure_modules_are_found():
    assert {"ui.plain.clock", "ui.plain.table_figure", "ui.features.rope.figures"} <= (
        FIGURE_MODULES
    )
    assert "ui.plain.pick" not in FIGURE_MODULES  # marks traces, builds no figure


def test_drawing_modules_get_figures_through_the_cache_only():
    offenders = {
        module_name(path): hits
        for path in drawing_files()
        if (hits := bypasses(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not offenders, offenders


@pytest.mark.parametrize(
    "planted",
    [
        "from ui.features.rope import figures as figs\nfigs.decay_figure()",
        "from ui.features.rope import figures\n"
        "def render():\n    figs = figure_cache.builders(figures)",
        "from ui.plain.table_figure import home_heatmap",
        "import ui.plain.clock",
        "from ui.plain import clock\nfigs = figure_cache.cached(clock.clock_figure)",
    ],
)
def test_a_planted_bypass_is_found(planted):
    assert bypasses(ast.parse(planted))


def test_the_module_level_way_passes():
    source = "from ui.plain import clock, table_figure\nfigs = figure_cache.builders(clock)\n"
    source += "heat = figure_cache.builders(table_figure).home_heatmap"
    assert not bypasses(ast.parse(source))
