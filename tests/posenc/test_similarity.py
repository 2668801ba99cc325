"""posenc.similarity: PE PE^T from the offset vector, against the direct product."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.peers import peer

from posenc import sinusoidal
from posenc.similarity import MAX_SIMILARITY_LENGTH, dot_products, similarity_matrix


def test_similarity_matrix_equals_the_gram_matrix_of_the_torch_table():
    pe = peer("torch_pe_f64_L50_d128")
    np.testing.assert_allclose(similarity_matrix(50, 128), pe @ pe.T, rtol=0, atol=1e-11)


@pytest.mark.parametrize("layout", ["interleaved", "split"])
@pytest.mark.parametrize(
    ("length", "d_model", "base"), [(1, 2, 10.0), (7, 6, 100.0), (40, 64, 1e4)]
)
def test_similarity_matrix_equals_pe_times_pe_transposed(length, d_model, base, layout):
    pe = sinusoidal(length, d_model, base, layout=layout)
    np.testing.assert_allclose(
        similarity_matrix(length, d_model, base), pe @ pe.T, rtol=0, atol=1e-11
    )


sizes = st.tuples(
    st.integers(1, 80),
    st.integers(1, 64).map(lambda h: 2 * h),
    st.floats(1.01, 1e8),
)


@settings(max_examples=80, deadline=None)
@given(size=sizes)
def test_similarity_matrix_is_symmetric_toeplitz_with_d_over_2_on_the_diagonal(size):
    length, d_model, base = size
    s = similarity_matrix(length, d_model, base)
    np.testing.assert_array_equal(s, s.T)
    np.testing.assert_array_equal(s[1:, 1:], s[:-1, :-1])  # constant along diagonals
    np.testing.assert_array_equal(np.diag(s), np.full(length, d_model / 2))
    assert np.all(np.abs(s) <= d_model / 2 + 1e-9)


@settings(max_examples=80, deadline=None)
@given(size=sizes, i=st.integers(0, 5000), j=st.integers(0, 5000))
def test_dot_product_of_two_rows_depends_only_on_their_offset(size, i, j):
    _, d_model, base = size
    pe = sinusoidal(2, d_model, base, offset=0)
    pi = sinusoidal(1, d_model, base, offset=i)[0]
    pj = sinusoidal(1, d_model, base, offset=j)[0]
    shifted = sinusoidal(1, d_model, base, offset=abs(i - j))[0] @ pe[0]
    assert dot_products(i - j, d_model, base) == pytest.approx(pi @ pj, abs=1e-9 * d_model)
    assert dot_products(i - j, d_model, base) == pytest.approx(shifted, abs=1e-9 * d_model)


def test_dot_products_keep_the_shape_and_match_the_rows_at_negative_offsets():
    offsets = np.arange(-6, 6).reshape(3, 4)
    values = dot_products(offsets, 8, 100.0)
    assert values.shape == (3, 4)
    pe = sinusoidal(20, 8, 100.0)  # rows 10 and 10 + k, k from -6 to 5
    np.testing.assert_allclose(values.ravel(), pe[10 + offsets.ravel()] @ pe[10], atol=1e-12)


def test_dot_products_decay_from_the_diagonal_on_average():
    values = dot_products(np.arange(512), 128)
    assert values[0] == 64
    assert values[1:8].max() < values[0]
    assert np.abs(values[256:]).mean() < np.abs(values[1:32]).mean()


def test_dot_products_for_8192_offsets_at_d_4096_stay_small_in_memory():
    tracemalloc.start()
    try:
        values = dot_products(np.arange(8192), 4096)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert values.shape == (8192,) and values[0] == 2048
    assert peak < 100 * 2**20, peak


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: similarity_matrix(MAX_SIMILARITY_LENGTH + 1, 4), "length"),
        (lambda: similarity_matrix(0, 4), "length"),
        (lambda: dot_products([0.0, np.nan], 4), "offsets"),
        (lambda: dot_products([0, 1], 3), "d_model"),
        (lambda: dot_products([0, 1], 4, base=0.5), "base"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_one_function_per_idea():
    # issue 25: the README's names stay, the twins are gone (one implementation each).
    import posenc
    from posenc import criteria, shift, spectrum

    assert posenc.offset_dot is posenc.dot_products
    for module, twin in (
        (criteria, "sinusoid_offset_distance"),
        (spectrum, "pe_block"),
        (shift, "encode_positions"),
        (shift, "block_rotation"),
    ):
        assert not hasattr(module, twin), f"{module.__name__}.{twin}"
