"""Figures of the Heatmap page: the table, its similarity matrix, embedding + PE.

Every builder accepts any ``(L, d)`` matrix (or a ready ``Grid``), so a learned
position-embedding matrix can be drawn by the same code as the sinusoidal table.
Large matrices are reduced to block means by :func:`ui.figures.common.block_means`, which asks for
rows in blocks and never holds the whole matrix; the hover text of a cell says what
it stands for (one entry, or the mean of a block).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.colors as pcolors
import plotly.graph_objects as go

from ui.plain.columns import pair_kind
from ui.plain.grids import Grid, as_grid
from ui.plain.pick import row_picker
from ui.plain.safe_text import plotly_text
from ui.plain.style import COLORSCALE, cell, style, style_stacked
from ui.plain.style import panels as grid_of_panels  # embedding_figure has a `panels`

# Curves with more points are subsampled.
MAX_POINTS = 5000

# Words the builders put into labels; the page passes the translated ones.
WORDS = {
    "position": "position",
    "positions": "positions",
    "dimension": "dimension",
    "dimensions": "dimensions",
    "pair": "pair",
    "value": "value",
    "mean": "mean of {rows} × {cols} entries",
    "max_abs": "largest |entry| of {rows} × {cols}",
    "similarity": "PEₘ · PEₙ",
    "offset_axis": "position n",
    "curve_axis": "PEᵣ · PEₙ",
    "pick_row": "click: this row is drawn below",
}


def spans(centres: np.ndarray, step: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of the entries behind each displayed cell of one axis."""
    starts = step * np.arange(len(centres))
    stops = starts + np.rint(2 * (np.asarray(centres) - starts)).astype(int) + 1
    return list(zip(starts.tolist(), stops.tolist(), strict=True))


def _range(values) -> str:
    values = sorted(values)
    if len(values) == 1:
        return f"{values[0]}"
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}–{values[-1]}"
    return f"{values[0]}, {values[1]}, …, {values[-1]}"


def row_labels(
    grid: Grid, words: dict, tokens: Sequence[str] | None = None, symbol=""
) -> list[str]:
    """One label per displayed row (unique: Plotly uses them as categories).

    A token is the visitor's text: escaped and cut short (``plotly_text``), since Plotly
    reads HTML in labels and hover texts."""
    labels = []
    for a, b in spans(grid.rows, grid.row_step):
        if b - a == 1:
            token = f": {plotly_text(tokens[a])}" if tokens is not None and a < len(tokens) else ""
            labels.append(f"{words['position']} {symbol}{a}{token}")
        else:
            labels.append(f"{words['positions']} {symbol}{a}–{b - 1}")
    return labels


def column_labels(grid: Grid, words: dict, *, order=None, omega=None, layout="interleaved"):
    """Per displayed column: dimension(s), and with ``omega`` pair i, sin/cos, ω, λ."""
    n_cols = spans(grid.cols, grid.col_step)[-1][1]
    order = np.arange(n_cols) if order is None else np.asarray(order)
    if omega is not None:
        pair, is_sin = pair_kind(n_cols, layout)
    labels = []
    for a, b in spans(grid.cols, grid.col_step):
        dims = order[a:b].tolist()
        if omega is None:
            key = "dimension" if len(dims) == 1 else "dimensions"
            labels.append(f"{words[key]} {_range(dims)}")
            continue
        kinds = sorted({"sin" if is_sin[j] else "cos" for j in dims}, reverse=True)
        pairs = [int(pair[j]) for j in dims]
        if len(dims) == 1:
            w = float(omega[pairs[0]])
            labels.append(
                f"{words['dimension']} {dims[0]} · {kinds[0]} · {words['pair']} i = {pairs[0]}"
                f"<br>ω = {w:.4g} · λ = {2 * np.pi / w:.4g}"
            )
        else:
            labels.append(
                f"{words['dimensions']} {_range(dims)} · {' + '.join(kinds)}"
                f" · {words['pair']} i = {_range(set(pairs))}"
            )
    return labels


