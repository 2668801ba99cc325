"""Figure builders of the multi-axis RoPE page: plain functions from arrays to
``go.Figure`` (no Streamlit, no posenc). Words come in as plain strings.

The three axes keep one colour and marker everywhere: time, height, width.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui.plain.pick import mark
from ui.plain.style import COLORSCALE, cell, legend_below, panels, style, style_stacked

# time, height, width: colour and marker (never colour alone), and the name.
AXIS_STYLE = (("#1f77b4", "circle"), ("#d62728", "square"), ("#2ca02c", "diamond"))
OVERLAP_COLOUR = "#ff7f0e"
# Up to this many tokens the position rows draw larger markers.
MARKERS_UP_TO = 300


def position_rows(
    index: np.ndarray,
    ids: np.ndarray,
    *,
    names: Sequence[str],
    x_title: str,
    y_title: str,
    resume_index: int,
    resume_label: str,
    overlap_index: np.ndarray | None = None,
    overlap_ids: np.ndarray | None = None,
    overlap_label: str = "",
    resume: int | None = None,
    height: int = 420,
) -> go.Figure:
    """The three position rows ``ids`` (3, n) over token ``index`` (n,), a dashed line
    where the text after the image starts (``resume_index``); when some of the image's
    time positions reach the text's (``overlap_*``), those points and the text's first
    position ``resume`` are marked."""
    fig = go.Figure()
    size = 6 if len(index) <= MARKERS_UP_TO else 3
    # Width first, time last: on a long video the width's sawtooth fills a band, and the
    # height's steps and the time's staircase stay visible above it.
    for a in (2, 1, 0):
        name, (colour, symbol) = names[a], AXIS_STYLE[a]
        fig.add_trace(
            go.Scatter(
                x=index, y=ids[a], name=name, mode="markers", legendrank=a + 1,
                marker=dict(symbol=symbol, size=size, color=colour),
                hovertemplate=f"{name} %{{y}}<br>{x_title} %{{x}}<extra></extra>",
            )
        )  # fmt: skip
    fig.add_vline(x=resume_index - 0.5, line=dict(color="#444", dash="dash", width=1))
    fig.add_annotation(
        x=resume_index - 0.5, y=1, yref="paper", text=resume_label, showarrow=False,
        xanchor="right", yanchor="bottom", font=dict(size=12),
    )  # fmt: skip
    if overlap_index is not None and len(overlap_index):
        fig.add_trace(
            go.Scatter(
                x=overlap_index, y=overlap_ids, name=overlap_label, mode="markers", legendrank=4,
                marker=dict(symbol="x", size=9, color=OVERLAP_COLOUR),
                hovertemplate=f"{overlap_label}<br>%{{y}}<extra></extra>",
            )
        )  # fmt: skip
        fig.add_hline(y=resume, line=dict(color=OVERLAP_COLOUR, dash="dot", width=1))
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title)
    style(fig, height=height)
    fig.update_layout(
        # t: the legend row's room above the plot, as Plotly's automargin grows it on a
        # desktop (given at once, the chart is drawn once: ui.plain.style.settle_margins).
        margin=dict(t=49),
        legend=dict(orientation="h", y=1.12, x=0, itemsizing="constant"),
    )
    return fig


def pair_axes(
    wavelengths: np.ndarray,
    axis: np.ndarray,
    *,
    names: Sequence[str],
    title: str,
    x_title: str,
    y_title: str,
    height: int = 300,
) -> go.Figure:
    """Each pair j's wavelength 2 pi / theta_j (log axis), coloured, marked and named by
    the axis ``axis[j]`` (0 time, 1 height, 2 width) that turns it."""
    fig = go.Figure()
    pairs = np.arange(len(wavelengths))
    for a, (name, (colour, symbol)) in enumerate(zip(names, AXIS_STYLE, strict=True)):
        chosen = axis == a
        fig.add_trace(
            go.Scatter(
                x=pairs[chosen], y=wavelengths[chosen], name=name, mode="markers",
                marker=dict(symbol=symbol, size=8, color=colour),
                hovertemplate=f"{name}<br>{x_title} %{{x}}<br>%{{y:.4g}}<extra></extra>",
            )
        )  # fmt: skip
    fig.update_xaxes(title=x_title, range=[-1, len(wavelengths)])
    fig.update_yaxes(title=y_title, type="log")
    style(fig, height=height, title=title)
    fig.update_layout(legend=dict(orientation="h", y=-0.3, x=0))
    return legend_below(fig)


def score_maps(
    maps: Sequence[np.ndarray],
    titles: Sequence[str],
    *,
    query: tuple[int, int],
    x_title: str,
    y_title: str,
    query_label: str,
    hover: str,
    stacked: bool = False,
    panel_width: int = 175,
    notes: Sequence[str | None] | None = None,
) -> go.Figure:
    """One heatmap per way of scoring, one shared colour range (the largest |S|), the
    query token starred; ``notes[k]``, if given, written across the foot of panel k (a
    panel in nearly one colour says why, so it does not look empty). Over every cell an
    invisible point carries the token's row-major index (a click on it picks the query,
    ``ui.plain.pick``) and its score (``hover``: its template, ``%{customdata[1]}`` the
    score). Each panel is about
    ``panel_width`` px wide, and as tall as the grid's shape asks (within limits)."""
    top = max(float(np.max(np.abs(z))) for z in maps) or 1.0
    n = len(maps)
    rows, cols = maps[0].shape
    panel_height = int(min(max(panel_width * rows / cols, 120), 2 * panel_width))
    fig = panels(n, stacked=stacked, titles=titles, panel_height=panel_height, spacing=0.04)
    for k, z in enumerate(maps, start=1):
        rows, cols = z.shape
        where = cell(k, stacked)
        fig.add_trace(
            go.Heatmap(z=z.astype(np.float32), coloraxis="coloraxis", hoverinfo="skip"), **where
        )
        y, x = np.divmod(np.arange(rows * cols), cols)
        data = np.column_stack([np.arange(rows * cols), z.ravel()]).astype(np.float32)
        picker = go.Scatter(
            x=x, y=y, customdata=data, mode="markers", showlegend=False,
            marker=dict(size=10, opacity=0, color="#000"), hovertemplate=hover,
        )  # fmt: skip
        mark(picker)
        fig.add_trace(picker, **where)
        star = go.Scatter(
            x=[query[1]], y=[query[0]], mode="markers", name=query_label,
            showlegend=False, hoverinfo="skip",
            marker=dict(symbol="star", size=14, color="#ffd400", line=dict(color="#000", width=1)),
        )  # fmt: skip
        fig.add_trace(star, **where)
        axis = "" if k == 1 else str(k)
        # The cells' own range: the picking points' markers would pad it, and a click
        # would land a row off.
        fig.update_yaxes(
            range=[rows - 0.5, -0.5], scaleanchor=f"x{axis}", constrain="domain", **where
        )
        # Stacked, the next panel's title sits close under this one's ticks: the column
        # title only under the last panel.
        if notes and notes[k - 1]:
            fig.add_annotation(
                x=(cols - 1) / 2, y=rows - 1, xref=f"x{axis}", yref=f"y{axis}",
                # Two lines, split after the colon: one line ran past a 175 px panel.
                text=re.sub(r"(: |：)", r"\1<br>", notes[k - 1], count=1),
                showarrow=False, yanchor="bottom",
                bgcolor="rgba(255,255,255,0.85)",
            )  # fmt: skip
        x_label = x_title if not stacked or k == n else None
        fig.update_xaxes(range=[-0.5, cols - 0.5], constrain="domain", title=x_label, **where)
        if k == 1 or stacked:
            fig.update_yaxes(title=y_title, **where)
    bar = dict(thickness=12, title=dict(text="S"))
    fig.update_layout(
        coloraxis=dict(colorscale=COLORSCALE, cmin=-top, cmax=top, colorbar=bar),
        hovermode="closest",
    )
    if stacked:
        return style_stacked(fig, n, panel_height)
    return style(fig, height=panel_height + 90)
