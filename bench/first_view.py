"""Where the first chart lands, and how large its type is, on a projector and a phone (#21).

``python bench/first_view.py [--url http://127.0.0.1:PORT] [--only NAME,...]``

Opens every menu page's first tab (``ui.shared.menu.PAGES``) and every story step
(``ui.features.story.view.STEPS``, when that module exists) in headless Chromium, twice:

- presenter: ``?present=true`` in a 1024 x 768 window;
- phone: Playwright's "iPhone 13" (User-Agent with "Mobi", touch) at 390 x 844.

Per view it prints the first ``[data-testid=stPlotlyChart]``'s top edge (px from the
top of the page), the smallest rendered font size (px, from the SVG's inline styles) of
the chart's tick labels, its title, axis titles, legend and subplot titles, and of all
its text (every ``text`` of its ``.main-svg`` layers but hover labels: annotations, dial
labels, colour bars, buttons too), whether the sidebar is open, and whether Plotly's mode
bar overlaps the plot area. Targets (issues #21, #32): presenter top < 768, every chart
text >= 18, titles >= 22, legend >= 18; phone top < 844, no mode bar over the plot. Exit
status 1 if a view misses one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, wait_for_app  # noqa: E402
from tests.support.server import start_server, stop_server  # noqa: E402
from ui.shared import menu  # noqa: E402

PRESENTER = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
# Playwright's "iPhone 13" descriptor (its User-Agent has "Mobi"), at the phone's full
# 390 x 844 screen; written out so a test can use it inside a running Playwright.
IPHONE = {
    "user_agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/27.2 Mobile/15E148 Safari/604.1",
    "viewport": PHONE,
    "screen": PHONE,
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
# Targets of issue #21 (px).
MIN_TICK, MIN_TITLE, MIN_LEGEND = 18, 22, 18

# The first chart's geometry and the smallest rendered size of each kind of chart text.
# 3-D scenes draw their axes in WebGL: their sizes come from Plotly's full layout.
MEASURE_JS = """() => {
  const chart = document.querySelector('[data-testid=stPlotlyChart]');
  const sidebar = document.querySelector('[data-testid=stSidebar]');
  const side = sidebar ? sidebar.getBoundingClientRect() : null;
  const out = {
    top: chart ? chart.getBoundingClientRect().top + window.scrollY : null,
    sidebar: !!(side && side.width > 50 && side.right > 50
                && sidebar.getAttribute('aria-expanded') !== 'false'),
    exceptions: document.querySelectorAll('[data-testid=stException]').length,
  };
  // Tab labels cut: a tab past the right edge of its bar, or its text clipped.
  out.tabs_cut = [...document.querySelectorAll('[data-testid=stTabs] [role=tab]')].some((tab) => {
    const bar = tab.closest('[role=tablist]').getBoundingClientRect();
    const r = tab.getBoundingClientRect();
    return r.right > bar.right + 1 || tab.scrollWidth > tab.clientWidth + 1;
  });
  // A metric whose value is not larger than its label.
  const px = (el) => (el ? parseFloat(getComputedStyle(el).fontSize) : null);
  out.metric_small = [...document.querySelectorAll('[data-testid=stMetric]')].some((m) => {
    const label = px(m.querySelector('[data-testid=stMetricLabel] p'));
    const value = px(m.querySelector('[data-testid=stMetricValue]'));
    return label !== null && value !== null && value <= label;
  });
  if (!chart) return out;
  const size = (selector) => {
    const sizes = [...chart.querySelectorAll(selector)]
      .filter((el) => (el.textContent || '').trim())
      .map((el) => parseFloat(el.style.fontSize || getComputedStyle(el).fontSize))
      .filter((v) => v > 0);
    return sizes.length ? Math.min(...sizes) : null;
  };
  out.tick = size('.xtick text, .ytick text, .cbaxis text, .colorbar .tick text');
  out.title = size('.gtitle');
  out.axis_title = size('.xtitle, .ytitle, .cbtitle text, .colorbar .cbtitle text');
  out.legend = size('.legendtext');
  out.subplot_title = size('.annotation-text');
  // Every text the chart draws (ticks, titles, annotations, dial labels, legend, colour
  // bars, buttons, slider labels), hover labels aside (drawn only under the pointer).
  const drawn = [...chart.querySelectorAll('.main-svg text')]
    .filter((el) => (el.textContent || '').trim() && !el.closest('.hoverlayer'))
    .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
    .map((el) => [parseFloat(el.style.fontSize || getComputedStyle(el).fontSize),
                  el.textContent.trim().slice(0, 30)])
    .filter(([v]) => v > 0)
    .sort((a, b) => a[0] - b[0]);
  out.any_text = drawn.length ? drawn[0][0] : null;
  out.smallest_text = drawn.length ? drawn[0][1] : null;
  const plotly = chart.querySelector('.js-plotly-plot');
  const full = plotly && plotly._fullLayout;
  if (full) {
    const scenes = Object.keys(full).filter((k) => /^scene\\d*$/.test(k));
    for (const name of scenes) {
      for (const axis of ['xaxis', 'yaxis', 'zaxis']) {
        const a = full[name][axis];
        if (!a || a.visible === false) continue;
        const tick = a.tickfont && a.tickfont.size;
        const title = a.title && a.title.font && a.title.font.size;
        if (tick) out.tick = out.tick === null ? tick : Math.min(out.tick, tick);
        if (title && a.title.text)
          out.axis_title = out.axis_title === null ? title : Math.min(out.axis_title, title);
      }
    }
  }
  const bar = chart.querySelector('.modebar');
  const area = chart.querySelector('.draglayer .nsewdrag, .gl-container, .bglayer rect');
  out.modebar_over_plot = false;
  if (bar && area) {
    const b = bar.getBoundingClientRect(), a = area.getBoundingClientRect();
    const shown = getComputedStyle(bar).display !== 'none'
      && parseFloat(getComputedStyle(bar.parentElement).opacity || '1') > 0
      && parseFloat(getComputedStyle(bar).opacity || '1') > 0 && b.width > 0;
    const overlap = b.left < a.right && a.left < b.right && b.top < a.bottom && a.top < b.bottom;
    out.modebar_over_plot = shown && overlap;
  }
  return out;
}"""
CHART_DRAWN = "[data-testid=stPlotlyChart] .main-svg"


def story_steps() -> int:
    """How many story steps exist (0 before ``ui.features.story.view`` lands)."""
    try:
        from ui.features.story import view as story
    except ImportError:
        return 0
    return len(getattr(story, "STEPS", ()))


def views() -> list[tuple[str, str]]:
    """(name, URL path) of every menu page's first tab and every story step."""
    found = [(page.name, page.url_path) for page in menu.PAGES]
    story = next((p for p in menu.PAGES if p.path == "pages/0_Start_here.py"), None)
    path = story.url_path if story else "/Start_here"
    found += [(f"story step {n}", f"{path}?step={n}") for n in range(1, story_steps() + 1)]
    return found


