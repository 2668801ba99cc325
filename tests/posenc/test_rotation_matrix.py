"""posenc.rotation_matrix: T(k) of seed 000, with hypothesis properties."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import posenc

d_models = st.integers(1, 64).map(lambda n: 2 * n)
bases = st.floats(1.5, 1e6)
shifts = st.floats(-1000, 1000, allow_nan=False)
positions = st.floats(-1000, 1000, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(d=d_models, base=bases, p=positions, k=shifts)
def test_row_times_T_k_is_row_k_later(d, base, p, k):
    row = posenc.sinusoidal(1, d, base, offset=p)[0]
    later = posenc.sinusoidal(1, d, base, offset=p + k)[0]
    # Angles up to ~2000 rad: float64 angle rounding alone is ~2000 * 1.1e-16.
    assert_allclose(row @ posenc.rotation_matrix(k, d, base), later, atol=1e-11)


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, k=shifts)
def test_T_is_orthogonal_and_T_minus_k_is_its_inverse(d, base, k):
    t = posenc.rotation_matrix(k, d, base)
    assert_allclose(t @ t.T, np.eye(d), atol=1e-12)
    assert_allclose(posenc.rotation_matrix(-k, d, base), t.T, atol=1e-15)


@settings(max_examples=100, deadline=None)
@given(d=d_models, base=bases, a=shifts, b=shifts)
def test_T_a_times_T_b_is_T_a_plus_b(d, base, a, b):
    assert_allclose(
        posenc.rotation_matrix(a, d, base) @ posenc.rotation_matrix(b, d, base),
        posenc.rotation_matrix(a + b, d, base),
        atol=1e-11,
    )


def test_T_does_not_depend_on_the_position():
    pe = posenc.sinusoidal(200, 16)
    t = posenc.rotation_matrix(7, 16)
    assert np.abs(pe[:-7] @ t - pe[7:]).max() < 1e-13


def test_T_is_block_diagonal_with_seed_000_blocks():
    t = posenc.rotation_matrix(3.0, 4, base=100.0)
    w = posenc.frequencies(4, 100.0)
    block = lambda a: np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])  # noqa: E731
    assert_allclose(t[:2, :2], block(3 * w[0]))
    assert_allclose(t[2:, 2:], block(3 * w[1]))
    assert not t[:2, 2:].any() and not t[2:, :2].any()


def test_split_layout_T_acts_on_split_rows():
    pe = posenc.sinusoidal(30, 12, layout="split")
    t = posenc.rotation_matrix(5, 12, layout="split")
    assert np.abs(pe[:-5] @ t - pe[5:]).max() < 1e-13


@pytest.mark.parametrize(
    ("args", "name"), [((float("nan"), 4), "k"), ((1, 3), "d_model"), ((1, 4, 0.5), "base")]
)
def test_bad_input_names_the_parameter(args, name):
    with pytest.raises(ValueError, match=name):
        posenc.rotation_matrix(*args)
