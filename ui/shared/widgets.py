"""Widgets bound to query parameters, checked before they are drawn.

Every control is described by a spec of ``ui.plain.params``. ``controls.setup_page``
checks the URL against the page's specs first (``url_state``); the widgets here are then
drawn with ``bind="query-params"`` (or synced by ``ui.shared.url_state``), so the URL always
reproduces the view, and a value that breaks its spec is reset with one rerun.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from ui.plain.params import (
    BASE,
    CARRIED,
    D_MODEL,
    LANG,
    SEQ_LEN,
    BoolParam,
    ChoiceParam,
    IntParam,
    base_limits,
    nice_values,
)
from ui.shared import menu
from ui.shared.i18n import say, t
from ui.shared.layout import compact, phone
from ui.shared.url_state import (
    ASSIGNED,
    FIXES,
    NOTICES,
    PENDING,
    as_text,
    assign,
    kept,
    sync_url,
    synced,
    url_value,
)


def _widget_arguments(spec, *, set_by_code: bool) -> dict:
    """``value`` and ``bind`` for a widget of ``spec``.

    Page settings are bound to the URL by Streamlit. The settings carried across pages
    are not: element ids include the page, so each page has its own ``seq_len`` widget,
    and Streamlit drops a bound parameter from the URL when the page that bound it is
    left, which would lose the values a menu link carries. Those widgets start from the
    carried value, and ``sync_url`` writes the URL.

    ``value`` is always passed (otherwise a fresh widget starts at Streamlit's implicit
    default, a slider's minimum) except right after code assigned the key in Session
    State, when passing it makes Streamlit warn on screen.
    """
    carried = spec in CARRIED
    arguments = {} if synced(spec) else {"bind": "query-params"}
    if not set_by_code:
        start = menu.carried_values().get(spec.key, spec.default) if carried else spec.default
        if synced(spec) and not carried:
            start = url_value(spec)
        arguments["value"] = start
    return arguments


def _checked(spec, draw: Callable[[dict], object]):
    """Draw a widget of ``spec``; if its value breaks the spec, reset it and rerun once.

    On a first load the URL beats Session State, and Streamlit checks only the range
    of a URL value (not, say, that d_model is even). A value set in Session State wins
    on every later run, hence the rerun; the notice survives it.
    """
    fixes = kept(FIXES, dict)
    assigned = kept(ASSIGNED, set)
    if spec.key in fixes:
        st.session_state[spec.key] = fixes.pop(spec.key)
        assigned.add(spec.key)
    set_by_code = spec.key in assigned
    assigned.discard(spec.key)
    value = draw(_widget_arguments(spec, set_by_code=set_by_code))
    try:
        spec.parse(as_text(value))
    except ValueError as error:
        fixes[spec.key] = spec.default
        pending = st.session_state.get(PENDING, [])
        message = say(error)
        st.session_state[NOTICES] = [*pending, *([message] if message not in pending else [])]
        st.rerun()
    sync_url(spec, value)
    if spec in CARRIED:
        menu.carried_changed(spec.key)
    return value


def slider(spec, label: str, help: str, *, container=st, maximum=None, **kwargs):
    """A slider of ``spec``; ``maximum`` lowers its upper end for the current settings
    (a larger value, from the URL or an earlier setting, is drawn at that end). When
    that leaves one value, the slider is drawn disabled at it (Streamlit refuses a
    slider whose ends are equal)."""
    top = spec.maximum if maximum is None else max(spec.minimum, min(maximum, spec.maximum))
    if top < spec.maximum and (st.session_state.get(spec.key) or spec.minimum) > top:
        assign({spec.key: top})
    if top == spec.minimum:
        kwargs["disabled"] = True

    def draw(initial: dict):
        if "value" in initial:
            initial = {**initial, "value": min(initial["value"], top)}
        return container.slider(
            label,
            min_value=spec.minimum,
            max_value=max(top, spec.minimum + spec.step),
            step=spec.step,
            key=spec.key,
            help=help,
            **initial,
            **kwargs,
        )

    return _checked(spec, draw)


def number(spec, label: str, help: str, *, container=st, **kwargs):
    """A number box. For an ``IntParam`` it is a float box showing whole numbers.

    Streamlit's integer box converts a bound URL value with ``int(float(text))``, which
    raises inside Streamlit for a 10 000-digit value (float infinity); a float box turns
    it into an out-of-range value that Streamlit itself discards. ``%.0f`` shows whole
    numbers (``%d`` on a float box logs a warning with a stack trace on every rerun).
    """
    integer = isinstance(spec, IntParam)
    minimum = spec.minimum
    if getattr(spec, "exclusive_minimum", False):
        minimum = spec.minimum + 1e-9

    def draw(initial: dict):
        if integer and "value" in initial:
            initial = {**initial, "value": float(initial["value"])}
        return container.number_input(
            label,
            min_value=float(minimum) if integer else minimum,
            max_value=float(spec.maximum) if integer else spec.maximum,
            step=float(spec.step) if integer else spec.step,
            key=spec.key,
            help=help,
            **({"format": "%.0f"} if integer else {}),
            **initial,
            **kwargs,
        )

    value = _checked(spec, draw)
    return int(value) if integer else value


def choice(
    spec: ChoiceParam,
    label: str,
    help: str,
    *,
    labels: Sequence[str],
    captions: Sequence[str] | None = None,
    container=st,
    horizontal: bool = True,
):
    """A radio of the spec's options, shown as ``labels`` (words in the reader's
    language, one per option) and kept in the URL as the option's code.

    Streamlit 1.67's ``bind="query-params"`` writes a radio's *displayed* label into
    the URL (and only accepts a label there), so a link made in Chinese would not open
    in English. The radio is therefore not bound: it starts from the URL's code
    (``_widget_arguments``) and ``sync_url`` writes the code, as for the carried
    settings. The value returned is the code.
    """
    shown = dict(zip(spec.options, labels, strict=True))

    def draw(initial: dict):
        initial = dict(initial)
        if "value" in initial:
            initial["index"] = spec.options.index(initial.pop("value"))
        return container.radio(
            label,
            spec.options,
            format_func=lambda code: shown.get(code, code),
            key=spec.key,
            help=help,
            captions=captions,
            horizontal=horizontal,
            **initial,
        )

    return _checked(spec, draw)


def toggle(spec: BoolParam, label: str, help: str, *, container=st):
    return _checked(
        spec,
        lambda initial: container.checkbox(label, key=spec.key, help=help, **initial),
    )


def text_input(spec, label: str, help: str, *, container=st, **kwargs):
    return _checked(
        spec,
        lambda initial: container.text_input(
            label,
            key=spec.key,
            help=help,
            max_chars=spec.max_chars,
            **initial,
            **kwargs,
        ),
    )


def language_switch() -> str:
    return choice(
        LANG,
        "Language / 语言",
        "English or Chinese / 英文或中文",
        labels=["English", "中文"],
        container=st.sidebar,
    )


def coarse_key(spec: IntParam) -> str:
    """Session key of the coarse slider above ``spec``'s number box (not in the URL)."""
    return f"{spec.key}_coarse"


