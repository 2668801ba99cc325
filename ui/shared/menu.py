"""The one shared sidebar menu, drawn by every page with ``st.page_link``.

Links carry the shared settings (``ui.plain.params.CARRIED``) as query parameters, so a
value chosen on one page is there on the next, and in any link copied from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import streamlit as st

from ui.plain.params import CARRIED
from ui.shared import streamlit_internals
from ui.shared.i18n import t

_CARRY = "_posenc_carry"
_UNSET = object()


class PageEntry(NamedTuple):
    path: str  # relative to the repository root
    label_key: str
    icon: str
    name: str  # page id: its specs live in ui.specs.<name>, its texts under "<name>."

    @property
    def url_path(self) -> str:
        """The page's address on the server, Streamlit's legacy page URL:
        ``pages/2_Wavelengths.py`` -> ``/Wavelengths``, ``app.py`` -> ``/``."""
        if self.path == "app.py":
            return "/"
        return "/" + Path(self.path).stem.split("_", 1)[1]


ROOT = Path(__file__).resolve().parents[2]

# Order = menu order. The menu shows only the files that exist.
ALL_PAGES: tuple[PageEntry, ...] = (
    PageEntry("app.py", "menu.home", ":material/home:", "home"),
    PageEntry("pages/0_Start_here.py", "menu.story", ":material/school:", "story"),
    PageEntry("pages/1_Heatmap.py", "menu.heatmap", ":material/grid_on:", "heatmap"),
    PageEntry("pages/2_Wavelengths.py", "menu.wavelengths", ":material/waves:", "wavelengths"),
    PageEntry("pages/3_Binary_vs_sinusoid.py", "menu.binary", ":material/looks_one:", "binary"),
    PageEntry("pages/4_Rotation.py", "menu.rotation", ":material/rotate_right:", "rotation"),
    PageEntry("pages/5_RoPE.py", "menu.rope", ":material/360:", "rope"),
    PageEntry("pages/6_Schemes_compared.py", "menu.schemes", ":material/compare:", "schemes"),
    PageEntry("pages/7_Multi_axis_RoPE.py", "mrope.menu", ":material/view_in_ar:", "mrope"),
)
PAGES = tuple(page for page in ALL_PAGES if (ROOT / page.path).exists())


# Which page shows each criterion of a good encoding (home page links).
CRITERION_PAGES = {
    "unique": "pages/1_Heatmap.py",
    "consistent": "pages/4_Rotation.py",
    "extrapolates": "pages/3_Binary_vs_sinusoid.py",
    "bounded": "pages/3_Binary_vs_sinusoid.py",
}


def page_for(criterion: str) -> PageEntry | None:
    """The registered page that demonstrates ``criterion``, if it exists yet."""
    path = CRITERION_PAGES.get(criterion)
    return next((page for page in PAGES if page.path == path), None)


def carried_values() -> dict[str, object]:
    """The current value of every carried setting, on pages that draw it or not.

    Session State is read once a run; then only the setting whose widget ran or that
    code set is read again (:func:`carried_changed`): a run asks 8-13 times, and reading
    them all took ~70 us a time (issue #32).
    """
    return dict(streamlit_internals.held_or_read(_CARRY, _read_carried))


def _read_carried() -> dict[str, object]:
    """The session's store of carried values, brought up to date from Session State
    (one read a setting: ~10 us each). Held for the run and kept current by
    :func:`carried_changed`."""
    state = st.session_state
    store = state.setdefault(_CARRY, {})
    for spec in CARRIED:
        value = state.get(spec.key, _UNSET)
        if value is not _UNSET:
            store[spec.key] = value
    return store


def carried_changed(key: str) -> None:
    """Carried setting ``key`` may have changed (its widget ran, code set it): read it
    again, into the store :func:`carried_values` holds for this run."""
    store = streamlit_internals.held(_CARRY)
    if store is not None:
        value = st.session_state.get(key, _UNSET)
        if value is not _UNSET:
            store[key] = value


def seed_from_url(raw: dict[str, str]) -> None:
    """Valid carried values in the URL, before their widgets have run (first load)."""
    store = st.session_state.setdefault(_CARRY, {})
    for spec in CARRIED:
        if spec.key in raw:
            try:
                store[spec.key] = spec.parse(raw[spec.key])
            except ValueError:
                pass


def remember() -> None:
    """Store the carried settings after the widgets ran (safe to call repeatedly)."""
    carried_values()


def link_params() -> dict[str, str]:
    """Query parameters for menu links: carried settings that differ from their default."""
    values = carried_values()
    params = {}
    for spec in CARRIED:
        value = values.get(spec.key, spec.default)
        if value != spec.default:
            params[spec.key] = str(value).lower() if isinstance(value, bool) else str(value)
    return params


def draw(current: str) -> None:
    params = link_params()
    with st.sidebar:
        st.caption(t("menu.title"))
        for page in PAGES:
            st.page_link(page.path, label=t(page.label_key), icon=page.icon, query_params=params)
        st.divider()


# A 1024 px projector with the sidebar open, or a phone, is narrower than many formulas:
# KaTeX draws display math as one inline block per top-level term, so with wrapping
# allowed a long formula breaks after a relation or operator instead of scrolling
# sideways; metric, checkbox, button and page-link labels (Streamlit cuts them at one
# line with an ellipsis) wrap instead.
NARROW_CSS = (
    ".katex-display > .katex {white-space: normal !important;}"
    ".katex-display > .katex > .katex-html > .base {margin: 0.2em 0;}"
    "[data-testid=stMetricLabel] *, [data-testid=stMain] .stMarkdownEllipsis,"
    " [data-testid=stMain] .stMarkdownEllipsis *,"
    " [data-testid=stMain] [data-testid^=stPageLink] * {white-space: normal !important;"
    " overflow: visible !important; text-overflow: clip !important;}"
)

# Projector: a metric's value well above its label (the labels grow with the body text);
# tab labels wrap onto a second row instead of being cut at the right edge; a slider's
# value label sits above its thumb, clear of it at the larger type.
PRESENTER_CSS = (
    "[data-testid=stMetricValue], [data-testid=stMetricValue] * {font-size: 2.75rem !important;"
    " line-height: 1.2 !important;}"
    "[data-testid=stMetricLabel] p {font-size: 1.1rem !important;}"
    "[data-testid=stTabs] [role=tablist] {flex-wrap: wrap; row-gap: 0.25rem;}"
    "[data-testid=stTabs] [role=tablist] [role=tab] {flex: 0 0 auto;}"
    "[data-testid=stSliderThumbValue] {transform: translateY(-0.6rem);}"
)
# A table wider than the screen scrolls inside its own box, not the whole page.
TABLE_CSS = (
    "[data-testid=stMain] [data-testid=stMarkdownContainer] table {display: block;"
    " max-width: 100%; overflow-x: auto;}"
)


def presenter_style() -> None:
    """Projector mode: larger type and charts, less chrome. Static CSS, no user text."""
    st.html(
        "<style>"
        "[data-testid=stMain] [data-testid=stMarkdownContainer] p,"
        " [data-testid=stMain] [data-testid=stMarkdownContainer] li {font-size: 1.25rem;}"
        "h1 {font-size: 3rem !important;} h2 {font-size: 2.2rem !important;}"
        # The header stays (its button opens the sidebar, closed here), see-through.
        "[data-testid=stHeader] {background: transparent;}"
        ".block-container {padding-top: 1rem; max-width: 100% !important;}"
        f"{PRESENTER_CSS}{NARROW_CSS}{TABLE_CSS}</style>"
    )


def narrow_style() -> None:
    """A phone: long formulas and one-line labels wrap (:data:`NARROW_CSS`), wide tables
    scroll in their own box (:data:`TABLE_CSS`). Static CSS."""
    st.html(f"<style>{NARROW_CSS}{TABLE_CSS}</style>")
