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


def factor_figure(
    factors: Mapping[str, np.ndarray],
    *,
    names: Mapping[str, str],
    active: str,
    x_title: str,
    y_title: str,
    height: int = 360,
) -> go.Figure:
    """LongRoPE's factors per pair j (``"short"``, ``"long"``: each pair's speed is
    theta_j divided by its factor), on a log axis; the set in use (``active``) drawn
    solid, the other dotted."""
    fig = go.Figure()
    hover = f"%{{fullData.name}}<br>{x_title} = %{{x}}<br>{y_title} = %{{y:.4g}}<extra></extra>"
    colors = {"short": METHOD_STYLE["none"][0], "long": PALETTE[4]}
    for key, values in factors.items():
        values = np.asarray(values, dtype=float)
        fig.add_trace(
            go.Scatter(
                x=np.arange(values.size), y=values, mode="lines+markers", name=names[key],
                line=dict(color=colors.get(key, PALETTE[1]), width=3 if key == active else 1.5,
                          dash="solid" if key == active else "dot"),
                marker=dict(size=5 if key == active else 3), hovertemplate=hover,
            )
        )  # fmt: skip
    top = max(float(np.max(np.asarray(v, dtype=float))) for v in factors.values())
    ticks = [v for v in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if v <= 2 * top]
    fig.update_yaxes(type="log", title=y_title, tickvals=ticks)
    fig.update_xaxes(title=x_title)
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    return style(fig, height=height)


def growth_figure(
    lengths: np.ndarray,
    base: np.ndarray,
    speed: np.ndarray,
    *,
    marks: Mapping[str, float],
    names: Mapping[str, str],
    x_title: str,
    height: int = 380,
) -> go.Figure:
    """Dynamic NTK as the sequence grows: the base b' (rising) and the slowest pair's
    speed (falling, on a second y axis) against the length L, all log axes, with a
    vertical line per entry of ``marks`` (label -> length)."""
    fig = go.Figure()
    for key, values, axis, color in (("base", base, "y", PALETTE[0]),
                                     ("speed", speed, "y2", PALETTE[4])):  # fmt: skip
        fig.add_trace(
            go.Scatter(
                x=lengths, y=values, mode="lines", name=names[key], yaxis=axis,
                line=dict(color=color, width=2, dash="solid" if axis == "y" else "dash"),
                hovertemplate=f"L = %{{x:,}}<br>{names[key]} = %{{y:.4g}}<extra></extra>",
            )
        )  # fmt: skip
    low, high = float(np.min(base)), float(np.max(base))
    for k, (label, value) in enumerate(marks.items()):
        fig.add_trace(
            go.Scatter(
                x=[value, value], y=[low, high], mode="lines", name=label, hoverinfo="skip",
                line=dict(color="#555" if k == 0 else PALETTE[1], width=1.5,
                          dash="dash" if k == 0 else "solid"),
            )
        )  # fmt: skip
    fig.update_xaxes(type="log", title=x_title, exponentformat="power", dtick=1)
    fig.update_yaxes(type="log", title=names["base"], exponentformat="power", dtick=1)
    fig.update_layout(
        yaxis2=dict(type="log", overlaying="y", side="right", title=names["speed"],
                    exponentformat="power", showgrid=False, dtick=1),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0),
    )  # fmt: skip
    return style(fig, height=height)
