"""Small figures of the "Start here" story: plain functions arrays -> go.Figure.

The words a figure shows (names, titles, hover texts) come in as strings the caller has
translated, so every label follows the reader's language; values come from
``ui.features.story.data``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ui.plain.style import cell, panels, style, style_stacked

BLUE, RED, GREEN, GREY = "#2166ac", "#b2182b", "#1b7837", "#8a909c"


def _legend_on_top(fig: go.Figure) -> go.Figure:
    fig.update_layout(
        legend=dict(orientation="h", x=0, xanchor="left", y=1.02, yanchor="bottom"),
        margin=dict(t=60),
    )
    return fig


def order_figure(
    a: np.ndarray, b: np.ndarray, *, names: tuple[str, str], x_title: str, y_title: str,
    hover: str, height: int = 340,
) -> go.Figure:  # fmt: skip
    """The output vector of one word in two word orders, component by component;
    ``names``: the two orders' legend names."""
    x = np.arange(a.size)
    hover = hover + "<extra></extra>"
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=x, y=a, name=names[0], mode="lines+markers",
            line=dict(color=BLUE, width=4), marker=dict(size=12), hovertemplate=hover,
        )
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=x, y=b, name=names[1], mode="lines+markers",
            line=dict(color=RED, width=2, dash="dash"), marker=dict(size=9, symbol="x"),
            hovertemplate=hover,
        )
    )  # fmt: skip
    style(fig, height=height)
    fig.update_xaxes(title=x_title, dtick=1)
    fig.update_yaxes(title=y_title)
    return _legend_on_top(fig)


def naive_figure(
    codes: Mapping[str, np.ndarray], length: int, *, names: Mapping[str, str],
    titles: Sequence[str], x_title: str, y_title: str, hover: str, height: int = 340,
    stacked: bool = False,
) -> go.Figure:  # fmt: skip
    """p / (L - 1) for two lengths (panel 1) and the raw index p (panel 2).

    ``codes`` and ``names``: the lines ``short``, ``long`` and ``index`` and their legend
    names; ``titles``: the two panels'.
    """
    titles = list(titles)
    panel = height // 2 + 40  # stacked: the gap is PANEL_GAP px only at the drawn height
    fig = panels(2, stacked=stacked, titles=titles, spacing=0.12, panel_height=panel)
    hover = hover + "<extra></extra>"
    lines = (("short", BLUE, 1), ("long", RED, 1), ("index", GREEN, 2))
    for key, colour, k in lines:
        fig.add_trace(
            go.Scatter(
                x=np.arange(codes[key].size), y=codes[key], name=names[key], mode="lines+markers",
                line=dict(color=colour), marker=dict(size=8), hovertemplate=hover,
                showlegend=k == 1,  # the second panel's title names its one line
            ),
            **cell(k, stacked),
        )  # fmt: skip
    band = dict(type="rect", x0=0, x1=length - 1, y0=-1, y1=1, line_width=0)
    fig.add_shape(**band, fillcolor="rgba(138,144,156,0.18)", **cell(2, stacked))
    if stacked:
        style_stacked(fig, 2, panel)
    else:
        style(fig, height=height)
    fig.update_xaxes(title=x_title)
    if stacked:  # one x title, under the lower panel: the upper one ran into its title
        fig.update_layout(xaxis_title=None)
    fig.update_yaxes(title=y_title)
    # Inside the first panel's empty lower right (side by side), or under its plot area.
    inside = dict(x=0.42 if not stacked else 0.98, xanchor="right", yanchor="bottom")
    bottom = 0.04 if not stacked else fig.layout.yaxis.domain[0] + 0.02  # over no tick label
    fig.update_layout(legend=inside | dict(y=bottom, bgcolor="white"))
    return fig


def counter_figure(
    table: np.ndarray, *, bit_names: Sequence[str], x_title: str, y_title: str, hover: str,
    height: int = 420,
) -> go.Figure:  # fmt: skip
    """The counter: positions down, bits across (most significant first), 0/1 written;
    ``bit_names``: the columns' names, most significant first."""
    bits = table.shape[1]
    fig = go.Figure(
        go.Heatmap(
            z=table, x=list(bit_names), y=np.arange(table.shape[0]), zmin=0, zmax=1,
            colorscale=[[0, "#f7f7f7"], [1, BLUE]], showscale=False, xgap=2, ygap=2,
            text=table.astype(str), texttemplate="%{text}",
            hovertemplate=hover + "<extra></extra>",
        )
    )  # fmt: skip
    style(fig, height=height)
    fig.update_yaxes(title=y_title, autorange="reversed", dtick=1 if bits <= 4 else 4)
    fig.update_xaxes(title=x_title)
    return fig


