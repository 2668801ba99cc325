"""Meaning never rides on colour alone (issue #33, WCAG 1.4.1): in every chart of every
view, two lines or marker sets that the legend tells apart either differ in something
besides colour (dash, marker symbol, lines vs markers, their own text) or keep distinct
colours for a reader with deuteranopia or protanopia.

The colours as such a reader sees them: Machado, Oliveira and Fernandes (2009), "A
Physiologically-based Model for Simulation of Color Vision Deficiency", severity 1.0
matrices applied in linear RGB; distinct means a CIE76 colour difference ΔE*ab of at
least :data:`MIN_DELTA_E` (about where two thin lines stop being told apart at a glance).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from support.apptest import run_page
from support.screen import figures
from support.views import PAGE_TAB_IDS, PAGE_TABS, script

TIMEOUT = 120
MIN_DELTA_E = 20.0

MACHADO = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868],
         [0.114503, 0.786281, 0.099216],
         [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968],
         [0.280085, 0.672501, 0.047413],
         [-0.011820, 0.042940, 0.968881]]
    ),
}  # fmt: skip
PLOTLY_COLORWAY = ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A",
                   "#19d3f3", "#FF6692", "#B6E880", "#FF97FF", "#FECB52"]  # fmt: skip


def rgb(colour: str) -> np.ndarray:
    """'#rrggbb', 'rgb(r, g, b)' or 'rgba(r, g, b, a)' -> sRGB in [0, 1]."""
    colour = colour.strip()
    if colour.startswith("#"):
        h = colour[1:]
        h = "".join(c * 2 for c in h) if len(h) == 3 else h
        return np.array([int(h[i : i + 2], 16) for i in (0, 2, 4)]) / 255
    parts = colour[colour.index("(") + 1 : colour.index(")")].split(",")
    return np.array([float(p) for p in parts[:3]]) / 255


def linear(srgb: np.ndarray) -> np.ndarray:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def lab(lin: np.ndarray) -> np.ndarray:
    """Linear sRGB -> CIE L*a*b* (D65)."""
    xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    ) @ np.clip(lin, 0, 1)
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen_apart(a: str, b: str) -> float:
    """The smallest ΔE*ab between colours ``a`` and ``b`` under the simulated deficiencies."""
    la, lb = linear(rgb(a)), linear(rgb(b))
    return min(float(np.linalg.norm(lab(m @ la) - lab(m @ lb))) for m in MACHADO.values())


def look(trace: dict, index: int, colorway: list[str]) -> tuple[tuple, str | None]:
    """What tells a trace apart besides colour, and its colour (None: several colours)."""
    mode = trace.get("mode", "lines+markers" if trace["type"] != "bar" else "bar")
    line, marker = trace.get("line") or {}, trace.get("marker") or {}
    shape = (
        trace["type"],
        mode,
        line.get("dash", "solid") if "lines" in mode else None,
        marker.get("symbol", "circle") if "markers" in mode else None,
        "text" in mode,
    )
    colour = line.get("color") if "lines" in mode else None
    colour = colour or marker.get("color") or colorway[index % len(colorway)]
    return shape, colour if isinstance(colour, str) else None


def told_by_colour_alone(fig: dict) -> list[str]:
    """Pairs of legend entries on one subplot that only their colours tell apart, and
    that those colours do not keep apart under deuteranopia or protanopia."""
    layout = fig.get("layout", {})
    colorway = layout.get("template", {}).get("layout", {}).get("colorway", PLOTLY_COLORWAY)
    entries: dict[tuple, list] = {}
    for i, trace in enumerate(fig.get("data", [])):
        if trace.get("type") not in ("scatter", "scatter3d", "bar"):
            continue
        if trace.get("showlegend") is False or not trace.get("name") or trace.get("visible") in (
            False, "legendonly",
        ):  # fmt: skip
            continue
        where = (trace.get("xaxis", "x"), trace.get("yaxis", "y"), trace.get("scene"))
        entries.setdefault(where, []).append((trace["name"], *look(trace, i, colorway)))
    problems = []
    for group in entries.values():
        for (name_a, shape_a, col_a), (name_b, shape_b, col_b) in itertools.combinations(group, 2):
            if shape_a != shape_b or col_a is None or col_b is None:
                continue
            if (apart := seen_apart(col_a, col_b)) < MIN_DELTA_E:
                problems.append(f"{name_a!r} vs {name_b!r}: {col_a} / {col_b}, ΔE {apart:.1f}")
    return problems


@pytest.mark.parametrize(("entry", "name", "query"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_no_chart_tells_its_lines_apart_by_colour_alone(entry, name, query):
    at = run_page(script(entry), query, TIMEOUT)
    problems = [p for fig in figures(at) for p in told_by_colour_alone(fig)]
    assert problems == []


def test_red_and_green_lines_alike_but_for_colour_are_caught():
    """The check can fail: a red and a green solid line are one colour to a deuteranope."""
    fig = {"data": [
        {"type": "scatter", "mode": "lines", "name": "a", "line": {"color": "#d62728"}},
        {"type": "scatter", "mode": "lines", "name": "b", "line": {"color": "#2ca02c"}},
    ]}  # fmt: skip
    assert len(told_by_colour_alone(fig)) == 1
    fig["data"][1]["line"]["dash"] = "dash"
    assert told_by_colour_alone(fig) == []
