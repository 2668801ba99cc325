"""Cached computations shared by pages: what a rerun would otherwise repeat."""

from __future__ import annotations

import numpy as np
import streamlit as st

import posenc
from ui.figures.common import Grid, downsample


@st.cache_data(max_entries=32, show_spinner=False)
def sinusoidal_grid(seq_len: int, d_model: int, base: float, layout: str = "interleaved") -> Grid:
    """The sinusoidal table, downsampled for display (float32 keeps peak memory low)."""
    table = posenc.sinusoidal(seq_len, d_model, base, layout=layout, dtype=np.float32)
    return downsample(table)
