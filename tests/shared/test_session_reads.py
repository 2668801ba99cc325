"""Session State reads a run (issue #32): each costs ~10 us, and a room of 200 makes ~60
runs a second. The settings read all through a run are read once and held
(``streamlit_internals.hold``): the language, presenter mode, the carried settings (read
again only after their widget ran), the suite's unfold flag, the fix-up bookkeeping."""

from __future__ import annotations

import collections

import pytest

from tests.support.apptest import run_page
from ui.plain.params import CARRIED
from ui.shared.streamlit_internals import SessionStateProxy

# Reads of one rerun of the page, counted when this was written: home 19, Heatmap 26. Before the
# carried settings were held, home read 91 times (72 of them the carried settings).
BUDGET = {None: 25, "1_Heatmap.py": 32}


def _reads(monkeypatch, page) -> collections.Counter:
    at = run_page(page, unfold=False)
    reads = collections.Counter()
    real = SessionStateProxy.__getitem__

    def counting(self, key):
        reads[key] += 1
        return real(self, key)

    monkeypatch.setattr(SessionStateProxy, "__getitem__", counting)
    at.run()
    assert not at.exception
    return reads


@pytest.mark.parametrize("page", list(BUDGET))
def test_a_rerun_reads_session_state_within_its_budget(monkeypatch, page):
    reads = _reads(monkeypatch, page)
    assert sum(reads.values()) <= BUDGET[page], reads.most_common(8)
    for spec in CARRIED:  # once for the run, once after its own widget (+1: its widget)
        assert reads[spec.key] <= 3, (spec.key, reads[spec.key])
