"""What one part of a page adds to the time to first chart (issue #7, explains first_chart.py).

``python bench/first_chart_parts.py [--loads N] [--quick]``

Each variant is the bare page of ``first_chart.py`` (one small Plotly chart) plus one
kind of element, on its own server; loads take turns between all of them, one warm-up
round first, exactly as in ``first_chart.py``. The report gives each variant's median
and its cost, (variant - bare) / bare: the share of the 1.3x budget that part uses.
"bare, second server" is the same page as the reference: its cost is the noise floor.

What it showed (bench/README.md): the first element of a kind costs most (its
JavaScript chunk is fetched and compiled), further ones little; a page URL costs the
front end's failed ``/<page>/_stcore/health`` probe and a 100 ms retry timer.
Exit status 0 whatever the costs (it measures, it does not judge); 1 without Chromium.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from first_chart import (  # noqa: E402
    BARE_PAGE,
    BareServer,
    chromium_missing,
    first_chart_ms,
    options,
)
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

HEAD, CHART = BARE_PAGE.rsplit("\n\n", 1)
HEATMAP = """import numpy as np
z = np.random.default_rng(0).standard_normal((256, 256)).astype(np.float32)
st.plotly_chart(go.Figure(go.Heatmap(z=z, colorbar=dict(thickness=12))), width="stretch")
"""
# What every menu page of the app has before its first chart: the shared sidebar
# (language, presenter mode, menu, link popover, the shared sliders and base box) and
# tabs; served at a page URL like the app's pages, with a small chart in the first tab.
FRAME = """st.set_page_config(layout="wide")
bar = st.sidebar
bar.radio("Language", ["en", "zh"], captions=["English", "Chinese"], horizontal=True, help="h")
bar.checkbox("Presenter mode", help="h")
bar.caption("Pages")
for i in range(2, 8):
    bar.page_link(f"pages/{i}_p{i}.py", label=f"Page {i}", icon=":material/home:")
bar.divider()
with bar.popover("Link to this view", icon=":material/link:"):
    st.caption("Copy it")
    st.code("http://x/?a=1", language=None)
bar.subheader("Shared settings")
bar.slider("L", 2, 8192, 50, help="h")
bar.slider("d", 2, 4096, 128, help="h")
bar.number_input("base", 2.0, 1e9, 1e4, help="h")
st.title("Title")
st.markdown("Some words. " * 30)
tab = st.tabs(["a", "b", "c", "d", "e", "f"])[0]
"""
FRAME_CHART = "with tab:\n    " + CHART


class Part(NamedTuple):
    before: str  # code before the chart
    chart: str = CHART
    links: int = 0  # empty pages to link to
    page_url: bool = False  # served at /chart instead of /


PARTS: dict[str, Part] = {
    "bare, second server (noise floor)": Part(""),
    "1 slider": Part("st.sidebar.slider('a', 0, 100, 50, help='h')\n"),
    "3 sliders": Part("for i in range(3):\n    st.sidebar.slider(f'a{i}', 0, 100, 50, help='h')\n"),
    "1 radio": Part("st.sidebar.radio('r', ['a', 'b', 'c'], help='h')\n"),
    "3 radios": Part(
        "for i in range(3):\n    st.sidebar.radio(f'r{i}', ['a', 'b', 'c'], help='h')\n"
    ),
    "1 number box": Part("st.sidebar.number_input('b', 1.0, 1e9, 1e4, help='h')\n"),
    "1 checkbox": Part("st.sidebar.checkbox('c', help='h')\n"),
    "1 text box": Part("st.sidebar.text_input('t', 'abc', help='h')\n"),
    "6 page links": Part(
        "for i in range(2, 8):\n    st.sidebar.page_link(f'pages/{i}_p{i}.py', label=f'p{i}')\n",
        links=6,
    ),
    "popover with a code block": Part(
        "with st.sidebar.popover('link'):\n    st.code('http://x/?a=1', language=None)\n"
    ),
    "6 tabs": Part("st.tabs(['a', 'b', 'c', 'd', 'e', 'f'])\n"),
    "1 st.latex": Part("st.latex(r'S = \\frac{\\langle q, k \\rangle}{\\sqrt d}')\n"),
    "1 st.metric": Part("st.metric('m', '1.2e-16', help='h')\n"),
    "title + paragraph": Part("st.title('Title')\nst.markdown('Some words. ' * 60)\n"),
    "256 x 256 heatmap instead of the chart": Part("", HEATMAP),
    "shared sidebar + title + tabs, at a page URL (every menu page has them)": Part(
        FRAME, FRAME_CHART, links=6, page_url=True
    ),
}


def main(argv: list[str] | None = None) -> int:
    args = options(argv, __doc__, loads=6, unit="variant")
    loads = args.loads
    if chromium_missing():
        return 1
    servers: dict[str, BareServer] = {}
    urls: dict[str, str] = {}
    try:
        servers["bare"] = BareServer()
        urls["bare"] = servers["bare"].url + "/"
        servers["page URL (/chart)"] = BareServer(page_url=True)
        urls["page URL (/chart)"] = servers["page URL (/chart)"].url + "/chart"
        for name, part in PARTS.items():
            source = f"{HEAD}\n\n{part.before}{part.chart}\n"
            servers[name] = BareServer(source=source, link_pages=part.links, page_url=part.page_url)
            urls[name] = servers[name].url + ("/chart" if part.page_url else "/")
        times: dict[str, list[float]] = {name: [] for name in urls}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for round_ in range(loads + 1):  # round 0: warm-up
                for name, url in urls.items():
                    ms, exceptions, _ = first_chart_ms(browser, url, args.timeout * 1000)
                    if exceptions:
                        raise RuntimeError(f"{name}: {exceptions} exception(s) on screen")
                    if round_:
                        times[name].append(ms)
                print(f"round {round_} done", flush=True)
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
    bare = statistics.median(times["bare"])
    print(f"\n# first chart, median of {loads} cold loads; cost = (variant - bare) / bare")
    print("| variant | median (ms) | cost (share of the 0.3x budget) |")
    print("|---|---:|---:|")
    for name, ts in times.items():
        median = statistics.median(ts)
        print(f"| {name} | {median:.0f} | {median / bare - 1:+.3f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
