"""The clock dials: each frequency pair (PE[p, 2i], PE[p, 2i+1]) as a hand at angle
p * omega_i, animated over positions. Drawn by the Wavelengths page's Clock tab and by the
story; arrays in, ``go.Figure`` out; the words shown come in as translated strings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui.plain.style import style

MAX_FRAMES = 100  # clock animation frames: bounds the payload
_DIAL_GAP = 2.7
_DIAL_COLUMNS = 6


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


def _dial_traces(cx: np.ndarray, cy: np.ndarray, labels: Sequence[str]) -> list[go.Scatter]:
    """The still parts of every dial: its ring, the tick at 12 o'clock and its label."""
    ring = np.linspace(0, 2 * np.pi, 49)
    rx: list = []
    ry: list = []
    for x0, y0 in zip(cx, cy, strict=True):
        rx += [*np.round(x0 + np.cos(ring), 3).tolist(), None]
        ry += [*np.round(y0 + np.sin(ring), 3).tolist(), None]
    return [
        go.Scatter(x=rx, y=ry, mode="lines", line=dict(color="#c8ccd4", width=1), hoverinfo="skip"),
        go.Scatter(
            x=cx,
            y=cy + 1.0,
            mode="markers",
            marker=dict(symbol="line-ew", size=7, line=dict(width=2, color="#8a909c")),
            hoverinfo="skip",
        ),
        go.Scatter(
            x=cx,
            y=cy - 1.35,
            mode="text",
            text=list(labels),
            textfont=dict(size=11),
            hoverinfo="skip",
        ),
    ]


def _animation(
    cx: np.ndarray,
    cy: np.ndarray,
    frame_positions: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    hand: int,
) -> tuple[list[go.Frame], list[dict]]:
    """One frame per position (the hands' trace ``hand`` only) and the slider step to it."""
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
    return frames, steps


def _play_buttons(play: str, pause: str, frame_ms: int) -> dict:
    """The play and pause buttons under the dials."""
    return dict(
        type="buttons",
        direction="left",
        x=0,
        y=-0.02,
        xanchor="left",
        yanchor="top",
        showactive=False,
        buttons=[
            dict(
                label="▶ " + play,
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
                label="❚❚ " + pause,
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


def _position_slider(steps: list[dict], narrow: bool) -> dict:
    """The slider over positions, beside the buttons or (``narrow``) under them."""
    return dict(
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


def clock_figure(
    labels: Sequence[str],
    frame_positions: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    *,
    play: str,
    pause: str,
    frame_ms: int = 150,
    row_height: int = 175,
    stacked: bool = False,
    columns: int | None = None,
) -> go.Figure:
    """Each (sin, cos) pair as a hand on its own dial, animated over ``frame_positions``.

    ``labels``: one per dial, under it (the pair i and its wavelength lambda_i);
    ``play``, ``pause``: the buttons' words. ``x, y``: hand tips of shape (frames, dials)
    from ``posenc.spectrum.clock_hands``; frame 0 is the static view. A hand at
    (sin, cos) starts at 12 o'clock and turns clockwise, like a volume knob turned
    right. Dials per row: ``columns``, by default 6, or 3 when ``stacked`` (a phone).
    Dials stay round (equal axis scales), so rows taller than a column is wide leave
    blank space above and below: a narrow page needs fewer columns, not taller rows.
    """
    n = len(labels)
    if columns is None:
        columns = _DIAL_COLUMNS // 2 if stacked else _DIAL_COLUMNS
    if stacked:  # a 3-dial row of a phone's width is ~120 px tall
        row_height = int(row_height * 0.7)
    narrow = columns < _DIAL_COLUMNS
    cx, cy = _dial_centres(n, columns)
    fig = go.Figure()
    for trace in _dial_traces(cx, cy, labels):
        fig.add_trace(trace)
    fig.add_trace(
        go.Scatter(
            **_hands(cx, cy, x[0], y[0]),
            mode="lines",
            line=dict(color="#b2182b", width=3),
            hoverinfo="skip",  # x, y are dial centre + 0.9 (sin, cos): the label names the pair
        )
    )
    frames, steps = _animation(cx, cy, frame_positions, x, y, hand=len(fig.data) - 1)
    fig.frames = frames
    rows = -(-n // columns)
    fig.update_layout(
        showlegend=False,
        updatemenus=[_play_buttons(play, pause, frame_ms)],
        sliders=[_position_slider(steps, narrow)],
    )
    width_units = _DIAL_GAP * (min(n, columns) - 1) + 2.4
    fig.update_xaxes(visible=False, range=[-1.2, -1.2 + width_units])
    fig.update_yaxes(
        visible=False, scaleanchor="x", scaleratio=1, range=[-_DIAL_GAP * (rows - 1) - 1.7, 1.25]
    )
    style(fig, height=(170 if narrow else 130) + row_height * rows)
    fig.update_layout(margin=dict(l=10, r=10, t=10, b=150 if narrow else 110))
    return fig
