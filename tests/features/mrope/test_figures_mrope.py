"""The multi-axis RoPE page's figure builders and data helpers, as plain calls."""

from __future__ import annotations

import numpy as np
import pytest

from ui.features.mrope import data, figures
from ui.plain.pick import picking_curves

NAMES = ("time", "height", "width")


def test_position_rows_mark_where_the_text_resumes_and_only_then_the_overlap():
    ids = np.array([[0, 1, 1, 2, 3], [0, 1, 1, 1, 3], [0, 1, 2, 1, 3]])
    words = dict(names=NAMES, x_title="token", y_title="position", resume_label="resumes")
    fig = figures.position_rows(np.arange(5), ids, resume_index=4, **words)
    assert [tr.name for tr in fig.data] == ["width", "height", "time"]  # time drawn on top
    assert [s.x0 for s in fig.layout.shapes] == [3.5]
    crosses = figures.position_rows(
        np.arange(5), ids, resume_index=4, overlap_index=np.array([3]),
        overlap_ids=np.array([2]), overlap_label="late", resume=2, **words,
    )  # fmt: skip
    assert crosses.data[-1].name == "late" and list(crosses.data[-1].y) == [2]
    assert [s.y0 for s in crosses.layout.shapes if s.type == "line"][-1] == 2


def test_pair_axes_tell_the_axes_apart_by_marker_not_colour_alone():
    axis = data.axis_of_pairs("chunked")
    fig = figures.pair_axes(
        data.wavelengths(1e6), axis, names=NAMES, title="t", x_title="j", y_title="λ"
    )
    assert [tr.name for tr in fig.data] == list(NAMES)
    assert len({tr.marker.symbol for tr in fig.data}) == 3
    assert sorted(np.concatenate([tr.x for tr in fig.data]).tolist()) == list(range(64))


@pytest.mark.parametrize("stacked", [False, True])
def test_score_maps_carry_a_picking_point_per_token_inside_the_cells_range(stacked):
    maps = [np.arange(12, dtype=float).reshape(3, 4) - 5 for _ in range(4)]
    fig = figures.score_maps(
        maps, ["a", "b", "c", "d"], query=(1, 2), x_title="x", y_title="y",
        query_label="q", hover="%{customdata[1]}", stacked=stacked,
    )  # fmt: skip
    pickers = picking_curves(fig)
    assert len(pickers) == 4
    for curve in pickers:
        assert fig.data[curve].customdata[:, 0].tolist() == list(range(12))
    assert fig.layout.coloraxis.cmin == -6 and fig.layout.coloraxis.cmax == 6
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]  # the picking markers add no padding
    assert list(fig.layout.xaxis.range) == [-0.5, 3.5]


def test_line_step_keeps_every_line_within_the_point_budget():
    assert data.line_step(5000) == 1
    assert data.line_step(5001) == 2
    n = 4 + 32 * 32 * 32 + 64
    assert len(range(0, n, data.line_step(n))) <= 5000
