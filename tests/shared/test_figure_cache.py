"""ui.shared.figure_cache: a view many sessions ask for is built once (issue #23)."""

from __future__ import annotations

import json
import sys
import types

import numpy as np
import plotly.graph_objects as go
from streamlit.testing.v1 import AppTest

import posenc
from posenc import spectrum
from ui.features.story import figures as story_figures
from ui.features.wavelengths import figures as wl
from ui.shared import figure_cache
from ui.shared.i18n import t


def clock_args():
    d, base = 16, 10000.0
    dial, frames = np.arange(d // 2), np.arange(wl.MAX_FRAMES)
    hand_x, hand_y, _ = spectrum.clock_hands(frames, dial, d, base)
    labels = [t("wavelengths.dial_label", pair=int(i), wavelength=f"{w:.4g}") for i, w in
              zip(dial, posenc.wavelengths(d, base), strict=True)]  # fmt: skip
    return labels, frames, hand_x, hand_y


def test_a_figure_rebuilt_from_its_json_draws_the_same():
    fig = wl.clock_figure(*clock_args(), play="play", pause="pause", columns=4)
    again = figure_cache.from_spec(fig.to_json())
    assert json.loads(again.to_json()) == json.loads(fig.to_json())


def test_a_rebuilt_figure_holds_arrays_as_the_builder_made_them():
    fig = wl.clock_figure(*clock_args(), play="play", pause="pause", columns=4)
    again = figure_cache.from_spec(fig.to_json())
    assert isinstance(again.data[0].x, np.ndarray) == isinstance(fig.data[0].x, np.ndarray)
    for built, rebuilt in zip(fig.data, again.data, strict=True):
        assert len(rebuilt.x) == len(built.x)
        np.testing.assert_array_equal(np.asarray(rebuilt.x), np.asarray(built.x))


def test_outside_a_script_run_the_builder_runs_as_it_is():
    calls = []

    @figure_cache.cached
    def build(n: int) -> go.Figure:
        calls.append(n)
        return wl.clock_figure(*clock_args(), play="play", pause="pause")

    assert build(1) is not build(1)
    assert calls == [1, 1]


def test_builders_wraps_only_figure_builders():
    figs = figure_cache.builders(wl)
    assert figs.MAX_FRAMES == wl.MAX_FRAMES
    assert figs.sine_parts is wl.sine_parts  # returns numbers: not a builder
    assert figs.clock_figure.uncached is wl.clock_figure
    assert figure_cache.builders(story_figures).order_figure.uncached is (
        story_figures.order_figure
    )


def _script():
    import sys

    import plotly.graph_objects as go
    import streamlit as st

    from ui.shared import figure_cache

    counter = sys.modules["figure_cache_counter"]

    @figure_cache.cached
    def build(n: int, title: str) -> go.Figure:
        counter.builds += 1
        return go.Figure(go.Scatter(x=list(range(n)), y=[v * v for v in range(n)]))

    fig = build(int(st.query_params.get("n", "5")), "t")
    fig.update_layout(title_text="changed by this session")  # its own copy
    st.plotly_chart(fig, key="chart")


def run_session(n: str) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=30)
    at.query_params["n"] = n
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_sessions_asking_for_the_same_view_build_it_once():
    counter = sys.modules.setdefault("figure_cache_counter", types.ModuleType("c"))
    counter.builds = 0
    first = run_session("5")
    second = run_session("5")
    assert counter.builds == 1
    specs = [json.loads(at.get("plotly_chart")[0].proto.spec) for at in (first, second)]
    assert specs[0] == specs[1]
    assert specs[0]["data"][0]["y"] == [0, 1, 4, 9, 16]
    assert specs[0]["layout"]["title"]["text"] == "changed by this session"
    run_session("6")
    assert counter.builds == 2
