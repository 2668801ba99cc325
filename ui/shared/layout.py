"""Layout for the screen at hand: a desktop, a projector (presenter mode) or a phone.

Presenter mode is a URL setting (``present``); a phone is what the browser's User-Agent
says (:func:`phone`). Columns, chart heights, the lead's expander and the figures' fit
(:func:`fit_phone`, :func:`plot`) follow from the two.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence

import streamlit as st

from ui.plain.params import PRESENT
from ui.plain.style import STACKED_TOP, legend_below, legend_entries, presenter_fonts
from ui.shared import folds
from ui.shared.a11y import chart_alt
from ui.shared.figure_cache import CachedFigure, drawing, from_spec, lazy_figure, size_of
from ui.shared.i18n import t
from ui.shared.streamlit_internals import held


def presenting() -> bool:
    """Presenter mode (``present=1``): bigger type and charts for a projector."""
    value = held(PRESENT.key)  # from the toggle on: what it held (issue #32)
    return bool(st.session_state.get(PRESENT.key, False) if value is None else value)


def sidebar_state(present: bool) -> str:
    """``initial_sidebar_state`` of a page: closed in presenter mode, else Streamlit's
    "auto" (open on a desktop, closed on a phone)."""
    return "collapsed" if present else "auto"


def compact() -> bool:
    """A projector or a phone: the first chart must come within one screen, so a
    page's lead and formula fold away (:func:`lead`) and panels stack (:func:`stacked`)."""
    return presenting() or phone()


def stacked() -> bool:
    """Multi-panel figures one panel above the other: on a phone (panels side by side
    are 60 px wide there) and on a projector (read from the back of the room)."""
    return compact()


def lead():
    """Where a page's lead and its formula go: open on a desktop; on a projector or a
    phone a collapsed expander under the title, so that the title, the controls the
    chart needs and the chart fill the first screen. Its content is drawn only while it
    is open (``ui.shared.folds``; a desktop's container is always open)::

        with controls.lead() as lead:
            if lead.open:
                st.markdown(...)
    """
    if compact():
        return folds.expander(t("common.about_page"), name="lead", icon=":material/info:")
    return folds.Opened(contextlib.nullcontext())  # drawn in place: no container to send


def chart_height(height: int) -> int:
    """Figure height for the current mode: 1.5x in presenter mode."""
    return int(height * 1.5) if presenting() else height


def cells(count: int, *, per_row: int = 3, widths: Sequence[float] | None = None) -> list:
    """``count`` columns in one row (relative ``widths``, default equal); in presenter
    mode, rows of at most ``per_row`` equal columns.

    Presenter type is 1.5x larger, but a 1024 px projector with the sidebar open still
    leaves ~560 px: five formulas or six buttons in one row are cut there. Every row has
    ``per_row`` columns, so the short last row lines up under the full ones.
    """
    if not presenting() or count <= per_row:
        return list(st.columns(widths or count))
    found: list = []
    while len(found) < count:
        found += st.columns(per_row)[: count - len(found)]
    return found


def beside(widths: Sequence[float]) -> list:
    """Columns side by side (relative ``widths``) for charts and what goes with them; in
    presenter mode one above the other, each the full width.

    A 1024 px projector with the sidebar open leaves ~560 px: two charts side by side
    are ~270 px wide there, a square heatmap ~130 px. Texts must not say "left" or
    "right" of such columns.
    """
    return cells(len(widths), per_row=1, widths=widths)


def user_agent() -> str:
    """The browser's User-Agent header, "" when there is none: what :func:`phone` reads
    (tests replace this one function to open a page as a phone does)."""
    return st.context.headers.get("User-Agent") or ""


def phone() -> bool:
    """A phone or tablet browser: charts stack their panels and put legends underneath.

    Python cannot see the screen's width; the User-Agent is what the server has. Mobile
    browsers write "Mobi" in it (the test MDN recommends); desktop browsers, whatever
    their window size, do not.
    """
    return "Mobi" in user_agent()


def fit_phone(fig):
    """Fit ``fig`` to the screen: projector type in presenter mode (:func:`presenter_fonts`);
    on a phone, a legend above the plot moves under it (:func:`legend_below`), and
    titles at the top move down from under the toolbar a touch screen always shows."""
    return fit(fig, presenting=presenting(), on_phone=phone())


def fit(fig, *, presenting: bool, on_phone: bool):
    """:func:`fit_phone` for a given screen: changes ``fig`` and returns it."""
    if presenting:
        presenter_fonts(fig)
    if not on_phone:
        return fig
    if (fig.layout.legend.y or 0) > 1:  # one entry a row at worst on a 390 px screen
        legend_below(fig, rows=legend_entries(fig))
    top, wanted = fig.layout.margin.t or 0, 0
    if any((a.y or 0) >= 0.99 for a in fig.layout.annotations):  # subplot titles
        wanted = STACKED_TOP
    if fig.layout.title.text:  # by default centred in the top margin: pin it to the plot
        fig.update_layout(title=dict(yref="paper", y=1, yanchor="bottom", pad=dict(b=8)))
        wanted = STACKED_TOP + 10
    if top < wanted:
        fig.update_layout(margin=dict(t=wanted), height=(fig.layout.height or 450) + wanted - top)
    return square_on_phone(fig)


