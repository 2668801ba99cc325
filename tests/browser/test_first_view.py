"""The first view on a projector and on a phone (issues #21, #32).

Presenter mode (``present=true``, 1024 x 768): the first chart's top edge within the
first screen, every chart text (ticks, legends, annotations, dial labels, colour bars)
>= 18 px, titles and axis titles >= 22 px, the sidebar closed. Phone (iPhone 13,
390 x 844, "Mobi" User-Agent): the first chart's top within the first screen, no Plotly
mode bar over the plot. Every menu page's first tab and every story step
(``ui.features.story.view.STEPS``, once that module exists); the measurement is
``bench/first_view.py``'s. The unit tests below check the pieces without a browser.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import plotly.graph_objects as go
import pytest
import streamlit as st
from plotly.subplots import make_subplots
from support.apptest import run_page
from support.browser import wait_for_app
from support.screen import figures

from bench import first_view
from ui.plain.style import PRESENTER_LEGEND, PRESENTER_TICK, PRESENTER_TITLE, presenter_fonts
from ui.shared import controls, layout, menu
from ui.shared.i18n import t

TIMEOUT = 120
VIEWS = first_view.views()


@pytest.fixture(scope="module")
def screens(browser):
    """One browser context per mode and one page in each, reused by every view."""
    made = first_view.contexts(browser)
    yield {mode: context.new_page() for mode, context in made.items()}
    for context in made.values():
        context.close()


def test_the_phone_is_a_390_x_844_touch_screen_with_a_mobile_user_agent():
    # Playwright's "iPhone 13" descriptor, written out (bench/first_view.py's IPHONE):
    # a second Playwright cannot start inside the session's browser fixture.
    phone = first_view.IPHONE
    assert "Mobi" in phone["user_agent"] and phone["is_mobile"] and phone["has_touch"]
    assert phone["viewport"] == phone["screen"] == {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["presenter", "phone"])
@pytest.mark.parametrize(("name", "path"), VIEWS, ids=[name for name, _ in VIEWS])
def test_the_first_chart_fits_the_first_screen(server, screens, mode, name, path):
    url = first_view.address(server.url, path, mode)
    found = first_view.measure(screens[mode], url)
    missed = first_view.problems(mode, found)
    assert not missed, f"{name} ({path}) on a {mode}: {'; '.join(missed)} (measured {found})"


@pytest.mark.browser
def test_the_measure_reads_every_chart_text_as_the_dials_labels_at_11_px(server, screens):
    # Story step 5 on a projector drew its dial labels at 11 px (issue #32): ticks and
    # titles were measured, the text of traces was not. The labels put back at 11 px
    # in the drawn chart must fail the view.
    pg = screens["presenter"]
    path = dict(VIEWS)["story step 5"]
    found = first_view.measure(pg, first_view.address(server.url, path, "presenter"))
    assert found["any_text"] >= PRESENTER_TICK, found
    labels = pg.evaluate(
        """() => [...document.querySelectorAll('[data-testid=stPlotlyChart] .textpoint text')]
              .map((el) => { el.style.fontSize = '11px'; return el.textContent; })"""
    )
    assert len(labels) == 8, labels  # the story's eight dials
    found = pg.evaluate(first_view.MEASURE_JS)
    assert found["any_text"] == 11 and found["smallest_text"] in labels
    assert any(m.startswith("any_text 11 px") for m in first_view.problems("presenter", found))


def test_every_menu_page_is_measured():
    names = [name for name, _ in VIEWS]
    assert names[: len(first_view.menu.PAGES)] == [p.name for p in first_view.menu.PAGES]
    assert len(names) == len(first_view.menu.PAGES) + first_view.story_steps()


def test_the_targets_catch_a_small_font_a_low_chart_and_an_open_sidebar():
    good = dict(top=500, tick=18, title=24, axis_title=22, legend=18, subplot_title=22)
    assert first_view.problems("presenter", good) == []
    for key, value in (("top", 768), ("tick", 17), ("axis_title", 21), ("legend", 12)):
        assert first_view.problems("presenter", {**good, key: value}), key
    assert first_view.problems("presenter", {**good, "sidebar": True})
    assert first_view.problems("presenter", {**good, "tabs_cut": True})
    assert first_view.problems("presenter", {**good, "metric_small": True})
    small = {**good, "any_text": 11, "smallest_text": "i=0, λ=6.283"}
    assert first_view.problems("presenter", small) == ["any_text 11 px < 18 px ('i=0, λ=6.283')"]
    assert first_view.problems("phone", {"top": 844})
    assert first_view.problems("phone", {"top": 100, "modebar_over_plot": True})
    assert first_view.problems("phone", {"top": None}) == ["no chart"]


def _sizes(fig: go.Figure) -> dict[str, list[float]]:
    """Every font size of a figure's text, by kind, as Plotly will draw it."""
    full = json.loads(fig.to_json())["layout"]
    axes = [v for k, v in full.items() if k.startswith(("xaxis", "yaxis"))]
    scenes = [
        full[k][a] for k in full if k.startswith("scene") for a in ("xaxis", "yaxis", "zaxis")
    ]
    bars = [t["colorbar"] for t in json.loads(fig.to_json())["data"] if "colorbar" in t]
    bars += [v["colorbar"] for k, v in full.items() if k.startswith("coloraxis")]
    return {
        "tick": [a["tickfont"]["size"] for a in axes + scenes]
        + [b["tickfont"]["size"] for b in bars],
        "title": [a["title"]["font"]["size"] for a in axes + scenes]
        + [full["title"]["font"]["size"]]
        + [a["font"]["size"] for a in full["annotations"] if a.get("yanchor") == "bottom"],
        "legend": [full["legend"]["font"]["size"]],
    }


