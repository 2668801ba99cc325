"""Cached computations of the page "Binary counter vs sinusoid".

Large tables are read in row blocks and reduced to block means as they come, so the
L x d tables and the L x L distance matrix never exist in full (issue: 512 MB cap).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import streamlit as st

from posenc.criteria import (
    Criteria,
    bit_fundamental,
    bit_wave,
    counter_frequencies,
    distance_blocks,
    scheme_criteria,
)
from posenc.schemes import SCHEMES, scheme_table
from ui.figures.common import MAX_CELLS, Grid

# Cells per panel of the side-by-side evolution (5 panels share one chart's budget);
# 128 columns leave the default d_model = 128 whole (no averaging of sin with cos).
EVOLUTION_ROWS = 200
EVOLUTION_COLS = 128
# Cells per axis of the distance matrix: 500 x 500 float32 is 1.33 MB of base64 JSON.
DISTANCE_CELLS = 400
# Rows searched for the closest pair of binary and sin_pow2 (Gram tiles, O(rows^2)).
MAX_PAIR_ROWS = 8192
# Float64 entries per block while reducing.
_BLOCK_ENTRIES = 2**20


def block_means(
    blocks: Iterable[tuple[int, np.ndarray]],
    n_rows: int,
    n_cols: int,
    max_rows: int = MAX_CELLS,
    max_cols: int = MAX_CELLS,
) -> Grid:
    """The ``Grid`` of ``ui.figures.common.downsample`` from row blocks of the matrix.

    Each block must start at a multiple of ``block_rows(...)``'s row step. The same
    block means as ``downsample(full)``, as float32, without holding ``full``.
    """
    row_step = -(-n_rows // max_rows)
    col_step = -(-n_cols // max_cols)
    row_starts = np.arange(0, n_rows, row_step)
    col_starts = np.arange(0, n_cols, col_step)
    sums = np.zeros((row_starts.size, col_starts.size))
    for start, block in blocks:
        if start % row_step:
            raise ValueError(f"block start {start} is not a multiple of the row step {row_step}")
        local = np.arange(0, block.shape[0], row_step)
        part = np.add.reduceat(
            np.add.reduceat(block, local, axis=0, dtype=np.float64), col_starts, 1
        )
        first = start // row_step
        sums[first : first + part.shape[0]] += part
    row_sizes = np.diff(np.append(row_starts, n_rows))
    col_sizes = np.diff(np.append(col_starts, n_cols))
    z = (sums / np.outer(row_sizes, col_sizes)).astype(np.float32)
    rows = row_starts + (row_sizes - 1) / 2 if row_step > 1 else row_starts
    cols = col_starts + (col_sizes - 1) / 2 if col_step > 1 else col_starts
    return Grid(z, rows, cols, row_step, col_step)


def block_rows(n_rows: int, width: int, max_rows: int) -> int:
    """Rows per block: a multiple of the row step, about ``_BLOCK_ENTRIES`` entries."""
    step = -(-n_rows // max_rows)
    return step * max(1, _BLOCK_ENTRIES // (max(1, width) * step))


@st.cache_data(max_entries=16, show_spinner=False)
def criteria_rows(seq_len: int, d_model: int, base: float, k: int) -> tuple[Criteria, ...]:
    """The measured criteria of every scheme (posenc.criteria)."""
    return tuple(
        scheme_criteria(name, seq_len, d_model, base, k=k, max_pair_rows=MAX_PAIR_ROWS)
        for name in SCHEMES
    )


@st.cache_data(max_entries=8, show_spinner=False)
def evolution_grids(
    seq_len: int, d_model: int, base: float, shown: int | None = None
) -> tuple[tuple[Grid, ...], tuple[float, ...]]:
    """Each scheme's table for positions 0 .. shown-1 (of L = seq_len) as block means for
    the side-by-side view, and each table's largest ``|value|`` (not of the means)."""
    shown = seq_len if shown is None else min(shown, seq_len)
    rows = block_rows(shown, d_model, EVOLUTION_ROWS)
    grids, tops = [], []
    for name in SCHEMES:
        top = [0.0]

        def blocks(name=name, top=top):
            for start in range(0, shown, rows):
                n = min(rows, shown - start)
                table = scheme_table(name, n, d_model, base, total_length=seq_len, offset=start)
                top[0] = max(top[0], float(np.abs(table).max()))
                yield start, table

        grids.append(block_means(blocks(), shown, d_model, EVOLUTION_ROWS, EVOLUTION_COLS))
        tops.append(top[0])
    return tuple(grids), tuple(tops)


@st.cache_data(max_entries=8, show_spinner=False)
def distance_grid(
    name: str, seq_len: int, d_model: int, base: float, shown: int | None = None
) -> Grid:
    """``||e(i) - e(j)||`` for positions 0 .. shown-1 of L = seq_len, as block means of at
    most 400 x 400 cells."""
    shown = seq_len if shown is None else min(shown, seq_len)
    rows = block_rows(shown, shown, DISTANCE_CELLS)
    blocks = distance_blocks(name, shown, d_model, base, block_rows=rows, total_length=seq_len)
    return block_means(blocks, shown, shown, DISTANCE_CELLS, DISTANCE_CELLS)


def counter_curves(bits: int, samples: int = 1024) -> dict[str, np.ndarray]:
    """Bits of positions 0 .. 2^bits as square waves, and on a grid t of about ``samples``
    points the sin/cos pairs of matching wavelength (``counter_frequencies``) and each
    bit's fundamental."""
    count = 2**bits
    positions = np.arange(count + 1)
    t = np.linspace(0, count, max(8, samples // count) * count + 1)
    omega = counter_frequencies(bits)
    return {
        "positions": positions,
        "square": np.stack([bit_wave(positions, i) for i in range(bits)]),
        "t": t,
        "sin": np.sin(np.multiply.outer(omega, t)),
        "cos": np.cos(np.multiply.outer(omega, t)),
        "smooth": np.stack([bit_fundamental(t, i) for i in range(bits)]),
    }
