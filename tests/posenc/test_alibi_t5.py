"""posenc.alibi_slopes / alibi_bias against BLOOM's build_alibi_tensor, and posenc.t5_bucket
against T5Attention._relative_position_bucket (values in tests/peers/scheme_peer_values.npz),
with their identities checked by hypothesis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scheme_peers import keys, peer
from support.scheme_peers import settings as peer_settings

import posenc
from posenc import alibi_bias, alibi_slopes, t5_bucket

ALIBI_KEYS = keys("bloom_alibi_")
T5_KEYS = keys("t5_bucket_")


def test_the_peer_file_holds_every_family():
    assert len(ALIBI_KEYS) == 18 and len(T5_KEYS) == 16
    heads = {peer_settings()[k]["n_heads"] for k in ALIBI_KEYS}
    assert {3, 5, 6, 12, 20, 30, 40, 80, 112} <= heads  # not powers of two


@pytest.mark.parametrize("key", ALIBI_KEYS)
def test_slopes_equal_bloom_to_float32_precision(key):
    """BLOOM rounds the base 2^(-8/n0) to float32 and raises it to the power k in float32,
    so its slope k carries up to k times the base's rounding (half an ulp, 2^-24)."""
    n = peer_settings()[key]["n_heads"]
    bloom = peer(key)[:, 0, 1].astype(np.float64)  # (n, 1, L): slope_h * j, at j = 1
    ours = alibi_slopes(n)
    assert ours.shape == (n,) and ours.dtype == np.float64
    n0 = 2 ** int(np.floor(np.log2(n)))
    power = np.concatenate([np.arange(1, n0 + 1), 2 * np.arange(1, n - n0 + 1) - 1])
    bound = (power * 2.0**-24 + 2.0**-23) * ours
    assert np.all(np.abs(bloom - ours) <= bound)
    # And the float32 base explains BLOOM's numbers to one float32 rounding.
    base32 = np.float32(2.0 ** (-8.0 / n0)).astype(np.float64)
    extra32 = np.float32(2.0 ** (-4.0 / n0)).astype(np.float64)
    model = np.concatenate([base32 ** power[:n0], extra32 ** power[n0:]])
    np.testing.assert_allclose(bloom, model, rtol=2.0**-23, atol=0)


@pytest.mark.parametrize("key", ALIBI_KEYS)
def test_bias_gives_bloom_softmax_rows(key):
    """BLOOM adds s_h * j; posenc's -s_h * (i - j) differs by s_h * i per row (j <= i)."""
    n, length = peer_settings()[key]["n_heads"], peer_settings()[key]["L"]
    bloom = peer(key)[:, 0, :].astype(np.float64)
    bias = alibi_bias(length, n)
    slopes = alibi_slopes(n)
    for i in range(length):
        shifted = bias[:, i, : i + 1] + slopes[:, None] * i
        np.testing.assert_allclose(shifted, bloom[:, : i + 1], rtol=1e-6, atol=1e-7)


def test_power_of_two_slopes_are_the_geometric_sequence():
    for n in (1, 2, 4, 8, 16, 64):
        np.testing.assert_array_equal(alibi_slopes(n), 2.0 ** (-8.0 * np.arange(1, n + 1) / n))


def test_extra_heads_take_every_other_slope_of_the_next_power_of_two():
    for n in (3, 5, 6, 7, 12, 20, 30, 100):
        n0 = 2 ** int(np.floor(np.log2(n)))
        expected = np.concatenate([alibi_slopes(n0), alibi_slopes(2 * n0)[0::2][: n - n0]])
        np.testing.assert_array_equal(alibi_slopes(n), expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 12))
def test_bias_is_symmetric_toeplitz_and_zero_on_the_diagonal(length, n):
    bias = alibi_bias(length, n)
    assert bias.shape == (n, length, length)
    np.testing.assert_array_equal(bias, bias.transpose(0, 2, 1))
    np.testing.assert_array_equal(bias[:, 1:, 1:], bias[:, :-1, :-1])
    assert not np.any(np.signbit(np.diagonal(bias, axis1=1, axis2=2)))
    i, j = np.indices((length, length))
    np.testing.assert_allclose(bias, -alibi_slopes(n)[:, None, None] * np.abs(i - j))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300))
def test_slopes_decrease_within_each_sequence_and_lie_in_0_1(n):
    s = alibi_slopes(n)
    n0 = 2 ** int(np.floor(np.log2(n)))
    assert np.all((s > 0) & (s < 1))
    assert np.all(np.diff(s[:n0]) < 0) and np.all(np.diff(s[n0:]) < 0)


@pytest.mark.parametrize("key", T5_KEYS)
def test_t5_buckets_equal_transformers(key):
    s = peer_settings()[key]
    ours = t5_bucket(
        peer("t5_relative_position"),
        bidirectional=s["bidirectional"],
        num_buckets=s["num_buckets"],
        max_distance=s["max_distance"],
    )
    assert ours.dtype == np.int64
    np.testing.assert_array_equal(ours, peer(key))


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([4, 8, 16, 32, 64, 128]),
    st.integers(1, 600),
    st.booleans(),
)
def test_t5_buckets_monotone_in_distance_and_saturate(nb, extra, bidirectional):
    half = nb // 2 if bidirectional else nb
    md = half // 2 + extra
    a = np.arange(0, 3 * md + 10)
    before = t5_bucket(-a, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
    assert np.all(np.diff(before) >= 0)  # further back: never a smaller bucket
    assert np.all(before[md:] == half - 1)  # from max_distance on: the last bucket
    assert np.all(before[: half // 2] == a[: half // 2])  # exact buckets
    after = t5_bucket(a, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
    if bidirectional:
        np.testing.assert_array_equal(after[1:], before[1:] + half)
        assert after[0] == 0 and after.max() == nb - 1 and after[md] == nb - 1
    else:
        assert np.all(after == 0)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: alibi_slopes(0), "n_heads"),
        (lambda: alibi_slopes(2.5), "n_heads"),
        (lambda: alibi_bias(0, 4), "length"),
        (lambda: alibi_bias(4, -1), "n_heads"),
        (lambda: alibi_bias(4096, 8), "n_heads"),
        (lambda: t5_bucket([0.5]), "relative_position"),
        (lambda: t5_bucket("ab"), "relative_position"),
        (lambda: t5_bucket([1], num_buckets=7), "num_buckets"),
        (lambda: t5_bucket([1], num_buckets=2), "num_buckets"),
        (lambda: t5_bucket([1], bidirectional=False, num_buckets=1), "num_buckets"),
        (lambda: t5_bucket([1], num_buckets=32, max_distance=8), "max_distance"),
        (lambda: t5_bucket([1], bidirectional="yes"), "bidirectional"),
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_exported():
    assert posenc.alibi_slopes is alibi_slopes and posenc.t5_bucket is t5_bucket
    assert posenc.alibi_bias is alibi_bias
