"""Real-browser tests in headless Chromium (Debian's chromium, driven by Playwright)."""

from contextlib import contextmanager
from urllib.parse import parse_qsl, urlparse

import pytest
from support.browser import real_errors, wait_for_app
from support.paths import ARTIFACTS
from support.server import start_server, stop_server
from support.views import CHARTLESS, PAGES, ROOT, setting_label, tab_spec, tabs

from ui.plain.texts import text
from ui.shared import menu
from ui.shared.i18n import t

pytestmark = pytest.mark.browser

CHART = "[data-testid=stPlotlyChart] .main-svg"
D_LABEL_ZH = text("zh", "common.d_model")


IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari"


@contextmanager
def device_page(browser, request, width: int, height: int, *, phone: bool):
    """A page of ``width`` x ``height`` px in a fresh context (``phone``: an iPhone's
    User-Agent and touch, which the app's ``controls.phone()`` reads); on failure a
    screenshot goes to test-artifacts/, as with the ``page`` fixture."""
    options = dict(viewport={"width": width, "height": height})
    if phone:
        options.update(user_agent=IPHONE, is_mobile=True, has_touch=True)
    context = browser.new_context(**options)
    pg = context.new_page()
    try:
        yield pg
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        raise
    finally:
        context.close()


def no_network_outside(pg, server):
    """Record requests that leave the local server (the app must work offline)."""
    pg.outside = []
    pg.on("request", lambda r: not r.url.startswith(server.url) and pg.outside.append(r.url))


def test_home_page_opens_without_exception(server, page):
    no_network_outside(page, server)
    page.goto(server.url + "/")
    wait_for_app(page)
    page.wait_for_selector(CHART, timeout=60_000)
    assert page.locator("[data-testid=stException]").count() == 0
    assert real_errors(page) == []
    assert page.outside == []


@pytest.mark.parametrize("entry", menu.PAGES, ids=lambda p: p.name)
def test_every_menu_page_draws_its_charts_without_errors(server, page, entry):
    no_network_outside(page, server)
    page.goto(server.url + entry.url_path)
    wait_for_app(page)
    page.wait_for_selector(CHART, timeout=60_000)
    assert page.locator("[data-testid=stException]").count() == 0
    assert real_errors(page) == []
    assert page.outside == []
    # The shared menu lists every page.
    assert page.locator("[data-testid=stSidebar] [data-testid=stPageLink]").count() >= len(
        menu.PAGES
    )


def test_moving_a_slider_redraws_the_chart(server, page):
    page.goto(server.url + "/?seq_len=10&d_model=8")
    wait_for_app(page)
    page.wait_for_selector(CHART)
    rows = "() => document.querySelector('.js-plotly-plot')?._fullData?.[0]?.z?.length"
    assert page.evaluate(rows) == 10
    slider = page.get_by_role("slider", name="Sequence length L")
    slider.focus()
    slider.press("ArrowRight")
    slider.press("ArrowRight")
    page.wait_for_function(f"() => ({rows})() === 12", timeout=30_000)
    assert "seq_len=12" in page.url


def test_deep_link_as_first_visit_to_a_fresh_server_shows_view_and_menu(page):
    # A new server whose very first visitor opens a deep link with parameters: the view
    # must be that link's, and the menu the shared one (not Streamlit's auto menu).
    fresh = start_server()
    try:
        target = menu.PAGES[-1]
        page.goto(f"{fresh.url}{target.url_path}?lang=zh&d_model=16")
        wait_for_app(page)
        page.wait_for_selector(CHART, timeout=60_000)
        sidebar = page.locator("[data-testid=stSidebar]")
        assert sidebar.locator("[data-testid=stSidebarNav]").count() == 0
        labels = sidebar.locator("[data-testid=stPageLink]").all_inner_texts()
        assert any("首页" in label for label in labels)
        assert "d_model=16" in page.url and "lang=zh" in page.url
        assert page.locator("[data-testid=stException]").count() == 0
    finally:
        stop_server(fresh)


