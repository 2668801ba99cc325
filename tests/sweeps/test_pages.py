"""Every page: runs at defaults, at its extremes (all settings at one end, or alternating
ends), keeps charts under budget, survives hostile and bad URL values, a walk over every
widget of each view, and stays within its memory cap. Fixed examples chosen at the edges,
not a search: a page run costs about a second (hypothesis tests the identities of posenc).

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
from support.apptest import run_page, switch_tab
from support.counts import CASES
from support.screen import chart_sizes, figures, notice_text
from support.views import (
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
    setting_label,
    specs_of,
    tab_spec,
)

from ui.plain.grids import MAX_CHART_BYTES
from ui.plain.style import TRACE_TYPES

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
    # An unknown tab in the URL opens the first tab (checked below by its session state).
    *(
        (
            e.name,
            importlib.import_module(f"ui.features.{e.name}.specs").TAB_NAMES[0],
            {t.key: "nonsense"},
            t.key,
        )
        for e in PAGES
        if (t := tab_spec(e)) is not None
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
    at = run(entry, opened | query)  # the bad value wins over the tab's own (a tab key)
    assert len(at.warning) == 1 and setting_label("en", key) in notice_text(at)
    assert at.get("plotly_chart") or (entry.name, tab) in CHARTLESS, "no chart"
    spec = next((s for s in all_specs(entry) if s.key == key), None)
    bound = [w for kind in CONTROL_KINDS for w in at.get(kind) if w.key == key]
    for widget in bound:  # the control, where this view draws it, shows the default
        value = widget.value
        assert (float(value) if isinstance(value, (int, float)) else value) == spec.default
    if spec is not None and spec is tab_spec(entry):  # tabs: no CONTROL_KINDS; the first opens
        assert at.session_state[key] == spec.default


def mixed_extremes(entry, first: str) -> dict[str, str]:
    """Every setting of the page at an end, alternating in spec order: the first at
    ``first`` ("min" or "max"), the next at the other, and so on. The two ends of one
    setting are run above (all at min, all at max); these mix a short context with a wide
    model, a small base with many pairs, the first tab with the last."""
    specs = [s for s in all_specs(entry) if s.key not in ("lang", "present")]
    other = {"min": "max", "max": "min"}
    return {s.key: extreme(s, first if i % 2 == 0 else other[first]) for i, s in enumerate(specs)}


@pytest.mark.parametrize("entry", PAGES, ids=IDS)
@pytest.mark.parametrize("first", ["min", "max"], ids=["min-max-min", "max-min-max"])
def test_page_runs_with_its_settings_at_alternating_extremes(entry, first, streamlit_warnings):
    query = mixed_extremes(entry, first)
    at = run(entry, query)
    assert not streamlit_warnings, [r.getMessage() for r in streamlit_warnings]
    drawn = at.get("plotly_chart") or (entry.name, open_tab(entry, query)) in CHARTLESS
    assert drawn or at.info, "no chart, and no word why"  # e.g. RoPE's models: paste a config
    assert all(size <= MAX_CHART_BYTES for size in chart_sizes(at)), chart_sizes(at)


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


# Widget ends whose view rightly gives a notice: (page, tab, widget key).
NOTICE_AT_AN_END = {
    ("wavelengths", "curves", "d_model"),  # at d = 2 the default dims 4-7 do not exist
}


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_every_control_has_a_help_text_and_each_number_widget_reaches_its_ends(entry, tab, opened):
    """Each control of the open tab (sidebar included) has a help tooltip; then the
    widgets themselves (not the URL) are driven to both ends, with a rerun after each:
    no exception, no notice (a widget offers only values the page accepts), a chart."""
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
                if (entry.name, tab, widget.key) not in NOTICE_AT_AN_END:
                    assert not at.warning, (widget.key, value, [w.value for w in at.warning])
                drawn = at.get("plotly_chart") or (entry.name, tab) in CHARTLESS
                assert drawn, (widget.key, value, "no chart")


WALK_KINDS = ("slider", "number_input", "radio", "checkbox", "text_input", "button")
# What the walk types into every text box: markup, maths, an unparsable and an overflowing
# number, a CJK word (a text box may legally hold anything; the page must cope).
TYPED = "<b>*x*</b> $1$ 1e309, nan, -1, 词"


def _movable(widget, kind: str) -> bool:
    """Whether a visitor can move ``widget``: enabled, and for sliders and number boxes
    with numeric ends."""
    if getattr(widget.proto, "disabled", False):
        return False
    if kind in ("slider", "number_input"):
        ends = (widget.min, widget.max, widget.value)
        return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in ends)
    return True


def _next_option(widget, entry):
    """The value of the option after ``widget``'s (a radio shows its values formatted:
    the values are those of the page's spec for that key, else the labels themselves)."""
    options = list(widget.options)
    target = options[(widget.index + 1) % len(options)]
    spec = next((s for s in all_specs(entry) if s.key == widget.key), None)
    values = list(getattr(spec, "options", options))
    return next(v for v in values if str(widget.format_func(v)) == target)


