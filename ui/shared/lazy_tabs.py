"""Tabs kept in the URL, of which only the open one is computed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from ui.plain.params import ChoiceParam
from ui.plain.texts import text
from ui.shared.i18n import t
from ui.shared.url_state import write_param

_TABS_WRITTEN = "_posenc_tabs_written"  # tab key -> the label this session put in the URL


def lazy_tabs(spec: ChoiceParam, page: str, names: Sequence[str]) -> dict:
    """``st.tabs`` kept in the URL (``spec`` from ``ui.specs.tab_param``): only the open
    tab's ``.open`` is True, so a page computes what is on screen and nothing else.

    The URL holds the open tab's name, a code of either language (none for the first
    tab), written here rather than by ``bind="query-params"``, which would write the
    displayed label. A label of either language in a link opens its tab too; so does an
    address the visitor edits or the browser's back button restores (a URL value this
    function did not write wins over the session).
    """
    labels = [t(f"{page}.tab_{name}") for name in names]
    written = st.session_state.setdefault(_TABS_WRITTEN, {})
    url = st.query_params.get(spec.key)
    current = st.session_state.get(spec.key)
    if url is not None and url != written.get(spec.key):
        current = url
    index = spec.options.index(current) % len(labels) if current in spec.options else 0
    st.session_state[spec.key] = labels[index]
    containers = st.tabs(labels, key=spec.key, on_change="rerun")
    opened = next((label for label, c in zip(labels, containers, strict=True) if c.open), None)
    if opened is None or opened == labels[0]:
        st.query_params.pop(spec.key, None)
        written[spec.key] = None
    else:
        written[spec.key] = names[labels.index(opened)]
        write_param(spec.key, written[spec.key])
    return dict(zip(names, containers, strict=True))


def open_tab(spec: ChoiceParam, page: str, name: str) -> None:
    """Open tab ``name`` of :func:`lazy_tabs` on the next run (from a button's
    ``on_click``: a preset opens the tab that shows what it sets)."""
    st.session_state[spec.key] = t(f"{page}.tab_{name}")


def run_open_tab(spec: ChoiceParam, page: str, sections: dict[str, Callable[[], None]]) -> None:
    """:func:`lazy_tabs` with one function per tab (in tab order): run the open one."""
    english = [text("en", f"{page}.tab_{name}") for name in sections]
    names = list(spec.options[-len(sections) :])
    if english != list(spec.options[: len(english)]) or names != list(sections):
        raise ValueError(f"sections {list(sections)} are not the tabs of {spec.key}, in order")
    for name, tab in lazy_tabs(spec, page, list(sections)).items():
        if tab.open:
            with tab:
                sections[name]()
