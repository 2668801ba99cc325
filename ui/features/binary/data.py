"""Cached computations of the page "Binary counter vs sinusoid".

Large tables are read in row blocks and reduced to block means as they come, so the
L x d tables and the L x L distance matrix never exist in full (issue: 512 MB cap).
"""

from __future__ import annotations

import numpy as np

from posenc.blocks import scheme_block_means
from posenc.criteria import (
    Criteria,
    bit_fundamental,
    bit_wave,
    counter_frequencies,
    distance_blocks,
    scheme_criteria,
)
from posenc.schemes import SCHEMES, informative_columns, scheme_table
from posenc.similarity import offset_distance
from ui.plain.grids import Grid, block_means, block_rows, grid_from_row_means, reduce_blocks, steps
from ui.shared import data_cache

# Cells per panel of the side-by-side evolution (5 panels share one chart's budget);
# 128 columns leave the default d_model = 128 whole (no averaging of sin with cos).
EVOLUTION_ROWS = 200
EVOLUTION_COLS = 128
# Cells per axis of the distance matrix: 500 x 500 float32 is 1.33 MB of base64 JSON.
DISTANCE_CELLS = 400
# Rows searched for the closest pair of binary and sin_pow2 (Gram tiles, O(rows^2)).
MAX_PAIR_ROWS = 8192


@data_cache.cache_data(max_entries=16)
def criteria_rows(seq_len: int, d_model: int, base: float, k: int) -> tuple[Criteria, ...]:
    """The measured criteria of every scheme (posenc.criteria)."""
    return tuple(
        scheme_criteria(name, seq_len, d_model, base, k=k, max_pair_rows=MAX_PAIR_ROWS)
        for name in SCHEMES
    )


# Schemes whose table is mostly blank at large d: binary fills its last log2(L) columns,
# sin(p / 2^j) its first few; ``focus`` draws just those columns.
FOCUSED = ("binary", "sin_pow2")


def _scheme_grid(name: str, shown: int, width: int, base: float, seq_len: int) -> Grid:
    """Block means of the first ``width`` columns of the scheme's table (for binary: of
    its ``width`` lowest bits, which are the last ``width`` columns at any d >= width)."""
    row_step, col_step = steps(shown, width, EVOLUTION_ROWS, EVOLUTION_COLS)
    if row_step > 1:  # exact block means in closed form: O(shown / step * d)
        means = scheme_block_means(name, shown, width, base, row_step, total_length=seq_len)
        return grid_from_row_means(means, shown, width, row_step, col_step)
    table = scheme_table(name, shown, width, base, total_length=seq_len)
    return block_means(shown, width, lambda a, b, x=table: x[a:b], 1, col_step)


@data_cache.cache_data(max_entries=8)
def evolution_grids(
    seq_len: int, d_model: int, base: float, shown: int | None = None, *, focus: bool = False
) -> tuple[tuple[Grid, ...], tuple[float, ...]]:
    """Each scheme's table for positions 0 .. shown-1 (of L = seq_len) as block means for
    the side-by-side view, and each table's largest ``|value|`` (not of the means).

    ``focus``: the ``FOCUSED`` schemes show only their informative columns
    (``posenc.schemes.informative_columns``); the grid's ``cols`` keep the true dimensions.
    """
    shown = seq_len if shown is None else min(shown, seq_len)
    grids, tops = [], []
    for name in SCHEMES:
        columns = informative_columns(name, shown, d_model) if focus else range(d_model)
        if name not in FOCUSED or len(columns) == d_model:
            grids.append(_scheme_grid(name, shown, d_model, base, seq_len))
        else:
            grid = _scheme_grid(name, shown, len(columns), base, seq_len)
            grids.append(grid._replace(cols=grid.cols + columns.start))
        # Largest |value| of the table itself, from the columns that hold it.
        table = scheme_table(name, shown, _TOP_COLUMNS[name](d_model), base, total_length=seq_len)
        tops.append(float(np.abs(table).max()))
    return tuple(grids), tuple(tops)


# Columns of a scheme's table that hold its largest |value|: index and normalised repeat
# one column; binary's columns beyond 63 bits are 0 (and a narrower table holds the low
# bits); in sin_pow2's columns j >= 63, p / 2^j < 1 < pi / 2 for any int64 p, so their
# values shrink with j and column 63 bounds them; the sinusoid reaches 1 at cos(0).
_TOP_COLUMNS = {
    "index": lambda d: 1,
    "normalised": lambda d: 1,
    "binary": lambda d: min(d, 63),
    "sin_pow2": lambda d: min(d, 64),
    "sinusoidal": lambda d: 2,
}


@data_cache.cache_data(max_entries=8)
def distance_grid(
    name: str, seq_len: int, d_model: int, base: float, shown: int | None = None
) -> Grid:
    """``||e(i) - e(j)||`` for positions 0 .. shown-1 of L = seq_len, as block means of at
    most 400 x 400 cells."""
    shown = seq_len if shown is None else min(shown, seq_len)
    row_step, col_step = steps(shown, shown, DISTANCE_CELLS, DISTANCE_CELLS)
    rows = block_rows(row_step, shown)
    blocks = distance_blocks(name, shown, d_model, base, block_rows=rows, total_length=seq_len)
    return reduce_blocks(blocks, shown, shown, row_step, col_step)


@data_cache.cache_data(max_entries=16)
def first_distance_dip(d_model: int, base: float, upto: int) -> int | None:
    """The smallest offset k < ``upto`` at which the sinusoid's ``||PE(0) - PE(k)||``
    (``posenc.similarity.offset_distance``) is smaller than at k - 1, or None:
    where the distance matrix stops growing away from its diagonal."""
    distance = offset_distance(np.arange(max(upto, 1)), d_model, base)
    falls = np.flatnonzero(np.diff(distance) < 0)
    return int(falls[0]) + 1 if falls.size else None


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
