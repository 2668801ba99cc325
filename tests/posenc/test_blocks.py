"""Closed-form block means (posenc.blocks) against the means of the tables themselves."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc.blocks import block_starts, scheme_block_means, sinusoid_block_means
from posenc.frameworks import framework_frequencies, framework_table
from posenc.schemes import SCHEMES, scheme_table
from ui.plain.grids import block_means, grid_from_row_means, steps


def table_means(table: np.ndarray, step: int) -> np.ndarray:
    starts, sizes = block_starts(table.shape[0], step)
    return np.add.reduceat(table, starts, axis=0) / sizes[:, None]


@settings(max_examples=120, deadline=None)
@given(
    name=st.sampled_from(SCHEMES),
    length=st.integers(1, 3000),
    half=st.integers(1, 40),
    step=st.integers(1, 200),
    extra=st.integers(0, 100),
    base=st.floats(1.5, 1e6),
    layout=st.sampled_from(["interleaved", "split"]),
)
def test_scheme_block_means_are_the_means_of_the_table(
    name, length, half, step, extra, base, layout
):
    d = 2 * half
    total = length + extra
    means = scheme_block_means(name, length, d, base, step, total_length=total, layout=layout)
    if name == "sinusoidal":
        table = posenc.sinusoidal(length, d, base, layout=layout)
    else:
        table = scheme_table(name, length, d, base, total_length=total)
    expected = table_means(table, step)
    assert means.shape == expected.shape == (-(-length // step), d)
    # Each entry of the table errs by ~ulp(omega p); the closed form is within that.
    scale = np.abs(expected).max() if name == "index" else 1.0
    assert np.abs(means - expected).max() <= 1e-12 * scale * max(1, length / 100)


def test_binary_bits_above_62_are_zero_like_the_table():
    means = scheme_block_means("binary", 100, 80, step=7)
    np.testing.assert_array_equal(means, table_means(scheme_table("binary", 100, 80), 7))
    assert not means[:, :17].any()


@pytest.mark.parametrize("name", ["paper", "tf", "t2t", "fairseq"])
def test_framework_tables_have_the_closed_form_block_means(name):
    length, d, step = 5000, 64, 37
    table = framework_table(name, length, d, layout="interleaved")
    omega = np.repeat(framework_frequencies(name, d), 2)
    means = sinusoid_block_means(length, omega, step, cosine=np.arange(d) % 2 == 1)
    assert np.abs(means - table_means(table, step)).max() < 1e-12


def test_frequencies_outside_zero_to_two_pi_are_refused():
    with pytest.raises(ValueError, match="omega"):
        sinusoid_block_means(10, [7.0], 2)
    with pytest.raises(ValueError, match="step"):
        sinusoid_block_means(10, [1.0], 0)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 3000), cols=st.integers(1, 2000), seed=st.integers(0, 99))
def test_grid_from_row_means_equals_block_means_of_the_matrix(rows, cols, seed):
    z = np.random.default_rng(seed).standard_normal((rows, cols))
    row_step, col_step = steps(rows, cols)
    direct = block_means(rows, cols, lambda a, b: z[a:b], row_step, col_step)
    grid = grid_from_row_means(table_means(z, row_step), rows, cols, row_step, col_step)
    np.testing.assert_allclose(grid.z, direct.z, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(grid.rows, direct.rows)
    np.testing.assert_array_equal(grid.cols, direct.cols)
    assert (grid.row_step, grid.col_step) == (direct.row_step, direct.col_step)