def test_hostile_url_shows_a_notice_not_a_traceback(server, page):
    page.goto(server.url + "/?d_model=7&seq_len=abc&base=nan&bogus=" + "x" * 2000)
    wait_for_app(page)
    page.wait_for_selector(CHART)
    assert page.locator("[data-testid=stException]").count() == 0
    notice = page.locator("[data-testid=stAlert]").inner_text()
    named = [setting_label("en", key) for key in ("d_model", "seq_len")]  # by label (#20)
    assert all(label in notice for label in named) and "bogus" in notice


def test_menu_navigation_keeps_shared_settings_in_view_and_address(server, page):
    """Regression: the first menu click used to land on defaults (or on slider minimums)."""
    page.goto(server.url + "/?d_model=16&seq_len=30&lang=zh")
    wait_for_app(page)
    drawing = 0
    for entry in menu.PAGES[1:]:
        page.locator(f"[data-testid=stSidebar] a[href^='{entry.url_path[1:]}?']").first.click()
        page.wait_for_url(f"**{entry.url_path}?*")
        wait_for_app(page)
        assert "d_model=16" in page.url and "seq_len=30" in page.url and "lang=zh" in page.url
        # the d box by its zh label: pages that draw the shared controls show the carried
        # value, the others none (the address above still carries it)
        d_inputs = page.locator(f"[data-testid=stSidebar] input[aria-label='{D_LABEL_ZH}']")
        box, stops = (
            d_inputs.and_(page.locator("[type=number]")),
            d_inputs.and_(page.locator("[type=range]")),
        )
        code = ROOT / "ui" / "features" / entry.name / "page.py"  # the page's own code
        if "shared_controls(" in code.read_text(encoding="utf-8"):
            assert box.input_value() == "16", entry.name
            assert stops.get_attribute("aria-valuetext") == "16", entry.name
            drawing += 1
        else:
            assert box.count() == 0, entry.name
    assert drawing >= 4  # Heatmap, Wavelengths, Binary, Rotation


@pytest.mark.parametrize(
    "entry", [e for e in PAGES if tab_spec(e) is not None], ids=lambda p: p.name
)
def test_clicking_each_lazy_tab_runs_it_and_puts_it_in_the_address(server, page, entry):
    """A click on a tab reruns the page with that tab open: its content appears (charts
    drawn where it has any), the address names the tab by its code, and nothing fails."""
    spec = tab_spec(entry)
    page.goto(server.url + entry.url_path)
    wait_for_app(page)
    for name, opened in tabs(entry)[1:] + tabs(entry)[:1]:  # end on the first tab
        label = opened[spec.key]
        page.get_by_role("tab", name=label, exact=True).click()
        page.wait_for_function(  # the first tab is the default: no parameter
            "([k, v, first]) => (new URLSearchParams(location.search).get(k) ?? first) === v",
            arg=[spec.key, name, tabs(entry)[0][0]],
        )
        wait_for_app(page, timeout=120_000)
        panel = page.locator("[role=tabpanel]:visible")
        if (entry.name, name) not in CHARTLESS:
            panel.locator(CHART).first.wait_for(timeout=120_000)
        assert panel.locator("[data-testid=stException]").count() == 0, name
        query = dict(parse_qsl(urlparse(page.url).query))
        assert query.get(spec.key, tabs(entry)[0][0]) == name, (name, page.url)
    assert real_errors(page) == []