def test_presenter_fonts_reach_every_kind_of_chart_text():
    fig = make_subplots(
        rows=1,
        cols=3,
        subplot_titles=["a", "b", "c"],
        specs=[[{}, {}, {"type": "scene"}]],
    )
    fig.add_trace(go.Heatmap(z=[[0, 1], [1, 0]], colorbar=dict(title="v")), row=1, col=1)
    fig.add_trace(go.Scatter(x=[1, 2], y=[3, 4], name="line"), row=1, col=2)
    fig.add_trace(go.Scatter3d(x=[0], y=[0], z=[0]), row=1, col=3)
    fig.update_layout(title="T", font_size=13, legend_font_size=12, coloraxis=dict(cmin=0))
    fig.update_xaxes(title="x", tickfont_size=12)
    fig.update_yaxes(type="log", row=1, col=2)
    fig.update_annotations(font_size=13)
    presenter_fonts(fig)
    sizes = _sizes(fig)
    assert min(sizes["tick"]) >= PRESENTER_TICK
    assert min(sizes["title"]) >= PRESENTER_TITLE
    assert min(sizes["legend"]) >= PRESENTER_LEGEND
    # A log axis's in-between labels would be drawn at 3/4 of its tick size: none.
    assert fig.layout.yaxis2.dtick == 1
    assert fig.layout.margin.t >= 70  # room for the larger title


def test_presenter_fonts_keep_larger_sizes():
    fig = go.Figure(go.Scatter(x=[0], y=[0]))
    fig.update_xaxes(tickfont_size=30)
    presenter_fonts(fig)
    assert fig.layout.xaxis.tickfont.size == 30
    assert fig.layout.yaxis.tickfont.size == PRESENTER_TICK


def test_the_sidebar_starts_closed_only_in_presenter_mode():
    assert controls.sidebar_state(True) == "collapsed"
    assert controls.sidebar_state(False) == "auto"


def page_configs(monkeypatch) -> list:
    """What each ``st.set_page_config`` call of a run asked, in order (a list it fills)."""
    events = []
    real = st.set_page_config
    monkeypatch.setattr(
        st, "set_page_config", lambda **kw: events.append(kw) or real(**kw), raising=True
    )
    return events


@pytest.mark.parametrize(("present", "state"), [("true", "collapsed"), (None, "auto")])
def test_a_page_asks_for_the_sidebar_state_of_its_mode_before_the_sidebar_fills(
    monkeypatch, present, state
):
    # The front end draws a sidebar open until the page config arrives, then slides
    # it closed: sent after the sidebar's first widgets, the config let a projector
    # show the sidebar for a moment (a CI run measured it open at 300 px).
    events = page_configs(monkeypatch)
    for name in ("language_switch", "toggle"):  # the sidebar's first two widgets
        draw = getattr(controls, name)
        monkeypatch.setattr(
            controls, name, lambda *a, _draw=draw, **kw: events.append("sidebar") or _draw(*a, **kw)
        )
    run_page("4_Rotation.py", {"present": present} if present else None, TIMEOUT)
    states = [e["initial_sidebar_state"] for e in events if isinstance(e, dict)]
    assert states == [state]  # one message a run
    assert isinstance(events[0], dict) and "sidebar" in events


def test_a_wrong_guess_of_the_mode_is_corrected_in_the_same_run(monkeypatch):
    # The mode is read before its toggle runs; were that read ever wrong (say, a value
    # left from another page), the toggle's value must still win.
    events = page_configs(monkeypatch)
    values = menu.carried_values
    reads = itertools.count()

    def wrong_first(*args):  # the first read, setup_page's guess, misses the URL's mode
        return {} if next(reads) == 0 else values(*args)

    monkeypatch.setattr(menu, "carried_values", wrong_first)
    run_page("4_Rotation.py", {"present": "true"}, TIMEOUT)
    assert [e["initial_sidebar_state"] for e in events] == ["auto", "collapsed"]