def address(base: str, path: str, mode: str) -> str:
    if mode != "presenter":
        return base + path
    joiner = "&" if "?" in path else "?"
    return base + path + joiner + urlencode({"present": "true"})


def contexts(browser) -> dict:
    """One browser context per mode: presenter 1024 x 768, phone "iPhone 13" 390 x 844."""
    return {
        "presenter": browser.new_context(viewport=PRESENTER),
        "phone": browser.new_context(**IPHONE),
    }


def measure(pg, url: str, timeout: float = 90_000) -> dict:
    """Open ``url`` in page ``pg``, wait for the script and the first chart, measure."""
    pg.goto(url)
    wait_for_app(pg, timeout)
    try:
        pg.wait_for_selector(CHART_DRAWN, timeout=timeout)
    except Exception:  # no chart: measured as such (top None)
        pass
    pg.wait_for_timeout(600)  # Plotly's second layout pass (legends, automargins)
    return pg.evaluate(MEASURE_JS)


def problems(mode: str, found: dict) -> list[str]:
    """What misses the targets of issue #21 in one measured view."""
    out = []
    top = found.get("top")
    limit = PRESENTER["height"] if mode == "presenter" else PHONE["height"]
    if top is None:
        return ["no chart"]
    if top >= limit:
        out.append(f"first chart's top at {top:.0f} px, below the first {limit} px")
    if found.get("exceptions"):
        out.append("exception on screen")
    if mode == "presenter":
        for key, least in (
            ("tick", MIN_TICK),
            ("title", MIN_TITLE),
            ("axis_title", MIN_TITLE),
            ("subplot_title", MIN_TITLE),
            ("legend", MIN_LEGEND),
            ("any_text", MIN_TICK),
        ):
            value = found.get(key)
            if value is not None and value < least:
                which = f" ({found.get('smallest_text')!r})" if key == "any_text" else ""
                out.append(f"{key} {value:g} px < {least} px{which}")
        if found.get("sidebar"):
            out.append("sidebar open")
        if found.get("tabs_cut"):
            out.append("a tab label is cut")
        if found.get("metric_small"):
            out.append("a metric's value is not larger than its label")
    elif found.get("modebar_over_plot"):
        out.append("mode bar over the plot area")
    return out


def _px(value) -> str:
    return "" if value is None else f"{value:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="an already running server")
    parser.add_argument("--only", help="comma-separated view names (default: all)")
    args = parser.parse_args(argv)
    chosen = views()
    if args.only:
        wanted = set(args.only.split(","))
        chosen = [v for v in chosen if v[0] in wanted]
    server = (
        None if args.url else start_server(extra_env={"STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"})
    )
    base = args.url or server.url
    rows, failed = [], False
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            pages = {mode: c.new_page() for mode, c in contexts(browser).items()}
            for name, path in chosen:
                for mode, pg in pages.items():
                    found = measure(pg, address(base, path, mode))
                    missed = problems(mode, found)
                    failed |= bool(missed)
                    rows.append((name, mode, found, missed))
                    print(f"{name} [{mode}]: {found} {missed or ''}", file=sys.stderr, flush=True)
            browser.close()
    finally:
        if server:
            stop_server(server)
    print(
        "| view | mode | chart top (px) | ticks | title | axis titles | subplot titles"
        " | legend | any chart text | sidebar | mode bar over plot | result |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
    for name, mode, f, missed in rows:
        print(
            f"| {name} | {mode} | {_px(f.get('top'))} | {_px(f.get('tick'))}"
            f" | {_px(f.get('title'))} | {_px(f.get('axis_title'))}"
            f" | {_px(f.get('subplot_title'))} | {_px(f.get('legend'))} | {_px(f.get('any_text'))}"
            f" | {'open' if f.get('sidebar') else 'closed'}"
            f" | {'yes' if f.get('modebar_over_plot') else 'no'}"
            f" | {'; '.join(missed) or 'PASS'} |"
        )
    print("RESULT:", "FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