def test_the_address_keeps_the_open_tab_across_a_language_switch_and_reload(server, page):
    """Regression: a tab bound with bind="query-params" lost its URL value when the
    labels changed language (switch, or a link in the other language), so a reload or a
    copied address opened the first tab. The address holds the tab's code, the same in
    both languages; a link holding a label (from before codes) opens its tab too."""

    def open_tab_and_query():
        # After a navigation the app first reports "not running" before its websocket
        # connects: wait for a chart of this run too, then for the run to end.
        page.wait_for_selector(CHART, timeout=60_000)
        wait_for_app(page)
        selected = page.locator("[role=tab][aria-selected=true]").inner_text()
        return selected, dict(parse_qsl(urlparse(page.url).query))

    page.goto(server.url + "/Rotation?rot_tab=Circle&rot_k=5")
    assert open_tab_and_query()[0] == "Circle"
    page.locator("[data-testid=stSidebar] label").filter(has_text="中文").first.click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('lang') === 'zh'")
    selected, query = open_tab_and_query()
    assert selected == "圆周" and query["lang"] == "zh" and query["rot_k"] == "5"
    assert query["rot_tab"] == "circle"
    page.reload()
    assert open_tab_and_query() == (selected, query)
    page.locator("[data-testid=stSidebar] label").filter(has_text="English").first.click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('lang') !== 'zh'")
    selected, query = open_tab_and_query()
    assert selected == "Circle" and query["rot_tab"] == "circle"
    # A link in the other language opens its tab and keeps it in the address.
    page.goto(server.url + "/Wavelengths?lang=zh&wl_tab=Clocks")
    selected, query = open_tab_and_query()
    assert selected == "时钟" and query["wl_tab"] == "clock"
    page.reload()
    assert open_tab_and_query()[0] == "时钟"
    # The browser's back button restores the tab its address names.
    page.get_by_role("tab", name="波长", exact=True).click()
    page.wait_for_function("() => !new URLSearchParams(location.search).has('wl_tab')")
    wait_for_app(page)
    page.go_back()
    page.wait_for_function("() => new URLSearchParams(location.search).get('wl_tab') === 'clock'")
    wait_for_app(page)
    page.wait_for_function(
        "() => document.querySelector('[role=tab][aria-selected=true]')?.innerText === '时钟'"
    )
    assert real_errors(page) == []


@pytest.mark.parametrize(
    ("device", "expected"),
    [("iPhone", "stacked"), ("desktop", "side by side")],
)
def test_a_phone_browser_gets_the_evolution_panels_one_above_the_other(
    browser, server, request, device, expected
):
    """End to end: the User-Agent Chromium sends as an iPhone reaches the figure."""
    with device_page(browser, request, 390, 1600, phone=device == "iPhone") as pg:
        pg.goto(server.url + "/Binary_vs_sinusoid")
        wait_for_app(pg, timeout=120_000)
        domains = pg.wait_for_function(
            "() => { const l = document.querySelector('.js-plotly-plot')?._fullLayout; return"
            " l?.xaxis5 && [1, 2, 3, 4, 5].map(k => l['xaxis' + (k > 1 ? k : '')].domain); }",
            timeout=60_000,
        ).json_value()
        assert pg.locator("[data-testid=stException]").count() == 0
        if expected == "stacked":
            assert domains == [[0, 1]] * 5
        else:
            assert all(right - left < 0.25 for left, right in domains)


# KaTeX's aligned blocks and matrices measure 2 px wider than their box even on a wide
# desktop (struts); more than 4 px is a formula or label that does not fit.
OVERFLOWING = """() => [...document.querySelectorAll(
    '[data-testid=stMain] .katex-display, [data-testid=stMetricLabel] p,'
    + ' [data-testid=stMain] .stMarkdownEllipsis,'
    + ' [data-testid=stMain] [data-testid^=stPageLink] span')]
  .filter(el => el.scrollWidth > el.clientWidth + 4)
  .map(el => (el.querySelector('annotation')?.textContent || el.innerText).slice(0, 60))"""