def _first_chart(at) -> dict:
    return figures(at)[0]


# The explorer pages with a lead (the story page has no lead to fold; home keeps its intro).
EXPLORERS = [
    Path(p.path).name for p in menu.PAGES if p.path.startswith("pages/") and p.path[6] in "123457"
]


@pytest.mark.parametrize("page", [None, *EXPLORERS])
def test_presenter_mode_gives_every_first_chart_projector_type(page):
    at = run_page(page, {"present": "true"}, TIMEOUT)
    layout = _first_chart(at)["layout"]
    axes = [v for k, v in layout.items() if k.startswith(("xaxis", "yaxis"))]
    assert axes and min(a["tickfont"]["size"] for a in axes) >= PRESENTER_TICK, page
    assert min(a["title"]["font"]["size"] for a in axes) >= PRESENTER_TITLE, page
    if page is not None:  # the lead and formula fold under the title
        assert t("common.about_page") in [e.label for e in at.expander], page


@pytest.mark.parametrize("page", EXPLORERS)
def test_a_desktop_shows_the_lead_open_and_the_usual_type(page):
    at = run_page(page, None, TIMEOUT)
    assert t("common.about_page") not in [e.label for e in at.expander]
    assert _first_chart(at)["layout"]["font"]["size"] < PRESENTER_TICK


def test_a_phone_gets_charts_without_the_mode_bar(monkeypatch):
    monkeypatch.setattr(layout, "user_agent", lambda: first_view.IPHONE["user_agent"])
    at = run_page("1_Heatmap.py", None, TIMEOUT)
    chart = at.get("plotly_chart")[0]
    assert json.loads(chart.proto.config)["displayModeBar"] is False
    monkeypatch.setattr(layout, "user_agent", lambda: "")  # a desktop
    desk = run_page("1_Heatmap.py", None, TIMEOUT)
    assert "displayModeBar" not in json.loads(desk.get("plotly_chart")[0].proto.config or "{}")


@pytest.mark.parametrize(("present", "inline"), [("true", True), (None, False)])
def test_home_draws_the_table_size_above_the_table_in_presenter_mode(present, inline):
    at = run_page(None, {"present": present} if present else None, TIMEOUT)
    in_sidebar = {w.key for w in at.sidebar.number_input}
    assert ("seq_len" not in in_sidebar) == inline
    assert ("d_model" not in in_sidebar) == inline
    assert {"seq_len", "d_model"} <= {w.key for w in at.number_input}


SIDEBAR_WIDTH = (
    "() => Math.round(document.querySelector('[data-testid=stSidebar]')"
    "?.getBoundingClientRect().width ?? -1)"
)


# The widest the sidebar has been since the page began to load (an init script).
WIDEST_SIDEBAR = """(() => { window.__widestSidebar = -1;
  const look = () => { const bar = document.querySelector('[data-testid=stSidebar]');
    if (bar) window.__widestSidebar = Math.max(window.__widestSidebar,
                                               bar.getBoundingClientRect().width);
    requestAnimationFrame(look); };
  look(); })()"""


@pytest.mark.browser
def test_presenter_mode_starts_with_the_sidebar_closed_and_a_button_that_opens_it(server, browser):
    # The hidden header once took the sidebar's open button with it: a presenter could
    # not reach the settings or leave presenter mode. A context of its own: the front
    # end remembers an opened sidebar (localStorage) over any page's initial state.
    context = browser.new_context(viewport=first_view.PRESENTER)
    try:
        pg = context.new_page()
        pg.add_init_script(WIDEST_SIDEBAR)
        pg.goto(server.url + "/Rotation?present=true")
        wait_for_app(pg)
        pg.wait_for_selector("[data-testid=stPlotlyChart]")
        assert pg.evaluate("window.__widestSidebar") < 50  # never drawn open, then closed
        pg.get_by_test_id("stExpandSidebarButton").click()
        pg.wait_for_function(f"() => ({SIDEBAR_WIDTH})() > 250")
        pg.get_by_text(t("common.present")).click()  # untick: the sidebar stays open
        pg.wait_for_url(lambda url: "present" not in url)
        wait_for_app(pg)
        assert pg.evaluate(SIDEBAR_WIDTH) > 250
    finally:
        context.close()


