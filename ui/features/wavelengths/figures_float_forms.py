"""Figure builders of the Wavelength explorer's "Float forms" tab: the two forms of
omega_i in ulps per pair, and how far a float32 table drifts over positions.

Arrays in, ``go.Figure`` out; the words shown come in as strings the tab has translated.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from ui.features.wavelengths.figures import DASHES, PALETTE, level_line
from ui.plain.style import cell, legend_below, panels, style, style_stacked


def forms_figure(
    pairs: np.ndarray,
    errors: dict[str, tuple[np.ndarray, np.ndarray]],
    *,
    form_names: Mapping[str, str],
    x_title: str,
    y_title: str,
    height: int = 340,
    stacked: bool = False,
) -> go.Figure:
    """Error of the power and the log-space form against the exact value, in ulps, per pair.

    ``errors``: dtype name -> (power-form ulps, log-form ulps), one panel per dtype, side
    by side or (``stacked``, a phone) one above the other; ``form_names``: the legend names of
    the forms ``power`` and ``log``.
    """
    names = list(errors)
    panel_height = height - 90  # the legend under the plots
    fig = panels(len(names), stacked=stacked, titles=names, spacing=0.08, panel_height=panel_height)
    for col, dtype in enumerate(names, start=1):
        for k, (form, values) in enumerate(zip(("power", "log"), errors[dtype], strict=True)):
            label = form_names[form]
            fig.add_trace(
                go.Scatter(
                    x=pairs,
                    y=values,
                    mode="markers" if pairs.size <= 512 else "lines",
                    marker=dict(size=4, color=PALETTE[k]),
                    line=dict(color=PALETTE[k], width=1),
                    name=label,
                    legendgroup=form,
                    showlegend=col == 1,
                    hovertemplate=f"{label}<br>i=%{{x}}<br>%{{y:.3g}} ulp<extra>{dtype}</extra>",
                ),
                **cell(col, stacked),
            )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, col=1)
    if not stacked:
        fig.update_layout(legend=dict(orientation="h", y=-0.25, x=0))
        return style(fig, height=height)
    return legend_below(style_stacked(fig, len(names), panel_height, extra=90))


def drift_figure(
    positions: np.ndarray,
    drift,
    context: int,
    *,
    names: Mapping[str, str],
    x_title: str,
    y_title: str,
    height: int = 380,
) -> go.Figure:
    """Largest error of a float32 row against the exact one, over positions (log-log).

    ``drift``: ``posenc.spectrum.Drift``. Position 0 is exact and left out of the log axis.
    ``names``: the legend names of the curves ``torch_f32``, ``div_term_only``,
    ``rounded_f32`` and of the rounding ``bound``.
    """
    keep = positions > 0
    p = positions[keep]
    fig = go.Figure()
    for k, field in enumerate(("torch_f32", "div_term_only", "rounded_f32")):
        label = names[field]
        fig.add_trace(
            go.Scatter(
                x=p,
                y=np.maximum(getattr(drift, field)[keep], 1e-12),
                mode="lines",
                line=dict(color=PALETTE[k], width=2 if k == 0 else 1.5, dash=DASHES[k]),
                name=label,
                hovertemplate=f"{label}<br>p=%{{x}}<br>%{{y:.3g}}<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=p,
            y=p * 2.0**-24,
            mode="lines",
            line=dict(color="#8a909c", dash="dot", width=1),
            name=names["bound"],
            hoverinfo="skip",
        )
    )
    if context > 1:
        top = float(np.max(drift.torch_f32[keep], initial=1e-7))
        fig.add_trace(
            level_line(
                [context - 1, context - 1],
                [2.0**-26, top],
                f"L − 1 = {context - 1}",
                "#e08214",
                "top right",
            )
        )
    fig.update_xaxes(type="log", exponentformat="power", title=x_title)
    fig.update_yaxes(type="log", exponentformat="power", title=y_title)
    fig.update_layout(legend=dict(orientation="h", y=-0.25, x=0))
    return style(fig, height=height)