@pytest.mark.parametrize(
    ("where", "path", "width"),
    [
        ("projector", "/Rotation?present=true&rot_tab=Live+check", 1024),
        ("phone", "/Rotation?rot_tab=Live+check", 390),
        ("phone", "/", 390),
        ("projector", "/?present=true", 1024),  # the criteria's page links
        ("projector", "/Heatmap?present=true", 1024),  # "Show as [all sin | all cos]"
        ("projector", "/Wavelengths?present=true&wl_tab=Sine+basics", 1024),  # a button
        # Aligned derivations cannot wrap: one step per row (seed 003's rotation; seed
        # 002's proof and the pair's g, in an expander opened here).
        ("projector", "/Rotation?present=true&rot_tab=Row+vs+column", 1024),
        ("projector", "/RoPE?present=true&rope_tab=One+pair&rope_m=4095&rope_n=3", 1024),
        # On a phone even one step per row is too wide: each derivation comes as rows of
        # plain display math that wrap, and the row vector may break before its matrix.
        ("phone", "/Rotation?rot_tab=Row+vs+column", 390),
        ("phone", "/RoPE?rope_tab=One+pair&rope_m=4095&rope_n=3", 390),
    ],
)
def test_long_formulas_and_metric_labels_wrap_on_a_projector_and_a_phone(
    browser, server, request, where, path, width
):
    """At 1024 px with the sidebar open the rotation formula is 331 px too wide, and two
    metric labels, a checkbox label and a button label are cut; on a phone more so.
    Presenter mode and phones wrap them."""
    with device_page(browser, request, width, 900, phone=where == "phone") as pg:
        pg.goto(server.url + path)
        wait_for_app(pg, timeout=120_000)
        # On a projector or a phone a page's lead and formula fold under "About this
        # page" (the chart comes first): opened here, its formula must wrap too.
        # (The derivations' paths below open every expander, this one with them.)
        opens_all = "rot_tab=Row" in path or "rope_tab" in path
        about = pg.locator("[data-testid=stExpander] summary", has_text=t("common.about_page"))
        for summary in [] if opens_all else about.all():
            summary.click()
        pg.locator(".katex-display:visible").first.wait_for(timeout=60_000)  # not in Notes
        if "Live+check" in path:
            pg.wait_for_selector("[data-testid=stMetricLabel]", timeout=60_000)
        if "rot_tab=Row" in path or "rope_tab" in path:  # the derivations' expanders
            pg.wait_for_selector("[data-testid=stExpander] summary", timeout=60_000)
            for summary in pg.locator("[data-testid=stExpander] summary").all():
                summary.click()
            # An expander's content is drawn by the rerun its opening asks for (#32).
            pg.locator("[data-testid=stExpander] .katex-display").first.wait_for(timeout=60_000)
            wait_for_app(pg, timeout=120_000)
            pg.wait_for_timeout(1000)  # the expander's opening animation
        assert pg.locator(".katex-display").count() >= 1
        try:  # KaTeX's fonts and the page's style arrive after the first paint
            pg.wait_for_function(f"() => ({OVERFLOWING})().length === 0", timeout=15_000)
        except Exception:
            assert pg.evaluate(OVERFLOWING) == []  # says which ones overflow
            raise


def test_the_base_tabs_context_slider_moves_the_bound_and_its_curve(server, page):
    # RoPE, "Base for a context": one step of the context slider (4,096 -> 6,144) moves
    # the B(m) curve's last offset and the bound read above it, in the browser.
    page.goto(server.url + "/RoPE?rope_tab=base")
    wait_for_app(page)
    page.wait_for_selector(CHART)
    last_m = "() => { const x = document.querySelector('.js-plotly-plot')?._fullData?.[0]?.x;" \
             " return x ? x[x.length - 1] : null; }"  # fmt: skip
    assert page.evaluate(last_m) == 4096
    metric = page.locator("[data-testid=stMetricValue]").first
    before = metric.inner_text()
    slider = page.get_by_role("slider", name=text("en", "rope.bound_len"))
    slider.focus()
    slider.press("ArrowRight")
    page.wait_for_function(f"() => ({last_m})() === 6144", timeout=60_000)
    assert "rope_bound_len=6144" in page.url
    page.wait_for_function(
        "b => document.querySelector('[data-testid=stMetricValue]')?.innerText !== b",
        arg=before, timeout=60_000,
    )  # fmt: skip
    assert real_errors(page) == []


def test_the_temperature_chart_draws_four_curves_and_a_method_change_redraws_it(server, page):
    page.goto(server.url + "/RoPE?rope_tab=temperature&rope_scaling=yarn")
    wait_for_app(page)
    plain = text("en", "rope.temp_plain")
    names = (
        "() => [...document.querySelectorAll('.js-plotly-plot')].map(p => p._fullData)"
        f".find(d => d?.some(t => t.name === '{plain}'))?.map(t => t.name)"
    )
    page.wait_for_function(f"() => ({names})()?.length === 4", timeout=120_000)
    assert page.evaluate(names)[1:] == [
        text("en", f"rope.temp_{key}", method="YaRN") for key in ("off", "on", "twice")
    ]
    methods = page.get_by_role("radiogroup", name=text("en", "rope.scaling"))
    methods.get_by_text(text("en", "rope.method_linear"), exact=True).click()
    page.wait_for_function(f"() => ({names})()?.length === 2", timeout=120_000)
    assert real_errors(page) == []
