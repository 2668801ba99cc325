"""posenc.tables: the table measurements behind the schemes page's learned-table analysis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc.tables import (
    cosine_by_distance,
    dominant_frequencies,
    row_pca,
    shift_residual,
    toeplitz_deviation,
)


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 80), st.integers(1, 16).map(lambda h: 2 * h), st.floats(10.0, 1e5))
def test_the_sinusoids_gram_matrix_is_toeplitz(length, d, base):
    pe = posenc.sinusoidal(length, d, base)
    assert toeplitz_deviation(pe @ pe.T) < 1e-12


@settings(max_examples=30, deadline=None)
@given(st.integers(8, 80), st.integers(1, 16).map(lambda h: 2 * h), st.integers(1, 5))
def test_the_sinusoid_has_an_exact_shift_map(length, d, k):
    fit = shift_residual(posenc.sinusoidal(length, d), k)
    assert fit.residual < 1e-8


def test_random_rows_have_no_shift_map_and_no_toeplitz_gram():
    table = np.random.default_rng(0).standard_normal((200, 16))
    assert shift_residual(table, 1).residual > 0.9
    assert toeplitz_deviation(table @ table.T) > 0.5


def test_toeplitz_deviation_is_zero_for_any_function_of_i_minus_j():
    i, j = np.indices((30, 30))
    assert toeplitz_deviation(np.cos(0.3 * (i - j)) + (i - j) ** 2) < 1e-15
    assert toeplitz_deviation(np.diag(np.arange(30.0))) > 0.3


def test_pca_of_the_sinusoid_explains_the_variance_in_order():
    coords, explained = row_pca(posenc.sinusoidal(128, 32), 3)
    assert coords.shape == (128, 3)
    assert np.all(np.diff(explained) <= 1e-12) and explained.sum() <= 1
    # The components are uncorrelated and centred.
    np.testing.assert_allclose(coords.mean(axis=0), 0, atol=1e-10)
    gram = coords.T @ coords
    np.testing.assert_allclose(gram - np.diag(np.diag(gram)), 0, atol=1e-8)


def test_dominant_frequency_of_each_sinusoid_column_is_its_omega_to_the_dft_resolution():
    length, d = 512, 64
    omega = posenc.frequencies(d)  # one per pair; columns 2i, 2i+1 share it
    found = dominant_frequencies(posenc.sinusoidal(length, d))
    step = 2 * np.pi / length
    resolved = np.repeat(omega, 2) > 2 * step  # slower columns show the lowest bin
    assert np.all(np.abs(found - np.repeat(omega, 2))[resolved] <= step / 2 + 1e-12)
    assert np.all(found[~resolved] <= 2 * step + 1e-12)


def test_cosine_by_distance_of_the_sinusoid_is_its_mean_cosine():
    length, d = 64, 16
    pe = posenc.sinusoidal(length, d)
    c = cosine_by_distance(pe)
    # Every row has norm sqrt(d/2): the cosine is PE_p . PE_{p+r} / (d/2), a function of r.
    expected = posenc.dot_products(np.arange(length), d) / (d / 2)
    np.testing.assert_allclose(c, expected, atol=1e-12)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: row_pca([[1.0, 2.0]]), "table"),
        (lambda: row_pca(np.eye(3), 4), "n_components"),
        (lambda: toeplitz_deviation(np.ones((2, 3))), "matrix"),
        (lambda: shift_residual(np.eye(4), 3), "k"),
        (lambda: dominant_frequencies([1.0, 2.0]), "table"),
        (lambda: cosine_by_distance([[np.nan]]), "table"),
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()
