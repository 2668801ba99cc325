"""posenc.criteria (with posenc.distances and posenc.counter): the four criteria measured,
against brute force and closed forms."""

import math
import tracemalloc
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc import criteria, distances
from posenc.criteria import (
    bit_fundamental,
    bit_wave,
    counter_base,
    counter_frequencies,
    distance_blocks,
    max_abs,
    min_distance,
    pairwise_distances,
    scheme_criteria,
    sine_table,
    step_distances,
)


def brute_distances(table):
    table = np.asarray(table, dtype=float)
    return np.sqrt(((table[:, None, :] - table[None, :, :]) ** 2).sum(-1))


def brute_min(table, min_gap=1):
    dist = brute_distances(table)
    i, j = np.triu_indices(len(table), min_gap)
    if i.size == 0:
        return math.nan
    return dist[i, j].min()


def brute_criteria(name, length, d, base, k):
    short = posenc.scheme_table(name, length, d, base)
    long = posenc.scheme_table(name, 2 * length, d, base)
    steps = np.linalg.norm(short[k:] - short[:-k], axis=1) if length > k else np.array([])
    return {
        "min_distance": brute_min(short),
        "max_abs": np.abs(short).max(),
        "step_spread": np.ptp(steps) if steps.size else math.nan,
        "length_change": np.abs(short - long[:length]).max(),
        "low_2l": long.min(),
        "high_2l": long.max(),
        "min_distance_2l": brute_min(long),
        "steps": steps,
    }


def assert_is_the_brute_force_minimum(pair, table, gap):
    expected = brute_min(table, gap)
    if math.isnan(expected):
        assert math.isnan(pair.distance) and pair.i == -1
    else:
        assert pair.distance == pytest.approx(expected, abs=1e-12)
        assert pair.j - pair.i >= gap
        assert pair.distance == pytest.approx(np.linalg.norm(table[pair.i] - table[pair.j]))


# --- the numbers of the brief ------------------------------------------------------


def test_binary_min_distance_is_one():
    assert scheme_criteria("binary", 50, 128).min_distance == 1.0


@pytest.mark.parametrize(("length", "d"), [(2, 2), (50, 128), (301, 6)])
def test_normalised_min_distance_is_sqrt_d_over_l_minus_1(length, d):
    measured = scheme_criteria("normalised", length, d).min_distance
    assert measured == pytest.approx(math.sqrt(d) / (length - 1), rel=1e-12)


def test_sinusoid_is_bounded_by_one():
    c = scheme_criteria("sinusoidal", 500, 64)
    assert c.max_abs == pytest.approx(1.0, abs=1e-15) and c.bounded


def test_index_fails_bounded_with_max_l_minus_1():
    c = scheme_criteria("index", 50, 8)
    assert c.max_abs == 49.0 and not c.bounded and not c.extrapolates


def test_normalised_code_changes_when_the_sequence_doubles():
    # max_p |p/(L-1) - p/(2L-1)| = L/(2L-1), at p = L-1
    c = scheme_criteria("normalised", 50, 4)
    assert c.length_change == pytest.approx(50 / 99, rel=1e-12)
    assert not c.consistent_length and c.consistent_offset


def test_binary_steps_jump_where_a_carry_ripples():
    c = scheme_criteria("binary", 16, 4)
    assert c.steps[7] == 2.0  # 7 -> 8 flips four bits
    assert c.steps[0] == 1.0 and not c.consistent_offset
    assert c.step_spread == pytest.approx(2.0 - 1.0)


def test_binary_with_too_few_columns_repeats_codes():
    c = scheme_criteria("binary", 20, 4)  # positions 0 and 16 share their low 4 bits
    assert c.min_distance == 0.0 and c.unique is False
    assert c.closest == (0, 16)


def test_only_the_sinusoid_passes_everything_at_the_defaults():
    passes = {
        name: all((c.unique, c.bounded, c.consistent_offset, c.consistent_length, c.extrapolates))
        for name in posenc.SCHEMES
        for c in [scheme_criteria(name, 50, 128, 10000.0)]
    }
    assert passes == {
        "index": False,
        "normalised": False,
        "binary": False,
        "sin_pow2": False,
        "sinusoidal": True,
    }


