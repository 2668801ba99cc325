"""The sinusoidal table (the paper's or a framework's) as block means, cached for all
sessions: one shared piece drawn by the Heatmap page, the home page and the story, so
none of them reaches into another page's module (issue 25 §2)."""

from __future__ import annotations

import numpy as np

import posenc
from posenc.blocks import sinusoid_block_means
from posenc.frameworks import framework_frequencies, framework_table
from ui.plain.columns import pair_kind
from ui.plain.grids import Grid, block_means, grid_from_row_means, steps
from ui.shared import data_cache


def column_order(d_model: int, layout: str, group: bool) -> np.ndarray:
    """Display order of the columns: [all sin | all cos] when grouping an interleaved table."""
    if group and layout == "interleaved":
        return posenc.split_permutation(d_model)
    return np.arange(d_model)


def _rows(framework: str, d_model: int, base: float, layout: str, order: np.ndarray):
    """rows(a, b) of the table, columns in display order (float32 for the paper)."""
    identity = np.array_equal(order, np.arange(d_model))

    def rows(a: int, b: int) -> np.ndarray:
        if framework == "paper":
            block = posenc.sinusoidal(
                b - a, d_model, base, layout=layout, offset=a, dtype=np.float32
            )
        else:
            block = framework_table(framework, b - a, d_model, base, layout=layout, offset=a)
        return block if identity else block[:, order]

    return rows


@data_cache.cache_data(max_entries=16)
def table_grid(
    framework: str, length: int, d_model: int, base: float, layout: str, group: bool
) -> Grid:
    """The framework's table in ``layout``, columns in display order, as block means."""
    order = column_order(d_model, layout, group)
    row_step, col_step = steps(length, d_model)
    if row_step > 1 and framework != "torch32":
        # Exact block means in closed form (posenc.blocks): O(L / step * d), not O(L d).
        # torch32's float32 angles have no closed form; its table is averaged as built.
        pair, is_sin = pair_kind(d_model, layout)
        omega = framework_frequencies(framework, d_model, base)[pair]
        means = sinusoid_block_means(length, omega[order], row_step, cosine=~is_sin[order])
        return grid_from_row_means(means, length, d_model, row_step, col_step)
    rows = _rows(framework, d_model, base, layout, order)
    return block_means(length, d_model, rows, row_step, col_step)
