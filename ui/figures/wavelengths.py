"""Figure builders of the Wavelength explorer: arrays in, ``go.Figure`` out.

Texts come in through ``tr(key, **values)`` (the page passes ``ui.i18n.t``), so the
builders stay free of Streamlit and are tested with any callable. The "Float forms" tab's
builders are in ``ui.figures.float_forms``; which positions and pairs are drawn (point
budgets, dial choice) is decided on the data side, ``ui.wavelengths_data``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui.figures.common import MAX_LINE_POINTS as MAX_LINE_POINTS  # the curves' point budget
from ui.figures.common import cell, legend_below, panels, style, style_stacked
from ui.figures.pick import mark

Tr = Callable[..., str]
MAX_FRAMES = 100  # clock animation frames: bounds the payload
MAX_MARKERS = 400  # integer positions marked on a curve, at most (beyond: just the line)
PALETTE = ("#b2182b", "#2166ac", "#1b7837", "#762a83", "#e08214", "#4d4d4d", "#01665e")
CLASS_COLOURS = {"full": "#2166ac", "beyond": "#e08214", "aliased": "#b2182b"}
_DIAL_GAP = 2.7
_DIAL_COLUMNS = 6


def level_line(x: list, y: list, text: str, colour: str, position: str) -> go.Scatter:
    """A dotted reference line labelled at its second end (log-axis safe)."""
    return go.Scatter(
        x=x,
        y=y,
        mode="lines+text",
        text=["", text],
        textposition=position,
        textfont=dict(size=11, color=colour),
        line=dict(color=colour, dash="dot", width=1),
        showlegend=False,
        hoverinfo="skip",
    )


def wavelength_figure(
    pairs: np.ndarray,
    series: Sequence[tuple[float, np.ndarray]],
    classes: dict[str, np.ndarray],
    context: int,
    tr: Tr,
    *,
    height: int = 440,
    stacked: bool = False,
) -> go.Figure:
    """``lambda_i`` (left) and ``omega_i`` (right) against pair i on log axes.

    ``series``: ``(base, wavelengths)`` with the shared base first; its points are
    coloured by ``classes`` (boolean masks ``full``, ``beyond``, ``aliased``).
    ``stacked`` (a phone): lambda above omega.
    """
    titles = (tr("wavelengths.fig_lambda"), tr("wavelengths.fig_omega"))
    panel_height = height - 140  # side by side, the legend takes ~140 px under the plots
    fig = panels(2, stacked=stacked, titles=titles, spacing=0.1, panel_height=panel_height)
    markers = pairs.size <= 256
    for k, (base, lam) in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        name = tr("wavelengths.series_base", base=f"{base:g}")
        for col, y in ((1, lam), (2, 2 * np.pi / lam)):
            fig.add_trace(
                go.Scatter(
                    x=pairs,
                    y=y,
                    mode="lines",
                    line=dict(
                        color=colour, width=2.5 if k == 0 else 1.5, dash=None if k == 0 else "dash"
                    ),
                    name=name,
                    legendgroup=name,
                    showlegend=col == 1,
                    hovertemplate=f"{name}<br>i=%{{x}}<br>%{{y:.6g}}<extra></extra>",
                ),
                **cell(col, stacked),
            )
    lam = series[0][1]
    for key, mask in classes.items():
        if not mask.any():
            continue
        label = tr(f"wavelengths.class_{key}", count=int(mask.sum()))
        fig.add_trace(
            go.Scatter(
                x=pairs[mask],
                y=lam[mask],
                customdata=pairs[mask],  # a click picks pair i (ui.grab)
                mode="markers",
                marker=dict(color=CLASS_COLOURS[key], size=6 if markers else 3),
                name=label,
                hovertemplate=f"{label}<br>i=%{{x}}<br>λ=%{{y:.6g}}<extra></extra>",
            ),
            **cell(1, stacked),
        )
        mark(fig.data[-1])
    # Reference levels: the context L and the Nyquist limit, in both panels.
    levels = (
        (1, context, tr("wavelengths.line_context", context=context), "#e08214"),
        (1, 2.0, tr("wavelengths.line_nyquist"), "#b2182b"),
        (2, 2 * np.pi / context, tr("wavelengths.line_context_omega", context=context), "#e08214"),
        (2, np.pi, tr("wavelengths.line_nyquist_omega"), "#b2182b"),
    )
    # Drawn as traces, not add_hline: annotations on a log axis take log10 coordinates.
    x_ends = [0, max(int(pairs[-1]), 1)] if pairs.size else [0, 1]
    for col, value, text, colour in levels:
        fig.add_trace(
            level_line(x_ends, [value, value], text, colour, "top left"),
            **cell(col, stacked),
        )
    fig.update_yaxes(type="log", exponentformat="power", **cell(1, stacked), title="λᵢ")
    fig.update_yaxes(type="log", exponentformat="power", **cell(2, stacked), title="ωᵢ")
    fig.update_xaxes(title=tr("wavelengths.pair_axis"))
    if not stacked:
        fig.update_layout(legend=dict(orientation="h", y=-0.22, x=0))
        return style(fig, height=height)
    return legend_below(style_stacked(fig, 2, panel_height, extra=140))


def curves_figure(
    positions: np.ndarray,
    values: np.ndarray,
    dims: Sequence[int],
    tr: Tr,
    *,
    height: int = 380,
    marked: bool = False,
) -> go.Figure:
    """Columns ``PE[:, j]`` over positions, one line per chosen dimension j (seed 003).

    ``marked``: the line is sampled between the integers
    (``ui.wavelengths_data.curve_samples``), and its samples at integer positions get a
    dot: at d = 128 the dimensions 4-7 turn ~0.75 rad per position, and a line through
    the integers alone looks like a zigzag.
    """
    fig = go.Figure()
    sizes = np.where(positions % 1 == 0, 5, 0).astype(np.float32) if marked else None
    for k, dim in enumerate(dims):
        name = tr("wavelengths.series_dim", dim=dim)
        fig.add_trace(
            go.Scatter(
                x=positions.astype(np.float32),  # integers and k/16 up to 8192: exact
                y=values[:, k].astype(np.float32),  # display only: half the payload
                mode="lines+markers" if marked else "lines",
                name=name,
                line=dict(color=PALETTE[k % len(PALETTE)] if len(dims) <= len(PALETTE) else None),
                marker=dict(size=sizes) if marked else None,
                hovertemplate=f"{name}<br>p=%{{x:.4g}}<br>%{{y:.6f}}<extra></extra>",
            )
        )
    fig.update_xaxes(title=tr("common.position"))
    fig.update_yaxes(title=tr("common.value"), range=[-1.08, 1.08])
    return style(fig, height=height)


def vectors_figure(
    x: np.ndarray,
    values: np.ndarray,
    positions: Sequence[int],
    x_title: str,
    tr: Tr,
    *,
    height: int = 320,
    stacked: bool = False,
) -> go.Figure:
    """One panel per position k: its values across ``x`` (seed 004's four panels).

    Four to a row, each row ``height`` tall; ``stacked`` (a phone): one per row, 0.6x as tall.
    """
    n = len(positions)
    titles = [f"p = {k}" for k in positions]
    cols = 1 if stacked else min(n, 4)
    rows = -(-n // cols)
    panel_height = int(height * 0.6)
    if stacked:
        fig = panels(n, stacked=True, titles=titles, shared_y=True, panel_height=panel_height)
    else:
        fig = make_subplots(
            rows=rows,
            cols=cols,
            subplot_titles=titles,
            shared_yaxes=True,
            horizontal_spacing=0.03,
            vertical_spacing=0.18 if rows > 1 else 0.1,
        )
    for index, k in enumerate(positions):
        fig.add_trace(
            go.Scatter(
                x=x,
                y=values[index].astype(np.float32),  # display only: half the payload
                mode="lines",
                line=dict(color=PALETTE[1], width=1.5),
                showlegend=False,
                hovertemplate=f"p={k}<br>{x_title}=%{{x}}<br>%{{y:.6f}}<extra></extra>",
            ),
            row=index // cols + 1,
            col=index % cols + 1,
        )
    fig.update_yaxes(range=[-1.08, 1.08])
    fig.update_xaxes(title=x_title, row=rows)
    if stacked:
        return style_stacked(fig, n, panel_height)
    return style(fig, height=height * rows)


def _dial_centres(n: int, columns: int) -> tuple[np.ndarray, np.ndarray]:
    index = np.arange(n)
    return _DIAL_GAP * (index % columns), -_DIAL_GAP * (index // columns)


def _hands(cx: np.ndarray, cy: np.ndarray, x: np.ndarray, y: np.ndarray) -> dict:
    """One trace for all hands: centre -> tip segments separated by gaps (JSON null)."""
    hx: list = []
    hy: list = []
    for x0, y0, tx, ty in zip(cx, cy, x, y, strict=True):
        hx += [round(float(x0), 4), round(float(x0 + 0.9 * tx), 4), None]
        hy += [round(float(y0), 4), round(float(y0 + 0.9 * ty), 4), None]
    return dict(x=hx, y=hy)


def clock_figure(
    pairs: np.ndarray,
    wavelengths: np.ndarray,
    frame_positions: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    tr: Tr,
    *,
    frame_ms: int = 150,
    row_height: int = 175,
    stacked: bool = False,
    columns: int | None = None,
) -> go.Figure:
    """Each (sin, cos) pair as a hand on its own dial, animated over ``frame_positions``.

    ``x, y``: hand tips of shape (frames, dials) from ``posenc.spectrum.clock_hands``;
    frame 0 is the static view. A hand at (sin, cos) starts at 12 o'clock and turns
    clockwise, like a volume knob turned right. Dials per row: ``columns``, by default
    6, or 3 when ``stacked`` (a phone). Dials stay round (equal axis scales), so rows
    taller than a column is wide leave blank space above and below: a narrow page
    needs fewer columns, not taller rows.
    """
    n = pairs.size
    if columns is None:
        columns = _DIAL_COLUMNS // 2 if stacked else _DIAL_COLUMNS
    if stacked:  # a 3-dial row of a phone's width is ~120 px tall
        row_height = int(row_height * 0.7)
    narrow = columns < _DIAL_COLUMNS
    cx, cy = _dial_centres(n, columns)
    ring = np.linspace(0, 2 * np.pi, 49)
    rx: list = []
    ry: list = []
    for x0, y0 in zip(cx, cy, strict=True):
        rx += [*np.round(x0 + np.cos(ring), 3).tolist(), None]
        ry += [*np.round(y0 + np.sin(ring), 3).tolist(), None]
    labels = [
        tr("wavelengths.dial_label", pair=int(i), wavelength=f"{lam:.4g}")
        for i, lam in zip(pairs, wavelengths, strict=True)
    ]
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=rx, y=ry, mode="lines", line=dict(color="#c8ccd4", width=1), hoverinfo="skip")
    )
    fig.add_trace(
        go.Scatter(
            x=cx,
            y=cy + 1.0,
            mode="markers",
            marker=dict(symbol="line-ew", size=7, line=dict(width=2, color="#8a909c")),
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=cx,
            y=cy - 1.35,
            mode="text",
            text=labels,
            textfont=dict(size=11),
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            **_hands(cx, cy, x[0], y[0]),
            mode="lines",
            line=dict(color="#b2182b", width=3),
            hoverinfo="skip",  # x, y are dial centre + 0.9 (sin, cos): the label names the pair
        )
    )
    hand = len(fig.data) - 1
    frames = []
    steps = []
    for f, p in enumerate(frame_positions):
        name = f"{p:g}"
        frames.append(
            go.Frame(name=name, data=[go.Scatter(**_hands(cx, cy, x[f], y[f]))], traces=[hand])
        )
        steps.append(
            dict(
                label=name,
                method="animate",
                args=[
                    [name],
                    dict(
                        mode="immediate",
                        frame=dict(duration=0, redraw=False),
                        transition=dict(duration=0),
                    ),
                ],
            )
        )
    fig.frames = frames
    rows = -(-n // columns)
    fig.update_layout(
        showlegend=False,
        updatemenus=[
            dict(
                type="buttons",
                direction="left",
                x=0,
                y=-0.02,
                xanchor="left",
                yanchor="top",
                showactive=False,
                buttons=[
                    dict(
                        label="▶ " + tr("wavelengths.play"),
                        method="animate",
                        args=[
                            None,
                            dict(
                                frame=dict(duration=frame_ms, redraw=False),
                                transition=dict(duration=0),
                                fromcurrent=True,
                                mode="immediate",
                            ),
                        ],
                    ),
                    dict(
                        label="❚❚ " + tr("wavelengths.pause"),
                        method="animate",
                        args=[
                            [None],
                            dict(
                                frame=dict(duration=0, redraw=False),
                                mode="immediate",
                                transition=dict(duration=0),
                            ),
                        ],
                    ),
                ],
            )
        ],
        sliders=[
            dict(
                active=0,
                # A narrow figure (a phone, presenter type) has no room beside the
                # buttons for the slider's "p = ..." label: the slider goes under them.
                x=0 if narrow else 0.2,
                len=1 if narrow else 0.8,
                y=-0.02,
                yanchor="top",
                pad=dict(t=60 if narrow else 20),
                currentvalue=dict(prefix="p = ", font=dict(size=13)),
                steps=steps,
                transition=dict(duration=0),
            )
        ],
    )
    width_units = _DIAL_GAP * (min(n, columns) - 1) + 2.4
    fig.update_xaxes(visible=False, range=[-1.2, -1.2 + width_units])
    fig.update_yaxes(
        visible=False, scaleanchor="x", scaleratio=1, range=[-_DIAL_GAP * (rows - 1) - 1.7, 1.25]
    )
    style(fig, height=(170 if narrow else 130) + row_height * rows)
    fig.update_layout(margin=dict(l=10, r=10, t=10, b=150 if narrow else 110))
    return fig


class SineParts(NamedTuple):
    """What y = A sin(B x + C) + D is made of (seed 003's names)."""

    period: float  # T = 2 pi / B
    frequency: float  # f = 1 / T = B / (2 pi): cycles per unit of x
    shift: float  # -C / B: how far right of sin(B x) the wave starts
    peak: float  # the first x >= 0 where the wave is at its top, D + A
    rise: float  # the first x >= 0 where it crosses its midline D going up


def sine_parts(b: float, c: float) -> SineParts:
    """Period, frequency, phase shift and the first peak and rise of ``A sin(Bx + C) + D``.

    >>> sine_parts(8 * np.pi, 0.0)[:2]  # seed 003: 4 times between 0 and 1
    (0.25, 4.0)
    >>> round(sine_parts(2.0, np.pi / 2).shift, 6), round(sine_parts(2.0, np.pi / 2).rise, 6)
    (-0.785398, 2.356194)
    """
    period = 2 * np.pi / b
    return SineParts(
        period=float(period),
        frequency=float(1 / period),
        shift=float(-c / b) + 0.0,  # + 0.0: C = 0 gives 0, not -0
        peak=float(((np.pi / 2 - c) % (2 * np.pi)) / b),
        rise=float(((-c) % (2 * np.pi)) / b),
    )


def sine_figure(
    a: float,
    b: float,
    c: float,
    d: float,
    tr: Tr,
    *,
    periods: int = 4,
    height: int = 380,
    stacked: bool = False,
) -> go.Figure:
    """Seed 003's sine recap: ``A sin(Bx + C) + D`` over ``periods`` periods, next to
    ``sin x``, with its midline D, amplitude A, period T = 2 pi / B and phase marked.

    ``stacked`` (a phone): the legend under the plot, not beside it.
    """
    parts = sine_parts(b, c)
    x = np.linspace(0.0, periods * parts.period, 200 * periods + 1)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=x, y=np.sin(x), mode="lines", name="sin x",
            line=dict(color="#9aa0a6", dash="dot", width=1.5),
            hovertemplate="sin x<br>x=%{x:.4f}<br>%{y:.4f}<extra></extra>",
        )
    )  # fmt: skip
    name = "A sin(Bx + C) + D"
    fig.add_trace(
        go.Scatter(
            x=x, y=a * np.sin(b * x + c) + d, mode="lines", name=name,
            line=dict(color=PALETTE[0], width=2.5),
            hovertemplate=f"{name}<br>x=%{{x:.4f}}<br>%{{y:.4f}}<extra></extra>",
        )
    )  # fmt: skip
    top = d + a
    period = tr("wavelengths.basics_period", period=f"{parts.period:.4g}")
    amplitude = tr("wavelengths.basics_amplitude", a=f"{a:g}")
    phase = tr("wavelengths.basics_phase", shift=f"{parts.shift:.4g}")
    marks = [
        # (x, y, label, colour): the midline, one period at the top, the amplitude, the rise.
        ([0.0, x[-1]], [d, d], tr("wavelengths.basics_midline", d=f"{d:g}"), PALETTE[5]),
        ([parts.peak, parts.peak + parts.period], [top, top], period, PALETTE[1]),
        ([parts.peak, parts.peak], [d, top], amplitude, PALETTE[2]),
        ([parts.rise], [d], phase, PALETTE[3]),
    ]
    for xs, ys, label, colour in marks:
        fig.add_trace(
            go.Scatter(
                x=xs, y=ys, name=label, mode="lines+markers" if len(xs) > 1 else "markers",
                line=dict(color=colour, width=2), marker=dict(size=8, color=colour),
                hovertemplate=f"{label}<extra></extra>",
            )
        )  # fmt: skip
    fig.update_xaxes(title="x")
    fig.update_yaxes(title="y", range=[min(-1.0, d - a) - 0.3, max(1.0, top) + 0.3])
    if stacked:
        return legend_below(style(fig, height=height + 160))
    return style(fig, height=height)
