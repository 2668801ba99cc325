"""What the sweeps tried, counted for the run's summary (``tests/conftest.py`` prints it
and gathers the workers' counts under xdist)."""

from __future__ import annotations

import collections

# How many cases the sweeping tests tried (printed in the summary).
CASES: collections.Counter = collections.Counter()
# Words of prose each view shows open: view -> (whole view, its tab) (test_word_budget).
WORDS: dict[str, tuple[int, int]] = {}
