"""Figure of the RoPE page's "Real models" tab: each rotary pair's wavelength, as
pretrained and after the model's scaling, against the training context."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from ui.features.rope.figures import METHOD_STYLE, PALETTE
from ui.plain.style import style


def wavelength_figure(
    wavelengths: Mapping[str, np.ndarray],
    *,
    names: Mapping[str, str],
    contexts: Mapping[str, float],
    critical: int | None,
    critical_label: str,
    x_title: str,
    y_title: str,
    height: int = 420,
) -> go.Figure:
    """Wavelength ``2 pi / theta_j`` per pair j on a log axis, one line per key of
    ``wavelengths`` ("pretrained", "scaled"; an infinite wavelength, a pair that does
    not turn, leaves a gap), a horizontal line per context (label -> positions) and a
    vertical line at the ``critical`` pair (the first under one turn inside L0)."""
    styles = {"pretrained": METHOD_STYLE["none"], "scaled": (PALETTE[4], "dash")}
    first = np.asarray(next(iter(wavelengths.values())))
    pairs = np.arange(first.size)
    hover = f"%{{fullData.name}}<br>{x_title} = %{{x}}<br>{y_title} = %{{y:,.4g}}<extra></extra>"
    finite = [first[np.isfinite(first)]]
    fig = go.Figure()
    for key, values in wavelengths.items():
        values = np.asarray(values, dtype=float)
        finite.append(values[np.isfinite(values)])
        color, dash = styles.get(key, (PALETTE[1], "dot"))
        fig_y = np.where(np.isfinite(values), values, np.nan)
        fig.add_trace(
            go.Scatter(
                x=pairs, y=fig_y, mode="lines+markers", name=names.get(key, key),
                line=dict(color=color, dash=dash, width=2), marker=dict(size=4),
                hovertemplate=hover, connectgaps=False,
            )
        )  # fmt: skip
    for k, (label, value) in enumerate(contexts.items()):
        fig.add_trace(
            go.Scatter(
                x=[0, max(first.size - 1, 1)], y=[value, value], mode="lines", name=label,
                line=dict(color="#555" if k == 0 else "#999", dash="dash" if k == 0 else "dot",
                          width=1.5),
                hoverinfo="skip",
            )
        )  # fmt: skip
    if critical is not None:
        values = np.concatenate([*finite, np.asarray(list(contexts.values()), dtype=float)])
        low, high = float(values.min()), float(values.max())
        fig.add_trace(
            go.Scatter(
                x=[critical, critical], y=[low, high], mode="lines", name=critical_label,
                line=dict(color=PALETTE[1], width=1.5), hoverinfo="skip",
            )
        )  # fmt: skip
    fig.update_yaxes(type="log", title=y_title, exponentformat="power")
    fig.update_xaxes(title=x_title)
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    return style(fig, height=height)
