"""posenc.shift and posenc.fit: T(k) applied blockwise, the two conventions, dot
products by offset, and T(k) recovered by least squares."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import posenc
from posenc.fit import fit_linear_map, fit_shift, spread_positions
from posenc.rotation import block_rotation, column_rotation_matrix, pair_columns, rotation_entries
from posenc.shift import apply_rotation, apply_rotation_columns, shift_residuals
from posenc.similarity import offset_distance, offset_dot
from posenc.sinusoidal import encode_positions

EPS = np.finfo(np.float64).eps
d_models = st.integers(1, 32).map(lambda n: 2 * n)
bases = st.floats(1.5, 1e6)
shifts = st.floats(-1000, 1000, allow_nan=False)
positions = st.floats(-1000, 1000, allow_nan=False)
layouts = st.sampled_from(["interleaved", "split"])


def random_rows(d, n=5, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


# --- apply_rotation: the dense product, done blockwise --------------------------------


@settings(max_examples=150, deadline=None)
@given(d=d_models, base=bases, k=shifts, layout=layouts)
def test_apply_rotation_equals_the_dense_product(d, base, k, layout):
    x = random_rows(d)
    dense = x @ posenc.rotation_matrix(k, d, base, layout=layout)
    assert_allclose(apply_rotation(x, k, base, layout=layout), dense, atol=1e-13)


@settings(max_examples=150, deadline=None)
@given(d=d_models, base=bases, p=positions, k=shifts, layout=layouts)
def test_row_of_position_p_times_T_k_is_the_row_of_p_plus_k(d, base, p, k, layout):
    row = posenc.sinusoidal(1, d, base, layout=layout, offset=p)
    later = posenc.sinusoidal(1, d, base, layout=layout, offset=p + k)
    # float64 rounding of angles up to 2000 rad is about 2000 * 1.1e-16.
    assert_allclose(apply_rotation(row, k, base, layout=layout), later, atol=1e-11)


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, a=shifts, b=shifts, layout=layouts)
def test_T_a_then_T_b_is_T_a_plus_b(d, base, a, b, layout):
    x = random_rows(d)
    twice = apply_rotation(apply_rotation(x, a, base, layout=layout), b, base, layout=layout)
    assert_allclose(twice, apply_rotation(x, a + b, base, layout=layout), atol=1e-11)
    ta = block_rotation(a * posenc.frequencies(d, base), layout=layout)
    tb = block_rotation(b * posenc.frequencies(d, base), layout=layout)
    tab = block_rotation((a + b) * posenc.frequencies(d, base), layout=layout)
    assert_allclose(ta @ tb, tab, atol=1e-11)


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, k=shifts, layout=layouts)
def test_T_k_is_orthogonal_and_T_minus_k_is_its_transpose(d, base, k, layout):
    t = block_rotation(k * posenc.frequencies(d, base), layout=layout)
    assert_allclose(t @ t.T, np.eye(d), atol=1e-13)
    t_minus = block_rotation(-k * posenc.frequencies(d, base), layout=layout)
    assert_allclose(t_minus, t.T, atol=0)
    x = random_rows(d)
    assert_allclose(np.linalg.norm(apply_rotation(x, k, base), axis=1), np.linalg.norm(x, axis=1))


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, k=shifts, layout=layouts)
def test_block_rotation_is_rotation_matrix(d, base, k, layout):
    assert_array_equal(
        block_rotation(k * posenc.frequencies(d, base), layout=layout),
        posenc.rotation_matrix(k, d, base, layout=layout),
    )


def test_apply_rotation_keeps_leading_axes():
    x = np.random.default_rng(1).normal(size=(3, 4, 6))
    assert_allclose(apply_rotation(x, 2.0), x @ posenc.rotation_matrix(2.0, 6), atol=1e-14)


def test_zero_shift_is_the_identity():
    x = random_rows(8)
    assert_array_equal(apply_rotation(x, 0.0), x)


def test_negative_k_moves_backwards():
    pe = posenc.sinusoidal(40, 10)
    assert np.abs(apply_rotation(pe[7:], -7) - pe[:-7]).max() < 1e-13


# --- the two conventions ----------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, k=shifts, layout=layouts)
def test_seed_003_column_matrix_is_the_transpose_of_seed_000_row_matrix(d, base, k, layout):
    assert_allclose(
        column_rotation_matrix(k, d, base, layout=layout),
        posenc.rotation_matrix(k, d, base, layout=layout).T,
        atol=0,
    )


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, k=shifts, layout=layouts)
def test_row_and_column_conventions_give_the_same_vectors(d, base, k, layout):
    x = random_rows(d, n=7)
    rows = apply_rotation(x, k, base, layout=layout)
    columns = apply_rotation_columns(x.T, k, base, layout=layout)
    assert_allclose(columns.T, rows, atol=1e-14)
    dense = column_rotation_matrix(k, d, base, layout=layout) @ x.T
    assert_allclose(dense.T, rows, atol=1e-13)


def test_seed_003_block_acts_on_sine_cosine_columns():
    m = column_rotation_matrix(1.0, 2, base=100.0)
    assert_allclose(m, [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]])
    assert_allclose(m @ [np.sin(2.0), np.cos(2.0)], [np.sin(3.0), np.cos(3.0)])


# --- parts of T(k) without the whole -----------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(d=d_models, k=shifts, layout=layouts, seed=st.integers(0, 1000))
def test_rotation_entries_equal_the_dense_submatrix(d, k, layout, seed):
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, d, 9), rng.integers(0, d, 5)
    dense = posenc.rotation_matrix(k, d, layout=layout)
    assert_array_equal(
        rotation_entries(k, d, rows=rows, cols=cols, layout=layout), dense[np.ix_(rows, cols)]
    )


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_pair_columns_form_a_closed_system(layout):
    pe = posenc.sinusoidal(30, 16, layout=layout)
    cols = pair_columns(16, 3, layout=layout)
    sub = block_rotation(4.0 * posenc.frequencies(16)[:3], layout=layout)
    full = pe @ posenc.rotation_matrix(4.0, 16, layout=layout)
    assert_allclose(pe[:, cols] @ sub, full[:, cols], atol=1e-14)


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_encode_positions_of_the_first_pairs_are_their_columns(layout):
    full = encode_positions([2.0, -7.5, 300.25], 64, layout=layout)
    part = encode_positions([2.0, -7.5, 300.25], 64, layout=layout, pairs=5)
    assert_array_equal(part, full[:, pair_columns(64, 5, layout=layout)])


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_seed_003_matrix_of_the_first_pairs_is_that_block_of_T_transposed(layout):
    cols = pair_columns(32, 3, layout=layout)
    t = posenc.rotation_matrix(-4.5, 32, layout=layout)[np.ix_(cols, cols)]
    assert_array_equal(column_rotation_matrix(-4.5, 32, layout=layout, pairs=3), t.T)


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_encode_positions_equals_the_table(layout):
    table = posenc.sinusoidal(50, 12, 100.0, layout=layout, offset=-3.5)
    at = encode_positions(np.arange(50) - 3.5, 12, 100.0, layout=layout)
    assert_allclose(at, table, atol=1e-13)


# --- the live check ----------------------------------------------------------------------


@pytest.mark.parametrize("k", [3.0, -250.0, 0.25])
def test_residuals_stay_below_the_rounding_of_the_angle(k):
    r = shift_residuals(300, 32, k)
    p = np.arange(300)
    assert r.shape == (300,)
    assert np.all(r <= 2 * EPS * (p + abs(k)) + 4 * EPS)


def test_residuals_are_the_dense_check_across_slabs():
    # d = 4096: slabs of 512 rows, so 1100 rows take three slabs.
    k = -3.5
    r = shift_residuals(1100, 4096, k)
    rows = posenc.sinusoidal(1100, 4096)
    later = posenc.sinusoidal(1100, 4096, offset=k)
    expected = np.abs(apply_rotation(rows, k) - later).max(axis=1)
    # The table is built in blocks that start elsewhere per slab: rounding differs.
    bound = 2 * EPS * (np.arange(1100) + abs(k)) + 4 * EPS
    assert np.all(np.abs(r - expected) <= bound)
    assert np.all(r <= bound) and r.max() > 0


def test_residuals_of_k_zero_vanish():
    assert shift_residuals(64, 16, 0.0).max() == 0.0


def test_residuals_would_expose_a_wrong_rotation():
    # shift_residuals itself reports T(k) built from another base's frequencies: the
    # check is not vacuous.
    wrong = posenc.frequencies(8, 100.0)
    assert shift_residuals(20, 8, 3.0, coefficients=wrong).max() > 0.1
    assert shift_residuals(20, 8, 3.0).max() < 1e-12


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_residuals_with_seed_000s_coefficients_are_the_dense_check_of_those_blocks(layout):
    """r_n = omega_{n-1} is the default; any r gives the check of diag(Phi_n(k r_n))."""
    omega = posenc.frequencies(16, 100.0)
    assert_allclose(
        shift_residuals(40, 16, 2.5, 100.0, layout=layout, coefficients=omega),
        shift_residuals(40, 16, 2.5, 100.0, layout=layout),
        atol=0,
    )
    r = np.linspace(0.3, 1.7, 8)
    rows = posenc.sinusoidal(40, 16, 100.0, layout=layout)
    later = posenc.sinusoidal(40, 16, 100.0, layout=layout, offset=2.5)
    dense = block_rotation(2.5 * r, layout=layout)
    expected = np.abs(rows @ dense - later).max(axis=1)
    got = shift_residuals(40, 16, 2.5, 100.0, layout=layout, coefficients=r)
    assert_allclose(got, expected, atol=1e-13)
    assert got.min() > 0.1


@pytest.mark.parametrize("bad", [np.ones(7), np.ones((2, 4)), [1.0, np.nan] * 4, "x"])
def test_coefficients_of_the_wrong_size_or_kind_name_the_parameter(bad):
    with pytest.raises(ValueError, match="coefficients"):
        shift_residuals(10, 16, 1.0, coefficients=bad)


# --- dot products and distances by offset ------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, p=positions, k=shifts)
def test_dot_product_depends_on_k_only_and_is_symmetric(d, base, p, k):
    a = posenc.sinusoidal(1, d, base, offset=p)[0]
    b = posenc.sinusoidal(1, d, base, offset=p + k)[0]
    assert_allclose(a @ b, offset_dot(k, d, base), atol=1e-10)
    # from p + k back to p is the offset -k: against the rows, not against offset_dot(k)
    c = posenc.sinusoidal(1, d, base, offset=p - k)[0]
    assert_allclose(a @ c, offset_dot(-k, d, base), atol=1e-10)


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, p=positions, k=shifts)
def test_distance_depends_on_k_only(d, base, p, k):
    a = posenc.sinusoidal(1, d, base, offset=p)[0]
    b = posenc.sinusoidal(1, d, base, offset=p + k)[0]
    assert_allclose(np.linalg.norm(a - b), offset_distance(k, d, base), atol=1e-9)
    c = posenc.sinusoidal(1, d, base, offset=p - k)[0]
    assert_allclose(np.linalg.norm(a - c), offset_distance(-k, d, base), atol=1e-9)


def test_distance_squared_is_d_minus_twice_the_dot():
    k = np.linspace(-100, 100, 401)
    assert_allclose(offset_distance(k, 64) ** 2, 64 - 2 * offset_dot(k, 64), atol=1e-12)


def test_dot_at_zero_is_half_the_width_and_keeps_shape():
    assert offset_dot(0.0, 128).shape == ()
    assert offset_dot(0.0, 128) == 64.0
    assert offset_dot(np.zeros((2, 3)), 8).shape == (2, 3)


def test_dot_over_many_offsets_is_computed_in_slabs():
    k = np.arange(-3000.0, 3000.0)
    direct = np.cos(np.multiply.outer(k, posenc.frequencies(4096))).sum(axis=1)
    assert_allclose(offset_dot(k, 4096), direct, atol=1e-9)


# --- the fit -------------------------------------------------------------------------


def test_fit_from_spread_positions_recovers_T():
    fit = fit_shift(spread_positions(300, 128), 3.0, 128)
    assert fit.rank == 128 and not fit.underdetermined
    assert fit.matrix_error < 1e-9
    assert_allclose(fit.target, posenc.rotation_matrix(3.0, 128), atol=0)


def test_fit_recovers_T_for_fractional_negative_k_in_split_layout():
    fit = fit_shift(spread_positions(100, 32), -7.25, 32, layout="split")
    assert fit.matrix_error < 1e-9
    assert_allclose(fit.target, posenc.rotation_matrix(-7.25, 32, layout="split"), atol=0)


def test_fit_on_a_short_run_fits_the_data_but_misses_the_slow_pairs():
    fit = fit_shift(np.arange(300.0), 3.0, 128)
    assert fit.fit_error < 1e-11  # X W = Y holds ...
    assert fit.matrix_error > 0.5  # ... yet W is not T(k)
    assert fit.pair_errors[:4].max() < 1e-3 < 0.5 < fit.pair_errors[-1]
    assert fit.rank < 128


def test_underdetermined_fit_is_the_minimum_norm_solution():
    p = spread_positions(10, 32)
    fit = fit_shift(p, 2.0, 32)
    assert fit.underdetermined and fit.rank == 10
    x, y = encode_positions(p, 32), encode_positions(p + 2.0, 32)
    assert_allclose(fit.matrix, np.linalg.pinv(x) @ y, atol=1e-10)
    assert fit.fit_error < 1e-12 and fit.matrix_error > 0.1


def test_fit_on_a_subset_of_pairs_targets_that_block_of_T():
    fit = fit_shift(spread_positions(64, 4096, pairs=8), 1.5, 4096, pairs=8)
    assert fit.columns.tolist() == list(range(16))
    full = rotation_entries(1.5, 4096, rows=np.arange(16), cols=np.arange(16))
    assert_allclose(fit.target, full, atol=0)
    assert fit.matrix_error < 1e-9


def test_spread_positions_are_reproducible_and_cover_many_turns():
    a, b = spread_positions(500, 64), spread_positions(500, 64)
    assert_array_equal(a, b)
    slowest = 2 * np.pi / posenc.frequencies(64)[-1]
    assert a.max() > 10 * slowest


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: apply_rotation(np.ones((2, 3)), 1.0), "rows"),
        (lambda: apply_rotation(np.ones((2, 4)), float("inf")), "k"),
        (lambda: apply_rotation(np.ones((2, 4)), 1.0, layout="zigzag"), "layout"),
        (lambda: apply_rotation(np.ones((2, 4)), 1.0, base=1.0), "base"),
        (lambda: apply_rotation_columns(np.ones((3, 2)), 1.0), "columns"),
        (lambda: pair_columns(8, 5), "pairs"),
        (lambda: block_rotation(np.ones((2, 2))), "angles"),
        (lambda: rotation_entries(1.0, 8, rows=[8]), "rows"),
        (lambda: rotation_entries(1.0, 8, cols=[-1]), "cols"),
        (lambda: encode_positions([[1.0]], 4), "positions"),
        (lambda: encode_positions([1.0], 4, pairs=3), "pairs"),
        (lambda: column_rotation_matrix(1.0, 4, pairs=0), "pairs"),
        (lambda: shift_residuals(0, 4, 1.0), "length"),
        (lambda: shift_residuals(4, 5, 1.0), "d_model"),
        (lambda: offset_dot([float("nan")], 4), "offsets"),
        (lambda: fit_linear_map(np.ones((3, 2)), np.ones((4, 2))), "x and y"),
        (lambda: spread_positions(0, 4), "n"),
        (lambda: fit_shift([1.0, 2.0], 1.0, 8, pairs=9), "pairs"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