def smooth_figure(
    data, *, names: Mapping[str, str], x_title: str, y_title: str, hover: str,
    height: int = 340,
) -> go.Figure:  # fmt: skip
    """A bit as a square wave, its smooth sin/cos version, and the integer positions;
    ``names``: the legend names of ``square``, ``smooth`` and ``bits``."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=data.t, y=data.square, name=names["square"], mode="lines",
            line=dict(color=GREY, width=3, shape="hv"), hoverinfo="skip",
        )
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=data.t, y=data.smooth, name=names["smooth"], mode="lines",
            line=dict(color=BLUE, width=3),
            hovertemplate=hover + "<extra></extra>",
        )
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=data.positions, y=data.bits, name=names["bits"], mode="markers",
            marker=dict(color=RED, size=10),
            hovertemplate=hover + "<extra></extra>",
        )
    )  # fmt: skip
    style(fig, height=height)
    fig.update_xaxes(title=x_title, dtick=1 if data.positions.size <= 16 else 4)
    fig.update_yaxes(title=y_title, range=[-0.25, 1.25])
    return _legend_on_top(fig)


def circle_figure(
    s: np.ndarray, c: np.ndarray, starts: Sequence[int], k: int, count: int, *,
    names: Mapping[str, str], hover: str, height: int = 440,
) -> go.Figure:  # fmt: skip
    """One pair (sin, cos) at positions 0 .. count - 1 on its circle, and arrows p -> p + k;
    ``names``: the legend names of the ``points``, the arrows' starts (``from``) and ends
    (``to``)."""
    hover = hover + "<extra></extra>"
    fig = go.Figure()
    ring = np.linspace(0, 2 * np.pi, 121)
    fig.add_trace(
        go.Scatter(
            x=np.sin(ring), y=np.cos(ring), mode="lines", line=dict(color="#c8ccd4"),
            hoverinfo="skip", showlegend=False,
        )
    )  # fmt: skip
    p = np.arange(count)
    fig.add_trace(
        go.Scatter(
            x=s[:count], y=c[:count], mode="markers", name=names["points"],
            marker=dict(color=GREY, size=6), customdata=p,
            hovertemplate=hover,
        )
    )  # fmt: skip
    for start in starts:
        end = start + k
        fig.add_annotation(
            x=s[end], y=c[end], ax=s[start], ay=c[start], xref="x", yref="y", axref="x",
            ayref="y", showarrow=True, arrowhead=3, arrowsize=1.4, arrowwidth=3,
            arrowcolor=RED, text="",
        )  # fmt: skip
    fig.add_trace(
        go.Scatter(
            x=s[list(starts)], y=c[list(starts)], mode="markers", name=names["from"],
            marker=dict(color=BLUE, size=11), customdata=list(starts),
            hovertemplate=hover,
        )
    )  # fmt: skip
    fig.add_trace(  # the starts' labels just outside the circle, clear of the dots
        go.Scatter(
            x=1.3 * s[list(starts)], y=1.12 * c[list(starts)], mode="text",
            text=[f"p = {q}" for q in starts], hoverinfo="skip", showlegend=False,
        )
    )  # fmt: skip
    ends = [q + k for q in starts]
    fig.add_trace(
        go.Scatter(
            x=s[ends], y=c[ends], mode="markers", name=names["to"],
            marker=dict(color=RED, size=11), customdata=ends,
            hovertemplate=hover,
        )
    )  # fmt: skip
    style(fig, height=height)
    fig.update_xaxes(title="sin ω p", range=[-1.6, 1.6], zeroline=False)  # room for labels
    fig.update_yaxes(title="cos ω p", range=[-1.2, 1.2], scaleanchor="x", zeroline=False)
    return _legend_on_top(fig)


def lines_figure(
    x: np.ndarray, lines: Sequence[tuple[str, np.ndarray, str, str]], *, x_title: str,
    y_title: str, hover: str, height: int = 340, log_x: bool = False,
) -> go.Figure:  # fmt: skip
    """Lines ``(name, y, colour, dash)`` over one x axis (steps 8 to 12)."""
    fig = go.Figure()
    for name, y, colour, dash in lines:
        fig.add_trace(
            go.Scatter(
                x=x, y=y, name=name, mode="lines", line=dict(color=colour, width=3, dash=dash),
                hovertemplate=hover + "<extra></extra>",
            )
        )  # fmt: skip
    style(fig, height=height)
    fig.update_xaxes(title=x_title, type="log" if log_x else "linear")
    # A flat line at the top or bottom of the data would sit on the plot's edge.
    values = np.concatenate([np.asarray(y, dtype=float) for _, y, _, _ in lines])
    low, high = float(values.min()), float(values.max())
    pad = 0.08 * (high - low) or 0.5
    fig.update_yaxes(title=y_title, range=[low - pad, high + pad])
    return _legend_on_top(fig)


COLOURS = (BLUE, RED, GREEN)
DASHES = ("solid", "dash", "dot")
