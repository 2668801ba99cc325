"""Chart budgets and the reduction of large matrices to a display grid (no Streamlit).

The browser never receives more than ``MAX_CELLS`` heatmap cells per axis,
``MAX_TOTAL_CELLS`` in all, ``MAX_CHART_BYTES`` of figure JSON or ``MAX_LINE_POINTS`` points
per line; :func:`downsample` and :func:`block_means` turn a matrix (or a function of its
row blocks) into a ``Grid`` of block means that says what each drawn cell stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

# The browser never receives more heatmap cells than this per axis (1024 keeps the
# seeds' 100 x 512 table cell for cell) ...
MAX_CELLS = 1024
# ... nor more cells in all: a float32 cell is 4 bytes, ~6.7 in Plotly JSON (base64 with
# "/" escaped as "\u002f"), so 120 000 cells keep a heatmap under the 1 MB chart budget.
MAX_TOTAL_CELLS = 120_000
# Budget of a chart's JSON (issue #7).
MAX_CHART_BYTES = 1_000_000
# Points per line; a longer line is subsampled or reduced to its envelope (every figure module).
MAX_LINE_POINTS = 5000
# float64 entries reduced at a time: the full matrix is never held for display.
_BLOCK_ENTRIES = 1 << 22


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


def steps(
    n_rows: int,
    n_cols: int,
    max_rows: int = MAX_CELLS,
    max_cols: int = MAX_CELLS,
    max_total: int = MAX_TOTAL_CELLS,
) -> tuple[int, int]:
    """Block sizes ``(row_step, col_step)`` that keep the displayed cells within budget."""
    row_step = -(-n_rows // max_rows)
    col_step = -(-n_cols // max_cols)
    while -(-n_rows // row_step) * -(-n_cols // col_step) > max_total:
        # Coarsen the axis that currently keeps more cells.
        if -(-n_rows // row_step) >= -(-n_cols // col_step):
            row_step += 1
        else:
            col_step += 1
    return row_step, col_step


def block_rows(row_step: int, width: int) -> int:
    """Rows per block while reducing: a multiple of ``row_step``, ~4 M entries."""
    return row_step * max(1, _BLOCK_ENTRIES // (max(1, width) * row_step))


def reduce_blocks(
    blocks: Iterable[tuple[int, np.ndarray]],
    n_rows: int,
    n_cols: int,
    row_step: int,
    col_step: int,
    *,
    reduce: str = "mean",
) -> Grid:
    """Block means (or largest ``|entry|``) of a matrix given as ``(start, rows)`` blocks.

    Each block must start at a multiple of ``row_step``; the full matrix is never held.
    ``reduce="max_abs"`` suits differences, whose oscillations a mean would cancel.
    """
    if reduce not in ("mean", "max_abs"):
        raise ValueError(f"reduce must be 'mean' or 'max_abs', got {reduce!r}")
    row_starts = np.arange(0, n_rows, row_step)
    col_starts = np.arange(0, n_cols, col_step)
    row_sizes = np.diff(np.append(row_starts, n_rows))
    col_sizes = np.diff(np.append(col_starts, n_cols))
    out = np.zeros((row_starts.size, col_starts.size))
    for start, block in blocks:
        if start % row_step:
            raise ValueError(f"block start {start} is not a multiple of the row step {row_step}")
        local = np.arange(0, block.shape[0], row_step)
        if reduce == "max_abs":
            part = np.maximum.reduceat(np.abs(block), local, axis=0)
            part = np.maximum.reduceat(part, col_starts, axis=1)
        else:
            part = np.add.reduceat(block, local, axis=0, dtype=np.float64)
            part = np.add.reduceat(part, col_starts, axis=1)
        first = start // row_step
        out[first : first + part.shape[0]] = part
    if reduce == "mean":
        out /= np.outer(row_sizes, col_sizes)
    rows = row_starts + (row_sizes - 1) / 2 if row_step > 1 else row_starts
    cols = col_starts + (col_sizes - 1) / 2 if col_step > 1 else col_starts
    return Grid(out.astype(np.float32), rows, cols, row_step, col_step)


def block_means(
    n_rows: int,
    n_cols: int,
    rows: Callable[[int, int], np.ndarray],
    row_step: int | None = None,
    col_step: int | None = None,
    *,
    reduce: str = "mean",
    max_rows: int = MAX_CELLS,
    max_cols: int = MAX_CELLS,
) -> Grid:
    """Display grid of the ``n_rows x n_cols`` matrix whose rows ``a:b`` are ``rows(a, b)``.

    Rows are requested a block at a time, so peak memory does not grow with the matrix.
    Steps default to :func:`steps`. ``z`` is float32 even when nothing is averaged: half
    the payload of float64 and finer than any colour scale or 4-decimal hover text.
    """
    if row_step is None or col_step is None:
        row_step, col_step = steps(n_rows, n_cols, max_rows, max_cols)
    if row_step == 1 and col_step == 1:
        z = np.asarray(rows(0, n_rows), dtype=np.float32)
        return Grid(z, np.arange(n_rows), np.arange(n_cols), 1, 1)
    chunk = block_rows(row_step, n_cols)
    blocks = ((a, rows(a, min(a + chunk, n_rows))) for a in range(0, n_rows, chunk))
    return reduce_blocks(blocks, n_rows, n_cols, row_step, col_step, reduce=reduce)


def grid_from_row_means(
    means: np.ndarray, n_rows: int, n_cols: int, row_step: int, col_step: int
) -> Grid:
    """The :func:`block_means` grid of a matrix from its row-block means (one row of
    ``means`` per ``row_step`` rows, e.g. ``posenc.blocks``' closed forms)."""
    means = np.asarray(means, dtype=np.float64)
    row_starts, col_starts = np.arange(0, n_rows, row_step), np.arange(0, n_cols, col_step)
    if means.shape != (row_starts.size, n_cols):
        raise ValueError(f"means must have shape {(row_starts.size, n_cols)}, got {means.shape}")
    row_sizes = np.diff(np.append(row_starts, n_rows))
    col_sizes = np.diff(np.append(col_starts, n_cols))
    z = np.add.reduceat(means, col_starts, axis=1) / col_sizes
    rows = row_starts + (row_sizes - 1) / 2 if row_step > 1 else row_starts
    cols = col_starts + (col_sizes - 1) / 2 if col_step > 1 else col_starts
    return Grid(z.astype(np.float32), rows, cols, row_step, col_step)


def downsample(
    z: np.ndarray,
    max_rows: int = MAX_CELLS,
    max_cols: int = MAX_CELLS,
    max_total: int = MAX_TOTAL_CELLS,
) -> Grid:
    """:func:`block_means` of a matrix already in memory."""
    z = np.asarray(z)
    n_rows, n_cols = z.shape
    row_step, col_step = steps(n_rows, n_cols, max_rows, max_cols, max_total)
    return block_means(n_rows, n_cols, lambda a, b: z[a:b], row_step, col_step)


def as_grid(data: np.ndarray | Grid) -> Grid:
    """A ``Grid`` as is; a matrix reduced to its display grid (:func:`downsample`)."""
    return data if isinstance(data, Grid) else downsample(data)


def chart_bytes(fig: go.Figure) -> int:
    """Size of the JSON Streamlit sends for ``fig``."""
    return len(fig.to_json().encode())
