"""The facade pages use: ``from ui import controls``, then ``controls.setup_page`` first.

Each concern lives in a module of its own; this one draws a page's frame
(:func:`setup_page`) and re-exports the rest under the names pages, tab modules and tests
call, so none of them needs to know where a function lives:

- ``ui.shared.url_state``: URL checks, the link to the view, values set by code (``assign``);
- ``ui.shared.widgets``: widgets bound to query parameters and checked before they are drawn;
- ``ui.shared.layout``: desktop, projector or phone: columns, heights, figures fitted (``plot``);
- ``ui.shared.latex_rows``: ``latex``, with aligned derivations as rows that wrap on a phone;
- ``ui.shared.lazy_tabs``: tabs kept in the URL, only the open one computed (``run_open_tab``);
- ``ui.shared.folds``: popovers and expanders whose content is drawn only while open.

None of those imports this module (a contract in pyproject.toml, run by
tests/house/test_layers.py).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from ui.plain import heap
from ui.plain.params import CARRIED, LANG, PRESENT
from ui.shared import a11y, menu, streamlit_internals
from ui.shared.folds import expander, popover
from ui.shared.i18n import lang, t
from ui.shared.latex_rows import aligned_rows, latex
from ui.shared.layout import (
    COLORBAR_ROOM,
    PHONE_CHART_WIDTH,
    PHONE_CONFIG,
    beside,
    cells,
    chart_height,
    compact,
    fit_phone,
    lead,
    new_run,
    notes,
    phone,
    plot,
    presenting,
    sidebar_state,
    square_on_phone,
    stacked,
)
from ui.shared.lazy_tabs import lazy_tabs, open_tab, run_open_tab
from ui.shared.turns import taking_turns
from ui.shared.url_state import (
    NOTICES,
    PENDING,
    assign,
    check_query_params,
    share_link,
    view_params,
    write_param,
)
from ui.shared.widgets import (
    choice,
    coarse_key,
    language_switch,
    number,
    shared_controls,
    size,
    slider,
    text_input,
    toggle,
)

__all__ = [
    "COLORBAR_ROOM",
    "FAVICON",
    "PHONE_CHART_WIDTH",
    "PHONE_CONFIG",
    "aligned_rows",
    "assign",
    "beside",
    "cells",
    "chart_height",
    "check_query_params",
    "choice",
    "coarse_key",
    "compact",
    "expander",
    "fit_phone",
    "language_switch",
    "latex",
    "lazy_tabs",
    "lead",
    "notes",
    "number",
    "open_tab",
    "phone",
    "plot",
    "popover",
    "presenting",
    "run_open_tab",
    "setup_page",
    "share_link",
    "shared_controls",
    "sidebar_state",
    "size",
    "slider",
    "square_on_phone",
    "stacked",
    "taking_turns",
    "text_input",
    "toggle",
    "view_params",
    "write_param",
]

FAVICON_FILE = Path(__file__).resolve().parents[2] / "assets" / "favicon.png"
# The favicon as a data URL, which Streamlit passes on as it is: given the file's path, it
# read the file, opened it with PIL and registered it as a media file on every run
# (~0.5 ms of a rerun; issue #32). 1.2 kB: a 32-colour PNG.
FAVICON = "data:image/png;base64," + base64.b64encode(FAVICON_FILE.read_bytes()).decode("ascii")


def _page_config(present: bool) -> None:
    st.set_page_config(
        page_title="PosEnc Explorer", page_icon=FAVICON, layout="wide",
        initial_sidebar_state=sidebar_state(present),
    )  # fmt: skip


def setup_page(name: str, specs: Sequence = ()) -> None:
    """Page config, URL checks, language switch, shared menu. Call first on every page.

    The favicon is the app's own PNG, inside the page (:data:`FAVICON`): a
    ``:material/...:`` page icon would be fetched from a font CDN, and the app must work
    offline.
    """
    streamlit_internals.begin_run()  # nothing held from this thread's last run
    new_run()  # notes() count from here
    streamlit_internals.memoize_session_config()  # once per process (issue #32)
    streamlit_internals.batch_script_events()  # once per process (issue #32)
    heap.freeze_after_first_run(name)  # the page's modules out of full GC scans (#32)
    # Read the URL before any bound widget drops an invalid value from it.
    raw = {key: st.query_params.get(key, "") for key in st.query_params.keys()}
    menu.seed_from_url(raw)
    # A projector's 1024 px are the slide's: the sidebar starts closed (its toggle
    # and the shared settings are one click away). The front end applies this when a
    # page loads and whenever the value changes, so ticking "presenter mode" closes it.
    # The config goes out before the first sidebar element: the front end draws a
    # sidebar open until the config arrives, then slides it closed (seen on a cold
    # server and under load). The mode is read before its toggle runs: the URL's value
    # on a first load, the ticked one after a click.
    expected = bool(menu.carried_values().get(PRESENT.key, PRESENT.default))
    _page_config(expected)
    language_switch()  # before the checks, so that notices are in the chosen language
    streamlit_internals.hold(LANG.key, lang())  # read ~70 times a run (issue #32)
    a11y.prepare()  # <html lang> in that language, focusable wide formulas (issue #33)
    present = toggle(PRESENT, t("common.present"), t("common.present_help"), container=st.sidebar)
    streamlit_internals.hold(PRESENT.key, bool(present))
    if bool(present) != expected:  # not seen; each call sends a message (issue #32)
        _page_config(bool(present))
    problems = st.session_state.pop(NOTICES, [])
    problems += [p for p in check_query_params([*CARRIED, *specs], raw) if p not in problems]
    st.session_state[PENDING] = problems  # survives a corrective rerun (ui.shared.widgets)
    menu.draw(current=name)
    share_link(specs, raw)
    if problems:
        st.warning(t("common.notice_header") + "\n\n" + "\n".join(f"- {p}" for p in problems))
    if st.session_state.get(PRESENT.key):
        menu.presenter_style()
    elif phone():
        menu.narrow_style()