def test_a_single_position_has_no_pair_and_no_step():
    c = scheme_criteria("sinusoidal", 1, 4)
    assert math.isnan(c.min_distance) and c.unique is None
    assert math.isnan(c.step_spread) and c.consistent_offset is None
    assert c.min_distance_2l > 0  # positions 0 and 1 exist at 2L


# --- against brute force -----------------------------------------------------------


@pytest.mark.parametrize("name", posenc.SCHEMES)
@pytest.mark.parametrize(
    ("length", "d", "base", "k"),
    [(1, 4, 100.0, 1), (2, 2, 100.0, 1), (37, 6, 10.0, 3), (100, 40, 3.0, 5), (64, 80, 1e4, 7)],
)
def test_scheme_criteria_match_brute_force(name, length, d, base, k):
    c = scheme_criteria(name, length, d, base, k=k)
    expected = brute_criteria(name, length, d, base, k)
    for field, value in expected.items():
        np.testing.assert_allclose(getattr(c, field), value, atol=1e-9, err_msg=field)


@pytest.mark.parametrize("name", posenc.SCHEMES)
def test_row_blocks_and_tiles_give_the_same_numbers_as_one_block(name, monkeypatch):
    whole = scheme_criteria(name, 90, 12, 50.0, k=4)
    monkeypatch.setattr(distances, "_BLOCK_ENTRIES", 40)  # 3-row blocks
    monkeypatch.setattr(distances, "_TILE", 7)
    blocked = scheme_criteria(name, 90, 12, 50.0, k=4)
    np.testing.assert_allclose(blocked.steps, whole.steps, atol=1e-13)
    for field in ("min_distance", "step_spread", "length_change", "min_distance_2l", "max_abs"):
        assert getattr(blocked, field) == pytest.approx(getattr(whole, field), abs=1e-12)


@pytest.mark.parametrize("name", posenc.SCHEMES)
@pytest.mark.parametrize("k", [1, 4, 7, 50])
def test_shares_on_several_threads_give_the_numbers_of_one_pass(name, k, monkeypatch):
    # 5-row blocks, a share of the rows per thread on 4 "cores": every edge between
    # blocks and between shares is crossed by steps p -> p + k (k = 50: by more than a share)
    whole = scheme_criteria(name, 90, 12, 50.0, k=k)
    monkeypatch.setattr(distances, "_BLOCK_ENTRIES", 60)
    monkeypatch.setattr(criteria, "_THREAD_MIN", 1)
    posenc.set_max_threads(4)  # four shares on posenc's pool, whatever the core count
    try:
        split = scheme_criteria(name, 90, 12, 50.0, k=k)
    finally:
        posenc.set_max_threads(None)
    np.testing.assert_allclose(split.steps, whole.steps, atol=1e-12)
    for field in ("min_distance", "step_spread", "length_change", "min_distance_2l", "max_abs"):
        assert getattr(split, field) == pytest.approx(getattr(whole, field), abs=1e-12)
    expected = brute_criteria(name, 90, 12, 50.0, k)
    np.testing.assert_allclose(split.steps, expected["steps"], atol=1e-9)


