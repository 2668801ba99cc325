"""posenc.attention: softmax, Toeplitz residual, relative scores, RoFormer decay, additive PE."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import rope, rope_frequencies, rope_scores, sinusoidal
from posenc.attention import (
    additive_scores,
    causal_softmax,
    decay_bound,
    prefix_entropies,
    relative_scores,
    rotations,
    same_content_decay,
    scale_scores,
    toeplitz_residual,
)

RNG = np.random.default_rng(7)


def toeplitz(first_col, first_row):
    n, m = len(first_col), len(first_row)
    i, j = np.ogrid[:n, :m]
    values = np.concatenate([first_row[::-1], first_col[1:]])
    return values[i - j + m - 1]


# ---------------------------------------------------------------- softmax


def test_causal_softmax_matches_a_naive_masked_softmax():
    s = RNG.standard_normal((6, 6)) * 3
    expected = np.zeros_like(s)
    for m in range(6):
        e = np.exp(s[m, : m + 1])
        expected[m, : m + 1] = e / e.sum()
    np.testing.assert_allclose(causal_softmax(s), expected, rtol=1e-14)


def test_causal_softmax_rows_sum_to_one_and_the_future_gets_zero_beyond_one_chunk():
    s = RNG.standard_normal((700, 700)) * 50  # two row chunks, large scores
    a = causal_softmax(s)
    np.testing.assert_allclose(a.sum(axis=1), 1.0, rtol=1e-12)
    assert np.all(np.triu(a, 1) == 0)
    assert np.all(np.isfinite(a))


def test_softmax_without_mask_is_shift_invariant_per_row():
    s = RNG.standard_normal((3, 5))
    shifted = s + np.array([[1000.0], [-1000.0], [3.0]])
    np.testing.assert_allclose(
        causal_softmax(shifted, causal=False), causal_softmax(s, causal=False), rtol=1e-12
    )


def test_causal_softmax_in_place_writes_into_the_scores():
    s = RNG.standard_normal((4, 4))
    expected = causal_softmax(s)
    out = causal_softmax(s, out=s)
    assert out is s
    np.testing.assert_allclose(s, expected, rtol=1e-15)


def test_scale_scores_divides_by_sqrt_d():
    np.testing.assert_allclose(scale_scores([[3.0, -6.0]], 9), [[1.0, -2.0]])


# ---------------------------------------------------------------- Toeplitz residual


def test_toeplitz_residual_is_zero_for_a_toeplitz_matrix():
    z = toeplitz(RNG.standard_normal(9), RNG.standard_normal(7))
    assert toeplitz_residual(z) == 0.0


def test_toeplitz_residual_finds_a_defect_in_a_later_row_chunk():
    z = toeplitz(RNG.standard_normal(1200), RNG.standard_normal(1200))
    z[1100, 300] += 0.25
    assert toeplitz_residual(z) == pytest.approx(0.25, rel=1e-12)


def test_toeplitz_residual_with_a_period_compares_shifted_blocks():
    block = RNG.standard_normal((3, 3))
    z = np.tile(block, (4, 4))  # repeats every 3 positions, not Toeplitz
    assert toeplitz_residual(z) > 0.1
    assert toeplitz_residual(z, shift=3) == 0.0


def test_rope_scores_of_repeated_content_are_toeplitz_to_rounding():
    q, k = RNG.standard_normal((2, 64))
    s = rope_scores(np.tile(q, (300, 1)), np.tile(k, (300, 1)))
    assert toeplitz_residual(s) < 1e-12 * np.abs(s).max()


# ---------------------------------------------------------------- additive PE


def test_additive_scores_expand_into_four_terms():
    q, k, p = RNG.standard_normal((3, 5, 4))
    expected = q @ k.T + q @ p.T + p @ k.T + p @ p.T
    np.testing.assert_allclose(additive_scores(q, k, p), expected, rtol=1e-13)


def test_additive_sinusoidal_scores_depend_on_absolute_positions():
    q, k = RNG.standard_normal((2, 64))
    length = 200
    pe = sinusoidal(length, 64)
    qs, ks = np.tile(q, (length, 1)), np.tile(k, (length, 1))
    assert toeplitz_residual(pe @ pe.T) < 1e-12  # PE.PE^T alone depends on m - n ...
    assert toeplitz_residual(additive_scores(qs, ks, pe)) > 1.0  # ... the cross terms do not


# ---------------------------------------------------------------- relative scores


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_relative_scores_are_the_diagonals_of_rope_scores(layout):
    q, k = RNG.standard_normal((2, 32))
    inv, a = rope_frequencies(32, 500000.0, scaling="yarn", factor=4.0, original_context=64)
    length = 50
    s = rope_scores(np.tile(q, (length, 1)), np.tile(k, (length, 1)), layout=layout, inv_freq=inv)
    g = relative_scores(q, k, np.arange(-(length - 1), length), inv, layout=layout)
    for r in (-49, -3, 0, 7, 49):
        np.testing.assert_allclose(np.diagonal(s, -r), g[r + length - 1], rtol=1e-10, atol=1e-12)
    scaled = relative_scores(q, k, [0.0, 5.0], inv, layout=layout, attention_factor=a)
    np.testing.assert_allclose(scaled, a**2 * g[[length - 1, length + 4]], rtol=1e-12, atol=1e-15)


# ---------------------------------------------------------------- long-range decay


def test_decay_bound_starts_at_half_of_d_over_2_plus_1():
    theta = rope_frequencies(128)[0]
    assert decay_bound([0.0], theta)[0] == pytest.approx((64 + 1) / 2)


def test_decay_bound_decays_and_decays_more_slowly_for_larger_bases():
    r = np.arange(1, 257, dtype=float)
    small = decay_bound(r, rope_frequencies(128, 10000.0)[0])
    large = decay_bound(r, rope_frequencies(128, 1000000.0)[0])
    assert small[150:].mean() < 0.35 * decay_bound([0.0], rope_frequencies(128)[0])[0]
    assert large[150:].mean() > small[150:].mean()


@settings(max_examples=200, deadline=None)
@given(
    half=st.integers(1, 64),
    seed=st.integers(0, 2**32 - 1),
    r=st.floats(-1e4, 1e4, allow_nan=False),
    base=st.floats(1.5, 1e7),
)
def test_the_abel_bound_holds_for_every_score(half, seed, r, base):
    q, k = np.random.default_rng(seed).standard_normal((2, 2 * half))
    theta = rope_frequencies(2 * half, base)[0]
    h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])
    max_step = np.abs(np.diff(np.append(h, 0.0))).max()
    score = abs(relative_scores(q, k, [r], theta)[0])
    assert score <= max_step * half * decay_bound([r], theta)[0] * (1 + 1e-9) + 1e-9


def test_same_content_decay_is_the_trace_of_the_rotation_over_d():
    d, r = 16, 37.0
    theta = rope_frequencies(d, 100.0)[0]
    rotated = rope(np.eye(d), np.full(d, r), inv_freq=theta)  # rows: R(r theta) e_i
    assert same_content_decay([r], theta)[0] == pytest.approx(np.trace(rotated) / d, rel=1e-13)
    assert same_content_decay([0.0], theta)[0] == 1.0


def test_rotations_count_turns_inside_a_context():
    np.testing.assert_allclose(rotations([np.pi, 2 * np.pi / 1000], 1000), [500.0, 1.0])


@settings(max_examples=100, deadline=None)
@given(
    d=st.integers(4, 128).map(lambda v: 2 * (v // 2)),
    base=st.floats(100, 1e7),
    original=st.integers(16, 65536),
    factor=st.floats(1.5, 64),
)
def test_yarn_keeps_pairs_above_32_turns_and_divides_those_below_1_turn(d, base, original, factor):
    theta = rope_frequencies(d, base)[0]
    inv, _ = rope_frequencies(d, base, scaling="yarn", factor=factor, original_context=original)
    turns = rotations(theta, original)
    np.testing.assert_allclose(inv[turns > 32], theta[turns > 32], rtol=1e-15)
    np.testing.assert_allclose(inv[turns < 1], theta[turns < 1] / factor, rtol=1e-15)


# ---------------------------------------------------------------- input checks


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: causal_softmax(np.ones((3, 2))), "scores"),  # more queries than keys
        (lambda: causal_softmax(np.ones((2, 3)), first_row=2), "scores"),
        (lambda: causal_softmax(np.ones(3)), "scores"),
        (lambda: causal_softmax(np.ones((2, 2)), out=np.ones((3, 3))), "out"),
        (lambda: toeplitz_residual(np.ones((3, 3)), shift=3), "shift"),
        (lambda: toeplitz_residual(np.ones((1, 3))), "scores"),
        (lambda: scale_scores([[1.0]], 0), "head_dim"),
        (lambda: additive_scores(np.ones((2, 4)), np.ones((2, 4)), np.ones((3, 4))), "pe_q"),
        (lambda: additive_scores(*np.ones((3, 2, 4)), [[1.0]]), "pe_k"),
        (lambda: relative_scores([1.0, 0.0], [1.0], [0.0], [1.0]), "q and k"),
        (lambda: relative_scores([1.0, 0.0], [1.0, 0.0], [0.0], [1.0, 2.0]), "inv_freq"),
        (lambda: relative_scores([1.0, 0.0], [1.0, 0.0], [[0.0]], [1.0]), "distances"),
        (lambda: relative_scores([1, 0], [1, 0], [0], [1], attention_factor=0), "attention_factor"),
        (lambda: relative_scores([1, 0], [1, 0], [0.0], [1.0], layout="x"), "layout"),
        (lambda: decay_bound([0.0], []), "inv_freq"),
        (lambda: decay_bound([np.inf], [1.0]), "distances"),
        (lambda: rotations([1.0], 0), "length"),
    ],
)  # fmt: skip
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_causal_softmax_by_row_blocks_equals_the_whole_matrix():
    s = np.random.default_rng(5).standard_normal((37, 37))
    whole = causal_softmax(s)
    parts = [causal_softmax(s[a : a + 10], first_row=a) for a in range(0, 37, 10)]
    np.testing.assert_array_equal(np.vstack(parts), whole)
    with pytest.raises(ValueError, match=r"^scores .*first_row=31"):
        causal_softmax(s[30:], first_row=31)


# ---------------------------------------------------------------- prefix entropy


def direct_entropy(scores, scale: float = 1.0) -> np.ndarray:
    """H(L) by a softmax of each prefix on its own (max subtracted), the plain way."""
    out = []
    for length in range(1, len(scores) + 1):
        z = scale * np.asarray(scores[:length], dtype=np.float64)
        p = np.exp(z - z.max())
        p /= p.sum()
        out.append(-(p[p > 0] * np.log(p[p > 0])).sum())
    return np.array(out)


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.floats(-25, 25), min_size=1, max_size=300),
    scale=st.floats(0.1, 2.0),
)
def test_prefix_entropies_equals_a_softmax_per_prefix(scores, scale):
    got = prefix_entropies(scores, scale=scale)
    np.testing.assert_allclose(got, direct_entropy(scores, scale), rtol=0, atol=1e-10)
    assert np.all(got >= 0) and np.all(got <= np.log(np.arange(1, len(scores) + 1)) + 1e-10)


def test_prefix_entropies_is_within_its_stated_error_at_ten_thousand_wide_scores():
    # The docstring: within 1e-10 for |lambda S| <= 50 and n <= 10 000.
    s = np.random.default_rng(3).uniform(-50, 50, 10_000)
    got = prefix_entropies(s)
    for length in (1, 2, 17, 999, 5000, 10_000):
        assert got[length - 1] == pytest.approx(direct_entropy(s[:length])[-1], abs=1e-10)


def test_prefix_entropies_of_equal_scores_is_ln_length_and_a_temperature_sharpens():
    n = np.arange(1, 9)
    np.testing.assert_allclose(prefix_entropies(np.zeros(8)), np.log(n), atol=1e-15)
    s = RNG.standard_normal(64)
    sharper = prefix_entropies(s, scale=2.0)
    assert np.all(sharper[1:] < prefix_entropies(s)[1:])  # lambda > 1: attention more peaked


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(scores=[]), "scores"),
        (dict(scores=[[1.0, 2.0]]), "scores"),
        (dict(scores=[1.0, np.nan]), "scores"),
        (dict(scores=[1.0], scale=0.0), "scale"),
        (dict(scores=[1.0], scale=-1.0), "scale"),
    ],
)
def test_prefix_entropies_names_the_bad_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        prefix_entropies(**kwargs)
