"""ui.shared.figure_cache.builders: which functions of a figure module are cached builders,
and the figures and tuples they return (issue 30: one way to get a cached figure)."""

from __future__ import annotations

import json
import sys
import textwrap
import types

import pytest
from streamlit.testing.v1 import AppTest

from ui.features.heatmap import figures as heatmap_figures
from ui.plain import style
from ui.shared import figure_cache

FAKE = "ui.fake_figures_for_the_cache"


def module(source: str, name: str = FAKE) -> types.ModuleType:
    """A module named as one of the house's (``ui.``), from ``source``."""
    made = types.ModuleType(name)
    exec(textwrap.dedent(source), made.__dict__)
    return made


FIGURES = """
    from __future__ import annotations

    import numpy as np
    import plotly.graph_objects as go

    from ui.plain.grids import Grid, as_grid

    COUNT = {"builds": 0}


    def line(n: int) -> go.Figure:
        COUNT["builds"] += 1
        return go.Figure(go.Scatter(x=np.arange(n), y=np.arange(n) ** 2))


    def with_grid(n: int) -> tuple[go.Figure, Grid]:
        COUNT["builds"] += 1
        grid = as_grid(np.ones((n, 2)))
        return go.Figure(go.Heatmap(z=grid.z)), grid


    def widen(fig: go.Figure) -> go.Figure:
        return fig.update_layout(width=500)


    def label(n: int) -> str:
        return f"n = {n}"


    def _private(n: int) -> go.Figure:
        return go.Figure()
"""


def test_builders_are_recognised_by_their_resolved_return_type():
    figs = figure_cache.builders(module(FIGURES))
    assert {"line", "with_grid", "widen"} <= set(vars(figs))
    assert figs.line.uncached is figs._source.line
    assert figs.label is figs._source.label  # returns text: passes through
    assert figs._private is figs._source._private  # private: passes through
    assert figs.COUNT is figs._source.COUNT
    assert figure_cache.returns(heatmap_figures.similarity_curve) == "tuple"
    assert figure_cache.returns(style.heatmap) == "tuple"


def test_each_builder_is_wrapped_once_when_the_builders_are_made():
    figs = figure_cache.builders(heatmap_figures)
    assert figs.table_figure is figs.table_figure
    assert figs.similarity_curve.uncached is heatmap_figures.similarity_curve
    assert figs.WORDS is heatmap_figures.WORDS


@pytest.mark.parametrize(
    "returned", ["tuple[int, go.Figure]", "list[go.Figure]", "go.Figure | None"]
)
def test_a_figure_returned_in_another_shape_is_refused_at_import(returned):
    source = f"""
        from __future__ import annotations
        import plotly.graph_objects as go

        def odd() -> {returned}:
            return None
    """
    with pytest.raises(TypeError, match="odd"):
        figure_cache.builders(module(source))


def test_an_annotation_that_does_not_resolve_is_refused_at_import():
    source = """
        from __future__ import annotations

        def odd() -> NotImported:
            return None
    """
    with pytest.raises(TypeError, match="odd"):
        figure_cache.builders(module(source))


def test_outside_a_script_run_builders_run_as_they_are():
    figs = figure_cache.builders(module(FIGURES))
    fig, grid = figs.with_grid(3)
    assert grid.z.shape == (3, 2)
    assert not figure_cache.came_through(fig)


def _script():
    import sys

    import streamlit as st

    from ui.shared import figure_cache

    source = sys.modules["ui.fake_figures_for_the_cache"]
    figs = figure_cache.builders(source)
    n = int(st.query_params.get("n", "4"))
    fig, grid = figs.with_grid(n)
    st.session_state["corner"] = float(grid.z[0, 0])
    grid.z[0, 0] = -1.0  # changes this session's copy only
    st.session_state["shape"] = grid.z.shape
    st.session_state["marked"] = [
        figure_cache.came_through(fig),
        figure_cache.came_through(figs.line(n)),
        figure_cache.came_through(figs.widen(figs.line(n))),  # a builder given a figure
        figure_cache.came_through(figs.widen(figs._source.line(n))),
    ]
    st.plotly_chart(fig, key="grid_chart")


def run(n: str) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=30)
    at.query_params["n"] = n
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.fixture
def fake_figures():
    sys.modules[FAKE] = module(FIGURES)
    yield sys.modules[FAKE]
    del sys.modules[FAKE]


def test_a_tuple_builder_is_cached_with_what_it_returns_besides(fake_figures):
    builds = fake_figures.COUNT
    first = run("4")
    assert builds["builds"] == 3  # with_grid, line, and line called raw
    second = run("4")
    assert builds["builds"] == 4  # only the raw call again
    for at in (first, second):
        assert at.session_state["marked"] == [True, True, True, False]
        assert at.session_state["shape"] == (4, 2)
        assert at.session_state["corner"] == 1.0  # the first session's change stayed there
    specs = [json.loads(at.get("plotly_chart")[0].proto.spec) for at in (first, second)]
    assert specs[0] == specs[1]
    run("5")
    assert builds["builds"] == 7
