"""Every figure the app draws comes through the figure cache (issue 30).

A module that draws takes its builders through ``figure_cache.builders(<figures module>)``;
the cache marks each figure it returns (``figure_cache.came_through``). Each page and tab
runs here with ``plotly_chart`` watched: a drawn figure without the mark was built by a
raw builder (a figure module imported as ``figs``, a builder imported by name, a figure
made in a tab), so every session paid for it again (issue #23).
"""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from support.apptest import run_page, tab_label
from support.views import CHARTLESS, PAGE_TAB_IDS, PAGE_TABS, PAGES, script

from ui.shared import figure_cache


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[str, object]]:
    """``(key, figure)`` of every ``plotly_chart`` call while the test runs, in ``st``
    and in any container (columns, popovers, the sidebar)."""
    calls: list[tuple[str, object]] = []
    in_container = DeltaGenerator.plotly_chart
    at_top = st.plotly_chart

    def watched(draw):
        def plotly_chart(*args, **kwargs):
            figure = args[1] if draw is in_container else args[0]
            calls.append((kwargs.get("key"), figure))
            return draw(*args, **kwargs)

        return plotly_chart

    monkeypatch.setattr(DeltaGenerator, "plotly_chart", watched(in_container))
    monkeypatch.setattr(st, "plotly_chart", watched(at_top))
    return calls


def uncached(calls) -> list[str]:
    return [
        f"{key}: {type(fig).__name__}" for key, fig in calls if not figure_cache.came_through(fig)
    ]


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_every_drawn_figure_came_through_the_cache(entry, tab, opened, drawn):
    at = run_page(script(entry), opened, timeout=240)
    charts = at.get("plotly_chart")
    assert len(drawn) == len(charts), "a chart was drawn without plotly_chart being seen"
    if (entry.name, tab) not in CHARTLESS:
        assert drawn, f"{entry.name}[{tab}] drew no chart"
    assert not uncached(drawn), f"drawn without the figure cache: {uncached(drawn)}"


def test_a_figure_built_past_the_cache_is_named(drawn, monkeypatch):
    """The check itself: a tab drawing a raw builder's figure (its figure module as
    ``figs``, as eight tab modules did before issue 30) is named."""
    from ui.features.wavelengths import figures, specs, tab_sine_basics

    monkeypatch.setattr(tab_sine_basics, "figs", figures)
    page = next(entry for entry in PAGES if entry.name == "wavelengths")
    run_page(script(page), {specs.TAB.key: tab_label(specs, "basics")}, timeout=240)
    assert uncached(drawn) == ["wl_basics_chart: Figure"]
