"""Hypothesis properties of the sinusoidal table: bounded, unit pairs, distinct rows."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc


@settings(max_examples=150, deadline=None)
@given(
    length=st.integers(1, 300),
    d=st.integers(1, 64).map(lambda n: 2 * n),
    base=st.floats(1.0001, 1e8),
    offset=st.floats(-1e5, 1e5),
    layout=st.sampled_from(["interleaved", "split"]),
    dtype=st.sampled_from([np.float32, np.float64]),
)
def test_values_are_bounded_and_each_pair_is_a_unit_vector(length, d, base, offset, layout, dtype):
    table = posenc.sinusoidal(length, d, base, layout=layout, offset=offset, dtype=dtype)
    assert table.shape == (length, d) and table.dtype == dtype
    assert np.all(np.abs(table) <= 1.0)
    sin, cos = (
        (table[:, 0::2], table[:, 1::2]) if layout == "interleaved" else np.split(table, 2, 1)
    )
    assert np.abs(sin.astype(float) ** 2 + cos.astype(float) ** 2 - 1).max() < 1e-6


@settings(max_examples=100, deadline=None)
@given(length=st.integers(2, 2000), d=st.integers(2, 64).map(lambda n: 2 * n))
def test_rows_are_distinct_with_the_papers_base(length, d):
    # omega_0 = 1 alone separates positions unless they differ by a multiple of 2 pi;
    # integers never do, and the slower pairs separate the rest.
    table = posenc.sinusoidal(length, d)
    sq = (table**2).sum(1)
    gram = sq[:, None] + sq[None, :] - 2 * table @ table.T
    np.fill_diagonal(gram, np.inf)
    assert gram.min() > 1e-6


@settings(max_examples=100, deadline=None)
@given(d=st.integers(1, 64).map(lambda n: 2 * n), p=st.integers(0, 10_000))
def test_every_row_has_norm_sqrt_d_over_2(d, p):
    row = posenc.sinusoidal(1, d, offset=p)[0]
    assert abs(np.linalg.norm(row) - np.sqrt(d / 2)) < 1e-12
