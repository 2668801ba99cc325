"""WCAG 2.2 AA in a real browser (issue #33): axe-core finds no violation of the A and AA
rules on any view (every page, tab and story step, English and Chinese, desktop and
presenter mode), ``<html lang>`` follows the reader's language, the keyboard reaches and
sees what it operates, every chart has its text alternative next to it, and at 200 %
zoom or 320 px nothing runs off the side of the page.

One server and one browser page serve the whole sweep (a view is a new address on the
same page, about 4 s with axe). axe-core comes from PyPI's ``axe-playwright-python``
(pinned in requirements-test.txt), which bundles it.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from support.browser import wait_for_app
from support.views import PAGE_TABS, PAGES

from ui.plain.texts import text
from ui.shared.a11y import ALT_CLASS

pytestmark = pytest.mark.browser

# The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, as axe-core tags them.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

CASES = [
    (entry, tab, query, lang, present)
    for entry, tab, query in PAGE_TABS
    for lang in ("en", "zh")
    for present in ("false", "true")
]
IDS = [
    f"{entry.name}[{tab}]-{lang}{'-present' if present == 'true' else ''}"
    if tab
    else f"{entry.name}-{lang}{'-present' if present == 'true' else ''}"
    for entry, tab, _, lang, present in CASES
]


def url_of(server, entry, query: dict[str, str]) -> str:
    path = "/" if entry.path == "app.py" else "/" + entry.url_path.lstrip("/")
    return f"{server.url}{path}?{urlencode(query)}" if query else server.url + path


def open_view(pg, url: str) -> None:
    """Go to ``url`` and wait until the script has finished and every chart is drawn.

    ``ui.shared.a11y``'s script runs once the page's first elements are drawn: before
    that, a new document reports a finished script with nothing on it, and a view without
    charts would be checked empty (seen: an English ``lang`` on a Chinese view)."""
    pg.goto(url)
    pg.wait_for_function("() => window.__posencA11yPass !== undefined", timeout=60_000)
    wait_for_app(pg)
    pg.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')]"
        ".every(c => c.querySelector('.main-svg'))",
        timeout=60_000,
    )
    assert pg.locator("[data-testid=stException]").count() == 0, url


@pytest.fixture(scope="module")
def tab(browser):
    """One page for the whole module, 1400 x 1000 px as the ``page`` fixture's."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


