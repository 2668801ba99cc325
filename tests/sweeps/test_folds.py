"""Closed popovers and expanders cost nothing (issue #32): in every view (each page and
tab, each story step), a closed popover or expander holds no element, and opening one
draws its content (``ui.shared.folds``).

A room of 200 reruns a view ~60 times a second on one process; each element Streamlit
builds, registers and sends is paid on every one of them. The content of closed folds was
a third of a menu page's elements: download buttons under every chart, the share link,
the upload, the presets, the notes.
"""

from __future__ import annotations

import pytest
from support.apptest import rerun, run_page
from support.views import PAGE_TAB_IDS, PAGE_TABS, PAGES, script

from ui.shared.folds import PREFIX

FOLDED = ("popover", "expandable")  # AppTest's names of the two kinds of block


def folds(at) -> list:
    """Every popover and expander of the view."""
    return [block for kind in FOLDED for block in at.get(kind)]


def label(block) -> str:
    kind = block.proto.WhichOneof("type")
    return getattr(block.proto, kind).label


@pytest.mark.parametrize(("entry", "tab", "query"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_a_closed_fold_holds_nothing(entry, tab, query):
    at = run_page(script(entry), query, timeout=240, unfold=False)
    found = folds(at)
    assert found, "every view has folds (the share link, at least)"
    full = [label(block) for block in found if len(block.children)]
    assert not full, f"closed but drawn: {full} (use ui.shared.folds)"


@pytest.mark.parametrize("entry", PAGES, ids=[e.name for e in PAGES])
def test_opening_a_fold_draws_its_content(entry):
    """Each fold of a page's first view, opened as a click does (its widget state),
    draws something; the test suite's unfold flag draws the same."""
    at = run_page(script(entry), None, timeout=240, unfold=False)
    keys = sorted(k for k in at.session_state.keys() if k.startswith(PREFIX))
    assert keys, "the folds have keys (ui.shared.folds)"
    for key in keys:
        at.session_state[key] = True
    rerun(at)
    opened = folds(at)
    assert opened and all(len(block.children) for block in opened), [
        label(block) for block in opened if not len(block.children)
    ]
    unfolded = run_page(script(entry), None, timeout=240)
    assert [len(b.children) for b in folds(unfolded)] == [len(b.children) for b in opened]
