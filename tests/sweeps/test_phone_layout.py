"""Phones: charts with several panels stack them, legends go under the plot.

A shared demo link is often opened on a phone (390 px wide). Side by side, the five
evolution panels were 60 px each and their titles ran into each other. The server
only knows the User-Agent (``ui.shared.layout.phone``); every page must then draw the same
traces with a layout that fits one column, and the same page on a desktop browser
must not change.
"""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from support import apptest, screen, views
from support.views import CHARTLESS, PAGE_TAB_IDS, PAGE_TABS

from bench.first_view import IPHONE
from ui.features.binary import specs as binary
from ui.features.heatmap import specs as heatmap
from ui.features.rope import specs as rope
from ui.features.rotation import specs as rotation
from ui.features.wavelengths import specs as wavelengths
from ui.plain.grids import MAX_CHART_BYTES
from ui.plain.style import PANEL_GAP, STACKED_TOP
from ui.shared import controls, layout

TIMEOUT = 120

# (page file, its specs, tab, chart key, panels)
MULTI_PANEL = [
    ("1_Heatmap.py", heatmap, "embedding", "hm_embedding", 5),
    ("2_Wavelengths.py", wavelengths, "lambdas", "wl_lambda_chart", 2),
    ("2_Wavelengths.py", wavelengths, "vector", "wl_vector_chart", 4),
    ("2_Wavelengths.py", wavelengths, "forms", "wl_forms_chart", 2),
    ("3_Binary_vs_sinusoid.py", binary, "evolution", "bin_evolution", 5),
    ("4_Rotation.py", rotation, "dot", "rot_dot_chart", 2),
    ("5_RoPE.py", rope, "compare", "rope_compare_chart", 3),
]


def as_phone(monkeypatch, phone: bool) -> None:
    """Run pages as a phone's browser (an iPhone's User-Agent, which ``ui.shared.layout.phone``
    reads for every page and module) or a desktop's (no header, as in AppTest)."""
    monkeypatch.setattr(layout, "user_agent", lambda: IPHONE["user_agent"] if phone else "")


def draw(page, specs, tab, key, *, phone: bool, monkeypatch) -> dict:
    as_phone(monkeypatch, phone)
    at = apptest.run_page_on_tab(page, specs, None, tab, TIMEOUT)
    return screen.chart(at, key)


def axes(fig: dict, kind: str) -> list[dict]:
    """``xaxis``, ``xaxis2``, ... of a figure, in panel order."""
    names = [k for k in fig["layout"] if k == kind or k.removeprefix(kind).isdigit()]
    return [fig["layout"][k] for k in sorted(names, key=lambda k: int(k[5:] or 1))]


def plot_px(fig: dict) -> float:
    """Height of the plot area (figure minus top and bottom margins), in px."""
    layout = fig["layout"]
    return layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]


def without_axes(trace: dict) -> dict:
    return {k: v for k, v in trace.items() if k not in ("xaxis", "yaxis")}


@pytest.mark.parametrize(("page", "specs", "tab", "key", "n"), MULTI_PANEL)
def test_a_phone_gets_the_same_traces_with_the_panels_one_above_the_other(
    page, specs, tab, key, n, monkeypatch
):
    desk = draw(page, specs, tab, key, phone=False, monkeypatch=monkeypatch)
    phone = draw(page, specs, tab, key, phone=True, monkeypatch=monkeypatch)
    # Same numbers: only the layout changes.
    assert [without_axes(t) for t in phone["data"]] == [without_axes(t) for t in desk["data"]]

    # Desktop: side by side, unchanged.
    x_desk = [a["domain"] for a in axes(desk, "xaxis")]
    assert len(x_desk) == n
    assert all(left[1] < right[0] for left, right in pairwise(x_desk))

    # Phone: every panel spans the full width ...
    assert [a["domain"] for a in axes(phone, "xaxis")] == [[0.0, 1.0]] * n
    # ... the panels run downwards, each tall enough to read, with room between them
    # for the ticks, the axis title and the next title.
    y = [a["domain"] for a in axes(phone, "yaxis")]
    assert len(y) == n
    px = plot_px(phone)
    assert all(top[0] > below[1] for top, below in pairwise(y))
    assert min((d[1] - d[0]) * px for d in y) >= 150
    assert min((top[0] - below[1]) * px for top, below in pairwise(y)) >= PANEL_GAP - 1
    # A touch screen shows Plotly's toolbar at all times: titles start below it.
    assert phone["layout"]["margin"]["t"] >= STACKED_TOP
    # A y-axis title is on every panel (side by side, only the first has one).
    if axes(desk, "yaxis")[0].get("title"):
        assert all(a.get("title", {}).get("text") for a in axes(phone, "yaxis"))


