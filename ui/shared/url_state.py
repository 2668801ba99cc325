"""The URL and Session State behind the controls: checks, the shared link, values set by code.

``check_query_params`` validates a URL before any widget binds it; ``view_params`` and
``share_link`` write the address that reproduces the current view. The settings whose URL
value is read and written here rather than by Streamlit (:func:`synced`) go through
:func:`url_value` and :func:`sync_url`. The Session State keys below are shared with
``ui.shared.widgets`` (the corrective rerun) and ``ui.shared.controls.setup_page`` (the notices).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from urllib.parse import urlencode

import streamlit as st

from ui.plain.params import CARRIED, ChoiceParam, TextParam
from ui.plain.safe_text import markdown_code
from ui.shared import folds, menu, streamlit_internals
from ui.shared.i18n import say, t

NOTICES = "_posenc_notices"  # notices to show after a corrective rerun
FIXES = "_posenc_fixes"  # key -> default, set on the rerun after a value broke its spec
PENDING = "_posenc_pending_notices"  # this run's notices, kept across that rerun
ASSIGNED = "_posenc_assigned"  # keys code set in Session State (:func:`assign`)


def kept(key: str, factory: Callable[[], object]):
    """``st.session_state.setdefault(key, factory())``, a dict or set the session keeps
    and code changes in place, read from Session State once a run (issue #32)."""

    def read():
        return st.session_state.setdefault(key, factory())

    return streamlit_internals.held_or_read(key, read)


def assign(values: dict) -> None:
    """Set widgets' values from code (presets; call it from a button's ``on_click``).

    The keys are remembered so the widgets are then drawn without a ``value`` argument,
    which would make Streamlit warn about a value set twice.
    """
    assigned = kept(ASSIGNED, set)
    for key, value in values.items():
        st.session_state[key] = value
        assigned.add(key)
        menu.carried_changed(key)


def check_query_params(specs: Iterable, raw: dict[str, str]) -> list[str]:
    """Validate the URL values ``raw`` against ``specs``; return one message per problem.

    Unknown names and invalid values are dropped from the URL before any widget binds
    them, so Streamlit's own widget code never sees them (a 10 000-digit integer in a
    bound number box would otherwise crash inside Streamlit). The messages are
    Markdown: a name or value from the URL is escaped (``ui.plain.safe_text``).
    """
    specs = {spec.key: spec for spec in specs}
    problems = []
    for key, value in raw.items():
        spec = specs.get(key)
        if spec is None:
            problems.append(t("common.notice_unknown", name=markdown_code(key)))
            _drop(key)
            continue
        try:
            spec.parse(value)
        except ValueError as error:
            problems.append(say(error))
            _drop(key)
    return problems


def _drop(key: str) -> None:
    try:
        del st.query_params[key]
    except Exception:  # a parameter already bound to a widget belongs to it
        pass


def view_params(specs: Sequence, raw: dict[str, str]) -> dict[str, str]:
    """Query parameters that reproduce the current view: every setting not at its default.

    Widget values come from Session State; on a first load, before a widget has run,
    from its (valid) URL value. The backend's ``st.query_params`` lags one rerun behind
    bound widgets, so it is not used.
    """
    carried = menu.carried_values()
    params = {}
    for spec in [*CARRIED, *specs]:
        if spec.key in st.session_state:
            value = st.session_state[spec.key]
        elif spec.key in carried:
            value = carried[spec.key]
        else:
            try:
                value = spec.parse(raw[spec.key])
            except (KeyError, ValueError):
                continue
        if value != spec.default:
            params[spec.key] = as_text(value)
    return params


def share_link(specs: Sequence, raw: dict[str, str]) -> None:
    """A 'link to this view' affordance in the sidebar: the full address, ready to copy."""
    box = folds.popover(t("common.share"), name="share", where=st.sidebar, icon=":material/link:")
    if box.open:
        query = urlencode(view_params(specs, raw))
        address = (st.context.url or "") + (f"?{query}" if query else "")
        with box:
            st.caption(t("common.share_help"))
            st.code(address or t("common.share_defaults"), language=None, wrap_lines=True)


def synced(spec) -> bool:
    """Whether ``spec``'s URL value is read and written here, not by Streamlit: the
    carried settings, choices (a bound radio writes its displayed, translated label
    into the URL; the URL keeps the option's code, the same in both languages), and
    texts (a bound text box takes the first ``max_chars`` characters of a longer URL
    value and writes them back into the URL, after :func:`check_query_params` refused
    it: the notice said "reset to the default" while the cut text was used)."""
    return spec in CARRIED or isinstance(spec, (ChoiceParam, TextParam))


def url_value(spec):
    """The URL's (valid) value of ``spec``, else its default."""
    try:
        return spec.parse(st.query_params[spec.key])
    except (KeyError, ValueError):
        return spec.default


def sync_url(spec, value) -> None:
    if not synced(spec):
        return
    if value != spec.default:
        write_param(spec.key, as_text(value))
    elif spec.key in st.query_params:
        del st.query_params[spec.key]


def write_param(key: str, value: str) -> None:
    """``st.query_params[key] = value`` when the URL holds another value: each write
    sends the browser a message, on every rerun (issue #32)."""
    if st.query_params.get(key) != value:
        st.query_params[key] = value


def as_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
