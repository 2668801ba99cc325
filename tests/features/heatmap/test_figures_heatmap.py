"""Figure builders of the Heatmap page: budgets, block means, hover text, any matrix."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.screen import decode

import posenc
from ui.features.heatmap.data import column_order, toeplitz_block_means
from ui.features.heatmap.figures import (
    MAX_POINTS,
    WORDS,
    column_labels,
    embedding_figure,
    similarity_curve,
    similarity_figure,
    spans,
    table_figure,
)
from ui.plain.grids import MAX_CELLS as MAX_AXIS
from ui.plain.grids import MAX_CHART_BYTES, block_means, steps
from ui.plain.grids import MAX_TOTAL_CELLS as MAX_TOTAL


def naive_blocks(matrix: np.ndarray, row_step: int, col_step: int, how=np.mean) -> np.ndarray:
    """Reference: one block at a time, by slicing."""
    n_rows, n_cols = matrix.shape
    return np.array(
        [
            [how(matrix[r : r + row_step, c : c + col_step]) for c in range(0, n_cols, col_step)]
            for r in range(0, n_rows, row_step)
        ]
    )


def rows_of(matrix):
    return lambda a, b: matrix[a:b]


def payload(fig) -> int:
    return len(fig.to_json())


def big_table_grid(group: bool = False, framework: str = "paper"):
    order = column_order(4096, "interleaved", group)
    return block_means(
        8192,
        4096,
        lambda a, b: posenc.framework_table(framework, b - a, 4096, offset=a)[:, order],
    ), order


# ---------------------------------------------------------------- budgets


@settings(max_examples=200, deadline=None)
@given(n_rows=st.integers(1, 8192), n_cols=st.integers(1, 8192))
def test_steps_keep_every_heatmap_within_the_cell_budget(n_rows, n_cols):
    row_step, col_step = steps(n_rows, n_cols)
    shown_rows, shown_cols = -(-n_rows // row_step), -(-n_cols // col_step)
    assert shown_rows <= MAX_AXIS and shown_cols <= MAX_AXIS
    assert shown_rows * shown_cols <= MAX_TOTAL


def test_seed_figures_are_not_downsampled():
    assert steps(100, 512) == (1, 1)  # seeds 003 / 004
    assert steps(50, 128) == (1, 1)  # seed 000


def test_largest_table_figure_stays_under_1_mb():
    grid, order = big_table_grid(group=True)
    omega = posenc.frequencies(4096)
    fig = table_figure(grid, omega=omega, order=order)
    assert grid.downsampled
    assert payload(fig) < MAX_CHART_BYTES, payload(fig)


def test_largest_similarity_figure_stays_under_1_mb():
    grid = toeplitz_block_means(posenc.dot_products(np.arange(8192), 4096))
    fig = similarity_figure(grid, reference=8191)
    assert payload(fig) < MAX_CHART_BYTES, payload(fig)


def test_largest_difference_figure_stays_under_1_mb():
    order = column_order(4096, "interleaved", False)
    grid = block_means(
        8192,
        4096,
        lambda a, b: (
            posenc.framework_table("t2t", b - a, 4096, layout="interleaved", offset=a)
            - posenc.sinusoidal(b - a, 4096, offset=a)
        ),
        reduce="max_abs",
    )
    fig = table_figure(grid, omega=posenc.frequencies(4096), order=order, zmax=2.0)
    assert payload(fig) < MAX_CHART_BYTES, payload(fig)


def test_embedding_figure_at_its_cap_stays_under_1_mb():
    panels = [(str(k), np.random.default_rng(k).standard_normal((100, 128))) for k in range(5)]
    assert payload(embedding_figure(panels)) < MAX_CHART_BYTES


def test_long_curves_are_subsampled_but_keep_the_reference_point():
    values = posenc.dot_products(np.arange(8192), 64)
    fig, stride = similarity_curve(values, 4321)
    x = np.asarray(fig.data[0].x)
    assert stride == 2 and len(x) <= MAX_POINTS + 1
    assert 4321 in x
    np.testing.assert_array_equal(np.asarray(fig.data[0].y), values[x])
    short, stride = similarity_curve(values[:100], 3)
    assert stride == 1 and len(short.data[0].x) == 100


# ---------------------------------------------------------------- block means


@settings(max_examples=100, deadline=None)
@given(
    n_rows=st.integers(1, 60),
    n_cols=st.integers(1, 60),
    row_step=st.integers(1, 9),
    col_step=st.integers(1, 9),
    seed=st.integers(0, 2**16),
)
def test_block_means_equal_the_mean_of_each_block(n_rows, n_cols, row_step, col_step, seed):
    matrix = np.random.default_rng(seed).standard_normal((n_rows, n_cols))
    grid = block_means(n_rows, n_cols, rows_of(matrix), row_step, col_step)
    np.testing.assert_allclose(grid.z, naive_blocks(matrix, row_step, col_step), atol=1e-6)
    maxima = block_means(n_rows, n_cols, rows_of(matrix), row_step, col_step, reduce="max_abs")
    if row_step > 1 or col_step > 1:
        expected = naive_blocks(matrix, row_step, col_step, lambda b: np.abs(b).max())
        np.testing.assert_allclose(maxima.z, expected, atol=1e-6)
    # The centres and spans describe the blocks.
    assert spans(grid.rows, row_step)[-1][1] == n_rows
    assert spans(grid.cols, col_step)[-1][1] == n_cols
    assert [b - a for a, b in spans(grid.rows, row_step)][:-1] == [row_step] * (len(grid.rows) - 1)


def test_block_means_ask_for_rows_in_pieces_only():
    asked = []

    def rows(a, b):
        asked.append(b - a)
        return np.ones((b - a, 4096))

    block_means(8192, 4096, rows)
    assert max(asked) * 4096 <= 2 * (1 << 22)  # never more than ~8 M entries at once
    assert sum(asked) == 8192


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 120),
    d_half=st.integers(1, 40),
    row_step=st.integers(1, 13),
    col_step=st.integers(1, 13),
)
def test_toeplitz_block_means_equal_block_means_of_the_full_matrix(n, d_half, row_step, col_step):
    values = posenc.dot_products(np.arange(n), 2 * d_half)
    full = posenc.similarity_matrix(n, 2 * d_half)
    fast = toeplitz_block_means(values, row_step, col_step)
    slow = block_means(n, n, rows_of(full), row_step, col_step)
    np.testing.assert_allclose(fast.z, slow.z, atol=1e-5 * d_half)
    np.testing.assert_allclose(fast.rows, slow.rows)
    np.testing.assert_allclose(fast.cols, slow.cols)


# ---------------------------------------------------------------- hover and labels


def test_hover_of_a_cell_names_position_dimension_pair_kind_omega_lambda_and_value():
    table = posenc.sinusoidal(6, 8, 100.0)
    omega = posenc.frequencies(8, 100.0)
    fig = table_figure(table, omega=omega)
    trace = fig.data[0]
    assert list(trace.y) == [f"position {p}" for p in range(6)]
    label = trace.x[5]  # dimension 5 = cos of pair 2
    assert label.startswith("dimension 5 · cos · pair i = 2")
    assert f"ω = {omega[2]:.4g}" in label and f"λ = {2 * np.pi / omega[2]:.4g}" in label
    assert trace.x[4].startswith("dimension 4 · sin · pair i = 2")
    assert trace.hovertemplate == "%{y}<br>%{x}<br>value = %{z:.4f}<extra></extra>"
    np.testing.assert_allclose(np.asarray(trace.z), table, atol=1e-7)


def test_hover_of_a_downsampled_cell_says_what_it_averages():
    grid, order = big_table_grid(group=True)
    fig = table_figure(grid, omega=posenc.frequencies(4096), order=order)
    trace = fig.data[0]
    mean = f"mean of {grid.row_step} × {grid.col_step} entries"
    assert mean in trace.hovertemplate
    assert trace.y[0] == f"positions 0–{grid.row_step - 1}"
    # Grouped: the first displayed block holds the sines of the first pairs.
    assert trace.x[0].startswith("dimensions 0, 2, …") and " · sin · pair i = 0–" in trace.x[0]
    assert " · cos · " in trace.x[-1]


def test_downsampled_interleaved_blocks_say_they_mix_sin_and_cos():
    grid = block_means(16, 64, rows_of(posenc.sinusoidal(16, 64)), 1, 4)
    labels = column_labels(grid, WORDS, omega=posenc.frequencies(64))
    assert labels[0] == "dimensions 0–3 · sin + cos · pair i = 0–1"


def test_grouped_or_split_tables_mark_the_sin_cos_boundary():
    omega = posenc.frequencies(8)
    interleaved = table_figure(posenc.sinusoidal(3, 8), omega=omega)
    grouped_order = column_order(8, "interleaved", True)
    grouped = table_figure(
        posenc.sinusoidal(3, 8)[:, grouped_order], omega=omega, order=grouped_order
    )
    split = table_figure(posenc.sinusoidal(3, 8, layout="split"), omega=omega, layout="split")
    assert not interleaved.layout.shapes
    for fig in (grouped, split):
        assert fig.layout.shapes[0].x0 == pytest.approx(3.5)
        assert [a.text for a in fig.layout.annotations] == ["sin", "cos"]
    # Grouped columns keep their own dimension numbers.
    assert grouped.data[0].x[1].startswith("dimension 2 · sin")
    assert grouped.data[0].x[4].startswith("dimension 1 · cos")


def test_sentence_tokens_label_every_row():
    tokens = ["I", "am", "a", "robot"]
    fig = table_figure(
        posenc.sinusoidal(4, 4, 100.0), omega=posenc.frequencies(4, 100.0), tokens=tokens
    )
    assert list(fig.data[0].y) == [
        "position 0: I",
        "position 1: am",
        "position 2: a",
        "position 3: robot",
    ]
    assert list(fig.layout.yaxis.ticktext) == ["0 I", "1 am", "2 a", "3 robot"]


def test_any_matrix_can_be_drawn_without_frequencies():
    learned = np.random.default_rng(1).normal(size=(7, 5))  # odd width: not a sinusoid
    fig = table_figure(learned, zmax=3.0)
    assert fig.data[0].x[4] == "dimension 4"
    assert "ω" not in "".join(fig.data[0].x)
    sim = similarity_figure(learned @ learned.T)
    np.testing.assert_allclose(np.asarray(sim.data[0].z), learned @ learned.T, rtol=1e-6)


def test_ticks_sit_on_round_numbers():
    fig = table_figure(posenc.sinusoidal(50, 128), omega=posenc.frequencies(128))
    assert list(fig.layout.yaxis.ticktext) == [str(k) for k in range(0, 50, 5)]
    assert list(fig.layout.xaxis.ticktext)[:3] == ["0", "20", "40"]


def test_similarity_figure_is_symmetric_with_d_over_2_at_the_top_of_its_scale():
    s = posenc.similarity_matrix(30, 16)
    fig = similarity_figure(s, reference=4)
    z = np.asarray(fig.data[0].z)
    np.testing.assert_array_equal(z, z.T)
    assert fig.data[0].zmax == 8 and fig.data[0].zmin == pytest.approx(z.min(), abs=1e-6)
    assert fig.layout.shapes[0].y0 == 4  # the row drawn as a curve
    assert fig.data[0].y[3] == "position m = 3" and fig.data[0].x[3] == "position n = 3"


def test_embedding_panels_share_one_colour_scale():
    panels = [("E", np.zeros((3, 4))), ("E + pos", np.full((3, 4), 50.0))]
    fig = embedding_figure(panels, zmax=3.0)
    assert {trace.coloraxis for trace in fig.data} == {"coloraxis"}
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (-3.0, 3.0)
    assert [a.text for a in fig.layout.annotations] == ["E", "E + pos"]
    # The true value stays in the data (only the colour saturates).
    assert json.loads(fig.to_json())["data"][1]["z"] is not None
    assert float(np.asarray(fig.data[1].z).max()) == 50.0


def test_gram_grid_of_any_matrix_equals_block_means_of_m_m_transposed():
    from ui.shared.learned import gram_grid  # the slot for uploaded learned embeddings

    learned = np.random.default_rng(3).normal(size=(1500, 24))
    grid = gram_grid(learned)
    full = learned @ learned.T
    expected = block_means(1500, 1500, rows_of(full), grid.row_step, grid.col_step)
    assert grid.downsampled
    np.testing.assert_allclose(grid.z, expected.z, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (5, 8), (50, 128)])
def test_embedding_figure_ticks_fall_on_whole_positions_and_dimensions(rows, cols):
    panels = [(name, np.zeros((rows, cols))) for name in "abcde"]
    layout = embedding_figure(panels).layout
    for axis in ("xaxis", "xaxis5", "yaxis"):
        step = layout[axis].dtick
        assert step >= 1 and float(step).is_integer(), (axis, step)


def test_similarity_colour_range_is_the_range_of_the_values_drawn():
    from ui.features.heatmap.data import similarity_grid

    for length in (50, 8192):  # all positive (31 .. 64), and across 0 (-14 .. 64)
        fig = similarity_figure(similarity_grid(length, 128, 10000.0))
        z = np.asarray(decode(fig.to_plotly_json()["data"][0]["z"]), dtype=float)
        trace = fig.data[0]
        assert (trace.zmin, trace.zmax) == pytest.approx((z.min(), z.max()), abs=1e-4)
        assert trace.zmid is None
    # At L = 50 the colours run from white to dark red: the whole red half, not its top quarter.
    scale = similarity_figure(similarity_grid(50, 128, 10000.0)).data[0].colorscale
    assert scale[0][1] == "rgb(247, 247, 247)"
