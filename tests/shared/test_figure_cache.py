"""ui.shared.figure_cache: a view many sessions ask for is built once (issue #23)."""

from __future__ import annotations

import json
import sys
import types

import numpy as np
import orjson
import plotly.graph_objects as go
import plotly.io
import pytest
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


def test_a_cached_builder_settles_the_margins_and_the_deck_builder_keeps_its_own():
    # The app's charts are drawn once by Streamlit's chart theme (ui.plain.style.
    # settle_margins); the offline deck draws without that theme, with the builder's own.
    figs = figure_cache.builders(story_figures)
    args = dict(names=("a", "b"), x_title="component", y_title="value", hover="%{y}")
    fig = figs.order_figure(np.ones(4), np.zeros(4), **args)
    own = figs.order_figure.uncached(np.ones(4), np.zeros(4), **args)
    assert (fig.layout.margin.l, fig.layout.margin.b) == (67, 67)
    assert (own.layout.margin.l, own.layout.margin.b) == (60, 50)


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


def _drawing_script():
    import sys

    import plotly.graph_objects as go
    import streamlit as st

    from ui.shared import controls, figure_cache

    counter = sys.modules["figure_cache_counter"]

    @figure_cache.cached
    def build(n: int, height: int | None = None) -> go.Figure:
        counter.builds += 1
        fig = go.Figure(go.Heatmap(z=[[v * w for w in range(n)] for v in range(n)]))
        return fig.update_layout(height=height) if height else fig

    from ui.plain.params import PRESENT

    st.session_state[PRESENT.key] = st.query_params.get("present") == "1"
    height = int(st.query_params.get("height", "0")) or None
    fig = build(int(st.query_params.get("n", "5")), height)
    if st.query_params.get("change") == "1":
        fig.update_layout(height=321)  # this session's own copy
    controls.plot(fig, "chart")


def _count_figures_made(monkeypatch) -> list:
    """Every Plotly figure made in this process from now on (built or rebuilt), by class."""
    from plotly.basedatatypes import BaseFigure

    made = []
    init = BaseFigure.__init__

    def counting(self, *args, **kwargs):
        made.append(type(self).__name__)
        init(self, *args, **kwargs)

    monkeypatch.setattr(BaseFigure, "__init__", counting)
    return made


def drawing_session(**query) -> AppTest:
    at = AppTest.from_function(_drawing_script, default_timeout=30)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_a_view_drawn_again_from_the_cache_makes_no_plotly_figure(monkeypatch):
    """The saving of issue #32: the second session's rerun on the same settings neither
    builds the figure nor rebuilds it from its JSON; it draws the cached JSON as is."""
    counter = sys.modules.setdefault("figure_cache_counter", types.ModuleType("c"))
    counter.builds = 0
    first = drawing_session(n="4")
    made = _count_figures_made(monkeypatch)
    second = drawing_session(n="4")
    assert counter.builds == 1
    assert made == []
    specs = [json.loads(at.get("plotly_chart")[0].proto.spec) for at in (first, second)]
    assert specs[0] == specs[1]
    assert specs[1]["data"][0]["z"] == [[v * w for w in range(4)] for v in range(4)]


def test_a_presenter_view_is_fitted_once_for_every_session(monkeypatch):
    """Presenter mode (and a phone) refits the figure: done once per screen for all
    sessions (ui.shared.layout.fitted), not built and refitted on every rerun."""
    from ui.shared import layout

    counter = sys.modules.setdefault("figure_cache_counter", types.ModuleType("c"))
    counter.builds = 0
    layout._fitted_json.cache_clear()
    first = drawing_session(n="7", present="1")
    made = _count_figures_made(monkeypatch)
    second = drawing_session(n="7", present="1")
    assert counter.builds == 1 and made == []
    specs = [json.loads(at.get("plotly_chart")[0].proto.spec) for at in (first, second)]
    assert specs[0] == specs[1]
    monkeypatch.undo()
    by_hand = layout.fit(go.Figure(go.Heatmap(z=[[v * w for w in range(7)] for v in range(7)])),
                         presenting=True, on_phone=False)  # fmt: skip
    assert specs[1]["layout"]["font"]["size"] == by_hand.layout.font.size >= 18
    desk = json.loads(drawing_session(n="7").get("plotly_chart")[0].proto.spec)
    assert desk["layout"].get("font", {}).get("size") != by_hand.layout.font.size


