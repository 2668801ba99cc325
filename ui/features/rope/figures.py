"""Figure builders of the RoPE page: plain functions from arrays to ``go.Figure``.

Curves come as mappings ``key -> y``; ``names`` (optional) maps a key to its legend
label, so the same key keeps the same colour and dash in every chart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui.plain.grids import MAX_LINE_POINTS, Grid
from ui.plain.safe_text import plotly_text
from ui.plain.style import COLORSCALE, LEGEND_ROW, cell, heatmap, panels, style, style_stacked

ATTENTION_SCALE = "Blues"
# Up to this many positions (no downsampling), sentence tokens label the axes.
TOKEN_TICKS = 48
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
DASHES = ("solid", "dot", "dash", "dashdot", "longdash")
# Context-extension methods keep one style everywhere.
METHOD_STYLE = {
    "none": (PALETTE[0], "solid"),
    "linear": (PALETTE[1], "dot"),
    "ntk": (PALETTE[2], "dash"),
    "yarn": (PALETTE[3], "longdash"),  # not solid: plain RoPE's blue to a deuteranope
    "llama3": (PALETTE[4], "dashdot"),
}


def _symmetric(z: np.ndarray) -> float:
    top = float(np.max(np.abs(z))) if z.size else 1.0
    return top if top > 0 else 1.0


def _attention_top(z: np.ndarray) -> float:
    """Colour ceiling of attention weights: the 99th percentile (the first rows saturate)."""
    top = float(np.percentile(z, 99)) if z.size else 1.0
    return top if top > 0 else 1.0


def _token_axes(fig: go.Figure, grid: Grid, tokens: Sequence[str], row=None, col=None) -> None:
    """Sentence tokens as tick labels (rows always; columns only on a single heatmap)."""
    if not tokens or grid.downsampled or grid.z.shape[0] > TOKEN_TICKS:
        return
    labels = [f"{plotly_text(tokens[i % len(tokens)])}·{i}" for i in range(grid.z.shape[0])]
    ticks = dict(tickmode="array", tickvals=list(range(len(labels))), ticktext=labels)
    if row is None:
        fig.update_xaxes(**ticks, tickangle=-60)
    fig.update_yaxes(**ticks, row=row, col=col)


def score_heatmap(
    grid: Grid,
    *,
    x_title: str,
    y_title: str,
    attention: bool = False,
    tokens: Sequence[str] = (),
    height: int = 600,
) -> go.Figure:
    """S[m, n] (diverging, centred on 0) or attention weights (sequential, from 0)."""
    if attention:
        limits = dict(zmin=0.0, zmax=_attention_top(grid.z), colorscale=ATTENTION_SCALE)
    else:
        top = _symmetric(grid.z)
        limits = dict(zmin=-top, zmax=top, colorscale=COLORSCALE)
    symbol = "a" if attention else "S"  # the formula's symbol, the same in both languages
    fig, _ = heatmap(
        grid, x_title=x_title, y_title=y_title, z_title=symbol, height=height, **limits
    )
    fig.update_yaxes(scaleanchor="x", constrain="domain")
    fig.update_xaxes(constrain="domain")
    _token_axes(fig, grid, tokens)
    return fig


def compare_heatmaps(
    grids: Sequence[Grid],
    titles: Sequence[str],
    *,
    x_title: str,
    y_title: str,
    tokens: Sequence[str] = (),
    height: int = 430,
    stacked: bool = False,
    panel_height: int = 300,
) -> go.Figure:
    """Side by side (``stacked``: one above the other) with one shared colour range (the
    largest |S| of all panels)."""
    top = max(_symmetric(g.z) for g in grids)
    # One y axis for all (the same query positions): zoom together, no ticks between panels.
    fig = panels(
        len(grids), stacked=stacked, titles=titles, shared_y=True, panel_height=panel_height
    )
    for k, grid in enumerate(grids, start=1):
        trace = go.Heatmap(
            z=grid.z,
            x=grid.cols,
            y=grid.rows,
            coloraxis="coloraxis",
            hovertemplate=f"{y_title} %{{y}}<br>{x_title} %{{x}}<br>S %{{z:.4f}}<extra></extra>",
        )
        fig.add_trace(trace, **cell(k, stacked))
        fig.update_yaxes(autorange="reversed", **cell(k, stacked))
        fig.update_xaxes(title=x_title, **cell(k, stacked))
        if k == 1 or stacked:  # side by side, the rows' labels are those of the first panel
            _token_axes(fig, grid, tokens, **cell(k, stacked))
            fig.update_yaxes(title=y_title, **cell(k, stacked))
    colorbar = dict(thickness=12)
    fig.update_layout(coloraxis=dict(colorscale=COLORSCALE, cmin=-top, cmax=top, colorbar=colorbar))
    if stacked:
        return style_stacked(fig, len(grids), panel_height)
    return style(fig, height=height)


def pair_figure(state: Mapping, *, labels: Mapping[str, str], height: int = 460) -> go.Figure:
    """One 2-D pair: q and k before (faint, dashed) and after rotation, as arrows from 0.

    ``state`` holds the 2-vectors ``q``, ``k``, ``q_m``, ``k_n``
    (``ui.features.rope.data.pair_state``); ``labels`` names them and the axes ``x`` and ``y``.
    """
    vectors = {key: np.asarray(state[key], dtype=float) for key in ("q", "k", "q_m", "k_n")}
    radius = max(float(np.hypot(*vectors["q"])), float(np.hypot(*vectors["k"])), 1e-12) * 1.15
    circle = np.linspace(0.0, 2.0 * np.pi, 121)
    fig = go.Figure()
    for key, color, faint in (
        ("q", PALETTE[0], True),
        ("k", PALETTE[1], True),
        ("q_m", PALETTE[0], False),
        ("k_n", PALETTE[1], False),
    ):
        vec = vectors[key]
        if not faint:
            size = float(np.hypot(*vec))
            orbit = go.Scatter(
                x=size * np.cos(circle),
                y=size * np.sin(circle),
                mode="lines",
                line=dict(color=color, width=0.7, dash="dot"),
                hoverinfo="skip",
                showlegend=False,
            )
            fig.add_trace(orbit)
        fig.add_trace(
            go.Scatter(
                x=[0.0, float(vec[0])],
                y=[0.0, float(vec[1])],
                mode="lines+markers",
                name=labels[key],
                opacity=0.45 if faint else 1.0,
                line=dict(color=color, width=2 if faint else 4, dash="dash" if faint else "solid"),
                marker=dict(size=[0, 13], symbol="arrow", angleref="previous"),
                hovertemplate=f"{labels[key]}<br>{labels['x']} = %{{x:.6f}}"
                f"<br>{labels['y']} = %{{y:.6f}}<extra></extra>",
            )
        )
    fig.update_xaxes(range=[-radius, radius], zeroline=True, title=labels["x"])
    fig.update_yaxes(range=[-radius, radius], zeroline=True, scaleanchor="x", title=labels["y"])
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    return style(fig, height=height)


CONTROLS_PX = 170  # px under the plot for the x axis title, play buttons and slider
LEGEND_GAP = 75  # px between the plot and a legend under it (ui.figures.common.legend_below)


def _readout(state: Mapping) -> str:
    m, n = state["m"], state["n"]
    return f"m = {m}, n = {n}, m − n = {m - n}<br>⟨qₘ, kₙ⟩ = {state['score']:.6f}"


def animate_pair(
    fig: go.Figure,
    states: Sequence[Mapping],
    *,
    play: str,
    pause: str,
    names: tuple[str, str] | None = None,
    legend_rows: int = 0,
    frame_ms: int = 400,
) -> go.Figure:
    """Frames of :func:`pair_figure`'s rotated arrows over ``states`` (``pair_state`` at
    each frame's ``m`` and ``n``; frame 0 is the static view), with a play button and a
    slider; a readout in the corner gives m, n, m - n and the score of each frame.
    ``names``: the legend names of the two rotated arrows, templates of ``{m}``, ``{n}``;
    ``legend_rows``: on a phone, the rows of the legend ``fit_phone`` puts under the plot
    (the controls go under it)."""
    moving = [i for i, trace in enumerate(fig.data) if trace.mode == "lines+markers"][2:]
    radius = fig.layout.xaxis.range[1]
    fig.add_trace(
        go.Scatter(
            x=[-0.97 * radius], y=[0.97 * radius], mode="text", text=[_readout(states[0])],
            textposition="bottom right", hoverinfo="skip", showlegend=False,
        )
    )  # fmt: skip
    readout = len(fig.data) - 1
    frames, steps = [], []
    for state in states:
        name = f"m = {state['m']}, n = {state['n']}"
        data = [go.Scatter(x=[0.0, float(v[0])], y=[0.0, float(v[1])]) for v in
                (state["q_m"], state["k_n"])]  # fmt: skip
        for trace, label in zip(data, names or (), strict=False):
            trace.name = label.format(m=state["m"], n=state["n"])
        data.append(go.Scatter(text=[_readout(state)]))
        frames.append(go.Frame(name=name, data=data, traces=[*moving, readout]))
        still = dict(
            mode="immediate", frame=dict(duration=0, redraw=True), transition=dict(duration=0)
        )
        gap = str(state["m"] - state["n"])  # the slider's ticks: m - n, fixed then growing
        steps.append(dict(label=gap, method="animate", args=[[name], still]))
    fig.frames = frames
    run = dict(frame=dict(duration=frame_ms, redraw=True), transition=dict(duration=0),
               fromcurrent=True, mode="immediate")  # fmt: skip
    stop = dict(frame=dict(duration=0, redraw=True), transition=dict(duration=0), mode="immediate")
    # The buttons and the slider under the x axis title; on a phone (legend_rows) under
    # the legend, which ui.shared.controls.fit_phone moves there (LEGEND_GAP px under the plot:
    # above it, a touch screen's toolbar would cover it).
    top = LEGEND_GAP + LEGEND_ROW * legend_rows + 20 if legend_rows else 55
    bottom = top + CONTROLS_PX - 55
    height = (fig.layout.height or 460) + bottom - (fig.layout.margin.b or 0)
    fig.update_layout(height=height, margin=dict(b=bottom))
    y = -top / (height - (fig.layout.margin.t or 0) - bottom)
    fig.update_layout(
        updatemenus=[
            dict(
                type="buttons", direction="left", x=0, y=y, xanchor="left", yanchor="top",
                showactive=False,
                buttons=[dict(label="▶ " + play, method="animate", args=[None, run]),
                         dict(label="❚❚ " + pause, method="animate", args=[[None], stop])],
            )
        ],
        sliders=[
            dict(active=0, x=0, len=1, y=y, yanchor="top", pad=dict(t=50),
                 currentvalue=dict(visible=False), steps=steps, transition=dict(duration=0))
        ],
    )  # fmt: skip
    return fig


def _style_of(key, index: int) -> tuple[str, str]:
    return METHOD_STYLE.get(key, (PALETTE[index % len(PALETTE)], DASHES[index % len(DASHES)]))


def _lines(
    fig, x, curves: Mapping, *, axes: tuple[str, str], names=None, row=None, col=None, legend=True
) -> None:
    """One line per curve; the hover names the curve and both axes (``axes``: titles)."""
    x = np.asarray(x)
    hover = f"%{{fullData.name}}<br>{axes[0]} = %{{x}}<br>{axes[1]} = %{{y:.4g}}<extra></extra>"
    step = -(-x.size // MAX_LINE_POINTS)  # subsample lines longer than 5000 points
    for index, (key, y) in enumerate(curves.items()):
        color, dash = _style_of(key, index)
        name = (names or {}).get(key, str(key))
        fig.add_trace(
            go.Scatter(
                x=x[::step],
                y=np.asarray(y)[::step],
                mode="lines",
                name=name,
                legendgroup=name,
                showlegend=legend,
                line=dict(color=color, dash=dash, width=2),
                hovertemplate=hover,
            ),
            row=row,
            col=col,
        )


def _legend_on_top(fig: go.Figure) -> None:
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))


def decay_figure(
    distances: np.ndarray,
    curves: Mapping,
    *,
    x_title: str,
    y_title: str,
    names: Mapping | None = None,
    height: int = 440,
) -> go.Figure:
    """One line per base over the relative distance."""
    fig = go.Figure()
    _lines(fig, distances, curves, axes=(x_title, y_title), names=names)
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title)
    _legend_on_top(fig)
    return style(fig, height=height)


THRESHOLD_DASHES = ("dash", "longdash")


def frequency_figure(
    curves: Mapping,
    *,
    x_title: str,
    y_title: str,
    names: Mapping | None = None,
    thresholds: Mapping[str, float] | None = None,
    height: int = 360,
) -> go.Figure:
    """A positive quantity per pair j on a log axis, one line per method."""
    fig = go.Figure()
    first = next(iter(curves.values()))
    _lines(fig, np.arange(len(first)), curves, axes=(x_title, y_title), names=names)
    fig.update_traces(mode="lines+markers", marker=dict(size=4))
    # Threshold lines are named in the legend: labels written at the lines lay over the
    # curves that cross them.
    for k, (label, value) in enumerate((thresholds or {}).items()):
        fig.add_trace(
            go.Scatter(
                x=[0, len(first) - 1],
                y=[value, value],
                mode="lines",
                line=dict(color="#777", dash=THRESHOLD_DASHES[k % len(THRESHOLD_DASHES)], width=1),
                name=label,
                hoverinfo="skip",
            )
        )
    fig.update_yaxes(type="log", title=y_title, exponentformat="power")
    fig.update_xaxes(title=x_title)
    _legend_on_top(fig)
    return style(fig, height=height)


def extension_figure(
    distances: np.ndarray,
    scores: Mapping,
    bounds: Mapping,
    original: int,
    *,
    titles: Sequence[str],
    x_title: str,
    y_titles: Sequence[str],
    original_label: str,
    names: Mapping | None = None,
    height: int = 560,
    narrow: bool = False,
) -> go.Figure:
    """Top: the score of repeated content over distance; bottom: the RoFormer bound.

    ``narrow`` (a phone): a title's parenthesis goes on a line of its own, as the whole
    title ran past the right edge of a 390 px screen.
    """
    if narrow:
        titles = [re.sub(r"\s*([(（])", r"<br>\1", title, count=1) for title in titles]
    fig = make_subplots(
        rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1, subplot_titles=list(titles)
    )
    _lines(fig, distances, scores, axes=(x_title, y_titles[0]), names=names, row=1, col=1)
    _lines(
        fig, distances, bounds, axes=(x_title, y_titles[1]), names=names, row=2, col=1, legend=False
    )
    for row in (1, 2):
        fig.add_vline(x=original, line=dict(color="#555", dash="dash", width=1), row=row, col=1)
        fig.update_yaxes(title=y_titles[row - 1], row=row, col=1)
    fig.add_annotation(
        x=original,
        y=0.5,
        xref="x",
        yref="paper",
        text=original_label,
        showarrow=False,
        xanchor="left",
        yanchor="middle",
        font=dict(size=11, color="#555"),
    )
    fig.update_xaxes(title=x_title, row=2, col=1)
    fig.update_layout(legend=dict(orientation="h", y=1.06, yanchor="bottom", x=0))
    return style(fig, height=height)


def layout_figure(
    head_dim: int, permutation: np.ndarray, *, row_labels: Sequence[str], x_title: str
) -> go.Figure:
    """Pair index j of every dimension in both layouts; the text in the split row is the
    interleaved dimension that moves there (the permutation): in the cells up to
    ``head_dim = 32``, on hover always."""
    half = head_dim // 2
    z = np.vstack([np.arange(head_dim) // 2, np.arange(head_dim) % half])
    show_text = head_dim <= 32
    text = [[str(d) for d in range(head_dim)], [str(int(p)) for p in permutation]]
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=np.arange(head_dim),
            y=list(row_labels),
            text=text,
            texttemplate="%{text}" if show_text else None,
            colorscale="Viridis",
            colorbar=dict(thickness=12, title=dict(text="j")),
            hovertemplate="%{y}<br>%{x} ← %{text}<br>j = %{z}<extra></extra>",
            xgap=1,
            ygap=3,
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=x_title)
    return style(fig, height=240)


def base_sums_figure(
    offsets: np.ndarray,
    sums: np.ndarray,
    failure: tuple[int, float] | None,
    *,
    x_title: str,
    y_title: str,
    failure_name: str,
    height: int = 380,
) -> go.Figure:
    """B(m) over the offsets m, the zero line, and the first m with B(m) < 0 marked."""
    fig = go.Figure(
        go.Scatter(
            x=offsets, y=sums, mode="lines", name=y_title, line_width=1,
            hovertemplate="m = %{x:,}<br>B(m) = %{y:.4f}<extra></extra>",
        )
    )  # fmt: skip
    fig.add_hline(y=0, line_dash="dot", line_color="grey")
    if failure is not None:
        fig.add_trace(
            go.Scatter(
                x=[failure[0]], y=[failure[1]], mode="markers", name=failure_name,
                marker=dict(size=11, color="crimson", symbol="x"),
                hovertemplate="m = %{x:,}<br>B(m) = %{y:.4f}<extra></extra>",
            )
        )  # fmt: skip
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title)
    fig.update_layout(showlegend=failure is not None)
    return style(fig, height=height)


# The temperature chart: plain RoPE, then the method without, with and twice its factor.
ENTROPY_STYLE = {
    "plain": (METHOD_STYLE["none"][0], "solid"),
    "off": (PALETTE[1], "dot"),
    "on": (PALETTE[3], "solid"),
    "twice": (PALETTE[4], "dash"),
}
ENTROPY_MARKERS = {"plain": "circle", "off": "x", "on": "diamond", "twice": "triangle-up"}


def entropy_figure(
    lengths: np.ndarray,
    curves: Mapping,
    *,
    original: int,
    trained: float,
    names: Mapping,
    x_title: str,
    y_title: str,
    original_label: str,
    trained_label: str,
    height: int = 420,
) -> go.Figure:
    """Attention entropy H(L) over the context length L (log axis), one line per curve
    (each also told apart by its dash and a few markers, not by colour alone); a dashed
    vertical line at L0 and a dotted level line at plain RoPE's H(L0)."""
    fig = go.Figure()
    x = np.asarray(lengths)
    hover = f"%{{fullData.name}}<br>{x_title} = %{{x}}<br>{y_title} = %{{y:.4f}}<extra></extra>"
    for key, y in curves.items():
        color, dash = ENTROPY_STYLE[key]
        fig.add_trace(
            go.Scatter(
                x=x,
                y=np.asarray(y),
                mode="lines+markers",
                name=names[key],
                line=dict(color=color, dash=dash, width=2),
                # A few markers only: one on each of 400 points would hide the dash.
                marker=dict(symbol=ENTROPY_MARKERS[key], size=9, color=color, maxdisplayed=12),
                hovertemplate=hover,
            )
        )
    fig.add_vline(x=original, line=dict(color="#555", dash="dash", width=1))
    fig.add_hline(y=trained, line=dict(color="#555", dash="dot", width=1))
    fig.add_annotation(
        x=np.log10(original), y=1, xref="x", yref="paper", text=original_label,
        showarrow=False, xanchor="left", yanchor="top",
    )  # fmt: skip
    fig.add_annotation(
        x=0, y=trained, xref="paper", yref="y", text=trained_label,
        showarrow=False, xanchor="left", yanchor="bottom",
    )  # fmt: skip
    fig.update_xaxes(title=x_title, type="log")
    fig.update_yaxes(title=y_title, rangemode="tozero")
    _legend_on_top(fig)
    return style(fig, height=height)
