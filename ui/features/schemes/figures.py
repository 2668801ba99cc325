"""Figure builders of the "Schemes compared" page: plain functions from arrays to figures.

Every scheme keeps one colour and dash in every chart (``SCHEME_STYLE``); names come
from the caller (the reader's language).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui.plain.grids import MAX_LINE_POINTS, Grid
from ui.plain.style import COLORSCALE, cell, panels, style, style_stacked

SCHEME_STYLE = {
    "nope": ("#7f7f7f", "dot"),
    "sinusoidal": ("#1f77b4", "solid"),
    "learned": ("#ff7f0e", "solid"),
    "alibi": ("#8c564b", "dash"),
    "t5": ("#17becf", "solid"),
    "rope": ("#d62728", "dot"),
    "xpos": ("#9467bd", "longdashdot"),  # not solid: sinusoidal's blue to a deuteranope
    "partial": ("#2ca02c", "dashdot"),
    "prope": ("#e377c2", "longdash"),
    "upload": ("#000000", "dash"),
}
MARKERS = {"learned": "circle", "upload": "diamond"}


def _line(key: str, x, y, name: str, hover: str, **extra) -> go.Scatter:
    color, dash = SCHEME_STYLE.get(key, ("#333333", "solid"))
    x, y = np.asarray(x), np.asarray(y)
    step = -(-x.size // MAX_LINE_POINTS)
    return go.Scatter(
        x=x[::step],
        y=y[::step],
        mode="lines",
        name=name,
        legendgroup=key,
        line=dict(color=color, dash=dash, width=2),
        hovertemplate=hover,
        **extra,
    )


def distance_figure(
    r: np.ndarray,
    curves: Mapping[str, np.ndarray],
    t5: np.ndarray,
    *,
    names: Mapping[str, str],
    train: int,
    x_title: str,
    y_title: str,
    t5_title: str,
    train_label: str,
    height: int = 560,
) -> go.Figure:
    """Top: each scheme's position part of the score against r = m - n; bottom: T5's
    bucket of the distance. A dashed vertical line marks the training length."""
    fig = make_subplots(
        rows=2, cols=1, shared_xaxes=True, row_heights=[0.72, 0.28], vertical_spacing=0.06
    )
    hover = f"%{{fullData.name}}<br>{x_title} = %{{x}}<br>{y_title} = %{{y:.4g}}<extra></extra>"
    for key, y in curves.items():
        fig.add_trace(_line(key, r, y, names[key], hover), row=1, col=1)
    t5_hover = f"{names['t5']}<br>{x_title} = %{{x}}<br>{t5_title} = %{{y}}<extra></extra>"
    trace = _line("t5", r, t5, names["t5"], t5_hover)
    trace.line.shape = "hv"
    fig.add_trace(trace, row=2, col=1)
    for row in (1, 2):
        fig.add_vline(x=train, line=dict(color="#444444", dash="dash", width=1), row=row, col=1)
    fig.add_annotation(
        x=train, y=1.0, yref="paper", text=train_label, showarrow=False, xanchor="left",
        yanchor="bottom", font=dict(size=12),
    )  # fmt: skip
    fig.update_yaxes(title=y_title, range=[-1.05, 1.05], row=1, col=1)
    fig.update_yaxes(title=t5_title, row=2, col=1)
    fig.update_xaxes(title=x_title, row=2, col=1)
    fig.update_layout(legend=dict(orientation="h", y=1.08, yanchor="bottom", x=0))
    return style(fig, height=height)


def _panel_figure(
    traces: Sequence[go.Heatmap | go.Scatter],
    titles: Sequence[str],
    *,
    x_title: str,
    y_title: str,
    stacked: bool,
    height: int,
    panel_height: int,
    y_title_first: bool = True,
    matrix_rows: bool = False,
) -> go.Figure:
    """One trace per panel, side by side or (``stacked``, a phone or a projector) one above
    the other, with axis titles (the y title on the first column only, unless
    ``y_title_first`` is False), in the house style; ``matrix_rows``: row 0 at the top."""
    fig = panels(len(traces), stacked=stacked, titles=list(titles))
    for k, trace in enumerate(traces, start=1):
        fig.add_trace(trace, **cell(k, stacked))
    if matrix_rows:
        fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, **(dict(col=1) if y_title_first else {}))
    if stacked:
        return style_stacked(fig, len(traces), panel_height)
    return style(fig, height=height)


def matrix_figure(
    mats: Mapping[str, np.ndarray],
    *,
    titles: Mapping[str, str],
    x_title: str,
    y_title: str,
    stacked: bool,
    height: int = 380,
    panel_height: int = 300,
) -> go.Figure:
    """One heatmap per scheme, each on its own colour range (no shared scale: units
    differ), rows = query m, columns = key n."""
    traces = []
    for key, mat in mats.items():
        z = np.asarray(mat, dtype=np.float32)  # 4 bytes a cell: 5 panels of 128^2 < 1 MB
        finite = z[np.isfinite(z)]
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        scale = "Blues" if key == "t5" else COLORSCALE
        symmetric = key != "t5"  # scores and biases: white at 0
        top = max(abs(low), abs(high)) or 1.0
        traces.append(
            go.Heatmap(
                z=z,
                zmin=-top if symmetric else low,
                zmax=top if symmetric else high,
                colorscale=scale,
                showscale=False,
                name=titles[key],
                hovertemplate=f"{titles[key]}<br>{y_title} %{{y}}<br>{x_title} %{{x}}"
                "<br>%{z:.4g}<extra></extra>",
            )
        )
    return _panel_figure(
        traces, [titles[k] for k in mats], x_title=x_title, y_title=y_title, stacked=stacked,
        height=height, panel_height=panel_height, matrix_rows=True,
    )  # fmt: skip


def pca_figure(
    coords: Sequence[np.ndarray],
    *,
    titles: Sequence[str],
    position: str,
    axis: str,
    stacked: bool,
    height: int = 400,
    panel_height: int = 320,
) -> go.Figure:
    """Rows in their first two principal components, coloured by position, joined in
    order: the curve the positions trace."""
    traces = []
    for k, xy in enumerate(coords, start=1):
        positions = np.arange(xy.shape[0])
        traces.append(
            go.Scatter(
                x=xy[:, 0],
                y=xy[:, 1],
                mode="lines+markers",
                line=dict(color="rgba(120,120,120,0.35)", width=1),
                marker=dict(
                    size=4,
                    color=positions,
                    colorscale="Viridis",
                    showscale=k == len(coords),
                    colorbar=dict(title=position, thickness=12),
                ),
                customdata=positions,
                showlegend=False,
                hovertemplate=f"{position} %{{customdata}}<br>PC1 %{{x:.3g}}<br>PC2 %{{y:.3g}}"
                "<extra></extra>",
            )
        )
    return _panel_figure(
        traces, titles, x_title=f"{axis} 1", y_title=f"{axis} 2", stacked=stacked,
        height=height, panel_height=panel_height, y_title_first=False,
    )  # fmt: skip


def pca3_figure(
    coords: Sequence[np.ndarray],
    *,
    titles: Sequence[str],
    position: str,
    axis: str,
    stacked: bool,
    height: int = 460,
    panel_height: int = 380,
) -> go.Figure:
    """Rows in their first three principal components, one 3-D scene per table."""
    n = len(coords)
    grid = dict(rows=n, cols=1) if stacked else dict(rows=1, cols=n)
    kinds = [[{"type": "scene"}] for _ in range(n)] if stacked else [[{"type": "scene"}] * n]
    fig = make_subplots(**grid, specs=kinds, subplot_titles=list(titles))
    for k, xyz in enumerate(coords, start=1):
        positions = np.arange(xyz.shape[0])
        fig.add_trace(
            go.Scatter3d(
                x=xyz[:, 0], y=xyz[:, 1], z=xyz[:, 2], mode="lines+markers",
                line=dict(color="rgba(120,120,120,0.35)", width=1),
                marker=dict(size=2, color=positions, colorscale="Viridis",
                            showscale=k == n, colorbar=dict(title=position, thickness=12)),
                customdata=positions, showlegend=False,
                hovertemplate=f"{position} %{{customdata}}<extra></extra>",
            ),
            **cell(k, stacked),
        )  # fmt: skip
    titles3 = {
        f"{name}axis": dict(title=dict(text=f"{axis} {i}")) for i, name in enumerate("xyz", 1)
    }
    fig.update_scenes(**titles3)
    fig.update_annotations(font_size=13)
    if stacked:
        return style_stacked(fig, n, panel_height)
    return style(fig, height=height)


def gram_figure(
    grids: Sequence[Grid],
    *,
    titles: Sequence[str],
    x_title: str,
    y_title: str,
    stacked: bool,
    height: int = 380,
    panel_height: int = 300,
) -> go.Figure:
    """Gram matrices scaled by their mean diagonal, on one diverging colour scale."""
    traces = [
        go.Heatmap(
            z=grid.z, x=grid.cols, y=grid.rows, zmin=-1.0, zmax=1.0, zmid=0.0,
            colorscale=COLORSCALE, showscale=k == len(grids), colorbar=dict(thickness=12),
            hovertemplate=f"{y_title} %{{y}}<br>{x_title} %{{x}}<br>%{{z:.3f}}<extra></extra>",
        )
        for k, grid in enumerate(grids, start=1)
    ]  # fmt: skip
    return _panel_figure(
        traces, titles, x_title=x_title, y_title=y_title, stacked=stacked, height=height,
        panel_height=panel_height, matrix_rows=True,
    )  # fmt: skip


def frequency_figure(
    found: Mapping[str, np.ndarray],
    omega: np.ndarray,
    *,
    names: Mapping[str, str],
    omega_name: str,
    x_title: str,
    y_title: str,
    height: int = 380,
) -> go.Figure:
    """Each column's dominant angular frequency (markers) and the sinusoid's omega_i."""
    fig = go.Figure()
    columns = np.arange(omega.size)
    hover = f"%{{fullData.name}}<br>{x_title} %{{x}}<br>{y_title} %{{y:.4g}}<extra></extra>"
    fig.add_trace(_line("sinusoidal", columns, omega, omega_name, hover))
    for key, y in found.items():
        color, _ = SCHEME_STYLE[key]
        fig.add_trace(
            go.Scatter(
                x=columns, y=y, mode="markers", name=names[key],
                marker=dict(size=5, color=color, symbol=MARKERS.get(key, "x")),
                hovertemplate=hover,
            )
        )  # fmt: skip
    fig.update_yaxes(type="log", title=y_title, exponentformat="power", dtick=1)
    fig.update_xaxes(title=x_title)
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    return style(fig, height=height)


def cosine_figure(
    curves: Mapping[str, np.ndarray],
    *,
    names: Mapping[str, str],
    x_title: str,
    y_title: str,
    height: int = 340,
) -> go.Figure:
    """Mean cosine similarity of rows r apart."""
    fig = go.Figure()
    hover = f"%{{fullData.name}}<br>{x_title} = %{{x}}<br>{y_title} = %{{y:.4g}}<extra></extra>"
    for key, y in curves.items():
        fig.add_trace(_line(key, np.arange(len(y)), y, names[key], hover))
    fig.update_yaxes(title=y_title, range=[-1.05, 1.05])
    fig.update_xaxes(title=x_title)
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    return style(fig, height=height)