def _move(widget, kind: str, entry) -> str:
    """Move ``widget`` (an AppTest element of ``kind``) once, as a visitor could: a slider
    or number box to its low end (its high end when already there), a choice to the next
    option, a checkbox over, :data:`TYPED` into a text box, a click on a button."""
    if kind == "button":
        widget.click()
        return "click"
    if kind == "checkbox":
        value = not widget.value
    elif kind == "radio":
        value = _next_option(widget, entry)
    elif kind == "text_input":
        value = TYPED[: widget.max_chars or None]
    else:  # slider or number box with numeric ends (range sliders are not used)
        value = widget.max if widget.value == widget.min else widget.min
    widget.set_value(value)
    return repr(value)[:40]


@pytest.mark.parametrize(("entry", "tab", "opened"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_a_walk_over_every_widget_of_the_view_never_raises(entry, tab, opened):
    """A visitor's session, one fixed walk per view: each widget on screen at the start
    (the sidebar's included) moved once by :func:`_move`, in order of kind, with a rerun
    after each and Session State kept, then the next tab opened with all that state. The
    URL runs above start every run fresh; the widget-ends test moves only number widgets
    and puts each back."""
    at = run(entry, opened)
    moves = [(k, w.key) for k in WALK_KINDS for w in at.get(k) if w.key and _movable(w, k)]
    assert moves
    done = []
    for kind, key in moves:
        widget = next((w for w in at.get(kind) if w.key == key and _movable(w, kind)), None)
        if widget is None:  # an earlier move hid it (a preset opened another tab)
            continue
        done.append(f"{key} = {_move(widget, kind, entry)}")
        at.run()
        assert not at.exception, (done, [e.message for e in at.exception])
        CASES["walk steps"] += 1
    if tab_spec(entry) is not None:
        module = importlib.import_module(f"ui.features.{entry.name}.specs")
        names = list(module.TAB_NAMES)
        switch_tab(at, module, names[(names.index(tab) + 1) % len(names)])  # fails on one
    assert len(done) >= len(moves) // 2, (moves, done)


def test_specs_have_unique_page_prefixed_keys():
    """Specs have unique keys across shared and page settings."""
    for entry in PAGES:
        keys = [s.key for s in all_specs(entry)]
        assert len(keys) == len(set(keys)), entry.name
        for spec in specs_of(entry):
            prefixed = spec.key.startswith(
                ("hm_", "wl_", "bin_", "rot_", "rope_", "story_", "sc_", "mrope_")
            )
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
    assert at.get("plotly_chart") or (entry.name, tab) in CHARTLESS, "no chart to hover"
    for element, fig in zip(at.get("plotly_chart"), figures(at), strict=True):
        for index, trace in enumerate(fig["data"]):
            template = trace.get("hovertemplate")
            assert template or trace.get("hoverinfo") in ("skip", "none"), (element.proto.id, index)
            for text in template if isinstance(template, list) else [template or ""]:
                formats = re.findall(r"%\{[^}:]+:([^}]*)\}", text)
                assert all(D3_FORMAT.match(f) for f in formats), (element.proto.id, formats)
