"""Figures of the page "Binary counter vs sinusoid": plain functions, arrays -> figure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui.plain.grids import MAX_LINE_POINTS, Grid
from ui.plain.pick import mark
from ui.plain.style import COLORSCALE, cell, heatmap, panels, style, style_stacked

SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"  # axis names of the bits: β₁, β₀ (one digit: at most 3 bits drawn)
SEQUENTIAL = "Viridis"
# The d = 3 paths as seed 003 draws them: early positions yellow, later ones darker.
LATER_DARKER = "Viridis_r"


class Pair(Protocol):
    """Two positions ``i < j`` (``i = -1``: none), as ``posenc.criteria.Pair`` holds them."""

    i: int
    j: int


def evolution_figure(
    grids: Sequence[Grid],
    tops: Sequence[float],
    titles: Sequence[str],
    x_title: str,
    y_title: str,
    *,
    height: int = 460,
    stacked: bool = False,
    panel_height: int = 220,
) -> go.Figure:
    """The schemes' tables side by side on shared positions, each with its own colour bar.

    Each panel is centred on 0 (``COLORSCALE``) with range ``+-tops[i]``, the table's
    largest ``|value|``: the index panel's bar reads L-1, the others 1. ``stacked``
    (a phone): one panel above the other, each bar at the right of its panel.
    """
    n = len(grids)
    fig = panels(
        n, stacked=stacked, titles=titles, spacing=0.025, shared_y=True, panel_height=panel_height
    )
    for k, (grid, top) in enumerate(zip(grids, tops, strict=True), start=1):
        top = float(top) or 1.0
        axis = "coloraxis" if k == 1 else f"coloraxis{k}"
        fig.add_trace(
            go.Heatmap(
                z=grid.z,
                x=grid.cols,
                y=grid.rows,
                coloraxis=axis,
                hovertemplate=f"{y_title} %{{y}}<br>{x_title} %{{x}}<br>%{{z:.4g}}<extra></extra>",
            ),
            **cell(k, stacked),
        )
        suffix = k if k > 1 else ""
        bar = dict(
            thickness=10,
            tickvals=[-top, 0, top],
            # 4 digits: a sine table's 0.99999 reads 1, the index panel's 8191 stays.
            ticktext=[f"{-top:.4g}", "0", f"{top:.4g}"],
        )
        if stacked:
            bottom, top_edge = fig.layout[f"yaxis{suffix}"].domain
            bar.update(y=(bottom + top_edge) / 2, yanchor="middle", len=top_edge - bottom)
        else:
            left, right = fig.layout[f"xaxis{suffix}"].domain
            bar.update(
                orientation="h", x=(left + right) / 2, xanchor="center", len=right - left,
                y=-0.2, yanchor="top",
            )  # fmt: skip
        fig.layout[axis] = dict(colorscale=COLORSCALE, cmin=-top, cmax=top, colorbar=bar)
        fig.update_xaxes(title=x_title, **cell(k, stacked))
    fig.update_yaxes(autorange="reversed")
    if stacked:
        fig.update_yaxes(title=y_title)
        return style_stacked(fig, n, panel_height)
    fig.update_yaxes(title=y_title, row=1, col=1)
    style(fig, height=height)
    # Room for the x axis titles and the colour bars under them: what Plotly's automargin
    # grows it to on a desktop, given at once (drawn once: ui.plain.style.settle_margins).
    fig.update_layout(margin=dict(b=128))
    return fig


def waves_figure(
    bits: int,
    positions: np.ndarray,
    square: np.ndarray,
    t: np.ndarray,
    sin: np.ndarray,
    cos: np.ndarray,
    smooth: np.ndarray,
    names: dict[str, str],
    row_titles: Sequence[str],
    *,
    height: int = 520,
) -> go.Figure:
    """Bit i of the counter (a square wave) over the sin/cos pair of the same wavelength.

    ``square``: (bits, positions.size) 0/1 values, lowest bit first; ``sin``, ``cos``,
    ``smooth``: (bits, t.size) curves. ``names`` has keys ``bit, sin, cos, smooth``.
    """
    fig = make_subplots(
        rows=bits, cols=1, shared_xaxes=True, vertical_spacing=0.04, subplot_titles=row_titles
    )
    styles = {
        "sin": dict(color="#2166ac", width=1.2),
        "cos": dict(color="#92c5de", width=1.2),
        "smooth": dict(color="#b2182b", width=2.2, dash="dash"),
    }
    for i in range(bits):
        first = i == 0
        fig.add_trace(
            go.Scatter(
                x=positions,
                y=square[i],
                mode="lines+markers",
                line=dict(shape="hvh", color="#1f2430", width=2.5),  # jumps at p + 1/2
                marker=dict(size=5),
                name=names["bit"],
                legendgroup="bit",
                showlegend=first,
                hovertemplate=f"{names['bit']}, i = {i}<br>{names['position']} = %{{x}}"
                "<br>%{y}<extra></extra>",
            ),
            row=i + 1,
            col=1,
        )
        for key, curve in (("sin", sin), ("cos", cos), ("smooth", smooth)):
            fig.add_trace(
                go.Scatter(
                    x=t,
                    y=curve[i],
                    mode="lines",
                    line=styles[key],
                    name=names[key],
                    legendgroup=key,
                    showlegend=first,
                    hovertemplate=f"{names[key]}, i = {i}<br>{names['position']} = %{{x:.3f}}"
                    "<br>%{y:.4f}<extra></extra>",
                ),
                row=i + 1,
                col=1,
            )
        fig.update_yaxes(range=[-1.25, 1.25], tickvals=[-1, 0, 1], row=i + 1, col=1)
    fig.update_xaxes(range=[-0.5, positions[-1] + 0.5])
    fig.update_xaxes(title=names["position"], dtick=1 if positions.size <= 33 else None, row=bits)
    style(fig, height=height)
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    fig.update_annotations(font_size=12)
    fig.update_layout(margin=dict(t=70))
    return fig


def envelope(y: np.ndarray, max_points: int = MAX_LINE_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)`` of a curve with at most ``max_points`` points: min and max of each group.

    A plain subsample would hide jumps (every other step of the binary counter is 1);
    the envelope keeps each group's extremes, in position order.
    """
    y = np.asarray(y, dtype=np.float64)
    x = np.arange(y.size)
    if y.size <= max_points:
        return x, y
    group = -(-2 * y.size // max_points)
    starts = np.arange(0, y.size, group)
    lo = np.minimum.reduceat(y, starts)
    hi = np.maximum.reduceat(y, starts)
    idx_lo = np.array([s + int(np.argmin(y[s : s + group])) for s in starts])
    idx_hi = np.array([s + int(np.argmax(y[s : s + group])) for s in starts])
    xs = np.stack([idx_lo, idx_hi], 1)
    ys = np.stack([lo, hi], 1)
    order = np.argsort(xs, axis=1, kind="stable")
    return np.take_along_axis(xs, order, 1).ravel(), np.take_along_axis(ys, order, 1).ravel()


def steps_figure(
    curves: Sequence[np.ndarray],
    titles: Sequence[str],
    x_title: str,
    y_title: str,
    *,
    height: int = 560,
) -> go.Figure:
    """``||e(p+k) - e(p)||`` over p, one panel per scheme with its own y range."""
    n = len(curves)
    fig = make_subplots(
        rows=n, cols=1, shared_xaxes=True, vertical_spacing=0.05, subplot_titles=list(titles)
    )
    for row, y in enumerate(curves, start=1):
        x, yy = envelope(y)
        fig.add_trace(
            go.Scatter(
                x=x,
                y=yy,
                mode="lines",
                line=dict(color="#b2182b" if row == n else "#2166ac", width=1.5),
                showlegend=False,
                hovertemplate=f"p %{{x}}<br>{y_title} %{{y:.6g}}<extra></extra>",
            ),
            row=row,
            col=1,
        )
        if y.size:
            low, high = float(y.min()), float(y.max())
            pad = max(0.05 * (high - low), 0.05 * abs(high), 1e-3)
            fig.update_yaxes(range=[low - pad, high + pad], row=row, col=1)
    fig.update_xaxes(title=x_title, row=n, col=1)
    fig.update_yaxes(title=y_title, row=(n + 1) // 2, col=1)
    style(fig, height=height)
    fig.update_annotations(font_size=12)
    return fig


TICKS_3D = [-0.5, 0.0, 0.5]
CUBE_3D = 0.8


def trajectory_figure(
    table: np.ndarray,
    pair: Pair,
    *,
    curve: np.ndarray | None = None,
    title: str | None = None,
    position: str,
    pair_label: str,
    height: int = 460,
) -> go.Figure:
    """The 3-D points ``e(p)`` coloured by position, the continuous path ``curve`` through
    them (thin), and the closest far pair joined and labelled."""
    p = np.arange(table.shape[0])
    fig = go.Figure()
    if curve is not None:
        fig.add_trace(
            go.Scatter3d(
                x=curve[:, 0],
                y=curve[:, 1],
                z=curve[:, 2],
                mode="lines",
                line=dict(color="rgba(60,60,60,0.7)", width=3),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    fig.add_trace(
        go.Scatter3d(
            x=table[:, 0],
            y=table[:, 1],
            z=table[:, 2],
            mode="markers",
            marker=dict(
                size=3.5,
                color=p,
                colorscale=LATER_DARKER,
                colorbar=dict(title=dict(text=position), thickness=10),
            ),
            customdata=p,
            hovertemplate=f"{position} %{{customdata}}<br>(%{{x:.3f}}, %{{y:.3f}}, %{{z:.3f}})"
            "<extra></extra>",
            showlegend=False,
        )
    )
    if pair.i >= 0:
        ends = table[[pair.i, pair.j]]
        fig.add_trace(
            go.Scatter3d(
                x=ends[:, 0],
                y=ends[:, 1],
                z=ends[:, 2],
                # Named in the legend only: labels at the points overlapped each other
                # or hid under the markers once projected.
                mode="markers+lines",
                marker=dict(size=7, color="#d6604d", symbol="diamond"),
                line=dict(color="#d6604d", width=5),
                name=f"{pair_label}: p = {pair.i}, {pair.j}",
                hoverinfo="skip",
            )
        )
    # No ticks at ±1: the "−1" of two axes were printed over each other at the corner.
    scene_axis = dict(range=[-1.05, 1.05], tickvals=TICKS_3D)
    fig.update_layout(
        scene=dict(
            xaxis=dict(scene_axis, title=dict(text="sin ω₀p")),
            yaxis=dict(scene_axis, title=dict(text="sin ω₁p")),
            zaxis=dict(scene_axis, title=dict(text="sin ω₂p")),
            # A cube drawn at 0.8 of the scene, seen from farther than Plotly's default
            # eye (1.25, 1.25, 1.25): at full size the z axis' title fell outside the
            # scene at the left edge of a half-width column and was cut off.
            aspectmode="manual",
            aspectratio=dict(x=CUBE_3D, y=CUBE_3D, z=CUBE_3D),
            camera=dict(eye=dict(x=1.9, y=1.9, z=1.1)),
        ),
        legend=dict(orientation="h", y=0, x=0),
    )
    return style(fig, height=height, title=title)


def distance_figure(
    grid: Grid,
    *,
    x_title: str,
    y_title: str,
    value_title: str,
    title: str | None = None,
    height: int = 480,
    pick_offsets: int = 0,
    pick_hover: str | None = None,
) -> go.Figure:
    """``||e(m) - e(n)||`` (block means when large), 0 dark, far apart bright; the
    colour bar titled ``value_title``, beside the plot (the plot fills the width: a
    square plot left the bar ~200 px away at the figure's right edge). ``pick_offsets``:
    a click near a diagonal n - m = k <= pick_offsets picks k (:func:`offset_picker`)."""
    top = float(grid.z.max()) or 1.0
    fig, _ = heatmap(
        grid,
        x_title=x_title,
        y_title=y_title,
        zmin=0.0,
        zmax=top,
        colorscale=SEQUENTIAL,
        title=title,
        height=height,
        hovertemplate=f"{y_title} %{{y}}<br>{x_title} %{{x}}<br>%{{z:.4g}}<extra></extra>",
    )
    fig.update_traces(colorbar=dict(title=dict(text=value_title, side="right")))
    if pick_offsets:
        offset_picker(fig, grid, pick_offsets, hover=pick_hover or "")
    return fig


def offset_picker(fig: go.Figure, grid: Grid, largest: int, *, hover: str, samples: int = 24):
    """Points a click picks on the diagonals n - m = k > 0 of ``grid`` (k up to
    ``largest``, a multiple of the block size when downsampled), at most ``samples`` per
    diagonal, each carrying (k, m, n, value) for its hover text (``hover``: a template of
    ``customdata``). Near such a point the pointer hovers it, elsewhere the heatmap."""
    size = grid.z.shape[0]
    step = grid.row_step
    ks, ms, ns, values = [], [], [], []
    for d in range(1, min(size - 1, largest // step) + 1):
        rows = np.unique(np.linspace(0, size - 1 - d, samples).round().astype(int))
        ks += [d * step] * rows.size
        ms += grid.rows[rows].tolist()
        ns += grid.cols[rows + d].tolist()
        values += grid.z[rows, rows + d].tolist()
    if not ks:
        return fig
    trace = go.Scatter(
        x=ns,
        y=ms,
        customdata=np.column_stack([ks, ms, ns, values]),
        mode="markers",
        marker=dict(size=6, opacity=0),
        hovertemplate=hover,
        showlegend=False,
    )
    mark(trace)
    fig.add_trace(trace)
    return fig


def code_space_figure(codes: np.ndarray, *, position: str, height: int = 420) -> go.Figure:
    """Seed 003's picture of binary codes as points (2 or 3 bits, most significant bit
    first): the corners of a square or cube, joined in position order, so the uneven jumps
    (one bit flips: 1; k bits flip: sqrt k) show."""
    p = np.arange(codes.shape[0])
    bits = codes.shape[1]
    if bits not in (2, 3):
        raise ValueError(f"codes must have 2 or 3 columns (bits), got {bits}")
    # Axis j is bit b_(bits-1-j), as in the counter table.
    axes = [codes[:, j].astype(float) for j in range(bits)]
    hover = f"{position} %{{text}}<br>(" + ", ".join("%{" + a + ":.0f}" for a in "xyz"[:bits])
    common = dict(
        mode="lines+markers+text",
        text=[str(v) for v in p],
        textposition="top center",
        marker=dict(size=9 if bits == 2 else 5, color=p, colorscale=SEQUENTIAL),
        line=dict(color="rgba(60,60,60,0.6)", width=2 if bits == 2 else 4),
        hovertemplate=hover + ")<extra></extra>",
        showlegend=False,
    )
    names = [f"β{SUBSCRIPTS[bits - 1 - j]}" for j in range(bits)]  # b is the base
    fig = go.Figure()
    if bits == 2:
        fig.add_trace(go.Scatter(x=axes[0], y=axes[1], **common))
        box = dict(range=[-0.25, 1.35], dtick=1)
        fig.update_xaxes(box, title=names[0])
        fig.update_yaxes(box, title=names[1], scaleanchor="x")
    else:
        fig.add_trace(go.Scatter3d(x=axes[0], y=axes[1], z=axes[2], **common))
        box = dict(range=[-0.15, 1.15], dtick=1)
        fig.update_layout(
            scene=dict(
                xaxis=dict(box, title=dict(text=names[0])),
                yaxis=dict(box, title=dict(text=names[1])),
                zaxis=dict(box, title=dict(text=names[2])),
                aspectmode="cube",
            )
        )
    return style(fig, height=height)
