"""Every page: runs at defaults and at its extremes, keeps charts under budget, survives
hostile URLs, random widget settings and random sessions of widget moves (hypothesis), and
stays within its memory cap.

The counters of tried cases are printed at the end of the run (conftest summary).
"""

from __future__ import annotations

import importlib
import json
import logging
import re
import threading
import tracemalloc

import pytest
from conftest import CASES, figures, notice_text, run_page, switch_tab
from helpers import chart_sizes
from hypothesis import HealthCheck, given, note, settings
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
    tab_spec,
)

from ui.figures.common import MAX_CHART_BYTES, TRACE_TYPES
from ui.params import BoolParam, ChoiceParam, FloatParam, IntParam, TextParam
from ui.specs import setting_label

HEAVY_TIMEOUT = 240
MEMORY_CAP = 512 * 2**20


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


# Words a formula may keep in Chinese: names of code, not prose.
CODE_WORDS = {"posenc.rope"}


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_formulas_in_chinese_carry_no_english_words(entry, tab, opened):
    """Formulas are shared by both languages; words in them (\\text{...}) must follow the
    reader's language (an audit found 'pair 0' and 'plotted:' in zh)."""
    at = run(entry, {"lang": "zh"} | opened)
    words = [
        inner
        for latex in at.latex
        for inner in re.findall(r"\\text\{([^{}]*)\}", latex.value)
        if re.search(r"[A-Za-z]{3,}", inner) and inner not in CODE_WORDS
    ]
    assert words == []


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
@pytest.mark.parametrize("which", ["min", "max"])
def test_page_runs_with_every_setting_at_its_extreme(entry, tab, opened, which, streamlit_warnings):
    query = {s.key: extreme(s, which) for s in all_specs(entry) if s.key not in ("lang", "present")}
    at = run(entry, query | opened)
    assert not at.warning, [w.value for w in at.warning]
    assert not streamlit_warnings, [r.getMessage() for r in streamlit_warnings]
    assert chart_sizes(at) or (entry.name, tab) in CHARTLESS, "no chart"
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


# One table of bad URL values, each with the setting its notice must name (by its label):
# (page, tab, query); tab "*" runs every tab of the page, "" its first (or only) view.
BAD_URL = [
    *(
        ("home", "", {key: value}, key)
        for key, value in [
            ("d_model", "7"),
            ("seq_len", "abc"),
            ("seq_len", "-3"),
            ("seq_len", "1e9"),
            ("base", "nan"),
            ("base", "1"),
            ("base", "-inf"),
            ("d_model", "x" * 10_000),
            ("lang", "fr"),
            ("present", "maybe"),
            ("no_such_setting", "1"),
        ]
    ),
    ("binary", "criteria", {"bin_k": "0"}, "bin_k"),
    ("binary", "counter", {"bin_bits": "abc"}, "bin_bits"),
    ("binary", "distance", {"bin_scheme": "gray"}, "bin_scheme"),
    ("rotation", "*", {"rot_k": "abc"}, "rot_k"),
    ("rotation", "*", {"rot_k": "5000"}, "rot_k"),
    ("rotation", "*", {"rot_fit": "x"}, "rot_fit"),
    *(
        ("wavelengths", "*", {key: "x"}, key)
        for key in ("wl_bases", "wl_dims", "wl_positions", "wl_vec_mode")
    ),
]
BAD_URL_CASES = [
    (entry, name, opened, query, key)
    for page, tab, query, key in BAD_URL
    for entry, name, opened in PAGE_TABS
    if entry.name == page and (tab == "*" or name == tab or (tab == "" and name == ""))
]


@pytest.mark.parametrize(
    ("entry", "tab", "opened", "query", "key"),
    BAD_URL_CASES,
    ids=[f"{e.name}[{n}]-{k}={next(iter(q.values()))[:8]}" for e, n, _, q, k in BAD_URL_CASES],
)
def test_a_bad_url_value_gives_one_notice_naming_the_setting_and_its_default(
    entry, tab, opened, query, key
):
    at = run(entry, query | opened)
    assert len(at.warning) == 1 and setting_label("en", key) in notice_text(at)
    assert at.get("plotly_chart") or (entry.name, tab) in CHARTLESS, "no chart"
    spec = next((s for s in all_specs(entry) if s.key == key), None)
    bound = [w for kind in CONTROL_KINDS for w in at.get(kind) if w.key == key]
    for widget in bound:  # the control, where this view draws it, shows the default
        value = widget.value
        assert (float(value) if isinstance(value, (int, float)) else value) == spec.default


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
def test_a_fixed_sample_of_8_setting_combinations_never_raises(entry):
    """Fixed examples, not a search: derandomized, the same 8 combinations every run (a
    page run costs about a second, and CI must be reproducible). They are drawn by
    hypothesis from every spec's whole range, ends included."""

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