def _nice(span: float, count: int) -> int:
    """The smallest 1, 2 or 5 times a power of ten that cuts ``span`` into <= count parts."""
    raw = max(1.0, span / count)
    power = 10 ** int(np.floor(np.log10(raw)))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def _ticks(labels: list[str], starts: list[int], number=lambda k: k, halves: int = 0, count=10):
    """Ticks at round entry indices (per half when ``halves``: the [sin | cos] case).

    ``starts`` are the first entries of the displayed cells; a tick goes on the cell
    holding the round index ``k`` and reads ``number(k)``.
    """
    total = int(starts[-1]) + 1
    if halves:
        step = _nice(halves, count // 2)
        targets = np.concatenate([np.arange(0, halves, step), halves + np.arange(0, halves, step)])
    else:
        targets = np.arange(0, total, _nice(total, count))
    picks = np.searchsorted(np.asarray(starts), targets, side="right") - 1
    return dict(
        tickmode="array",
        tickvals=[labels[k] for k in picks],
        ticktext=[str(number(int(k))) for k in targets],
    )


def _heatmap(grid: Grid, x: list[str], y: list[str], zmax: float, hover: str) -> go.Heatmap:
    return go.Heatmap(
        z=grid.z.astype(np.float32),
        x=x,
        y=y,
        zmin=-zmax,
        zmax=zmax,
        zmid=0.0,
        colorscale=COLORSCALE,
        colorbar=dict(thickness=12),
        hovertemplate=hover + "<extra></extra>",
    )


def fitted_colorscale(low: float, high: float, samples: int = 11) -> list:
    """``COLORSCALE`` for a colour range of exactly ``[low, high]``, keeping its meaning:
    across 0, the part of the scale between them (0 stays white); all positive, its
    white-to-red half spread over the range (all negative: blue-to-white), so values of
    one sign, e.g. PE PE^T at L = 50 (31 .. 64 of +-64), use every shade."""
    top = max(abs(low), abs(high)) or 1.0
    if low < 0 < high:
        ends = ((low + top) / (2 * top), (high + top) / (2 * top))
    else:
        ends = (0.5, 1.0) if high > 0 else (0.0, 0.5)
    stops = np.linspace(*ends, samples)
    colours = pcolors.sample_colorscale(COLORSCALE, stops.tolist())
    return [[i / (samples - 1), colour] for i, colour in enumerate(colours)]


def _hover_value(grid: Grid, words: dict, name: str, reduce: str = "mean") -> str:
    if grid.downsampled:
        name = words[reduce].format(rows=grid.row_step, cols=grid.col_step)
    return f"%{{y}}<br>%{{x}}<br>{name} = %{{z:.4f}}"


def table_figure(
    data: np.ndarray | Grid,
    *,
    words: dict = WORDS,
    omega: np.ndarray | None = None,
    layout: str = "interleaved",
    order: np.ndarray | None = None,
    tokens: Sequence[str] | None = None,
    zmax: float = 1.0,
    value_name: str | None = None,
    reduce: str = "mean",
    height: int = 460,
) -> go.Figure:
    """Positions down, dimensions across, on the diverging scale ``[-zmax, zmax]``.

    ``reduce`` names how a downsampled ``Grid`` was made (``"mean"`` or ``"max_abs"``)
    for the hover text.

    ``order[k]`` is the table column drawn at place ``k`` (the display grouping);
    ``omega`` (pair frequencies) adds pair, sin/cos, ω and λ to the hover text and
    marks the sin | cos boundary of a grouped or split table.
    """
    grid = as_grid(data)
    y = row_labels(grid, words, tokens)
    x = column_labels(grid, words, order=order, omega=omega, layout=layout)
    fig = go.Figure(
        _heatmap(grid, x, y, zmax, _hover_value(grid, words, value_name or words["value"], reduce))
    )
    rows = [a for a, _ in spans(grid.rows, grid.row_step)]
    cols = [a for a, _ in spans(grid.cols, grid.col_step)]
    n_cols = spans(grid.cols, grid.col_step)[-1][1]
    order = np.arange(n_cols) if order is None else np.asarray(order)
    half = 0
    if omega is not None and n_cols >= 4:
        shown = pair_kind(n_cols, layout)[1][order]
        if shown[: n_cols // 2].all() and not shown[n_cols // 2 :].any():  # [sin | cos]
            half = n_cols // 2
            edge = half / grid.col_step - 0.5
            fig.add_vline(x=edge, line=dict(color="black", width=1.5, dash="dot"))
            for text, where in (("sin", edge / 2), ("cos", (edge + len(x)) / 2)):
                fig.add_annotation(
                    x=where, y=1.0, yref="paper", yanchor="bottom", text=text, showarrow=False
                )
    if tokens is not None and grid.row_step == 1:
        labels = [f"{a} {plotly_text(tokens[a])}" for a in rows]
        row_ticks = dict(tickmode="array", tickvals=y, ticktext=labels)
    else:
        row_ticks = _ticks(y, rows)
    fig.update_yaxes(type="category", autorange="reversed", title=words["position"], **row_ticks)
    fig.update_xaxes(
        type="category",
        title=words["dimension"],
        **_ticks(x, cols, lambda k: order[k], halves=half),
    )
    return style(fig, height=height)


def similarity_figure(
    data: np.ndarray | Grid,
    *,
    words: dict = WORDS,
    reference: int | None = None,
    height=460,
    pickable: bool = False,
) -> go.Figure:
    """The ``L x L`` matrix of dot products ``PE_m . PE_n``, symmetric colour scale.

    ``reference`` marks row m = reference (the row drawn by :func:`similarity_curve`);
    ``pickable``: a click on a row picks its position (``ui.plain.pick.row_picker``).
    Positions are m and n, the letters of attention: i is the pair index, q the query.
    """
    grid = as_grid(data)
    y = row_labels(grid, words, symbol="m = ")
    x = row_labels(
        Grid(grid.z.T, grid.cols, grid.rows, grid.col_step, grid.row_step), words, symbol="n = "
    )
    trace = _heatmap(grid, x, y, 1.0, _hover_value(grid, words, words["similarity"]))
    low, high = float(np.min(grid.z)), float(np.max(grid.z))
    trace.update(zmin=low, zmax=high, zmid=None, colorscale=fitted_colorscale(low, high))
    fig = go.Figure(trace)
    starts = [a for a, _ in spans(grid.rows, grid.row_step)]
    ticks = _ticks(y, starts)
    fig.update_yaxes(type="category", autorange="reversed", title=f"{words['position']} m", **ticks)
    starts = [a for a, _ in spans(grid.cols, grid.col_step)]
    fig.update_xaxes(type="category", title=f"{words['position']} n", **_ticks(x, starts))
    fig.update_layout(yaxis_scaleanchor="x")
    if reference is not None:
        row = reference // grid.row_step
        fig.add_shape(
            type="line", x0=-0.5, x1=len(x) - 0.5, y0=row, y1=row,
            line=dict(color="black", width=1, dash="dot"),
        )  # fmt: skip
    if pickable:  # a click on a row picks m (ui.shared.grab): each row's first position
        hover = f"m = %{{customdata}}<br>{words['pick_row']}<extra></extra>"
        row_picker(fig, y, [a for a, _ in spans(grid.rows, grid.row_step)], hover=hover)
    return style(fig, height=height)


def similarity_curve(
    values: np.ndarray,
    reference: int,
    *,
    words: dict = WORDS,
    max_points: int = MAX_POINTS,
    height: int = 320,
) -> tuple[go.Figure, int]:
    """Row ``reference`` of the similarity matrix against ``n``; returns (figure, stride)."""
    values = np.asarray(values, dtype=np.float64)
    stride = -(-values.size // max_points)
    j = np.union1d(np.arange(0, values.size, stride), [reference])
    fig = go.Figure(
        go.Scatter(
            x=j,
            y=values[j],
            mode="lines",
            line=dict(color="#b2182b", width=1.5),
            hovertemplate=f"n = %{{x}}<br>{words['curve_axis']} = %{{y:.4f}}<extra></extra>",
        )
    )
    fig.add_vline(x=reference, line=dict(color="grey", dash="dot"))
    fig.add_hline(y=0, line=dict(color="grey", width=1))
    fig.update_xaxes(title=words["offset_axis"])
    fig.update_yaxes(title=words["curve_axis"])
    return style(fig, height=height), stride


def embedding_figure(
    panels: Sequence[tuple[str, np.ndarray]],
    *,
    words: dict = WORDS,
    zmax: float = 3.0,
    height: int = 360,
    stacked: bool = False,
    panel_height: int = 240,
) -> go.Figure:
    """Side-by-side heatmaps on ONE colour scale ``[-zmax, zmax]`` (values beyond saturate).

    ``stacked`` (a phone): one panel above the other.
    """
    fig = grid_of_panels(
        len(panels), stacked=stacked, titles=[title for title, _ in panels], spacing=0.015,
        shared_y=True, panel_height=panel_height,
    )  # fmt: skip
    hover = (
        f"{words['position']} %{{y}}<br>{words['dimension']} %{{x}}"
        f"<br>{words['value']} = %{{z:.3f}}<extra></extra>"
    )
    for k, (_, matrix) in enumerate(panels, start=1):
        fig.add_trace(
            go.Heatmap(
                z=np.asarray(matrix, dtype=np.float32),
                coloraxis="coloraxis",
                hovertemplate=hover,
            ),
            **cell(k, stacked),
        )
    fig.update_layout(coloraxis=dict(colorscale=COLORSCALE, cmin=-zmax, cmax=zmax, cmid=0.0))
    fig.update_yaxes(autorange="reversed")
    if stacked:
        fig.update_yaxes(title=words["position"])
    else:
        fig.update_yaxes(title=words["position"], row=1, col=1)
    fig.update_xaxes(title=words["dimension"])
    # Whole dimensions and positions only: five narrow panels of 2 columns got ticks at
    # 0.5 steps that ran together ("1.50.5").
    rows, cols = np.shape(panels[0][1])
    fig.update_xaxes(dtick=max(1, cols // 2))
    fig.update_yaxes(dtick=max(1, rows // 5))
    if stacked:
        fig = style_stacked(fig, len(panels), panel_height)
    else:
        fig = style(fig, height=height)
    fig.update_layout(margin=dict(t=60))
    return fig
