"""Grab the thing itself (issue #21): a click on a chart sets a control, exactly as its
widget would.

:func:`plot` draws a figure whose picking traces (``ui.plain.pick``) carry values, with
Streamlit's ``on_select``. The callback reads the clicked point, rounds and clamps it to
the widget's range, checks it with the control's spec and sets it with
``controls.assign``: the widget shows it, the URL holds it, the chart redraws. Anything
else (an empty selection, a box, a colour bar, a point of another trace, a payload of
the wrong shape) sets nothing and never raises.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import streamlit as st
from streamlit.errors import StreamlitAPIException

from ui.plain.pick import picking_curves
from ui.shared import controls
from ui.shared.i18n import t


def picked(state, curves) -> float | None:
    """The value of the first selected point of a picking trace (``curves``: their
    indices) in a Plotly selection ``state``, or None."""
    try:
        points = state["selection"]["points"]
    except (KeyError, TypeError, IndexError):
        return None
    if not isinstance(points, list):
        return None
    for point in points:
        if not isinstance(point, dict) or point.get("curve_number") not in curves:
            continue
        value = point.get("customdata")
        if isinstance(value, list):
            value = value[0] if value else None
        elif isinstance(value, dict):  # a row of a 2-D typed array arrives as {"0": v, ...}
            value = value.get("0")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if math.isfinite(value):
            return float(value)
    return None


def setting(spec, value: float, *, low=None, high=None, convert=None):
    """The widget value a click on ``value`` gives: rounded to a whole number, clamped to
    ``[low, high]`` (default: the spec's range), converted (``convert``, default: the
    type of the spec's default) and checked by the spec. None if the spec refuses it."""
    low = getattr(spec, "minimum", None) if low is None else low
    high = getattr(spec, "maximum", None) if high is None else high
    whole = round(value)
    if low is not None:
        whole = max(whole, math.ceil(low))
    if high is not None:
        whole = min(whole, math.floor(high))
    result = convert(whole) if convert else type(spec.default)(whole)
    try:
        spec.parse(str(result))
    except ValueError:
        return None
    return result


def _take(key: str, spec, curves: list[int], options: dict) -> None:
    """``on_select`` callback: set ``spec``'s widget from the click, then ``then()``."""
    value = picked(st.session_state.get(key), curves)
    if value is None:
        return
    options = dict(options)
    then = options.pop("then", None)
    result = setting(spec, value, **options)
    if result is None:
        return
    controls.assign({spec.key: result})
    # The URL too when the widget did not run last time (the click opens the tab that
    # draws it): Streamlit writes a value set from code only for a widget that ran
    # before, and refuses a direct write to a parameter bound to a widget on screen.
    try:
        if result == spec.default:
            st.query_params.pop(spec.key, None)
        else:
            st.query_params[spec.key] = str(result)
    except StreamlitAPIException:  # bound to the widget on screen: Streamlit writes it
        pass
    if then is not None:
        then()


def plot(
    fig,
    key: str,
    spec,
    *,
    where=st,
    low=None,
    high=None,
    convert: Callable | None = None,
    then: Callable[[], None] | None = None,
    alt: str | None = None,
):
    """Draw ``fig`` like ``controls.plot`` (``alt``: its text alternative); a click on a
    point of a picking trace sets ``spec``'s widget (see :func:`setting`), then calls
    ``then`` (e.g. open a tab)."""
    curves = picking_curves(fig)
    options = dict(low=low, high=high, convert=convert, then=then)
    take = partial(_take, key, spec, curves, options)
    return controls.plot(fig, key, where, on_select=take, alt=alt)


def hint(text: str, where=st) -> None:
    """The view's one line saying what a click picks (``text``); on a touch screen with
    how to tap: Plotly selects the point a tap hovered, so the first tap shows the point
    and the second picks it (a mouse hovers before it clicks)."""
    where.caption(f"{text} {t('common.tap_twice')}" if controls.phone() else text)
