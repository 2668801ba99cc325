"""Popovers and expanders whose content is drawn only while they are open.

A closed popover or expander still costs the server its content on every rerun: each
element and widget in it is built, registered and sent, and the browser keeps it hidden.
A room of 200 following the presenter asks ~60 reruns a second of one process, and the
folded content was a third of a menu page's elements (issue #32: the Heatmap sent 70
elements a rerun, 12 of them in closed popovers). So every popover and expander of the
app is made here, with ``on_change="rerun"``: opening one reruns the page, which then
draws the content (Streamlit's lazy loading of ``.open``)::

    box = folds.popover(t("common.share"), name="share", where=st.sidebar)
    if box.open:
        with box:
            ...

``tests/sweeps/test_folds.py`` fails on a view whose closed popover or expander holds
anything. The test suite sets :data:`UNFOLD` in Session State to draw every fold's
content as if it were open, so the sweeps that read every text on screen still read it.
"""

from __future__ import annotations

import streamlit as st

from ui.shared import streamlit_internals

UNFOLD = "_posenc_unfold"  # Session State flag of the test suite: every fold drawn open
PREFIX = "fold_"  # widget keys of folds: f"fold_{name}"


def _unfold() -> bool:
    """:data:`UNFOLD`, read from Session State once a run (issue #32)."""
    return streamlit_internals.held_or_read(UNFOLD, lambda: bool(st.session_state.get(UNFOLD)))


def _open(box, keep: bool):
    """``box`` with ``.open`` True when its content is to be drawn: open, ``keep``, or
    the test suite's :data:`UNFOLD`."""
    if not box.open and (keep or _unfold()):
        box.open = True
    return box


def popover(label: str, *, name: str, where=st, keep: bool = False, **kwargs):
    """``where.popover(label, ...)``, its content to be drawn only ``if box.open``.

    ``name``: unique among the folds drawn in one run (the widget key is
    ``fold_<name>``). ``keep``: draw the content although the popover is closed (a
    widget inside holds something the page uses, e.g. an uploaded file: a widget not
    drawn in a run loses its value)."""
    box = where.popover(label, key=PREFIX + name, on_change="rerun", **kwargs)
    return _open(box, keep)


def expander(label: str, *, name: str, where=st, **kwargs):
    """``where.expander(label, ...)``, its content to be drawn only ``if box.open``
    (see :func:`popover`)."""
    box = where.expander(label, key=PREFIX + name, on_change="rerun", **kwargs)
    return _open(box, keep=False)


class Opened:
    """A container that is always open, used like a fold (``with box as b: if b.open:``):
    where a page folds something on one screen but not on another (``layout.lead``).
    ``with`` enters the container (any context manager: ``contextlib.nullcontext()``
    draws in place) and gives this object, as a fold's ``with`` does."""

    open = True

    def __init__(self, container):
        self.container = container

    def __enter__(self):
        self.container.__enter__()
        return self

    def __exit__(self, *exc):
        return self.container.__exit__(*exc)
