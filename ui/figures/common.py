"""Colour scale, layout and the downsampling every large heatmap goes through."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

# One diverging scale centred on 0 for values in [-1, 1], used on every page.
COLORSCALE = "RdBu_r"
# The browser never receives more cells than this per heatmap axis ...
MAX_CELLS = 500
# ... nor more cells in all: a float32 cell is 4 bytes, ~6.7 in Plotly JSON (base64 with
# "/" escaped as "\u002f"), so 120 000
# cells keep a heatmap under the 1 MB chart budget.
MAX_TOTAL_CELLS = 120_000
# Budget of a chart's JSON (issue #7).
MAX_CHART_BYTES = 1_000_000


class Grid(NamedTuple):
    """A matrix ready to draw, with the index each displayed row/column stands for."""

    z: np.ndarray
    rows: np.ndarray  # centre index of each displayed row
    cols: np.ndarray
    row_step: int  # how many original rows one displayed row averages
    col_step: int

    @property
    def downsampled(self) -> bool:
        return self.row_step > 1 or self.col_step > 1


def _steps(n_rows: int, n_cols: int, max_rows: int, max_cols: int, max_total: int):
    row_step = -(-n_rows // max_rows)
    col_step = -(-n_cols // max_cols)
    while -(-n_rows // row_step) * -(-n_cols // col_step) > max_total:
        # Coarsen the axis that currently keeps more cells.
        if -(-n_rows // row_step) >= -(-n_cols // col_step):
            row_step += 1
        else:
            col_step += 1
    return row_step, col_step


def downsample(
    z: np.ndarray,
    max_rows: int = MAX_CELLS,
    max_cols: int = MAX_CELLS,
    max_total: int = MAX_TOTAL_CELLS,
) -> Grid:
    """Block means of ``z``: at most ``max_rows x max_cols`` and ``max_total`` cells remain.

    The last block of an axis may be shorter. The output is float32 even when nothing is
    averaged: half the payload of float64, and far finer than any colour scale or the
    4 decimals of the hover text.
    """
    z = np.asarray(z)
    n_rows, n_cols = z.shape
    row_step, col_step = _steps(n_rows, n_cols, max_rows, max_cols, max_total)
    if row_step == 1 and col_step == 1:
        return Grid(z.astype(np.float32), np.arange(n_rows), np.arange(n_cols), 1, 1)
    row_starts = np.arange(0, n_rows, row_step)
    col_starts = np.arange(0, n_cols, col_step)
    # Accumulate in float64 without copying a large float32 input.
    sums = np.add.reduceat(
        np.add.reduceat(z, row_starts, axis=0, dtype=np.float64), col_starts, axis=1
    )
    counts = np.outer(
        np.diff(np.append(row_starts, n_rows)), np.diff(np.append(col_starts, n_cols))
    )
    rows = row_starts + (np.diff(np.append(row_starts, n_rows)) - 1) / 2
    cols = col_starts + (np.diff(np.append(col_starts, n_cols)) - 1) / 2
    return Grid((sums / counts).astype(np.float32), rows, cols, row_step, col_step)


def style(fig: go.Figure, *, height: int = 420, title: str | None = None) -> go.Figure:
    """House layout: compact margins, readable fonts, no Plotly logo needed."""
    fig.update_layout(
        height=height,
        margin=dict(l=60, r=20, t=50 if title else 20, b=50),
        title=title,
        template="plotly_white",
        font=dict(size=13),
    )
    return fig


def heatmap(
    z: np.ndarray | Grid,
    *,
    x_title: str,
    y_title: str,
    zmin: float = -1.0,
    zmax: float = 1.0,
    colorscale: str = COLORSCALE,
    title: str | None = None,
    height: int = 420,
    hovertemplate: str | None = None,
    customdata: np.ndarray | None = None,
) -> tuple[go.Figure, Grid]:
    """A heatmap of ``z`` (rows on y, downwards), downsampled to the cell budget.

    ``customdata`` (same leading shape as ``z``) is only used when no downsampling
    happens, because averaged cells have no single position or dimension.
    """
    grid = z if isinstance(z, Grid) else downsample(z)
    trace = go.Heatmap(
        z=grid.z,
        x=grid.cols,
        y=grid.rows,
        zmin=zmin,
        zmax=zmax,
        zmid=0.0 if zmin < 0 < zmax else None,
        colorscale=colorscale,
        colorbar=dict(thickness=12),
    )
    if customdata is not None and not grid.downsampled:
        trace.customdata = customdata
    if hovertemplate is not None and (customdata is None or not grid.downsampled):
        trace.hovertemplate = hovertemplate
    else:
        trace.hovertemplate = (
            f"{y_title} %{{y}}<br>{x_title} %{{x}}<br>value %{{z:.4f}}<extra></extra>"
        )
    fig = go.Figure(trace)
    fig.update_yaxes(autorange="reversed", title=y_title)
    fig.update_xaxes(title=x_title)
    return style(fig, height=height, title=title), grid


def chart_bytes(fig: go.Figure) -> int:
    """Size of the JSON Streamlit sends for ``fig``."""
    return len(fig.to_json().encode())