@settings(max_examples=80, deadline=None)
@given(
    rows=st.integers(2, 90),
    cols=st.integers(1, 4),
    gap=st.integers(1, 20),
    tile=st.integers(1, 9),
    walk=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_pruned_tiles_find_the_brute_force_minimum(rows, cols, gap, tile, walk, seed):
    # A random walk puts tiles of consecutive rows far apart: most tile pairs are pruned.
    steps = np.random.default_rng(seed).integers(-3, 4, size=(rows, cols)).astype(float)
    table = np.cumsum(steps, axis=0) if walk else steps
    with mock.patch.object(distances, "_TILE", tile):
        pair = min_distance(table, min_gap=gap)
    assert_is_the_brute_force_minimum(pair, table, gap)


@pytest.mark.parametrize("name", posenc.SCHEMES)
def test_distance_blocks_are_the_full_distance_matrix(name):
    # d = 80 > 33: sin_pow2's slow columns are merged into one (p * 2**-i exactly)
    length, d = 40, 80
    full = np.vstack([b for _, b in distance_blocks(name, length, d, 7.0, block_rows=6)])
    expected = brute_distances(posenc.scheme_table(name, length, d, 7.0))
    np.testing.assert_allclose(full, expected, atol=1e-9)


def test_distance_blocks_of_the_first_positions_of_a_longer_sequence():
    full = np.vstack([b for _, b in distance_blocks("normalised", 5, 3, total_length=11)])
    table = posenc.scheme_table("normalised", 5, 3, total_length=11)
    np.testing.assert_allclose(full, brute_distances(table), atol=1e-12)
    assert full[0, 1] == pytest.approx(np.sqrt(3) / 10)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 60),
    cols=st.integers(1, 5),
    gap=st.integers(1, 70),
    seed=st.integers(0, 2**16),
)
def test_min_distance_finds_the_brute_force_minimum(rows, cols, gap, seed):
    table = np.random.default_rng(seed).integers(-3, 4, size=(rows, cols)).astype(float)
    pair = min_distance(table, min_gap=gap)
    assert_is_the_brute_force_minimum(pair, table, gap)


def test_min_distance_measures_near_duplicates_exactly():
    # large norms, tiny distance: the Gram identity alone would lose it in rounding
    table = np.full((6, 300), 1000.0)
    table[:, 0] = np.arange(6) * 10.0
    table[4, 0] = table[1, 0] + 1e-7
    pair = min_distance(table)
    assert (pair.i, pair.j) == (1, 4)
    assert pair.distance == pytest.approx(1e-7, rel=1e-6)


def test_min_distance_does_not_build_an_l_by_l_matrix():
    table = np.random.default_rng(0).standard_normal((8192, 16))
    tracemalloc.start()
    try:
        min_distance(table)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20, f"{peak / 2**20:.1f} MB"  # L x L float64 would be 512 MB


def test_criteria_at_the_largest_settings_stay_under_200_mb():
    tracemalloc.start()
    try:
        c = scheme_criteria("sinusoidal", 8192, 4096, 1e9, k=64)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"{peak / 2**20:.0f} MB"  # 2L x d float64 = 512 MB
    assert c.pairs_checked == 16384 and c.consistent_offset


def test_pair_search_cap_is_reported():
    c = scheme_criteria("binary", 100, 8, max_pair_rows=64)
    assert c.pairs_checked == 64


# --- sinusoid identities (hypothesis) ----------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    d=st.integers(1, 32).map(lambda n: 2 * n),
    base=st.floats(1.5, 1e6),
    k=st.integers(1, 40),
    length=st.integers(2, 300),
)
def test_sinusoid_step_distance_is_the_same_for_every_p(d, base, k, length):
    # ||e(p+k) - e(p)||^2 = sum_i 2 - 2 cos(omega_i k), independent of p
    table = posenc.sinusoidal(length + k, d, base)
    steps = step_distances(table, k)
    expected = np.sqrt(np.sum(2 - 2 * np.cos(posenc.frequencies(d, base) * k)))
    np.testing.assert_allclose(steps, expected, rtol=1e-9, atol=1e-12)
    assert posenc.offset_distance(k, d, base) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(d=st.integers(1, 16).map(lambda n: 2 * n), base=st.floats(1.5, 1e4), data=st.data())
def test_sinusoid_rows_are_distinct_within_half_the_longest_wavelength(d, base, data):
    # For 1 <= k < pi / omega_last the slowest pair alone turns by less than pi, so
    # ||e(p+k) - e(p)|| >= 2 sin(omega_last / 2) > 0.
    omega_last = posenc.frequencies(d, base)[-1]
    length = data.draw(st.integers(2, int(min(2000, math.pi / omega_last))))
    c = scheme_criteria("sinusoidal", length, d, base)
    assert c.unique
    assert c.min_distance >= 2 * math.sin(omega_last / 2) * (1 - 1e-9)