def test_a_square_heatmap_on_a_phone_is_as_tall_as_it_is_wide(monkeypatch):
    # In a taller figure Plotly centres the square plot and the colour bar spans the
    # whole height, twice the plot's (seen on the similarity matrix at 390 px).
    monkeypatch.setattr(layout, "user_agent", lambda: first_view.IPHONE["user_agent"])
    fig = go.Figure(go.Heatmap(z=[[0, 1], [1, 0]]))
    fig.update_layout(height=460, margin=dict(l=60, r=20, t=20, b=50))
    fig.update_yaxes(scaleanchor="x")
    controls.fit_phone(fig)
    plot_height = fig.layout.height - 20 - 50
    plot_width = controls.PHONE_CHART_WIDTH - 60 - controls.COLORBAR_ROOM
    assert plot_height <= plot_width < plot_height + 20
    free = go.Figure(go.Heatmap(z=[[0, 1], [1, 0]])).update_layout(height=460)
    assert controls.fit_phone(free).layout.height == 460  # not square: unchanged
    monkeypatch.setattr(layout, "user_agent", lambda: "")  # a desktop
    desk = go.Figure(go.Heatmap(z=[[0, 1]])).update_layout(height=460)
    desk.update_yaxes(scaleanchor="x")
    assert controls.fit_phone(desk).layout.height == 460


@pytest.mark.browser
def test_on_a_phone_a_wide_table_scrolls_in_its_own_box(server, screens):
    pg = screens["phone"]
    pg.goto(server.url + "/Wavelengths")  # the bases table: five columns of numbers
    wait_for_app(pg)
    table = "document.querySelector('[data-testid=stMain] [data-testid=stMarkdownContainer] table')"
    # st.html's style arrives a moment after the table: wait for it (or time out).
    pg.wait_for_function(
        f"() => {table} && getComputedStyle({table}).overflowX === 'auto'", timeout=60_000
    )
    box = pg.evaluate(
        f"() => {{ const t = {table}; return {{overflow: getComputedStyle(t).overflowX,"
        " width: t.getBoundingClientRect().width, inner: t.scrollWidth,"
        " page: document.querySelector('[data-testid=stMain]').scrollWidth}; }"
    )
    assert box["overflow"] == "auto", box
    assert box["inner"] > box["width"], box  # wider than the screen: it scrolls, in its box
    assert box["width"] <= first_view.PHONE["width"] and box["page"] <= first_view.PHONE["width"]


@pytest.mark.browser
def test_on_a_phone_a_square_heatmaps_colour_bar_is_no_taller_than_its_plot(server, screens):
    pg = screens["phone"]
    pg.goto(server.url + "/Heatmap?hm_tab=Similarity")
    wait_for_app(pg)
    pg.wait_for_selector("[data-testid=stPlotlyChart] .colorbar")
    sizes = pg.evaluate(
        "() => { const c = document.querySelector('[data-testid=stPlotlyChart]');"
        " const bar = c.querySelector('.colorbar .cbfills').getBoundingClientRect();"
        " const plot = c.querySelector('.draglayer .nsewdrag').getBoundingClientRect();"
        " return {bar: bar.height, plot: plot.height}; }"
    )
    assert 0 < sizes["bar"] <= sizes["plot"] + 2, sizes


# Every menu page's first chart but the schemes page's: its legend, above the plot, takes
# one to three rows as the window's width and the language have it, so Plotly still grows
# that margin in the browser (one more draw, as before issue #32).
DRAWN_ONCE = [entry for entry in menu.PAGES if entry.name != "schemes"]
MARGINS_JS = """() => { const gd = document.querySelector('.js-plotly-plot');
  const asked = gd.layout.margin, drawn = gd._fullLayout._size;
  const sides = (m) => [m.l, m.r, m.t, m.b];
  return {asked: sides(asked), drawn: sides(drawn)}; }"""


@pytest.mark.browser
@pytest.mark.parametrize("entry", DRAWN_ONCE, ids=[entry.name for entry in DRAWN_ONCE])
def test_a_desktop_draws_the_first_chart_once(server, browser, entry):
    """Plotly grows a margin that is too small for the axis titles, colour bar or legend
    of Streamlit's chart theme, and then draws the whole chart again (~30-35 ms of the
    browser's main thread, on every draw). The first chart of each page asks for the
    margins it ends up with (``ui.plain.style.settle_margins`` and the pages' figures):
    a change of theme, fonts or figure that makes Plotly draw twice fails here."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        pg = context.new_page()
        first_view.measure(pg, server.url + (entry.url_path or "/"), TIMEOUT * 1000)
        margins = pg.evaluate(MARGINS_JS)
    finally:
        context.close()
    assert margins["drawn"] == margins["asked"], f"{entry.name}: {margins}"