def test_a_phone_gets_three_dials_a_row_instead_of_six(monkeypatch):
    args = ("2_Wavelengths.py", wavelengths, "clock", "wl_clock_chart")
    desk = draw(*args, phone=False, monkeypatch=monkeypatch)
    phone = draw(*args, phone=True, monkeypatch=monkeypatch)

    def columns(fig):  # the tick marks at 12 o'clock: one per dial, at its centre x
        return len(set(screen.decode(fig["data"][1]["x"]).tolist()))

    assert (columns(desk), columns(phone)) == (6, 3)
    # 12 dials: 4 rows instead of 2, drawn at the same scale (1 unit = 1 unit).
    rows = [round((1.25 - f["layout"]["yaxis"]["range"][0] - 1.7) / 2.7) + 1 for f in (desk, phone)]
    assert rows == [2, 4]
    assert phone["layout"]["height"] > desk["layout"]["height"]
    # The p slider sits beside Play/Pause on a desktop; on a phone, under them (its
    # "p = 3" label was hidden behind the buttons).
    slider = phone["layout"]["sliders"][0]
    assert (slider["x"], slider["len"], slider["pad"]["t"]) == (0, 1, 60)
    assert desk["layout"]["sliders"][0]["x"] == 0.2


def test_a_phone_gets_the_sine_legend_under_the_plot(monkeypatch):
    args = ("2_Wavelengths.py", wavelengths, "basics", "wl_basics_chart")
    desk = draw(*args, phone=False, monkeypatch=monkeypatch)
    phone = draw(*args, phone=True, monkeypatch=monkeypatch)
    assert desk["layout"].get("legend", {}).get("orientation") != "h"
    assert phone["layout"]["legend"]["orientation"] == "h"
    assert phone["layout"]["legend"]["y"] < 0
    assert phone["data"] == desk["data"]


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        # iPhone Safari, Android Chrome, iPad Safari: all write "Mobi".
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
         "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", True),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/120.0.0.0 Mobile Safari/537.36", True),
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/120.0.0.0 Safari/537.36", False),
        ("", False),
    ],
)  # fmt: skip
def test_phone_reads_the_user_agent(agent, expected, monkeypatch):
    class Context:
        headers = {"User-Agent": agent} if agent else {}

    monkeypatch.setattr(layout.st, "context", Context)
    assert controls.phone() is expected


@pytest.mark.parametrize(
    ("page", "specs", "tab", "key"),
    [
        ("3_Binary_vs_sinusoid.py", binary, "counter", "bin_waves"),
        ("4_Rotation.py", rotation, "check", "rot_check_chart"),
        ("5_RoPE.py", rope, "pair", "rope_pair_chart"),
        ("5_RoPE.py", rope, "decay", "rope_decay_chart"),
        ("5_RoPE.py", rope, "extension", "rope_ext_chart"),
    ],
)
def test_a_phone_gets_legends_under_the_plot_not_under_the_toolbar(
    page, specs, tab, key, monkeypatch
):
    desk = draw(page, specs, tab, key, phone=False, monkeypatch=monkeypatch)
    phone = draw(page, specs, tab, key, phone=True, monkeypatch=monkeypatch)
    assert desk["layout"]["legend"]["y"] > 1  # above the plot on a desktop
    legend = phone["layout"]["legend"]
    assert (legend["orientation"], legend["yanchor"]) == ("h", "top")
    # Below the plot area by ~75 px: clear of the x ticks and the axis title.
    assert -legend["y"] * plot_px(phone) == pytest.approx(75)
    assert phone["data"] == desk["data"]


