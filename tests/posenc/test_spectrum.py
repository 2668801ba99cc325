"""posenc.spectrum: wavelengths, the two frequency forms, clock hands, float32 drift.

Float32 numbers are checked against rows of the real torch buffer stored in
tests/peers/peer_values.npz (never retyped).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import peers as peers_module

import posenc
from posenc import spectrum

U = 2.0**-53  # unit roundoff of float64
DRIFT_KEYS = ("torch_pe_f32_at8192_d512", "torch_pe_f32_at100000_d64")

d_models = st.integers(1, 2048).map(lambda h: 2 * h)
bases = st.floats(1.0 + 1e-6, 1e9)


@pytest.fixture(scope="module")
def peers():
    values = {key: peers_module.peer(key) for key in peers_module.keys("")}
    return values, peers_module.settings()


# --- wavelengths -------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(d_model=d_models, base=bases)
def test_wavelengths_are_strictly_increasing_and_geometric(d_model, base):
    lam = posenc.wavelengths(d_model, base)
    ratio = spectrum.wavelength_ratio(d_model, base)
    assert lam[0] == pytest.approx(2 * np.pi, rel=1e-15)
    assert np.all(np.diff(lam) > 0)
    np.testing.assert_allclose(lam[1:] / lam[:-1], ratio, rtol=64 * U * (1 + math.log(base)))


@settings(max_examples=40, deadline=None)
@given(d_model=d_models, base=bases)
def test_ratio_to_the_power_d_over_2_is_the_base(d_model, base):
    ratio = spectrum.wavelength_ratio(d_model, base)
    assert ratio ** (d_model / 2) == pytest.approx(base, rel=1e-12 * d_model)


def test_last_wavelength_stops_one_ratio_short_of_2_pi_base():
    lam = posenc.wavelengths(512, 10000.0)
    assert lam[-1] * spectrum.wavelength_ratio(512, 10000.0) == pytest.approx(2 * np.pi * 1e4)


# --- the two forms of the frequencies -----------------------------------------------


def _form_bound(d_model: int, base: float) -> float:
    """Relative bound on |power - log| in float64: both forms err by a few roundings of
    the exponent x = -2i ln(base)/d, magnified by |x| inside exp/pow (module notes)."""
    largest_exponent = math.log(base) * (d_model - 2) / d_model
    return (4 * largest_exponent + 4) * U


@settings(max_examples=80, deadline=None)
@given(d_model=d_models, base=bases)
def test_log_space_and_power_forms_agree_within_their_rounding_bound(d_model, base):
    power = spectrum.frequencies_power(d_model, base)
    log = spectrum.frequencies_logspace(d_model, base)
    rel = np.abs(power - log) / power
    assert rel.max() <= _form_bound(d_model, base)


def test_the_forms_differ_by_more_than_1e_15_relative_at_the_paper_settings():
    # The frequently quoted "identical to 1e-15" does not hold: a few ulps apart.
    comparison = spectrum.compare_forms(512, 10000.0)
    assert 1e-15 < comparison.max_rel < _form_bound(512, 10000.0)


@pytest.mark.parametrize("base", [100.0, 10000.0, 500000.0, 1e9])
def test_log_space_form_is_less_accurate_than_power_form_in_float64(base):
    comparison = spectrum.compare_forms(512, base)
    assert comparison.power_ulps <= 1
    assert comparison.log_ulps > comparison.power_ulps


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_both_forms_stay_within_a_few_dozen_ulps_of_the_exact_value(dtype):
    for d_model, base in [(20, 1e4), (512, 1e4), (4096, 1e9), (4, 1.0001)]:
        comparison = spectrum.compare_forms(d_model, base, dtype=dtype)
        assert comparison.power_ulps <= 8
        assert comparison.log_ulps <= 32


def test_reference_is_the_correctly_rounded_power():
    ref = spectrum.frequencies_reference(8, 10000.0)
    assert ref.tolist() == [1.0, 0.1, 0.01, 0.001]
    assert spectrum.frequencies_reference(2, 2.0).tolist() == [1.0]


def test_float32_forms_are_float32():
    assert spectrum.frequencies_power(8, dtype=np.float32).dtype == np.float32
    assert spectrum.frequencies_logspace(8, dtype="float32").dtype == np.float32


def test_float64_log_form_reproduces_torch_float64_buffer(peers):
    values, _ = peers
    torch64 = values["torch_pe_f64_L100_d512"]
    angle = np.arange(100.0)[:, None] * spectrum.frequencies_logspace(512, 10000.0)
    ours = np.empty_like(torch64)
    ours[:, 0::2], ours[:, 1::2] = np.sin(angle), np.cos(angle)
    np.testing.assert_allclose(ours, torch64, rtol=0, atol=1e-15)


def test_ulps_counts_units_in_the_last_place():
    one = np.float32(1.0)
    assert spectrum.ulps(np.array([np.nextafter(one, np.float32(2))]), [1.0]).tolist() == [1.0]
    assert spectrum.ulps(np.array([1.0 + 4 * 2.0**-52]), [1.0]).tolist() == [4.0]
    with pytest.raises(ValueError, match="same shape"):
        spectrum.ulps([1.0, 2.0], [1.0])


# --- table entries and clock hands ------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(d_model=st.integers(1, 64).map(lambda h: 2 * h), base=bases, length=st.integers(1, 300))
def test_encode_positions_dims_equal_the_sinusoidal_table(d_model, base, length):
    table = posenc.sinusoidal(length, d_model, base)
    dims = np.arange(d_model)
    np.testing.assert_allclose(
        posenc.encode_positions(np.arange(length), d_model, base, dims=dims),
        table,
        rtol=0,
        atol=1e-12,
    )


@settings(max_examples=40, deadline=None)
@given(
    d_model=st.integers(1, 256).map(lambda h: 2 * h),
    base=bases,
    position=st.floats(-1e4, 1e4),
    data=st.data(),
)
def test_clock_hands_are_the_encoding_pairs_on_the_unit_circle(d_model, base, position, data):
    pairs = np.array(data.draw(st.lists(st.integers(0, d_model // 2 - 1), min_size=1)))
    x, y, turns = spectrum.clock_hands([position], pairs, d_model, base)
    row = posenc.sinusoidal(1, d_model, base, offset=position)[0]
    np.testing.assert_allclose(x[0], row[2 * pairs], atol=1e-9)
    np.testing.assert_allclose(y[0], row[2 * pairs + 1], atol=1e-9)
    np.testing.assert_allclose(x**2 + y**2, 1.0, atol=1e-12)
    omega = posenc.frequencies(d_model, base)[pairs]
    np.testing.assert_allclose(turns[0] * 2 * np.pi, position * omega, rtol=1e-14, atol=1e-300)


def test_a_hand_turns_clockwise_from_twelve_o_clock():
    x, y, turns = spectrum.clock_hands([0.0, np.pi / 2, np.pi], [0], 4)
    np.testing.assert_allclose(x[:, 0], [0, 1, 0], atol=1e-15)  # 12, 3, 6 o'clock
    np.testing.assert_allclose(y[:, 0], [1, 0, -1], atol=1e-15)
    np.testing.assert_allclose(turns[:, 0], [0, 0.25, 0.5])


# --- context classes -----------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(d_model=d_models, base=bases, context=st.integers(1, 10**6))
def test_no_sinusoidal_pair_is_aliased_and_long_pairs_form_a_suffix(d_model, base, context):
    lam = posenc.wavelengths(d_model, base)
    classes = spectrum.classify_wavelengths(lam, context)
    assert not classes.aliased.any()  # lambda_0 = 2 pi > 2
    beyond = classes.beyond_context
    first = int(np.argmax(beyond)) if beyond.any() else lam.size
    assert not beyond[:first].any() and beyond[first:].all()
    assert beyond.sum() == sum(value > context for value in lam.tolist())


def test_classes_mark_aliased_and_long_wavelengths():
    classes = spectrum.classify_wavelengths([1.0, 1.999, 2.0, 50.0, 50.5], context=50)
    assert classes.aliased.tolist() == [True, True, False, False, False]
    assert classes.beyond_context.tolist() == [False, False, False, False, True]


# --- float32 drift, against the real torch buffer --------------------------------------


@pytest.mark.parametrize("key", DRIFT_KEYS)
def test_torch_style_row_matches_the_real_torch_row(peers, key):
    values, meta = peers
    setting = meta[key]
    position, d_model, base = setting["position"], setting["d"], setting["base"]
    torch_row = values[key].astype(np.float64)
    ours = spectrum.torch_rows_f32([position], d_model, base)[0].astype(np.float64)
    gap = np.abs(ours - torch_row)
    # torch's float32 exp is faithful, ours correctly rounded: a few div_term entries
    # differ by one ulp, which moves those angles by about p * 2**-24 * omega.
    assert np.mean(gap <= 2.0**-23) >= 0.95
    assert gap.max() <= position * 2.0**-22


@pytest.mark.parametrize("key", DRIFT_KEYS)
def test_exact_row_reproduces_the_peers_measured_drift(peers, key):
    values, meta = peers
    setting = meta[key]
    position, d_model, base = setting["position"], setting["d"], setting["base"]
    exact = posenc.encode_positions([position], d_model, base, dims=np.arange(d_model))[0]
    drift = np.abs(values[key].astype(np.float64) - exact).max()
    assert drift == pytest.approx(setting["max_abs_err_vs_float64_formula"], rel=1e-6)


@pytest.mark.parametrize("key", DRIFT_KEYS)
def test_modelled_drift_agrees_with_torch_drift(peers, key):
    _, meta = peers
    setting = meta[key]
    drift = spectrum.float32_drift([setting["position"]], setting["d"], setting["base"])
    assert drift.torch_f32[0] == pytest.approx(setting["max_abs_err_vs_float64_formula"], rel=0.1)
    assert drift.rounded_f32[0] <= 2.0**-25


@pytest.mark.parametrize("length, d_model", [(100, 512), (50, 128), (4, 4)])
def test_torch_style_table_matches_torch_at_small_positions(peers, length, d_model):
    values, _ = peers
    torch_table = values[f"torch_pe_f32_L{length}_d{d_model}"].astype(np.float64)
    ours = spectrum.torch_rows_f32(np.arange(length), d_model).astype(np.float64)
    assert np.abs(ours - torch_table).max() <= length * 2.0**-22


@settings(max_examples=40, deadline=None)
@given(
    d_model=st.integers(1, 256).map(lambda h: 2 * h),
    base=bases,
    positions=st.lists(st.integers(0, 2**20), min_size=1, max_size=8),
)
def test_drift_is_bounded_by_the_float32_roundings(d_model, base, positions):
    drift = spectrum.float32_drift(positions, d_model, base)
    p = np.asarray(positions, dtype=np.float64)
    # div_term rel. error <= 2**-24 (+ exponent rounding), product rounding <= p 2**-24.
    bound = p * 2.0**-24 * (3 + 2 * math.log(base)) + 2.0**-23
    assert np.all(drift.torch_f32 <= bound)
    assert np.all(drift.div_term_only <= bound)
    assert np.all(drift.rounded_f32 <= 2.0**-25)


def test_drift_grows_with_the_position():
    drift = spectrum.float32_drift([10, 1000, 100000], 512)
    assert drift.torch_f32[0] < drift.torch_f32[1] < drift.torch_f32[2]
    assert drift.torch_f32[2] > 1e3 * drift.rounded_f32[2]


@pytest.mark.parametrize("key", DRIFT_KEYS)
def test_torch_angles_are_the_angles_torch_took_the_sine_of(peers, key):
    """Against the real torch row, not a rebuild of the code: the sines of our float32
    angles are torch's (to float32 rounding), the sines of the exact angles are not."""
    values, meta = peers
    setting = meta[key]
    position, d_model, base = setting["position"], setting["d"], setting["base"]
    angles = spectrum.torch_angles_f32([position], d_model, base)[0]
    assert angles.dtype == np.float32
    torch_sin = values[key][0::2].astype(np.float64)
    ours = np.abs(np.sin(angles.astype(np.float64)) - torch_sin)
    exact = np.abs(np.sin(position * posenc.frequencies(d_model, base)) - torch_sin)
    assert np.mean(ours <= 2.0**-23) >= 0.95
    assert exact.max() > 100 * 2.0**-23


