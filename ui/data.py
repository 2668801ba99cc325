"""Cached computations shared by pages: what a rerun would otherwise repeat."""

from __future__ import annotations

import numpy as np
import streamlit as st

import posenc
from ui.figures.common import Grid, downsample, grid_from_row_means, steps


@st.cache_data(max_entries=32, show_spinner=False)
def sinusoidal_grid(seq_len: int, d_model: int, base: float, layout: str = "interleaved") -> Grid:
    """The sinusoidal table, downsampled for display: exact block means in closed form
    (``posenc.scheme_block_means``) when rows are averaged, else the float32 table."""
    row_step, col_step = steps(seq_len, d_model)
    if row_step > 1:
        means = posenc.scheme_block_means(
            "sinusoidal", seq_len, d_model, base, row_step, layout=layout
        )
        return grid_from_row_means(means, seq_len, d_model, row_step, col_step)
    table = posenc.sinusoidal(seq_len, d_model, base, layout=layout, dtype=np.float32)
    return downsample(table)
