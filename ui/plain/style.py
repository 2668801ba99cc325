"""The house look of every chart: colour scale, template, presenter fonts, panels,
legends, and the heatmap drawn within the cell budget (no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from ui.plain.grids import Grid, as_grid

# One diverging scale centred on 0 for values in [-1, 1], used on every page.
COLORSCALE = "RdBu_r"


def _house_template() -> go.layout.Template:
    """Plotly's "plotly_white" cut to what this app draws (heatmaps, 2-D and 3-D lines).

    The full template is 7 kB of JSON per chart and takes ~13 ms to validate on every
    figure; polar, ternary and geo axes and the defaults of unused trace types go.
    """
    white = pio.templates["plotly_white"]
    unused = ("polar", "ternary", "geo")
    layout = {k: v for k, v in white.layout.to_plotly_json().items() if k not in unused}
    data = {k: v for k, v in white.data.to_plotly_json().items() if k in TRACE_TYPES}
    return go.layout.Template(layout=layout, data=data)


# Trace types of the app's figures (tests/shared/test_figures_common.py checks the list).
TRACE_TYPES = ("heatmap", "scatter", "scatter3d")
HOUSE = _house_template()


def style(fig: go.Figure, *, height: int = 420, title: str | None = None) -> go.Figure:
    """House layout: compact margins, readable fonts, no Plotly logo needed."""
    fig.update_layout(
        height=height,
        margin=dict(l=60, r=20, t=50 if title else 20, b=50),
        title=title,
        template=HOUSE,
        font=dict(size=13),
    )
    return fig


# The margins Plotly's automargin gives a desktop chart under Streamlit 1.67's chart
# theme (its axis title standoff and tick font) at the house font size: left of a
# y axis title with tick labels of up to three characters, under an x axis title, and
# right of a 12 px colour bar with labels such as -0.5 (measured in Chromium: final
# margins 67, 67 and 82-83 px). A chart whose margins hold less is drawn twice in the
# browser: Plotly draws it, grows the margins and draws it again (~30-35 ms of the
# main thread on each draw; issue #32).
TITLED_AXIS_MARGIN, COLORBAR_MARGIN = 67, 83


def _vertical_bar(colorbar) -> bool:
    return (colorbar.orientation or "v") == "v"


def _titled_below(fig: go.Figure) -> bool:
    """An x axis title under a plot of ``fig`` (what the bottom margin must hold)."""
    return any(a.title.text and a.side != "top" for a in fig.select_xaxes())


def settle_margins(fig: go.Figure) -> go.Figure:
    """Give ``fig`` the margins automargin would grow it to on a desktop (the module's
    ``TITLED_AXIS_MARGIN``, ``COLORBAR_MARGIN``), so the browser draws it once.

    Only a side with an axis title or a colour bar grows, and only to what Plotly grows
    it to for the usual tick labels: the bottom and right end where they ended before;
    the left gains at most 7 px where the y ticks are one or two characters wide (Plotly
    kept 60 there). Larger type (presenter mode) or longer tick labels still grow a
    margin further in the browser, as before."""
    margin, grow = fig.layout.margin, {}
    left = any(a.title.text and a.side != "right" for a in fig.select_yaxes())
    bottom = _titled_below(fig)
    shared = {getattr(trace, "coloraxis", None) for trace in fig.data}
    bars = any(
        trace.type == "heatmap"
        and trace.showscale is not False
        and trace.coloraxis is None
        and _vertical_bar(trace.colorbar)
        for trace in fig.data
    ) or any(
        axis.plotly_name in shared and axis.showscale is not False and _vertical_bar(axis.colorbar)
        for axis in fig.select_coloraxes()
    )
    for side, wanted, needed in (
        ("l", TITLED_AXIS_MARGIN, left),
        ("b", TITLED_AXIS_MARGIN, bottom),
        ("r", COLORBAR_MARGIN, bars),
    ):
        current = getattr(margin, side)
        if needed and current is not None and current < wanted:
            grow[side] = wanted
    if grow:
        fig.update_layout(margin=grow)
    return fig


# Presenter mode (a 1024 x 768 projector, read from the back of a room): chart type at
# least this large, in px (issue #21).
PRESENTER_TICK, PRESENTER_TITLE, PRESENTER_LEGEND = 18, 22, 18


def _at_least(current, least: int) -> int:
    return max(int(current or 0), least)


def presenter_fonts(fig: go.Figure) -> go.Figure:
    """Projector type for every kind of chart text, in one place: ticks, colour bars,
    legends, hover labels and text drawn by traces (dial labels, numbers in cells)
    >= 18 px, chart, subplot and axis titles >= 22 px, on 2-D axes and 3-D scenes alike.
    Larger sizes a figure already has stay; axis margins grow to fit the larger ticks
    (``automargin``). ``tests/sweeps/test_presenter_fonts.py`` checks every figure."""
    tick, title, legend = PRESENTER_TICK, PRESENTER_TITLE, PRESENTER_LEGEND
    fig.update_layout(
        font_size=_at_least(fig.layout.font.size, tick),
        legend_font_size=_at_least(fig.layout.legend.font.size, legend),
        hoverlabel_font_size=_at_least(fig.layout.hoverlabel.font.size, tick),
    )
    if fig.layout.title.text:
        fig.update_layout(title_font_size=_at_least(fig.layout.title.font.size, title + 2))
        margin = fig.layout.margin
        if (margin.t or 0) < 70:
            height = (fig.layout.height or 450) + 70 - (margin.t or 0)
            fig.update_layout(margin_t=70, height=height)
    for axis in (*fig.select_xaxes(), *fig.select_yaxes()):
        if axis.type == "log" and axis.dtick is None:
            # Plotly labels 2 and 5 between powers of ten at 3/4 of the tick size (and
            # at 18 px they ran into the powers' exponents): powers of ten only.
            axis.update(dtick=1)
        axis.update(
            tickfont_size=_at_least(axis.tickfont.size, tick),
            title_font_size=_at_least(axis.title.font.size, title),
            automargin=True,
        )
    for scene in fig.select_scenes():
        for axis in (scene.xaxis, scene.yaxis, scene.zaxis):
            axis.update(
                tickfont_size=_at_least(axis.tickfont.size, tick),
                title_font_size=_at_least(axis.title.font.size, title),
            )
    for annotation in fig.layout.annotations:
        # Subplot titles sit on the top edge of their panel (y = 1 of the panel's
        # domain, in paper coordinates); other annotations are labels in the plot.
        heading = annotation.yref == "paper" and annotation.yanchor == "bottom"
        size = title if heading else tick
        annotation.update(font_size=_at_least(annotation.font.size, size))
    for trace in fig.data:
        if "textfont" in trace and (trace.text is not None or trace.texttemplate is not None):
            # Text drawn by a trace: the clock dials' labels (11 px on the story's step 5
            # before issue #32), labelled reference lines, numbers written in cells.
            trace.update(textfont_size=_at_least(trace.textfont.size, tick))
        if trace.type == "heatmap":
            trace.update(
                colorbar_tickfont_size=_at_least(trace.colorbar.tickfont.size, tick),
                colorbar_title_font_size=_at_least(trace.colorbar.title.font.size, title),
            )
        elif "marker" in trace and trace.marker.to_plotly_json().get("colorbar"):
            bar = trace.marker.colorbar  # points coloured by a value, with their colour bar
            trace.update(
                marker_colorbar_tickfont_size=_at_least(bar.tickfont.size, tick),
                marker_colorbar_title_font_size=_at_least(bar.title.font.size, title),
            )
    for colors in fig.select_coloraxes():  # shared colour bars of several heatmaps
        colors.update(
            colorbar_tickfont_size=_at_least(colors.colorbar.tickfont.size, tick),
            colorbar_title_font_size=_at_least(colors.colorbar.title.font.size, title),
        )
    for menu in (*fig.layout.sliders, *fig.layout.updatemenus):
        menu.update(font_size=_at_least(menu.font.size, tick))
    for slider in fig.layout.sliders:
        slider.currentvalue.update(font_size=_at_least(slider.currentvalue.font.size, tick))
    return fig


# Stacked panels (a phone's screen): pixels between one panel's plot area and the next's,
# room for the x ticks, the axis title and the next panel's title.
PANEL_GAP = 90
# A touch screen shows Plotly's toolbar all the time: the first title goes under it.
STACKED_TOP = 55


def panels(
    n: int,
    *,
    stacked: bool,
    titles: Sequence[str] | None = None,
    spacing: float = 0.05,
    shared_y: bool = False,
    panel_height: int = 260,
) -> go.Figure:
    """``n`` panels side by side, or one above the other when ``stacked``.

    Stacked is for a phone (``ui.shared.controls.phone``): side by side, five panels of a
    390 px screen are 60 px each and their titles run into each other. ``shared_y``
    ties the y axes (ticks on the first panel only when side by side, on each when
    stacked). Place traces with :func:`cell`; finish with :func:`style_stacked`.
    """
    titles = list(titles) if titles else None
    if not stacked:
        fig = make_subplots(
            rows=1, cols=n, subplot_titles=titles, shared_yaxes=shared_y, horizontal_spacing=spacing
        )
    else:
        # make_subplots' spacing is a fraction of the plot area, margins excluded.
        gap = PANEL_GAP / (n * panel_height + (n - 1) * PANEL_GAP) if n > 1 else 0.0
        fig = make_subplots(
            rows=n, cols=1, subplot_titles=titles, shared_yaxes="all" if shared_y else False,
            vertical_spacing=gap,
        )  # fmt: skip
    # 13 px, not Plotly's 16: on a 1024 px projector with the sidebar open, 16 px titles
    # of neighbouring panels ran into each other.
    return fig.update_annotations(font_size=13)


def cell(k: int, stacked: bool) -> dict[str, int]:
    """``row`` and ``col`` of panel ``k`` (counted from 1) in :func:`panels`."""
    return dict(row=k, col=1) if stacked else dict(row=1, col=k)


def stacked_height(n: int, panel_height: int, bottom: int = 50) -> int:
    """Figure height for ``n`` stacked panels of ``panel_height`` px (plus the margins)."""
    return n * panel_height + (n - 1) * PANEL_GAP + STACKED_TOP + bottom


def style_stacked(fig: go.Figure, n: int, panel_height: int, *, extra: int = 0) -> go.Figure:
    """:func:`style` for ``n`` stacked panels, ``extra`` px for a legend underneath. Under
    an x axis title the bottom margin is the one the browser draws with
    (:func:`settle_margins`), so the panels keep their height and the gaps between them."""
    bottom = TITLED_AXIS_MARGIN if _titled_below(fig) else 50
    style(fig, height=stacked_height(n, panel_height, bottom) + extra)
    fig.update_layout(margin=dict(t=STACKED_TOP, b=bottom))
    return fig


LEGEND_ROW = 22  # px of one row of a horizontal legend


def legend_entries(fig: go.Figure) -> int:
    """How many entries the legend of ``fig`` lists (lines and markers that show one)."""
    return sum(
        1
        for trace in fig.data
        if trace.showlegend or (trace.showlegend is None and trace.type in ("scatter", "bar"))
    )


def legend_below(fig: go.Figure, gap: int = 75, rows: int = 0) -> go.Figure:
    """A horizontal legend ``gap`` px under the plot area, below the x ticks and title.

    For a phone: a legend at the side takes half its width, and one above the plot sits
    under the toolbar a touch screen shows at all times. ``rows``: the legend's rows, for
    which the bottom margin is reserved (the figure grows by as much). Otherwise Plotly
    grows the margin to fit the legend, which shrinks the plot, and the legend, placed
    as a fraction of the plot's height, moves up into the x axis title.
    """
    margin = fig.layout.margin
    if rows:
        bottom = gap + LEGEND_ROW * rows + 10
        if bottom > (margin.b or 0):
            height = (fig.layout.height or 450) + bottom - (margin.b or 0)
            fig.update_layout(height=height, margin=dict(b=bottom))
    plot = (fig.layout.height or 450) - (margin.t or 0) - (margin.b or 0)
    below = dict(orientation="h", x=0, xanchor="left", y=-gap / max(plot, 1), yanchor="top")
    fig.update_layout(legend=below)
    return fig


def heatmap(
    z: np.ndarray | Grid,
    *,
    x_title: str,
    y_title: str,
    zmin: float = -1.0,
    zmax: float = 1.0,
    colorscale: str = COLORSCALE,
    title: str | None = None,
    height: int = 420,
    hovertemplate: str | None = None,
    customdata: np.ndarray | None = None,
    z_title: str = "",
) -> tuple[go.Figure, Grid]:
    """A heatmap of ``z`` (rows on y, downwards), downsampled to the cell budget.

    The default hover text names the axes and ``z_title`` (the caller's language).

    ``customdata`` (same leading shape as ``z``) is only used when no downsampling
    happens, because averaged cells have no single position or dimension.
    """
    grid = as_grid(z)
    trace = go.Heatmap(
        z=grid.z,
        x=grid.cols,
        y=grid.rows,
        zmin=zmin,
        zmax=zmax,
        zmid=0.0 if zmin < 0 < zmax else None,
        colorscale=colorscale,
        colorbar=dict(thickness=12),
    )
    if customdata is not None and not grid.downsampled:
        trace.customdata = customdata
    if hovertemplate is not None and (customdata is None or not grid.downsampled):
        trace.hovertemplate = hovertemplate
    else:
        value = f"{z_title} = " if z_title else ""
        trace.hovertemplate = (
            f"{y_title} %{{y}}<br>{x_title} %{{x}}<br>{value}%{{z:.4f}}<extra></extra>"
        )
    fig = go.Figure(trace)
    fig.update_yaxes(autorange="reversed", title=y_title)
    fig.update_xaxes(title=x_title)
    return style(fig, height=height, title=title), grid