# --- input checks ------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: spectrum.frequencies_power(7), "d_model"),
        (lambda: spectrum.frequencies_logspace(8, base=1.0), "base"),
        (lambda: spectrum.frequencies_power(8, dtype=np.int32), "dtype"),
        (lambda: spectrum.frequencies_reference(0), "d_model"),
        (lambda: spectrum.wavelength_ratio(8, base=float("nan")), "base"),
        (lambda: posenc.encode_positions([0], 8, dims=[8]), "dims"),
        (lambda: posenc.encode_positions([0], 8, dims=[-1]), "dims"),
        (lambda: posenc.encode_positions([0], 8, dims=[0.5]), "dims"),
        (lambda: posenc.encode_positions([np.inf], 8, dims=[0]), "positions"),
        (lambda: posenc.encode_positions([[0, 1]], 8, dims=[0]), "positions"),
        (lambda: spectrum.clock_hands([0], [4], 8), "pairs"),
        (lambda: spectrum.classify_wavelengths([1.0, -2.0], 5), "wavelengths"),
        (lambda: spectrum.classify_wavelengths([1.0], 0), "context"),
        (lambda: spectrum.torch_angles_f32([-1], 8), "positions"),
        (lambda: spectrum.torch_angles_f32([1.5], 8), "positions"),
        (lambda: spectrum.torch_rows_f32([2**24 + 1], 8), "positions"),
        (lambda: spectrum.float32_drift(["a"], 8), "positions"),
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