def _take_coarse(spec: IntParam) -> None:
    assign({spec.key: int(st.session_state[coarse_key(spec)])})


def size(spec: IntParam, label: str, help: str, *, container=st, coarse: bool = True) -> int:
    """A slider of nice values (``ui.plain.params.nice_values``) over an exact number box.

    The number box holds the setting (key and URL value ``spec.key``, any valid integer);
    the slider's stops are a few pixels apart at any width, and it always shows the box's
    value (added as a stop when it is not a nice one). An integer box is safe here: the
    carried settings are not bound to the URL, which is checked before any widget runs.
    ``coarse=False``: the labelled number box alone (half the height, for a phone).
    """
    slot = container.container()
    value = _checked(
        spec,
        lambda initial: container.number_input(
            label, min_value=spec.minimum, max_value=spec.maximum, step=spec.step,
            key=spec.key, help=help, label_visibility="collapsed" if coarse else "visible",
            **initial,
        ),
    )  # fmt: skip
    value = int(value)
    if not coarse:
        return value
    st.session_state[coarse_key(spec)] = value
    slot.select_slider(
        label, sorted({*nice_values(spec), value}), key=coarse_key(spec), help=help,
        on_change=_take_coarse, args=(spec,),
    )  # fmt: skip
    return value


def shared_controls(*, seq_len: bool = True, inline: bool = False) -> tuple[int, int, float]:
    """The sidebar controls ``seq_len``, ``d_model``, ``base`` shared by the pages.

    ``inline``: on a projector or a phone (:func:`compact`), where the sidebar starts
    closed, ``seq_len`` and ``d_model`` are drawn here in the page, side by side (for a
    first chart that depends on them); ``base`` stays in the sidebar.
    """
    sidebar = st.sidebar
    sidebar.subheader(t("common.shared_controls"))
    here = st.columns(2) if inline and compact() else [sidebar, sidebar]
    coarse = not (inline and phone())  # a phone stacks the columns: number boxes only
    length = SEQ_LEN.default
    if seq_len:
        length = size(
            SEQ_LEN, t("common.seq_len"), t("common.seq_len_help"), container=here[0],
            coarse=coarse,
        )  # fmt: skip
    d_model = size(
        D_MODEL, t("common.d_model"), t("common.d_model_help"), container=here[1], coarse=coarse
    )
    base_help = t("common.base_help", **base_limits(BASE))
    base = number(BASE, t("common.base"), base_help, container=sidebar, format="%g")
    menu.remember()
    return int(length), int(d_model), float(base)
