"""The home page's live figure."""

from __future__ import annotations

import plotly.graph_objects as go

from ui.plain.grids import Grid
from ui.plain.style import heatmap


def home_heatmap(
    grid: Grid, x_title: str, y_title: str, *, z_title: str = "", height: int = 380
) -> go.Figure:
    """The (possibly downsampled) sinusoidal table: positions down, dimensions across."""
    fig, _ = heatmap(grid, x_title=x_title, y_title=y_title, z_title=z_title, height=height)
    return fig