@pytest.mark.parametrize("which", ["default", "min", "max"])
@pytest.mark.parametrize(("entry", "tab", "query"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_on_a_phone_no_chart_puts_a_legend_or_title_under_the_toolbar(
    entry, tab, query, which, monkeypatch
):
    """Every chart of every tab, at the defaults and with every setting at its minimum
    or maximum: a touch screen shows Plotly's toolbar over the top ~30 px of each
    figure, so nothing may sit there; no chart exceeds the 1 MB budget."""
    as_phone(monkeypatch, True)
    settings = {}
    if which != "default":
        specs = views.all_specs(entry)
        skip = ("lang", "present", getattr(views.tab_spec(entry), "key", None))
        settings = {s.key: views.extreme(s, which) for s in specs if s.key not in skip}
    at = apptest.run_page(views.script(entry), settings | query, TIMEOUT)
    figures = screen.figures(at)
    assert figures or (entry.name, tab) in CHARTLESS
    assert all(len(json.dumps(fig)) <= MAX_CHART_BYTES for fig in figures)
    for fig in figures:
        layout = fig["layout"]
        assert layout.get("legend", {}).get("y", 0) <= 1, tab
        if any(a.get("y", 0) >= 0.99 for a in layout.get("annotations", [])):
            assert layout["margin"]["t"] >= STACKED_TOP, tab  # subplot titles
        title = layout.get("title", {})
        if title.get("text"):  # pinned to the plot area, with room above it
            assert (title["yref"], title["y"], title["yanchor"]) == ("paper", 1, "bottom"), tab
            assert layout["margin"]["t"] >= STACKED_TOP + 10, tab


# ---------------------------------------------------------------- derivations

ALIGNED = [
    ("4_Rotation.py", rotation, "conventions", 1),  # seed 003's rotation derivation
    ("5_RoPE.py", rope, "pair", 3),  # the pair's formula, seed 002's proof, the pair's g
]


@pytest.mark.parametrize(("page", "specs", "tab", "blocks"), ALIGNED)
def test_a_phone_gets_each_aligned_derivation_as_rows_that_can_wrap(
    page, specs, tab, blocks, monkeypatch
):
    # Aligned math is one table: on a 390 px phone the derivations ran 37-170 px past
    # the screen. On a phone they come as plain display math with a line break per row
    # (which NARROW_CSS lets wrap); on a desktop they stay aligned.
    def formulas(phone: bool) -> list[str]:
        as_phone(monkeypatch, phone)
        at = apptest.run_page_on_tab(page, specs, None, tab, TIMEOUT)
        return [el.proto.body for el in at.latex]

    desk, phone = formulas(False), formulas(True)
    aligned = [f for f in desk if r"\begin{aligned}" in f]
    assert len(aligned) == blocks
    assert not any(r"\begin{aligned}" in f for f in phone)
    assert len(phone) == len(desk)
    bodies = [f.strip("$ \n") for f in phone]
    for wide in aligned:
        rows = controls.aligned_rows(wide.strip("$ \n"))
        assert len(rows) >= 3
        assert r" \\ ".join(rows) in bodies


def test_aligned_rows_split_only_at_top_level_line_breaks_and_drop_only_alignment_points():
    tex = (
        r"\begin{aligned} a &= \begin{bmatrix}1 & 2\\ 3 & 4\end{bmatrix}\\ &= {x \\ y}"
        r" + \{b\} \& c\\ \text{d} &\to e \end{aligned}"
    )
    assert controls.aligned_rows(tex) == [
        r"a = \begin{bmatrix}1 & 2\\ 3 & 4\end{bmatrix}",  # the matrix keeps rows and cells
        r"= {x \\ y} + \{b\} \& c",  # braces hold their \\; \{ \} \& are characters
        r"\text{d} \to e",
    ]
    assert controls.aligned_rows(r"x = \begin{bmatrix}1 & 2\end{bmatrix}") is None
    assert controls.aligned_rows(r"\begin{aligned} x &= 1 \end{aligned} + 2") is None
    # A row break's options and comments go; \% stays. Not one balanced block: unchanged.
    spaced = "\\begin{aligned} a &= 1 \\\\[2pt] b &= 2\\% c %}&\n\\\\* c &= 3 \\end{aligned}"
    assert controls.aligned_rows(spaced) == ["a = 1", r"b = 2\% c", "c = 3"]
    two = r"\begin{aligned} a &= 1 \end{aligned} + \begin{aligned} b &= 2 \end{aligned}"
    assert controls.aligned_rows(two) is None
    assert controls.aligned_rows(r"\begin{aligned} a &= {1 \end{aligned}") is None
