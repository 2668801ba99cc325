"""Tests for gaps that bench/mutations.py found: a planted bug no existing test caught.

``downsampled_notice_hidden`` (``ui/notices.py`` never shows the block-means notice)
survived ``test_rope_page.py::test_long_sequences_are_downsampled_and_say_so``: that
test looks for "4096 × 4096" and "2048" in the captions, and the download caption
("Downloads hold the first 2048 × 2048 entries (a full 4096 × 4096 CSV ...)") holds
both, with or without the block-means notice. The largest-settings AppTests of the Binary
and Heatmap pages still fail on that mutation; no test read the RoPE page's notice.
"""

from __future__ import annotations

import re

from conftest import chart, decode, run_page_on_tab

from ui.specs import rope as rope_specs
from ui.texts import catalogue


def _notice_pattern(lang: str, n_rows: int, n_cols: int) -> re.Pattern:
    """The block-means notice of ``lang`` for an ``n_rows x n_cols`` matrix, the cell
    counts and steps left open (groups ``rows`` and ``cols``)."""
    fields = {
        "rows": r"(?P<rows>\d+)",
        "cols": r"(?P<cols>\d+)",
        "row_step": r"\d+",
        "col_step": r"\d+",
        "n_rows": str(n_rows),
        "n_cols": str(n_cols),
    }
    parts = re.split(r"(\{\w+\})", catalogue(lang)["common.downsampled"])
    return re.compile(
        "".join(fields[p[1:-1]] if p.startswith("{") else re.escape(p) for p in parts)
    )


def test_rope_scores_of_4096_positions_say_they_are_block_means_of_the_drawn_size():
    at = run_page_on_tab(
        "5_RoPE.py", rope_specs, {"rope_len": "4096", "rope_head_dim": "32"}, None, 120
    )
    z = decode(chart(at, "rope_scores_chart")["data"][0]["z"])
    pattern = _notice_pattern("en", 4096, 4096)
    found = [m for c in at.caption if (m := pattern.search(c.value))]
    assert len(found) == 1, [c.value for c in at.caption]
    assert (int(found[0]["rows"]), int(found[0]["cols"])) == z.shape