@settings(max_examples=40, deadline=None)
@given(length=st.integers(2, 200), d=st.integers(1, 16).map(lambda n: 2 * n))
def test_sinusoid_distance_depends_on_the_offset_only(length, d):
    dist = np.vstack([b for _, b in distance_blocks("sinusoidal", length, d, block_rows=50)])
    table = posenc.sinusoidal(length, d)
    np.testing.assert_allclose(dist, brute_distances(table), atol=1e-9)


# --- the counter and its smooth version ---------------------------------------------


def test_counter_base_for_four_bits_is_16():
    assert counter_base(4) == 16.0


@pytest.mark.parametrize("bits", [1, 2, 4, 6])
def test_counter_wavelengths_are_the_bit_periods(bits):
    omega = counter_frequencies(bits)
    np.testing.assert_allclose(2 * np.pi / omega, 2.0 ** np.arange(1, bits + 1))
    # the paper's frequencies with base 2^(d/2), d = 2 bits, times the phase factor pi
    np.testing.assert_allclose(omega, np.pi * posenc.frequencies(2 * bits, counter_base(bits)))


def test_bit_wave_at_integers_is_the_binary_counter():
    codes = posenc.binary(64, 6)
    for i in range(6):
        np.testing.assert_array_equal(bit_wave(np.arange(64), i), codes[:, 5 - i])


@pytest.mark.parametrize("bit", [0, 1, 3])
def test_bit_fundamental_is_the_first_fourier_term_of_the_bit(bit):
    # The square wave through the bits, jumping half-way between positions, projected
    # on the pair at omega_i over one period: no component left at that frequency.
    period = 2.0 ** (bit + 1)
    t = (np.arange(200_000) + 0.5) / 200_000 * period
    omega = np.pi / 2.0**bit
    residual = bit_wave(t + 0.5, bit) - bit_fundamental(t, bit)
    for basis in (np.sin(omega * t), np.cos(omega * t), np.ones_like(t)):
        assert abs(np.mean(residual * basis)) < 1e-4
    # and it is a fixed mix of sin and cos of omega t
    mix = 0.5 - 2 / np.pi * (
        np.cos(omega / 2) * np.sin(omega * t) + np.sin(omega / 2) * np.cos(omega * t)
    )
    np.testing.assert_allclose(bit_fundamental(t, bit), mix, atol=1e-12)


# --- small helpers and errors -------------------------------------------------------


def test_pairwise_distances_of_a_3_4_5_triangle():
    np.testing.assert_allclose(pairwise_distances([[0, 0]], [[3, 4], [0, 0]]), [[5.0, 0.0]])


def test_max_abs_of_the_index_table():
    assert max_abs(posenc.scheme_table("index", 10, 3)) == 9.0


def test_sine_table_of_high_frequencies_brings_far_positions_close():
    path = sine_table(50, [1.0, 0.5, 0.25])
    pair = min_distance(path, min_gap=10)
    assert (pair.i, pair.j) == (8, 33)
    assert pair.distance < 0.1 * step_distances(path).mean()


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: scheme_criteria("gray", 4, 4), "name"),
        (lambda: scheme_criteria("index", 0, 4), "length"),
        (lambda: scheme_criteria("index", 4, 4, k=0), "k"),
        (lambda: scheme_criteria("sinusoidal", 4, 4, base=1.0), "base"),
        (lambda: min_distance([[0.0], [1.0]], min_gap=0), "min_gap"),
        (lambda: min_distance([0.0, 1.0]), "table"),
        (lambda: step_distances([[0.0], [np.nan]]), "table"),
        (lambda: counter_base(0), "bits"),
        (lambda: bit_wave([0.0], -1), "bit"),
        (lambda: sine_table(np.zeros((2, 2)), [1.0]), "positions"),
        (lambda: sine_table(3, [[1.0]]), "omegas"),
        (lambda: posenc.offset_distance([1.0], 3), "d_model"),
        (lambda: list(distance_blocks("binary", 4, 2, block_rows=0)), "block_rows"),
    ],
)
def test_bad_arguments_raise_value_errors_naming_them(call, name):
    with pytest.raises(ValueError, match=name):
        call()
