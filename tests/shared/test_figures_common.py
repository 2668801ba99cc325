"""ui.plain.grids and ui.plain.style: the downsampling every large heatmap goes through,
and the margins a chart is drawn with."""

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.plain.grids import (
    MAX_CHART_BYTES,
    MAX_TOTAL_CELLS,
    block_means,
    block_rows,
    chart_bytes,
    downsample,
    reduce_blocks,
    steps,
)
from ui.plain.style import (
    COLORBAR_MARGIN,
    TITLED_AXIS_MARGIN,
    heatmap,
    settle_margins,
    style,
)


def naive_means(z, row_step, col_step):
    rows = range(0, z.shape[0], row_step)
    cols = range(0, z.shape[1], col_step)
    return np.array([[z[r : r + row_step, c : c + col_step].mean() for c in cols] for r in rows])


@settings(max_examples=80, deadline=None)
@given(
    rows=st.integers(1, 90),
    cols=st.integers(1, 40),
    max_rows=st.integers(1, 30),
    max_cols=st.integers(1, 30),
    seed=st.integers(0, 2**16),
)
def test_downsample_is_the_block_mean_within_budget(rows, cols, max_rows, max_cols, seed):
    z = np.random.default_rng(seed).standard_normal((rows, cols))
    grid = downsample(z, max_rows, max_cols)
    assert grid.z.shape[0] <= max_rows and grid.z.shape[1] <= max_cols
    np.testing.assert_allclose(grid.z, naive_means(z, grid.row_step, grid.col_step), atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 60), cols=st.integers(1, 30), seed=st.integers(0, 2**16))
def test_blocks_give_the_same_grid_as_the_whole_matrix(rows, cols, seed):
    z = np.random.default_rng(seed).standard_normal((rows, cols))
    row_step, col_step = steps(rows, cols, 7, 5)
    chunk = block_rows(row_step, cols)
    blocks = ((s, z[s : s + chunk]) for s in range(0, rows, chunk))
    got = reduce_blocks(blocks, rows, cols, row_step, col_step)
    want = block_means(rows, cols, lambda a, b: z[a:b], row_step, col_step)
    np.testing.assert_allclose(got.z, want.z, atol=1e-6)
    np.testing.assert_array_equal(got.rows, want.rows)


def test_max_abs_keeps_the_largest_entry_of_each_block():
    z = np.array([[1.0, -1.0], [0.5, -3.0]])
    grid = block_means(2, 2, lambda a, b: z[a:b], 2, 2, reduce="max_abs")
    assert grid.z[0, 0] == 3.0


def test_a_block_off_the_row_grid_is_refused():
    with pytest.raises(ValueError, match="row step"):
        reduce_blocks([(1, np.zeros((2, 2)))], 10, 2, 2, 1)


@pytest.mark.parametrize("shape", [(8192, 4096), (4096, 4096), (100, 512), (8192, 2), (2, 4096)])
def test_total_cells_and_chart_json_stay_within_budget(shape):
    z = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
    fig, grid = heatmap(z, x_title="d", y_title="p")
    assert grid.z.size <= MAX_TOTAL_CELLS
    assert chart_bytes(fig) <= MAX_CHART_BYTES


def test_the_seed_figure_100_by_512_is_drawn_cell_for_cell():
    assert not downsample(np.zeros((100, 512))).downsampled


def test_a_legend_moved_below_keeps_its_rows_out_of_the_axis_title():
    """A phone's legend under the plot: with its rows' margin reserved, Plotly does not
    grow the margin (which shrank the plot and pulled the legend, placed as a fraction of
    the plot, up over "pair j" on the RoPE turns chart, 7 entries)."""
    import plotly.graph_objects as go

    from ui.plain.style import LEGEND_ROW, legend_below, legend_entries

    fig = go.Figure([go.Scatter(y=[1, 2], name=f"line {i}") for i in range(7)])
    fig.add_trace(go.Heatmap(z=[[1.0]]))  # lists nothing in the legend
    fig.update_layout(height=400, margin=dict(t=30, b=40), legend=dict(y=1.1))
    assert legend_entries(fig) == 7
    legend_below(fig, gap=75, rows=7)
    plot = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    assert plot == 400 - 30 - 40  # the plot keeps its height; the figure grows
    assert fig.layout.margin.b >= 75 + 7 * LEGEND_ROW  # room for 7 rows under the gap
    assert fig.layout.legend.y == pytest.approx(-75 / plot)


def _margins(fig):
    m = fig.layout.margin
    return m.l, m.r, m.t, m.b


def test_a_house_heatmap_gets_the_margins_the_browser_would_grow_it_to():
    fig, _ = heatmap(np.zeros((4, 4)), x_title="key", y_title="query")
    assert _margins(fig) == (60, 20, 20, 50)  # style(): what the figure asks for
    settle_margins(fig)
    assert _margins(fig) == (TITLED_AXIS_MARGIN, COLORBAR_MARGIN, 20, TITLED_AXIS_MARGIN)


def test_settling_grows_only_the_sides_that_hold_a_title_or_a_colour_bar():
    untitled = style(go.Figure(go.Scatter(x=[0, 1], y=[0, 1])))
    assert _margins(settle_margins(untitled)) == (60, 20, 20, 50)
    left_only = style(go.Figure(go.Scatter(x=[0, 1], y=[0, 1]))).update_yaxes(title="y")
    assert _margins(settle_margins(left_only)) == (TITLED_AXIS_MARGIN, 20, 20, 50)
    hidden_bar = style(go.Figure(go.Heatmap(z=[[0, 1]], showscale=False)))
    assert _margins(settle_margins(hidden_bar)) == (60, 20, 20, 50)
    bar_below = style(go.Figure(go.Heatmap(z=[[0, 1]], colorbar=dict(orientation="h"))))
    assert _margins(settle_margins(bar_below)) == (60, 20, 20, 50)


def test_a_shared_colour_bar_beside_the_plot_gets_its_room_and_larger_margins_stay():
    fig = style(go.Figure(go.Heatmap(z=[[0, 1]], coloraxis="coloraxis")))
    assert _margins(settle_margins(fig))[1] == COLORBAR_MARGIN
    wide = style(go.Figure(go.Heatmap(z=[[0, 1]]))).update_layout(margin=dict(l=90, r=120))
    wide.update_xaxes(title="x").update_yaxes(title="y")
    assert _margins(settle_margins(wide)) == (90, 120, 20, TITLED_AXIS_MARGIN)
    unset = go.Figure(go.Heatmap(z=[[0, 1]]))  # Plotly's own default margins: left alone
    assert _margins(settle_margins(unset)) == (None, None, None, None)
