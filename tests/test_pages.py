"""Every page: runs at defaults and at its extremes, keeps charts under budget, survives
hostile URLs and random widget settings (hypothesis), and stays within its memory cap.

The counters of tried cases are printed at the end of the run (conftest summary).
"""

from __future__ import annotations

import json
import logging
import threading
import tracemalloc

import pytest
from conftest import CASES, run_page
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pages_under_test import (
    CHARTLESS,
    IDS,
    PAGE_TAB_IDS,
    PAGE_TABS,
    PAGES,
    all_specs,
    extreme,
    largest,
    open_tab,
    script,
    specs_of,
)

from ui.figures.common import MAX_CHART_BYTES, TRACE_TYPES
from ui.params import BoolParam, ChoiceParam, FloatParam, IntParam, TextParam

HEAVY_TIMEOUT = 240
MEMORY_CAP = 512 * 2**20


def chart_sizes(at) -> list[int]:
    return [len(el.proto.spec.encode()) for el in at.get("plotly_chart")]


def run(entry, query=None, timeout=HEAVY_TIMEOUT):
    CASES["page runs"] += 1
    return run_page(script(entry), query, timeout=timeout)


@pytest.mark.parametrize("entry", PAGES, ids=IDS)
def test_page_runs_at_defaults_and_draws_a_chart(entry):
    at = run(entry)
    assert at.get("plotly_chart"), "every page shows at least one chart"
    assert not at.warning, [w.value for w in at.warning]


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        # The page runs in AppTest's script thread; the main thread is AppTest itself
        # (it warns about its own missing script context).
        if record.thread != threading.main_thread().ident:
            self.records.append(record)


@pytest.fixture
def streamlit_warnings():
    """Warnings Streamlit logs while a page script runs (e.g. a widget misused).

    Streamlit's loggers do not propagate: the handler goes on each of them.
    """
    handler = _Records()
    names = [n for n in logging.Logger.manager.loggerDict if n.split(".")[0] == "streamlit"]
    loggers = [logging.getLogger(name) for name in names]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler.records
    for logger in loggers:
        logger.removeHandler(handler)


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
@pytest.mark.parametrize("which", ["min", "max"])
def test_page_runs_with_every_setting_at_its_extreme(entry, tab, opened, which, streamlit_warnings):
    query = {s.key: extreme(s, which) for s in all_specs(entry) if s.key not in ("lang", "present")}
    at = run(entry, query | opened)
    assert not at.warning, [w.value for w in at.warning]
    assert not streamlit_warnings, [r.getMessage() for r in streamlit_warnings]
    assert all(size <= MAX_CHART_BYTES for size in chart_sizes(at)), chart_sizes(at)


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_largest_settings_keep_every_chart_under_1_mb_and_memory_under_512_mb(entry, tab, opened):
    tracemalloc.start()
    try:
        at = run(entry, largest(entry) | opened)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    sizes = chart_sizes(at)
    assert sizes or (entry.name, tab) in CHARTLESS, "no chart"
    assert max(sizes, default=0) <= MAX_CHART_BYTES, sizes
    assert peak < MEMORY_CAP, f"peak {peak / 2**20:.0f} MB"


HOSTILE = {
    "not a number": "abc",
    "NaN": "nan",
    "huge": "1e308",
    "negative": "-7",
    "10 000 characters": "9" * 10_000,
    "odd": "7",
}


@pytest.mark.parametrize("entry", PAGES, ids=IDS)
@pytest.mark.parametrize("kind", HOSTILE, ids=list(HOSTILE))
def test_hostile_url_values_give_a_notice_and_a_working_page(entry, kind):
    query = {s.key: HOSTILE[kind] for s in all_specs(entry)}
    query["definitely_unknown"] = HOSTILE[kind]
    at = run(entry, query)
    assert len(at.warning) >= 1
    notice = at.warning[0].value
    assert "definitely_unknown" in notice
    assert at.get("plotly_chart")


def _value(spec):
    if isinstance(spec, IntParam):
        return st.integers(spec.minimum, spec.maximum).map(
            lambda v: v - (v - spec.minimum) % spec.step
        )
    if isinstance(spec, FloatParam):
        low = spec.minimum * (1 + 1e-6) + 1e-6 if spec.exclusive_minimum else spec.minimum
        return st.one_of(st.just(low), st.just(spec.maximum), st.floats(low, spec.maximum))
    if isinstance(spec, ChoiceParam):
        return st.sampled_from(spec.options)
    if isinstance(spec, BoolParam):
        return st.booleans()
    if isinstance(spec, TextParam):
        return st.text(max_size=spec.max_chars)
    raise TypeError(spec)


def _query(entry):
    specs = [s for s in all_specs(entry) if s.key not in ("present",)]
    return st.fixed_dictionaries({}, optional={s.key: _value(s).map(_text) for s in specs})


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("entry", PAGES, ids=IDS)
def test_random_combinations_of_settings_never_raise(entry):
    @settings(
        max_examples=8,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(query=_query(entry))
    def sweep(query):
        CASES["random combinations"] += 1
        # Text params may legally hold anything; every other value is valid by construction.
        at = run(entry, query)
        assert at.get("plotly_chart") or (entry.name, open_tab(entry, query)) in CHARTLESS

    sweep()


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_every_slider_and_number_widget_at_its_ends(entry, tab, opened):
    """Drive the widgets themselves (not the URL) to both ends, rerun after each."""
    at = run(entry, opened)
    for kind in ("slider", "number_input"):
        for index in range(len(at.get(kind))):
            widget = at.get(kind)[index]
            low, high = widget.min, widget.max
            if not isinstance(low, (int, float)):
                continue
            for value in (low, high, widget.value):
                at.get(kind)[index].set_value(value).run()
                CASES["widget moves"] += 1
                assert not at.exception, (widget.key, value, [e.message for e in at.exception])


def test_pages_declare_only_specs_with_help_texts():
    """Specs have unique keys across shared and page settings."""
    for entry in PAGES:
        keys = [s.key for s in all_specs(entry)]
        assert len(keys) == len(set(keys)), entry.name
        for spec in specs_of(entry):
            assert spec.key.startswith(("hm_", "wl_", "bin_", "rot_", "rope_")), spec.key


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_charts_draw_only_trace_types_the_house_template_styles(entry, tab, opened):
    """ui.figures.common.HOUSE keeps plotly_white's defaults for TRACE_TYPES only."""
    at = run(entry, opened)
    for element in at.get("plotly_chart"):
        spec = json.loads(element.proto.spec)
        kinds = {trace.get("type", "scatter") for trace in spec["data"]}
        frames = [trace for frame in spec.get("frames", []) for trace in frame["data"]]
        kinds |= {trace.get("type", "scatter") for trace in frames}
        assert kinds <= set(TRACE_TYPES), (element.proto.id, kinds)
        assert spec["layout"]["template"]["layout"]["plot_bgcolor"] == "white"
