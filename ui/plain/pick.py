"""Traces a click can pick (issue #21, "grab the thing itself").

A trace marked :data:`PICK` (its ``meta``) carries, in ``customdata``, the value a click
on one of its points sets (a position, a pair). ``ui.shared.grab`` draws such a figure with
Streamlit's ``on_select`` and reads only these traces' points: a click on a colour
bar, an empty area or another trace sets nothing.

Plotly selects on click only points of scatter-like traces, not heatmap cells:
:func:`row_picker` lays an invisible column of points over a heatmap, one per row, and
sets ``hovermode="y"``, so that the pointer anywhere along a row hovers (and a click
selects) that row's point. Plotly then reads every other trace at that point's x (its
"compare" hover), so the heatmap would report its first column wherever the pointer
is: the heatmap's own hover is switched off and the row's label is the hover.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

PICK = "pick"


def mark(trace) -> None:
    """Mark ``trace`` as one whose points' ``customdata`` a click picks."""
    trace.meta = PICK


def picking_curves(fig: go.Figure) -> list[int]:
    """Indices of the traces marked by :func:`mark` (Streamlit's ``curve_number``). A
    figure from the figure cache tells without being built (``trace_metas``, issue #32)."""
    metas = fig.trace_metas() if hasattr(fig, "trace_metas") else [t.meta for t in fig.data]
    return [i for i, meta in enumerate(metas) if meta == PICK]


def row_picker(fig: go.Figure, y: Sequence, values: Sequence, *, hover: str, x=None):
    """One invisible point per row ``y`` of the heatmap ``fig.data[0]`` (same categories),
    carrying ``values`` (what a click on that row sets), at ``x`` (default: the heatmap's
    first column); ``hover`` is the rows' hover template (``%{y}``: the row's label)."""
    heatmap = fig.data[0]
    if x is None:
        x = heatmap.x[0] if heatmap.x is not None and len(heatmap.x) else 0
    heatmap.hoverinfo, heatmap.hovertemplate = "skip", None
    trace = go.Scatter(
        x=[x] * len(y),
        y=list(y),
        customdata=np.asarray(values),
        mode="markers",
        marker=dict(size=1, opacity=0),
        hovertemplate=hover,
        showlegend=False,
    )
    mark(trace)
    fig.add_trace(trace)
    fig.update_layout(hovermode="y")
    return fig