# Width of a chart on a 390 px phone (Streamlit pads the page by 1 rem each side), and
# the room a colour bar takes right of the plot (bar, tick labels, gaps).
PHONE_CHART_WIDTH, COLORBAR_ROOM = 358, 80


def square_on_phone(fig):
    """A square heatmap (y scaled to x) on a phone: as tall as it is wide.

    On a 358 px wide chart the square plot is ~220 px; in a taller figure Plotly
    centres it in the height while the colour bar still spans the full height, twice
    as tall as the plot. Lowering the figure makes the height the limit: bar = plot.
    """
    square = any(axis.scaleanchor for axis in fig.select_yaxes())
    bars = [tr for tr in fig.data if tr.type == "heatmap" and tr.showscale is not False]
    if not (square and bars and len(fig.layout.annotations) <= 1):
        return fig
    margin = fig.layout.margin
    left = 80 if margin.l is None else margin.l
    side = PHONE_CHART_WIDTH - left - max(margin.r or 0, COLORBAR_ROOM)
    height = (
        int(0.97 * side)
        + (100 if margin.t is None else margin.t)
        + (80 if margin.b is None else margin.b)
    )
    if height < (fig.layout.height or 450):
        fig.update_layout(height=height)
    return fig


_NOTES_DRAWN = "_posenc_notes_drawn"  # notes() drawn so far in this run

# Fitted figures kept (:func:`fitted`): a few screens of one room's views; each < 1 MB.
FITTED_ENTRIES = 32

# On a touch screen Plotly's mode bar shows all the time, over the top of the plot: a
# phone gets none (pinch and double-tap still zoom and reset).
PHONE_CONFIG = {"displayModeBar": False}


@functools.lru_cache(maxsize=FITTED_ENTRIES)
def _fitted_json(spec: str, presenting: bool, on_phone: bool) -> tuple[str, tuple]:
    """The JSON of a cached figure fitted to a screen (:func:`fit`), once per screen, and
    its size (``figure_cache.size_of``)."""
    fig = fit(from_spec(spec), presenting=presenting, on_phone=on_phone)
    return fig.to_json(validate=False), size_of(fig)


def fitted(fig):
    """``fig`` fitted to the reader's screen (:func:`fit_phone`). A figure from the figure
    cache that nobody changed is fitted once per screen for all sessions (a room in
    presenter mode or on phones built and refitted every chart on every rerun, issue #32);
    any other figure is fitted in place."""
    on_phone, present = phone(), presenting()
    spec = fig.cached_json() if isinstance(fig, CachedFigure) else None
    if spec is None or not (on_phone or present):
        return fit(fig, presenting=present, on_phone=on_phone)
    return lazy_figure(*_fitted_json(spec, present, on_phone))


def plot(fig, key: str, where=st, *, on_select=None, alt: str | None = None):
    """Draw ``fig`` at the full width of ``where``, fitted to the screen (:func:`fit_phone`);
    on a phone without Plotly's mode bar (:data:`PHONE_CONFIG`). ``on_select``: a
    callback for a click on a point (``ui.shared.grab.plot`` passes it).

    ``alt``: the chart's text alternative, one or two sentences in the reader's language
    on what it shows and what to notice, read by a screen reader right after the chart
    (:func:`ui.shared.a11y.chart_alt`). Every chart gives one
    (``tests/sweeps/test_chart_alternatives.py`` fails on a chart without)."""
    config = PHONE_CONFIG if phone() else None
    select = dict(on_select=on_select, selection_mode="points") if on_select else {}
    fig = fitted(fig)
    with drawing(fig):  # a cached figure's JSON goes as it is (issue #32)
        drawn = where.plotly_chart(fig, width="stretch", key=key, config=config, **select)
    if alt:
        chart_alt(alt, where)
    return drawn


def notes():
    """A tab's collapsed "Notes": corrections of the sources, float and framework
    details, longer derivations. What a tab shows open is its chart and two short lines
    (``tests/sweeps/test_word_budget.py`` counts them). The content is drawn only while
    the expander is open (``ui.shared.folds``)::

        with controls.notes() as notes:
            if notes.open:
                st.markdown(...)
    """
    count = st.session_state.get(_NOTES_DRAWN, 0)
    st.session_state[_NOTES_DRAWN] = count + 1
    return folds.expander(t("common.notes"), name=f"notes{count}", icon=":material/notes:")


def new_run() -> None:
    """Start a run's count of :func:`notes` (their keys: the first, second ... this run)."""
    st.session_state[_NOTES_DRAWN] = 0