# Every kind of control the pages draw (AppTest names); each carries a help tooltip.
CONTROL_KINDS = (
    "slider",
    "number_input",
    "radio",
    "checkbox",
    "toggle",
    "text_input",
    "selectbox",
    "button",
)


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_every_control_has_a_help_text_and_each_number_widget_reaches_its_ends(entry, tab, opened):
    """Each control of the open tab (sidebar included) has a help tooltip; then the
    widgets themselves (not the URL) are driven to both ends, with a rerun after each."""
    at = run(entry, opened)
    controls = [(kind, w) for kind in CONTROL_KINDS for w in at.get(kind)]
    assert controls
    assert [(kind, w.key) for kind, w in controls if not w.proto.help] == []
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
                drawn = at.get("plotly_chart") or (entry.name, tab) in CHARTLESS
                assert drawn, (widget.key, value, "no chart")


WALK_STEPS = 6
WALK_KINDS = ("slider", "number_input", "radio", "checkbox", "text_input", "button")


def _movable(widget, kind: str) -> bool:
    """Whether a visitor can move ``widget``: enabled, and for sliders and number boxes
    with numeric ends."""
    if getattr(widget.proto, "disabled", False):
        return False
    if kind in ("slider", "number_input"):
        ends = (widget.min, widget.max, widget.value)
        return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in ends)
    return True


def _move(data, widget, kind: str) -> str:
    """Set ``widget`` (an AppTest element of ``kind``) as a user could; say what was done."""
    if kind == "button":
        widget.click()
        return "click"
    if kind == "checkbox":
        value = not widget.value
    elif kind == "radio":
        value = data.draw(st.sampled_from(list(widget.options)))
    elif kind == "text_input":
        value = data.draw(st.text(max_size=widget.max_chars or 200))
    else:  # slider or number box with numeric ends (range sliders are not used)
        low, high, step = widget.min, widget.max, widget.step or 1
        steps = int((high - low) // step)
        value = low + step * data.draw(st.sampled_from([0, steps]) | st.integers(0, steps))
        value = min(value, high)
        if isinstance(widget.value, int):
            value = int(value)
    widget.set_value(value)
    return repr(value)[:40]


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_two_fixed_walks_over_the_widgets_never_raise(entry, tab, opened):
    """A visitor's session: widgets (the sidebar's included) moved one after the other,
    with a rerun after each, and other tabs opened on the way. The URL sweeps above start
    every run fresh; this one keeps Session State between moves. Fixed examples, not a
    search: derandomized, the same 2 walks of 6 moves per tab every run."""
    spec = tab_spec(entry)
    module = importlib.import_module(f"ui.specs.{entry.name}") if spec else None
    names = list(module.TAB_NAMES) if spec else []

    @settings(
        max_examples=2,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def walk(data):
        at = run(entry, opened)
        for _ in range(WALK_STEPS):
            kinds = [k for k in WALK_KINDS if any(_movable(w, k) for w in at.get(k))]
            kind = data.draw(st.sampled_from(kinds + (["tab"] if names else [])))
            if kind == "tab":
                name = data.draw(st.sampled_from(names))
                note(f"open tab {name}")
                switch_tab(at, module, name)  # reruns, fails on an exception
            else:
                widgets = [w for w in at.get(kind) if _movable(w, kind)]
                widget = widgets[data.draw(st.integers(0, len(widgets) - 1))]
                note(f"{widget.key or widget.label} = {_move(data, widget, kind)}")
                at.run()
                assert not at.exception, [e.message for e in at.exception]
            CASES["walk steps"] += 1

    walk()


def test_specs_have_unique_page_prefixed_keys():
    """Specs have unique keys across shared and page settings."""
    for entry in PAGES:
        keys = [s.key for s in all_specs(entry)]
        assert len(keys) == len(set(keys)), entry.name
        for spec in specs_of(entry):
            prefixed = spec.key.startswith(("hm_", "wl_", "bin_", "rot_", "rope_", "story_", "sc_"))
            assert prefixed or (entry.name, spec.key) == ("story", "step"), spec.key


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


# A d3 number format as Plotly's hovertemplate takes it after the colon: "%{z:.4f}".
D3_FORMAT = re.compile(r"^(?:.?[<>=^])?[-+( ]?[$#]?0?\d*,?(?:\.\d+)?~?[aefgprsXxobcd%]?$")


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_trace_hovers_with_named_values_or_not_at_all(entry, tab, opened, lang):
    """Plotly's default hover prints bare "(x, y)" numbers: on the clock dials these were
    dial centre + hand tip, meaningless. Every trace names what it shows (a hovertemplate
    with valid number formats) or has no hover."""
    at = run(entry, {"lang": lang} | opened)
    for element, fig in zip(at.get("plotly_chart"), figures(at), strict=True):
        for index, trace in enumerate(fig["data"]):
            template = trace.get("hovertemplate")
            assert template or trace.get("hoverinfo") in ("skip", "none"), (element.proto.id, index)
            for text in template if isinstance(template, list) else [template or ""]:
                formats = re.findall(r"%\{[^}:]+:([^}]*)\}", text)
                assert all(D3_FORMAT.match(f) for f in formats), (element.proto.id, formats)
