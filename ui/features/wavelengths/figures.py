"""Figure builders of the Wavelength explorer: arrays in, ``go.Figure`` out.

The words a figure shows come in as strings the page has translated (``names``,
``titles``, ``x_title``, ...), so the builders stay free of Streamlit. The "Float forms" tab's
builders are in ``figures_float_forms``, the clock dials (shared with the story) in
``ui.plain.clock``; which positions and pairs are drawn (point budgets, dial choice) is
decided on the data side, ``data``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui.plain.clock import MAX_FRAMES as MAX_FRAMES  # re-exported: the Clocks tab draws
from ui.plain.clock import clock_figure as clock_figure  # the dials shared with the story
from ui.plain.grids import MAX_LINE_POINTS as MAX_LINE_POINTS  # the curves' point budget
from ui.plain.pick import mark
from ui.plain.style import cell, legend_below, panels, style, style_stacked

MAX_MARKERS = 400  # integer positions marked on a curve, at most (beyond: just the line)
PALETTE = ("#b2182b", "#2166ac", "#1b7837", "#762a83", "#e08214", "#4d4d4d", "#01665e")
# Each line of a chart its own dash as well as its colour: red and green, blue and violet
# of the palette look alike with deuteranopia or protanopia (issue #33,
# tests/sweeps/test_colour_vision.py).
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
CLASS_COLOURS = {"full": "#2166ac", "beyond": "#e08214", "aliased": "#b2182b"}


def level_line(x: list, y: list, text: str, colour: str, position: str) -> go.Scatter:
    """A dotted reference line labelled at its second end (log-axis safe)."""
    return go.Scatter(
        x=x,
        y=y,
        mode="lines+text",
        text=["", text],
        textposition=position,
        textfont=dict(size=11, color=colour),
        line=dict(color=colour, dash="dot", width=1),
        showlegend=False,
        hoverinfo="skip",
    )


def wavelength_figure(
    pairs: np.ndarray,
    series: Sequence[tuple[float, np.ndarray]],
    classes: dict[str, np.ndarray],
    context: int,
    *,
    titles: tuple[str, str],
    names: Sequence[str],
    class_names: Mapping[str, str],
    context_names: tuple[str, str],
    nyquist_names: tuple[str, str],
    x_title: str,
    height: int = 440,
    stacked: bool = False,
) -> go.Figure:
    """``lambda_i`` (left) and ``omega_i`` (right) against pair i on log axes.

    ``series``: ``(base, wavelengths)`` with the shared base first, ``names`` their
    legend names; the first one's points are coloured by ``classes`` (boolean masks
    ``full``, ``beyond``, ``aliased``), named by ``class_names``. The context L and the
    Nyquist limit are drawn in both panels, named by ``context_names`` and
    ``nyquist_names`` (lambda panel, omega panel). ``stacked`` (a phone): lambda above omega.
    """
    panel_height = height - 140  # side by side, the legend takes ~140 px under the plots
    fig = panels(2, stacked=stacked, titles=titles, spacing=0.1, panel_height=panel_height)
    for k, ((_, lam), name) in enumerate(zip(series, names, strict=True)):
        colour = PALETTE[k % len(PALETTE)]
        for col, y in ((1, lam), (2, 2 * np.pi / lam)):
            fig.add_trace(
                go.Scatter(
                    x=pairs,
                    y=y,
                    mode="lines",
                    line=dict(
                        color=colour, width=2.5 if k == 0 else 1.5, dash=None if k == 0 else "dash"
                    ),
                    name=name,
                    legendgroup=name,
                    showlegend=col == 1,
                    hovertemplate=f"{name}<br>i=%{{x}}<br>%{{y:.6g}}<extra></extra>",
                ),
                **cell(col, stacked),
            )
    _class_markers(fig, pairs, series[0][1], classes, class_names, stacked)
    _reference_lines(fig, pairs, context, context_names, nyquist_names, stacked)
    fig.update_yaxes(type="log", exponentformat="power", **cell(1, stacked), title="λᵢ")
    fig.update_yaxes(type="log", exponentformat="power", **cell(2, stacked), title="ωᵢ")
    fig.update_xaxes(title=x_title)
    if not stacked:
        fig.update_layout(legend=dict(orientation="h", y=-0.22, x=0))
        style(fig, height=height)
        # The room Plotly's automargin grows this chart to on a desktop (the powers of
        # ten left of the plot, the legend row under it), given at once: the browser
        # draws the chart once instead of twice (ui.plain.style.settle_margins).
        return fig.update_layout(margin=dict(l=75, b=109))
    return legend_below(style_stacked(fig, 2, panel_height, extra=140))


def _class_markers(
    fig: go.Figure,
    pairs: np.ndarray,
    lam: np.ndarray,
    classes: dict[str, np.ndarray],
    class_names: Mapping[str, str],
    stacked: bool,
) -> None:
    """The points of ``lam`` coloured by class in the lambda panel; a click picks pair i."""
    markers = pairs.size <= 256
    for key, mask in classes.items():
        if not mask.any():
            continue
        label = class_names[key]
        fig.add_trace(
            go.Scatter(
                x=pairs[mask],
                y=lam[mask],
                customdata=pairs[mask],  # a click picks pair i (ui.shared.grab)
                mode="markers",
                marker=dict(color=CLASS_COLOURS[key], size=6 if markers else 3),
                name=label,
                hovertemplate=f"{label}<br>i=%{{x}}<br>λ=%{{y:.6g}}<extra></extra>",
            ),
            **cell(1, stacked),
        )
        mark(fig.data[-1])


def _reference_lines(
    fig: go.Figure,
    pairs: np.ndarray,
    context: int,
    context_names: tuple[str, str],
    nyquist_names: tuple[str, str],
    stacked: bool,
) -> None:
    """The context L and the Nyquist limit as levels, in both panels."""
    levels = (
        (1, context, context_names[0], "#e08214"),
        (1, 2.0, nyquist_names[0], "#b2182b"),
        (2, 2 * np.pi / context, context_names[1], "#e08214"),
        (2, np.pi, nyquist_names[1], "#b2182b"),
    )
    # Drawn as traces, not add_hline: annotations on a log axis take log10 coordinates.
    x_ends = [0, max(int(pairs[-1]), 1)] if pairs.size else [0, 1]
    for col, value, text, colour in levels:
        fig.add_trace(
            level_line(x_ends, [value, value], text, colour, "top left"),
            **cell(col, stacked),
        )


def curves_figure(
    positions: np.ndarray,
    values: np.ndarray,
    dims: Sequence[int],
    *,
    names: Sequence[str],
    x_title: str,
    y_title: str,
    height: int = 380,
    marked: bool = False,
) -> go.Figure:
    """Columns ``PE[:, j]`` over positions, one line per chosen dimension j (seed 003),
    named by ``names``.

    ``marked``: the line is sampled between the integers
    (``ui.features.wavelengths.data.curve_samples``), and its samples at integer positions get a
    dot: at d = 128 the dimensions 4-7 turn ~0.75 rad per position, and a line through
    the integers alone looks like a zigzag.
    """
    fig = go.Figure()
    sizes = np.where(positions % 1 == 0, 5, 0).astype(np.float32) if marked else None
    for k, name in enumerate(names):
        fig.add_trace(
            go.Scatter(
                x=positions.astype(np.float32),  # integers and k/16 up to 8192: exact
                y=values[:, k].astype(np.float32),  # display only: half the payload
                mode="lines+markers" if marked else "lines",
                name=name,
                line=dict(
                    color=PALETTE[k % len(PALETTE)] if len(dims) <= len(PALETTE) else None,
                    dash=DASHES[k % len(DASHES)],
                ),
                marker=dict(size=sizes) if marked else None,
                hovertemplate=f"{name}<br>p=%{{x:.4g}}<br>%{{y:.6f}}<extra></extra>",
            )
        )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, range=[-1.08, 1.08])
    return style(fig, height=height)


def vectors_figure(
    x: np.ndarray,
    values: np.ndarray,
    positions: Sequence[int],
    x_title: str,
    *,
    height: int = 320,
    stacked: bool = False,
) -> go.Figure:
    """One panel per position k: its values across ``x`` (seed 004's four panels).

    Four to a row, each row ``height`` tall; ``stacked`` (a phone): one per row, 0.6x as tall.
    """
    n = len(positions)
    titles = [f"p = {k}" for k in positions]
    cols = 1 if stacked else min(n, 4)
    rows = -(-n // cols)
    panel_height = int(height * 0.6)
    if stacked:
        fig = panels(n, stacked=True, titles=titles, shared_y=True, panel_height=panel_height)
    else:
        fig = make_subplots(
            rows=rows,
            cols=cols,
            subplot_titles=titles,
            shared_yaxes=True,
            horizontal_spacing=0.03,
            vertical_spacing=0.18 if rows > 1 else 0.1,
        )
    for index, k in enumerate(positions):
        fig.add_trace(
            go.Scatter(
                x=x,
                y=values[index].astype(np.float32),  # display only: half the payload
                mode="lines",
                line=dict(color=PALETTE[1], width=1.5),
                showlegend=False,
                hovertemplate=f"p={k}<br>{x_title}=%{{x}}<br>%{{y:.6f}}<extra></extra>",
            ),
            row=index // cols + 1,
            col=index % cols + 1,
        )
    fig.update_yaxes(range=[-1.08, 1.08])
    fig.update_xaxes(title=x_title, row=rows)
    if stacked:
        return style_stacked(fig, n, panel_height)
    return style(fig, height=height * rows)


class SineParts(NamedTuple):
    """What y = A sin(B x + C) + D is made of (seed 003's names)."""

    period: float  # T = 2 pi / B
    frequency: float  # f = 1 / T = B / (2 pi): cycles per unit of x
    shift: float  # -C / B: how far right of sin(B x) the wave starts
    peak: float  # the first x >= 0 where the wave is at its top, D + A
    rise: float  # the first x >= 0 where it crosses its midline D going up


def sine_parts(b: float, c: float) -> SineParts:
    """Period, frequency, phase shift and the first peak and rise of ``A sin(Bx + C) + D``.

    >>> sine_parts(8 * np.pi, 0.0)[:2]  # seed 003: 4 times between 0 and 1
    (0.25, 4.0)
    >>> round(sine_parts(2.0, np.pi / 2).shift, 6), round(sine_parts(2.0, np.pi / 2).rise, 6)
    (-0.785398, 2.356194)
    """
    period = 2 * np.pi / b
    return SineParts(
        period=float(period),
        frequency=float(1 / period),
        shift=float(-c / b) + 0.0,  # + 0.0: C = 0 gives 0, not -0
        peak=float(((np.pi / 2 - c) % (2 * np.pi)) / b),
        rise=float(((-c) % (2 * np.pi)) / b),
    )


def sine_figure(
    a: float,
    b: float,
    c: float,
    d: float,
    *,
    marks: Mapping[str, str],
    periods: int = 4,
    height: int = 380,
    stacked: bool = False,
) -> go.Figure:
    """Seed 003's sine recap: ``A sin(Bx + C) + D`` over ``periods`` periods, next to
    ``sin x``, with its midline D, amplitude A, period T = 2 pi / B and phase marked;
    ``marks``: the legend names of the ``midline``, ``period``, ``amplitude`` and
    ``phase`` (with their values, from :func:`sine_parts`).

    ``stacked`` (a phone): the legend under the plot, not beside it.
    """
    parts = sine_parts(b, c)
    x = np.linspace(0.0, periods * parts.period, 200 * periods + 1)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=x, y=np.sin(x), mode="lines", name="sin x",
            line=dict(color="#9aa0a6", dash="dot", width=1.5),
            hovertemplate="sin x<br>x=%{x:.4f}<br>%{y:.4f}<extra></extra>",
        )
    )  # fmt: skip
    name = "A sin(Bx + C) + D"
    fig.add_trace(
        go.Scatter(
            x=x, y=a * np.sin(b * x + c) + d, mode="lines", name=name,
            line=dict(color=PALETTE[0], width=2.5),
            hovertemplate=f"{name}<br>x=%{{x:.4f}}<br>%{{y:.4f}}<extra></extra>",
        )
    )  # fmt: skip
    top = d + a
    lines = [
        # (x, y, label, colour): the midline, one period at the top, the amplitude, the rise.
        ([0.0, x[-1]], [d, d], marks["midline"], PALETTE[5]),
        ([parts.peak, parts.peak + parts.period], [top, top], marks["period"], PALETTE[1]),
        ([parts.peak, parts.peak], [d, top], marks["amplitude"], PALETTE[2]),
        ([parts.rise], [d], marks["phase"], PALETTE[3]),
    ]
    for xs, ys, label, colour in lines:
        fig.add_trace(
            go.Scatter(
                x=xs, y=ys, name=label, mode="lines+markers" if len(xs) > 1 else "markers",
                line=dict(color=colour, width=2), marker=dict(size=8, color=colour),
                hovertemplate=f"{label}<extra></extra>",
            )
        )  # fmt: skip
    fig.update_xaxes(title="x")
    fig.update_yaxes(title="y", range=[min(-1.0, d - a) - 0.3, max(1.0, top) + 0.3])
    if stacked:
        return legend_below(style(fig, height=height + 160))
    return style(fig, height=height)