def test_a_cached_figure_changed_by_a_session_is_built_and_drawn_changed(monkeypatch):
    counter = sys.modules.setdefault("figure_cache_counter", types.ModuleType("c"))
    counter.builds = 0
    plain = drawing_session(n="3")
    made = _count_figures_made(monkeypatch)
    changed = drawing_session(n="3", change="1")
    assert counter.builds == 1 and made == ["CachedFigure"]
    spec = json.loads(changed.get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["height"] == 321
    assert spec["data"] == json.loads(plain.get("plotly_chart")[0].proto.spec)["data"]
    assert (
        "height"
        not in json.loads(drawing_session(n="3").get("plotly_chart")[0].proto.spec)["layout"]
    )  # the change stayed in that session's copy


def _counting_plotly_writer(monkeypatch) -> list:
    """Each call of Plotly's own ``to_json`` from now on."""
    calls = []
    own = figure_cache._plotly_to_json

    def counting(*args, **kwargs):
        calls.append(args[1:])
        return own(*args, **kwargs)

    monkeypatch.setattr(figure_cache, "_plotly_to_json", counting)
    return calls


def test_a_drawn_cached_figure_is_sent_as_the_json_plotly_wrote(monkeypatch):
    """st.plotly_chart turns the figure into a dict and back into JSON (issue #32): for a
    cached figure, drawing() hands back the cached JSON, the same bytes Plotly writes."""
    y = np.array([1.5, -2.0, 1e-300])
    fig = go.Figure(go.Scatter(x=[0.1, 2, np.nan], y=y, text=["<b>a</b>", "é/", "\u2028"]))
    fig.update_layout(title="</script> & 「位置」")
    spec = fig.to_json(validate=False)
    lazy = figure_cache.CachedFigure(spec)
    plotly_writes = figure_cache._plotly_to_json(orjson.loads(spec), validate=False)
    calls = _counting_plotly_writer(monkeypatch)
    with figure_cache.drawing(lazy):
        sent = plotly.io.to_json(lazy.to_dict(), validate=False)
    assert sent is spec and calls == []
    assert sent == plotly_writes
    assert not lazy.built()
    # Anything else is written by Plotly: outside drawing(), another dict, other options.
    plotly.io.to_json(lazy.to_dict(), validate=False)
    with figure_cache.drawing(lazy):
        plotly.io.to_json({"data": [], "layout": {}}, validate=False)
        plotly.io.to_json(lazy.to_dict(), pretty=True)
    with figure_cache.drawing(fig):  # a built figure
        assert plotly.io.to_json(fig.to_dict(), validate=False) == spec
    assert len(calls) == 4


def test_a_chart_drawn_from_the_cache_sends_what_plotly_writes(monkeypatch):
    """In a script run: the chart's spec is the cached JSON, not written again, and it is
    what Plotly writes for the figure the builder made."""
    counter = sys.modules.setdefault("figure_cache_counter", types.ModuleType("c"))
    counter.builds = 0
    drawing_session(n="6")
    calls = _counting_plotly_writer(monkeypatch)
    spec = drawing_session(n="6").get("plotly_chart")[0].proto.spec
    assert calls == []
    built = go.Figure(go.Heatmap(z=[[v * w for w in range(6)] for v in range(6)]))
    assert spec == figure_cache._plotly_to_json(built, validate=False)


def _drawn_heights(monkeypatch) -> list:
    """The height each ``st.plotly_chart`` from now on asks of the front end."""
    from streamlit.delta_generator import DeltaGenerator

    heights = []
    enqueue = DeltaGenerator._enqueue

    def spying(self, delta_type, element_proto, layout_config=None, *args, **kwargs):
        if delta_type == "plotly_chart":
            heights.append(layout_config.height)
        return enqueue(self, delta_type, element_proto, layout_config, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "_enqueue", spying)
    return heights


def _counting_parses(monkeypatch) -> list:
    """Each parse of a cached figure's JSON from now on."""
    parses = []
    real = figure_cache.orjson

    def loads(data):
        parses.append(len(data))
        return real.loads(data)

    monkeypatch.setattr(figure_cache, "orjson", types.SimpleNamespace(loads=loads))
    return parses


@pytest.mark.parametrize(("height", "drawn"), [(None, 450), (333, 333)])
def test_a_drawn_cached_figure_is_not_parsed_and_keeps_its_height(monkeypatch, height, drawn):
    """Issue #32: st.plotly_chart reads only the layout's height and width of the dict it
    makes of a figure; a cached figure hands it those (kept with the JSON) and no parse.
    The height asked is the figure's, or Plotly's default 450 without one, as for a
    built figure (a session's changed copy: the last case)."""
    counter = sys.modules.setdefault("figure_cache_counter", types.ModuleType("c"))
    counter.builds = 0
    query = {"n": "5", **({"height": str(height)} if height else {})}
    first = drawing_session(**query)
    parses, heights = _counting_parses(monkeypatch), _drawn_heights(monkeypatch)
    second = drawing_session(**query)
    assert parses == [] and heights == [drawn] and counter.builds == 1
    spec = second.get("plotly_chart")[0].proto.spec
    assert spec == first.get("plotly_chart")[0].proto.spec
    assert json.loads(spec)["layout"].get("height") == height
    drawing_session(**query, change="1")  # built: Plotly's own dict
    assert heights == [drawn, 321]


def test_a_cached_figure_is_built_from_its_json_when_used():
    fig = wl.clock_figure(*clock_args(), play="play", pause="pause", columns=4)
    lazy = figure_cache.CachedFigure(fig.to_json())
    assert not lazy.built()
    assert json.loads(json.dumps(lazy.to_dict())) == json.loads(fig.to_json())
    assert not lazy.built()  # to_dict (st.plotly_chart's only call) parses the JSON
    assert len(lazy.data) == len(fig.data) and lazy.built()
    assert json.loads(lazy.to_json()) == json.loads(figure_cache.from_spec(fig.to_json()).to_json())
    assert isinstance(lazy.data[0].x, np.ndarray) == isinstance(fig.data[0].x, np.ndarray)


def test_a_cached_figure_names_its_picking_traces_without_being_built():
    from ui.plain.pick import mark, picking_curves

    fig = go.Figure([go.Scatter(x=[0, 1], y=[1, 2]), go.Scatter(x=[0], y=[3], customdata=[7])])
    mark(fig.data[1])
    lazy = figure_cache.CachedFigure(fig.to_json())
    assert picking_curves(lazy) == picking_curves(fig) == [1]
    assert not lazy.built()  # grab.plot asks on every rerun of a chart a click can pick
    assert lazy.data[0].meta is None and lazy.trace_metas() == [None, "pick"]


def test_the_key_of_arguments_tells_apart_what_a_figure_depends_on():
    """Issue #32: the builder's arguments are keyed by one digest of their pickle, not by
    st.cache_data's item-by-item hashing: equal arguments, equal keys; a changed value
    (one ulp, in the array's memory hashed out of band or in a strided view), dtype,
    shape, order or function, another key."""
    from ui.plain.grids import downsample

    key = figure_cache.digest
    z = np.arange(12.0).reshape(3, 4)
    words = {"x": "dimension", "y": "position"}
    same = key((z.copy(), downsample(z.copy())), {"words": dict(words), "f": np.sin})
    assert key((z, downsample(z)), {"words": words, "f": np.sin}) == same
    grid = downsample(z)
    changed = z.copy()
    changed[2, 3] = np.nextafter(changed[2, 3], 99)
    others = [
        key((changed, grid), {"words": words, "f": np.sin}),  # one ulp
        key((z.astype(np.float32), grid), {"words": words, "f": np.sin}),
        key((z.reshape(4, 3), grid), {"words": words, "f": np.sin}),
        key((z, downsample(z.T)), {"words": words, "f": np.sin}),
        key((z, grid), {"words": {"y": "position", "x": "dimension"}, "f": np.sin}),
        key((z, grid), {"words": {**words, "x": "Dimension"}, "f": np.sin}),
        key((z, grid), {"words": words, "f": np.cos}),
        key((z, grid, 2), {"words": words, "f": np.sin}),
        key((z, grid, 2.0), {"words": words, "f": np.sin}),
        key((grid, z), {"words": words, "f": np.sin}),
    ]
    assert same not in others and len(set(others)) == len(others)
    # A strided view is pickled in band, a whole array's memory hashed out of band: both
    # follow their content.
    strided = key((z[:, 1::2], grid), {"words": words})
    assert key((z.copy()[:, 1::2], grid), {"words": words}) == strided
    assert key((changed[:, 1::2], grid), {"words": words}) != strided


def test_an_argument_that_cannot_be_keyed_builds_the_figure_uncached():
    import threading

    with_lock = (threading.Lock(),)
    try:
        figure_cache.digest(with_lock, {})
    except figure_cache.Unkeyable:
        pass
    else:
        raise AssertionError("a lock was keyed")
    counter = sys.modules.setdefault("figure_cache_counter", types.ModuleType("c"))
    counter.builds = 0
    at = AppTest.from_function(_lock_script, default_timeout=30).run()
    assert not at.exception, [e.message for e in at.exception]
    assert counter.builds == 1 and at.markdown[0].value == "marked: False"
    at.run()
    assert counter.builds == 2  # not cached


def _lock_script():
    import sys
    import threading

    import plotly.graph_objects as go
    import streamlit as st

    from ui.shared import figure_cache

    counter = sys.modules["figure_cache_counter"]

    @figure_cache.cached
    def build(lock) -> go.Figure:
        counter.builds += 1
        return go.Figure(go.Scatter(y=[1, 2]))

    st.markdown(f"marked: {figure_cache.came_through(build(threading.Lock()))}")