def axe_violations(pg) -> list[str]:
    """axe-core's violations of the WCAG A/AA rules on the page, one line per element."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    found = Axe().run(pg, options=options).response["violations"]
    return [
        f"{v['id']}: {node['target']} {node['failureSummary'][:200]}"
        for v in found
        for node in v["nodes"]
    ]


def chart_alternatives(pg) -> list[str]:
    """Per chart of the page, in order: the text of the alternative right after it (the
    next element of its column), or "" when there is none."""
    return pg.evaluate(
        """(cls) => [...document.querySelectorAll('[data-testid=stPlotlyChart]')].map(c => {
            const box = c.closest('[data-testid=stElementContainer]');
            const next = box && box.nextElementSibling;
            const alt = next && next.querySelector('.' + cls);
            return alt ? alt.textContent.trim() : '';
        })""",
        ALT_CLASS,
    )


@pytest.mark.parametrize(("entry", "name", "query", "lang", "present"), CASES, ids=IDS)
def test_every_view_passes_axe_and_gives_each_chart_a_text(server, tab, entry, name, query,
                                                          lang, present):  # fmt: skip
    open_view(tab, url_of(server, entry, {**query, "lang": lang, "present": present}))
    assert tab.evaluate("document.documentElement.lang") == lang
    assert axe_violations(tab) == []
    alts = chart_alternatives(tab)
    assert all(alts), f"charts without a text alternative: {alts}"


# --- The page's language -------------------------------------------------------------


def test_the_page_language_follows_the_language_switch_and_a_reload(server, tab):
    open_view(tab, server.url + "/Heatmap?lang=zh")
    assert tab.evaluate("document.documentElement.lang") == "zh"
    tab.get_by_role("radiogroup", name="Language / 语言").get_by_text("English").click()
    tab.wait_for_function("() => document.documentElement.lang === 'en'", timeout=30_000)
    tab.get_by_role("radiogroup", name="Language / 语言").get_by_text("中文").click()
    tab.wait_for_function("() => document.documentElement.lang === 'zh'", timeout=30_000)
    tab.reload()
    wait_for_app(tab)
    tab.wait_for_function("() => document.documentElement.lang === 'zh'", timeout=30_000)


def test_a_menu_link_keeps_the_page_language(server, tab):
    open_view(tab, server.url + "/?lang=zh")
    heatmap = next(entry for entry in PAGES if entry.name == "heatmap")
    link = tab.locator("[data-testid=stSidebar] [data-testid=stPageLink] a").filter(
        has_text=text("zh", heatmap.label_key)
    )
    link.click()
    tab.wait_for_url("**/Heatmap**")
    wait_for_app(tab)
    assert tab.evaluate("document.documentElement.lang") == "zh"


# --- Keyboard ------------------------------------------------------------------------

# The focused element's box (a native radio or checkbox input is drawn by its label).
FOCUS_BOX = """() => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  let r = e.getBoundingClientRect();
  if (e.tagName === 'INPUT' && r.width < 20 && r.height < 20 && e.closest('label'))
    r = e.closest('label').getBoundingClientRect();
  return {x: Math.max(0, r.x - 6), y: Math.max(0, r.y - 6), width: r.width + 12,
          height: r.height + 12, wide: r.width > 900,
          name: e.tagName + ' ' + (e.ariaLabel || e.textContent || '').slice(0, 40)};
}"""


def tab_stops_without_visible_focus(pg, limit: int = 80) -> tuple[int, list[str]]:
    """Tab through the page from its top until focus comes back to the first stop; for
    each stop, whether the focused element looks different from the same element
    unfocused (a screenshot of its box each way). Returns (stops, the invisible ones).
    Containers wider than the main column (Streamlit's focusable <main>) are skipped."""
    first, stops, invisible = None, 0, []
    for _ in range(limit):
        pg.keyboard.press("Tab")
        pg.wait_for_timeout(120)
        box = pg.evaluate(FOCUS_BOX)
        if box is None:
            continue
        name, wide = box.pop("name"), box.pop("wide")
        if name == first:
            break
        first = first or name
        stops += 1
        if wide:
            continue
        pg.mouse.move(0, 0)  # no hover effects in either picture
        focused = pg.screenshot(clip=box, animations="disabled")
        pg.evaluate("() => { window.__stop = document.activeElement; window.__stop.blur(); }")
        pg.wait_for_timeout(120)
        plain = pg.screenshot(clip=box, animations="disabled")
        pg.evaluate("() => window.__stop.focus()")
        if focused == plain:
            invisible.append(name)
    return stops, invisible


@pytest.mark.parametrize("path", ["/Heatmap", "/Start_here?step=3&lang=zh"])
def test_every_tab_stop_shows_where_the_focus_is(server, tab, path):
    open_view(tab, server.url + path)
    stops, invisible = tab_stops_without_visible_focus(tab)
    assert stops >= 15, stops  # the walk reached the sidebar's and the page's controls
    assert invisible == []


def test_arrow_keys_on_a_focused_slider_move_the_slider_not_the_story_step(server, tab):
    """The story's Back / Next answer the arrow keys (st.button shortcut); a focused
    slider keeps them."""
    open_view(tab, server.url + "/Start_here?step=3")
    slider = tab.get_by_role("slider").first
    before = slider.get_attribute("aria-valuetext") or slider.input_value()
    slider.focus()
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("() => new URLSearchParams(location.search).get('story_bits')")
    wait_for_app(tab)
    assert "step=3" in tab.url
    after = tab.get_by_role("slider").first
    assert (after.get_attribute("aria-valuetext") or after.input_value()) != before
    tab.locator("[data-testid=stMain] h2").first.click()  # away from the slider: keys step
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("() => new URLSearchParams(location.search).get('step') === '4'")


WIDE_FORMULA = ".katex-display[tabindex='0'][role=group]"


def test_a_formula_wider_than_its_column_is_a_named_tab_stop_the_arrows_scroll(server, tab):
    open_view(tab, server.url + "/RoPE?present=true")
    formula = tab.locator(f"{WIDE_FORMULA}:visible").first  # not one in a closed expander
    assert formula.get_attribute("aria-label") == text("en", "a11y.formula_scrolls")
    formula.focus()
    assert tab.evaluate("(css) => document.activeElement.matches(css)", WIDE_FORMULA)
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("() => document.activeElement.scrollLeft > 0", timeout=5_000)
    # A formula that fits gets no tab stop.
    fits = tab.evaluate(
        "() => [...document.querySelectorAll('.katex-display')]"
        ".filter(e => e.scrollWidth <= e.clientWidth + 1 && e.hasAttribute('tabindex')).length"
    )
    assert fits == 0


# --- Zoom and reflow -----------------------------------------------------------------

# Elements whose box runs past the right edge of the window and no clipping ancestor holds.
STICKING_OUT = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  for (const e of document.querySelectorAll('[data-testid=stApp] *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || r.right <= vw + 1) continue;
    let p = e.parentElement, held = false;
    for (; p; p = p.parentElement) {
      const clips = getComputedStyle(p).overflowX !== 'visible';
      if (clips && p.getBoundingClientRect().right <= vw + 1) { held = true; break; }
    }
    if (!held) out.push(e.tagName + ' ' + (e.getAttribute('data-testid') || ''));
  }
  return out.slice(0, 5);
}"""


@pytest.mark.parametrize(
    ("width", "height", "scale"),
    [(640, 400, 2), (320, 640, 1)],
    ids=["1280px-at-200%", "320px"],
)
def test_nothing_runs_off_the_side_at_200_percent_zoom_or_320_px(browser, server, width,
                                                                 height, scale):  # fmt: skip
    """1280 px at 200 % zoom is a 640 CSS px window with two device pixels per CSS px;
    320 CSS px is WCAG 1.4.10's reflow width. Every page's first view: the document does
    not scroll sideways, nothing sticks out unclipped, and axe finds nothing there too
    (a formula that only scrolls at this width must be focusable)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=scale
    )
    pg = context.new_page()
    try:
        problems = []
        for entry in PAGES:
            open_view(pg, url_of(server, entry, {}))
            widths = pg.evaluate(
                "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            if widths[0] > widths[1]:
                problems.append(f"{entry.name}: document {widths[0]} px wide in {widths[1]}")
            problems += [f"{entry.name}: {e}" for e in pg.evaluate(STICKING_OUT)]
            problems += [f"{entry.name}: {v}" for v in axe_violations(pg)]
        assert problems == []
    finally:
        context.close()


# --- What a screen reader hears ----------------------------------------------------------


def test_a_screen_reader_hears_the_charts_text_not_its_tick_labels(server, tab):
    """In Chromium's accessibility tree the Heatmap's chart is its text alternative,
    right after Plotly's toolbar; the SVG's tick labels ("0 20 40 ...") are hidden."""
    open_view(tab, server.url + "/Heatmap?seq_len=50&d_model=128&lang=zh")
    heard = tab.locator("[data-testid=stMain]").aria_snapshot()
    assert f"paragraph: {text('zh', 'heatmap.alt_table', L=50, d=128)}" in heard
    assert "img: 0 " not in heard and "img: −1" not in heard
