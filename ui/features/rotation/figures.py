"""Figure builders of the rotation page: arrays in, ``go.Figure`` out; LaTeX strings too.

The words a figure shows come in as strings the page has translated (``axis_title``,
``names``, ...), so the builders stay free of Streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ui.plain.grids import Grid
from ui.plain.pick import mark
from ui.plain.style import cell, heatmap, panels, style, style_stacked

EPS = float(np.finfo(np.float64).eps)
RED, BLUE, GREY = "#b2182b", "#2166ac", "#8c8c8c"
OUTLINE = "#f5a700"  # amber: visible on dark red, dark blue and white cells


def _contiguous(idx: np.ndarray) -> bool:
    return idx.size < 2 or bool(np.all(np.diff(idx) == 1))


def matrix_figure(
    idx: np.ndarray,
    z: np.ndarray,
    highlight: Sequence[int],
    *,
    axis_title: str,
    title: str | None = None,
    height: int = 460,
) -> go.Figure:
    """Rows and columns ``idx`` of a d x d matrix, the cells of ``highlight`` x ``highlight``
    outlined; both axes are titled ``axis_title``. A window that is not one run (split
    layout) gets category axes labelled with the true indices, so nothing is stretched
    over the gap."""
    idx = np.asarray(idx)
    contiguous = _contiguous(idx)
    labels = idx if contiguous else np.array([str(i) for i in idx])
    grid = Grid(np.asarray(z, dtype=np.float32), labels, labels, 1, 1)  # display only
    dim = axis_title
    fig, _ = heatmap(
        grid,
        x_title=dim,
        y_title=dim,
        title=title,
        height=height,
        hovertemplate=f"{dim} %{{y}} → %{{x}}<br>%{{z:.6f}}<extra></extra>",
    )
    if not contiguous:
        fig.update_xaxes(type="category")
        fig.update_yaxes(type="category")
    where = {int(i): n for n, i in enumerate(idx)}
    for r in highlight:
        for c in highlight:
            if r in where and c in where:
                x = c if contiguous else where[c]
                y = r if contiguous else where[r]
                fig.add_shape(
                    type="rect",
                    x0=x - 0.5,
                    x1=x + 0.5,
                    y0=y - 0.5,
                    y1=y + 0.5,
                    line=dict(color=OUTLINE, width=2.5),
                )
    fig.update_yaxes(scaleanchor="x", scaleratio=1, constrain="domain")
    fig.update_xaxes(constrain="domain")
    if contiguous and idx.size <= 16:  # whole-number ticks for tiny matrices
        fig.update_xaxes(dtick=1)
        fig.update_yaxes(dtick=1)
    return fig


def block_figure(
    block: np.ndarray, dims: Sequence[int], *, axis_title: str, height: int = 260
) -> go.Figure:
    """The 2 x 2 block of one pair, magnified, with its numbers; both axes titled
    ``axis_title``."""
    labels = [str(d) for d in dims]
    fig = go.Figure(
        go.Heatmap(
            z=np.asarray(block, dtype=np.float64),
            x=labels,
            y=labels,
            zmin=-1,
            zmax=1,
            zmid=0,
            colorscale="RdBu_r",
            showscale=False,
            texttemplate="%{z:.6f}",
            textfont=dict(size=15),
            hovertemplate="%{z:.12f}<extra></extra>",
        )
    )
    fig.update_xaxes(type="category", title=axis_title, side="top")
    fig.update_yaxes(type="category", title=axis_title, autorange="reversed")
    fig.update_yaxes(scaleanchor="x", scaleratio=1, constrain="domain")
    style(fig, height=height)
    fig.update_layout(margin=dict(l=60, r=10, t=50, b=10))
    return fig


def residual_figure(
    positions: np.ndarray,
    residuals: np.ndarray,
    k: float,
    *,
    names: Mapping[str, str],
    x_title: str,
    y_title: str,
    height: int = 340,
) -> go.Figure:
    """max_j |PE[p] T(k) - PE[p + k]| over p, with the float64 rounding of the angle;
    ``names``: the legend names of the ``residual`` and the ``rounding``."""
    positions = np.asarray(positions, dtype=np.float64)
    fig = go.Figure()
    fig.add_scatter(
        x=positions,
        y=np.asarray(residuals, dtype=np.float64),
        mode="lines+markers" if positions.size <= 60 else "lines",
        name=names["residual"],
        line=dict(color=RED),
        hovertemplate="p = %{x}<br>%{y:.3e}<extra></extra>",
    )
    fig.add_scatter(
        x=positions,
        y=EPS * (np.abs(positions) + abs(k)),
        mode="lines",
        name=names["rounding"],
        line=dict(color=GREY, dash="dash"),
        hoverinfo="skip",
    )
    top = max(float(np.max(residuals)), EPS * (float(np.max(np.abs(positions))) + abs(k)), EPS)
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, exponentformat="e", range=[0, 1.1 * top])
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0))
    return style(fig, height=height)


def wrap_angle(angle: float) -> float:
    """The angle in (-pi, pi]."""
    wrapped = (angle + np.pi) % (2 * np.pi) - np.pi
    return np.pi if wrapped == -np.pi else float(wrapped)


def circle_figure(
    positions: np.ndarray,
    angles: np.ndarray,
    p: float,
    k: float,
    omega: float,
    *,
    names: Mapping[str, str],
    p_title: str,
    height: int = 480,
) -> go.Figure:
    """Points (sin w p, cos w p) of one pair, position p and p + k, the arc between.

    ``names``: the legend names of the ``positions`` and of the ``arc`` (with its angle,
    ``wrap_angle(omega * k)``); ``p_title``: the colour bar's title (the position p).
    """
    fig = go.Figure()
    ring = np.linspace(0, 2 * np.pi, 241)
    fig.add_scatter(
        x=np.sin(ring),
        y=np.cos(ring),
        mode="lines",
        line=dict(color="#d9d9d9"),
        hoverinfo="skip",
        showlegend=False,
    )
    fig.add_scatter(
        x=np.sin(angles),
        y=np.cos(angles),
        mode="markers",
        name=names["positions"],
        marker=dict(
            size=6 if np.size(positions) <= 500 else 4,
            color=np.asarray(positions, dtype=np.float64),
            colorscale="Viridis",
            cmin=0,
            cmax=max(float(np.max(positions)), 1.0),
            colorbar=dict(title=p_title, thickness=12),
        ),
        customdata=positions,
        hovertemplate="p = %{customdata}<br>(%{x:.4f}, %{y:.4f})<extra></extra>",
    )
    mark(fig.data[-1])  # a click on a position sets p (ui.shared.grab)
    start, turn = omega * p, wrap_angle(omega * k)
    arc = start + np.linspace(0, turn, 64)
    fig.add_scatter(
        x=0.82 * np.sin(arc),
        y=0.82 * np.cos(arc),
        mode="lines",
        line=dict(color="black", width=3),
        name=names["arc"],
        hoverinfo="skip",
    )
    end = omega * (p + k)
    # Labels on opposite diagonals, so that they stay apart when p and p + k meet.
    for angle, colour, label, place in (
        (start, RED, "p", "top left"),
        (end, BLUE, "p + k", "bottom right"),
    ):
        x, y = np.sin(angle), np.cos(angle)
        fig.add_scatter(
            x=[0, x],
            y=[0, y],
            mode="lines+markers+text",
            line=dict(color=colour, width=2),
            marker=dict(size=[0, 16], color=colour),
            text=["", label],
            textposition=place,
            textfont=dict(color=colour, size=15),
            name=label,
            hovertemplate=f"{label}<br>(%{{x:.6f}}, %{{y:.6f}})<extra></extra>",
        )
    fig.update_xaxes(range=[-1.3, 1.3], title="sin(ωᵢ p)", zeroline=False)
    fig.update_yaxes(
        range=[-1.3, 1.3], title="cos(ωᵢ p)", scaleanchor="x", scaleratio=1, zeroline=False
    )
    fig.update_layout(legend=dict(orientation="h", y=-0.15, x=0))
    return style(fig, height=height)


def dot_figure(
    ks: np.ndarray,
    dot: np.ndarray,
    distance: np.ndarray,
    k: float,
    at_k: tuple[float, float],
    *,
    titles: tuple[str, str],
    height: int = 360,
    stacked: bool = False,
    picks: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    pick_text: str = "",
) -> go.Figure:
    """PE[p] . PE[p + k] and ||PE[p] - PE[p + k]|| against k, the chosen +-k marked.

    ``titles``: the two panels'. Side by side; ``stacked`` (a phone): one above the
    other, about twice as tall.
    ``picks``: whole offsets with both curves' values there, points a click picks
    (``ui.shared.grab``; ``pick_text`` ends their hover text).
    """
    panel_height = height - 70
    fig = panels(2, stacked=stacked, titles=titles, spacing=0.1, panel_height=panel_height)
    for col, (values, value, colour) in enumerate(
        ((dot, at_k[0], RED), (distance, at_k[1], BLUE)), start=1
    ):
        where = cell(col, stacked)
        fig.add_scatter(
            x=ks,
            y=values,
            mode="lines",
            line=dict(color=colour, width=1.5),
            showlegend=False,
            hovertemplate="k = %{x:.3f}<br>%{y:.6f}<extra></extra>",
            **where,
        )
        fig.add_scatter(
            x=[-k, k],
            y=[value, value],
            mode="markers+text",
            marker=dict(size=11, color="black", symbol="diamond"),
            text=["−k", "k"] if k else ["", "k = 0"],
            # The left marker's label to the left, the right one's to the right.
            textposition=["top left", "top right"] if k >= 0 else ["top right", "top left"],
            textfont=dict(size=14),
            showlegend=False,
            hovertemplate="k = %{x:g}<br>%{y:.6f}<extra></extra>",
            **where,
        )
        fig.update_xaxes(title="k", **where)
        if picks is not None:
            fig.add_scatter(
                x=picks[0],
                y=picks[col],
                customdata=picks[0],
                mode="markers",
                marker=dict(size=6, color=colour, opacity=0),
                showlegend=False,
                hovertemplate=f"k = %{{customdata:.0f}}<br>%{{y:.6f}}<br>{pick_text}"
                "<extra></extra>",
                **where,
            )
            mark(fig.data[-1])
    return style_stacked(fig, 2, panel_height) if stacked else style(fig, height=height)


def pair_error_figure(
    errors: np.ndarray,
    slow_from: int | None,
    *,
    title: str,
    x_title: str,
    y_title: str,
    slow_label: str,
    height: int = 360,
) -> go.Figure:
    """max |W - T(k)| per pair on a log axis; where pairs turn less than once over the
    sample, a line labelled ``slow_label``. ``x_title`` names a pair (axis and hover)."""
    errors = np.asarray(errors, dtype=np.float64)
    pairs = np.arange(errors.size)
    fig = go.Figure(
        go.Scatter(
            x=pairs,
            y=np.maximum(errors, 1e-17),
            mode="lines+markers" if errors.size <= 128 else "lines",
            line=dict(color=RED),
            hovertemplate=f"{x_title} %{{x}}<br>%{{y:.2e}}<extra></extra>",
        )
    )
    if slow_from is not None and slow_from < errors.size:
        fig.add_vline(
            x=slow_from - 0.5,
            line=dict(color=GREY, dash="dot"),
            annotation_text=slow_label,
            annotation_position="top right",
        )
    fig.update_xaxes(title=x_title)
    # No fixed dtick: at 1 per decade an error range inside one decade had no tick at all.
    fig.update_yaxes(type="log", title=y_title, exponentformat="e")
    return style(fig, height=height, title=title)


# --- formulas (shared by both languages) -------------------------------------------------


def num(x: float, digits: int = 6) -> str:
    """A number for LaTeX: fixed digits, or a power of ten when tiny; no negative zero."""
    x = float(x)
    if x == 0 or abs(x) >= 10.0 ** -(digits - 2):
        return f"{x + 0.0:.{digits}f}"
    mantissa, exponent = f"{x:.3e}".split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def base_latex(base: float) -> str:
    """10000 as is, 1e9 as 10^{9}, 3e12 as 3 \\times 10^{12}."""
    power = round(np.log10(base))
    if power >= 6 and base == 10.0**power:
        return f"10^{{{power}}}"
    text = f"{base:.10g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def bmatrix(rows: Sequence[Sequence[float]]) -> str:
    body = r" \\ ".join(" & ".join(num(v) for v in row) for row in rows)
    return r"\begin{bmatrix}" + body + r"\end{bmatrix}"


# Seed 003's derivation of the 2-D rotation: the point (x0, y0) at angle A, turned by B.
# The live check, and the blocks it uses when seed 000's coefficient r_n is not omega_{n-1}.
CHECK_FORMULA = (
    r"r(p) = \max_c \left| \big(PE_{(p)}\,T(k)\big)_c - PE_{(p+k),\,c} \right|,"
    r"\qquad p = 0, \dots, L-1"
)
COEFFICIENT_FORMULAS = {
    choice: r"T(k) = \operatorname{diag}\big(\Phi_0(k), \dots, \Phi_{d/2-1}(k)\big),\quad"
    r"\Phi_i(k) = \begin{bmatrix}\cos k r_i & -\sin k r_i\\ \sin k r_i & \cos k r_i"
    rf"\end{{bmatrix}},\quad r_i = {r}"
    for choice, r in (("omega_next", r"\omega_{i+1}"), ("one", "1"))
}


# The 2 x 2 block of T(k) from the angle-addition formulas (the first article's proof),
# short rows (a 1024 px projector fits ~560 px of presenter-size math; aligned math
# cannot wrap); on a phone ``controls.latex`` turns the rows into lines that wrap.
BLOCK_DERIVATION = (
    r"\begin{aligned}"
    r" \sin\omega_i(p+k) &= \sin\omega_i p\,\cos\omega_i k\\"
    r" &\quad + \cos\omega_i p\,\sin\omega_i k\\"
    r" \cos\omega_i(p+k) &= \cos\omega_i p\,\cos\omega_i k\\"
    r" &\quad - \sin\omega_i p\,\sin\omega_i k\\"
    r" \big[\sin\omega_i(p+k),\ \cos\omega_i(p+k)\big]"
    r" &= \big[\sin\omega_i p,\ \cos\omega_i p\big]\\"
    r" &\quad \cdot \begin{bmatrix}\cos\omega_i k & -\sin\omega_i k\\"
    r" \sin\omega_i k & \cos\omega_i k\end{bmatrix}\\"
    r" &= \big[\sin\omega_i p,\ \cos\omega_i p\big]\,\Phi_i(k)\\"
    r" PE_{(p+k)} &= PE_{(p)}\,\operatorname{diag}\big(\Phi_0(k), \dots, \Phi_{d/2-1}(k)\big)\\"
    r" &= PE_{(p)}\,T(k)"
    r" \end{aligned}"
)

# One step per row, so that it fits a projector's or a phone's width (aligned math
# cannot wrap).
ROTATION_DERIVATION = (
    r"\begin{aligned} x_0 &= |R|\cos A,\quad y_0 = |R|\sin A\\ x_1 &= |R|\cos(A + B) = |R|"
    r"(\cos A\cos B - \sin A\sin B)\\ &= x_0\cos B - y_0\sin B\\ y_1 &= |R|\sin(A + B) = |R|"
    r"(\sin A\cos B + \cos A\sin B)\\ &= x_0\sin B + y_0\cos B\\ \begin{bmatrix}x_1\\ y_1"
    r"\end{bmatrix} &= \begin{bmatrix}\cos B & -\sin B\\ \sin B & \cos B\end{bmatrix}"
    r"\begin{bmatrix}x_0\\ y_0\end{bmatrix}\\ [x_1, y_1] &= [x_0, y_0]\begin{bmatrix}\cos B & "
    r"\sin B\\ -\sin B & \cos B\end{bmatrix}\\ &B \to -B:\\ x_1 &= x_0\cos B + y_0\sin B\\"
    r" y_1 &= -x_0\sin B + y_0\cos B\\ [x_1, y_1] &= [x_0, y_0]\begin{bmatrix}\cos B &"
    r" -\sin B\\ \sin B & \cos B\end{bmatrix} \end{aligned}"
)


def clockwise_latex(pair: int, k: float, omega: float, row: Sequence[float]) -> str:
    """Seed 003's clockwise formula on PE's pair: (x0, y0) = (sin wp, cos wp), B = w k."""
    turn = omega * k
    x0, y0 = row
    x1 = x0 * np.cos(turn) + y0 * np.sin(turn)
    y1 = -x0 * np.sin(turn) + y0 * np.cos(turn)
    return (
        rf"B = \omega_{{{pair}}} k = {num(turn)}:\quad x_1 = x_0\cos B + y_0\sin B = {num(x1)},"
        rf"\quad y_1 = -x_0\sin B + y_0\cos B = {num(y1)}"
    )


def block_latex(pair: int, k: float, block: np.ndarray) -> str:
    """Phi_i(k), symbolic and with its numbers."""
    return (
        rf"\Phi_{{{pair}}}({k:g}) = "
        rf"\begin{{bmatrix}}\cos \omega_{{{pair}}} k & -\sin \omega_{{{pair}}} k \\"
        rf" \sin \omega_{{{pair}}} k & \cos \omega_{{{pair}}} k\end{{bmatrix}} = " + bmatrix(block)
    )


def angle_latex(pair: int, d_model: int, base: float, k: float, omega: float) -> str:
    """omega_i and omega_i k with their numbers; ``omega`` from posenc.frequencies."""
    n = base_latex(base)
    n = f"({n})" if "^" in n else n
    return (
        rf"\omega_{{{pair}}} = {n}^{{-{2 * pair}/{d_model}}} = {num(omega, 8)},\quad "
        rf"\omega_{{{pair}}} k = {num(omega * k, 6)}\ \mathrm{{rad}}"
    )


def row_latex(
    pair: int, row: np.ndarray, block: np.ndarray, moved: np.ndarray, *, label: str | None = None
) -> str:
    r"""Seed 000: [sin, cos] Phi = [sin w(p+k), cos w(p+k)] with the numbers; ``label``
    names the pair under the row (in the reader's language; default ``pair <i>``)."""
    label = f"pair {pair}" if label is None else label
    return (  # a narrow screen, where display math wraps (menu.NARROW_CSS), may break at
        # \allowbreak: the row and the block side by side are wider than a phone
        rf"\underbrace{{{bmatrix([row])}}}_{{PE_{{(p)}}\ \text{{{label}}}}}\allowbreak "
        + bmatrix(block)
        + " = "
        + rf"\underbrace{{{bmatrix([moved])}}}_{{PE_{{(p+k)}}}}"
    )


def column_latex(block: np.ndarray, row: np.ndarray, moved: np.ndarray) -> str:
    r"""Seed 003: Phi^T [sin; cos] = [sin w(p+k); cos w(p+k)] with the numbers."""
    column = lambda v: bmatrix([[v[0]], [v[1]]])  # noqa: E731
    return bmatrix(np.asarray(block).T) + column(row) + " = " + column(moved)
