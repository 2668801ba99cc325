"""Figure builders and specs of the Wavelength explorer: content, seeds, 1 MB budget."""

from __future__ import annotations

import numpy as np
import pytest
from support.screen import decode

import posenc
from posenc import spectrum
from ui.features.wavelengths import data as wl_data
from ui.features.wavelengths import figures as figs
from ui.features.wavelengths import figures_float_forms as ff
from ui.features.wavelengths import specs
from ui.plain.grids import MAX_CHART_BYTES, MAX_LINE_POINTS, chart_bytes
from ui.plain.texts import text


def tr(key: str, **values) -> str:
    """The real English catalogue: a missing key fails here."""
    return text("en", key, **values)


def y_of(trace) -> np.ndarray:
    return np.asarray(decode(trace.to_plotly_json()["y"]), dtype=np.float64)


def lambda_figure(d_model=128, base=1e4, extra=(100.0, 5e5), context=50):
    series = [(b, posenc.wavelengths(d_model, b)) for b in (base, *extra)]
    classes = spectrum.classify_wavelengths(series[0][1], context)
    masks = {
        "full": ~classes.aliased & ~classes.beyond_context,
        "beyond": classes.beyond_context,
        "aliased": classes.aliased,
    }
    words = dict(  # as the page translates them
        titles=(tr("wavelengths.fig_lambda"), tr("wavelengths.fig_omega")),
        names=[tr("wavelengths.series_base", base=f"{b:g}") for b, _ in series],
        class_names={
            key: tr(f"wavelengths.class_{key}", count=int(mask.sum()))
            for key, mask in masks.items()
        },
        context_names=(
            tr("wavelengths.line_context", context=context),
            tr("wavelengths.line_context_omega", context=context),
        ),
        nyquist_names=(tr("wavelengths.line_nyquist"), tr("wavelengths.line_nyquist_omega")),
        x_title=tr("wavelengths.pair_axis"),
    )
    return figs.wavelength_figure(np.arange(d_model // 2), series, masks, context, **words)


def clock(d_model=128, base=1e4, p0=0, step=1, dials=12):
    pairs = wl_data.dial_pairs(d_model // 2, dials)
    positions = p0 + step * np.arange(figs.MAX_FRAMES)
    x, y, _ = spectrum.clock_hands(positions, pairs, d_model, base)
    lam = posenc.wavelengths(d_model, base)[pairs]
    labels = [f"pair {i}, λ = {w:.4g}" for i, w in zip(pairs, lam, strict=True)]
    fig = figs.clock_figure(labels, positions, x, y, play="play", pause="pause")
    return fig, pairs, x, y


def curve_words(dims, lang="en"):
    """What the page passes to ``curves_figure``, in ``lang``."""
    return dict(
        names=[text(lang, "wavelengths.series_dim", dim=j) for j in dims],
        x_title=text(lang, "common.position"),
        y_title=text(lang, "common.value"),
    )


def sine_marks(a, b, c, d):
    """The legend names the Sine basics tab passes to ``sine_figure``."""
    parts = figs.sine_parts(b, c)
    return {
        "midline": tr("wavelengths.basics_midline", d=f"{d:g}"),
        "period": tr("wavelengths.basics_period", period=f"{parts.period:.4g}"),
        "amplitude": tr("wavelengths.basics_amplitude", a=f"{a:g}"),
        "phase": tr("wavelengths.basics_phase", shift=f"{parts.shift:.4g}"),
    }


FORM_WORDS = dict(form_names={"power": "power", "log": "log"}, x_title="i", y_title="ulp")
DRIFT_WORDS = dict(
    names={k: k for k in ("torch_f32", "div_term_only", "rounded_f32", "bound")},
    x_title="p",
    y_title="error",
)


# --- wavelengths ------------------------------------------------------------------


def test_wavelength_figure_draws_lambda_and_omega_of_every_base_on_log_axes():
    fig = lambda_figure()
    names = [t.name for t in fig.data if t.name and t.name.startswith("b = ")]
    assert names == ["b = 10000"] * 2 + ["b = 100"] * 2 + ["b = 500000"] * 2
    assert fig.layout.yaxis.type == "log" and fig.layout.yaxis2.type == "log"
    lam = y_of(fig.data[0])
    np.testing.assert_array_equal(lam, posenc.wavelengths(128, 1e4))
    np.testing.assert_allclose(y_of(fig.data[1]), posenc.frequencies(128, 1e4), rtol=1e-15)


def test_context_classes_are_coloured_and_counted_in_the_legend():
    fig = lambda_figure(context=50)
    beyond = int((posenc.wavelengths(128, 1e4) > 50).sum())
    labels = [t.name for t in fig.data if t.mode == "markers"]
    assert labels == [
        tr("wavelengths.class_full", count=64 - beyond),
        tr("wavelengths.class_beyond", count=beyond),
    ]


def test_reference_lines_sit_at_the_context_and_nyquist_levels():
    fig = lambda_figure(context=77)
    levels = {
        t.text[1]: y_of(t)[0] for t in fig.data if t.mode == "lines+text" and t.text is not None
    }
    assert levels[tr("wavelengths.line_context", context=77)] == 77
    assert levels[tr("wavelengths.line_nyquist")] == 2
    assert levels[tr("wavelengths.line_nyquist_omega")] == pytest.approx(np.pi)
    assert levels[tr("wavelengths.line_context_omega", context=77)] == pytest.approx(2 * np.pi / 77)


def test_wavelength_figure_at_d_model_4096_with_six_extra_bases_is_under_1_mb():
    fig = lambda_figure(4096, 1e9, extra=(1.000001, 2.0, 100.0, 1e4, 5e5, 1e8), context=8192)
    assert chart_bytes(fig) < MAX_CHART_BYTES


def test_wavelength_figure_with_a_single_pair():
    fig = lambda_figure(2, 1.0 + 1e-9, extra=(), context=1)
    assert chart_bytes(fig) < MAX_CHART_BYTES


# --- curves (seed 003) and vectors (seed 004) ---------------------------------------


def test_seed_003_curves_are_dims_4_to_7_of_the_d20_table_over_100_positions():
    positions = np.arange(100)
    dims = [4, 5, 6, 7]
    values = posenc.encode_positions(positions, 20, 10000.0, dims=dims)
    fig = figs.curves_figure(positions, values, dims, **curve_words(dims))
    table = posenc.sinusoidal(100, 20, 10000.0)
    assert [t.name for t in fig.data] == ["dim 4", "dim 5", "dim 6", "dim 7"]
    for trace, dim in zip(fig.data, dims, strict=True):
        np.testing.assert_allclose(y_of(trace), table[:, dim], atol=1e-7)
    zh = figs.curves_figure(positions, values, dims, **curve_words(dims, "zh"))
    assert [t.hovertemplate.split("<br>")[0] for t in zh.data] == [t.name for t in zh.data]
    assert zh.data[0].name == "第 4 维"


def test_seed_004_panels_are_the_sines_of_pairs_0_to_99_at_k_0_4_8_12():
    ks = [0, 4, 8, 12]
    x = np.arange(100)
    values = posenc.encode_positions(ks, 512, 10000.0, dims=2 * x)
    fig = figs.vectors_figure(x, values, ks, tr("wavelengths.vec_x_pairs"))
    assert [a.text for a in fig.layout.annotations] == ["p = 0", "p = 4", "p = 8", "p = 12"]
    for trace, k in zip(fig.data, ks, strict=True):
        seed = np.sin(k / np.power(10000, 2 * x / 512))  # plotSinusoid of seed 004
        np.testing.assert_allclose(y_of(trace), seed, atol=1e-7)


def test_curves_at_the_line_budget_stay_under_1_mb():
    stride = wl_data.line_stride(8192)
    positions = np.arange(0, 8192, stride)
    assert positions.size <= MAX_LINE_POINTS
    dims = list(range(4084, 4096))  # the most dims the spec allows
    values = posenc.encode_positions(positions, 4096, 1e9, dims=dims)
    fig = figs.curves_figure(positions, values, dims, **curve_words(dims))
    assert chart_bytes(fig) < MAX_CHART_BYTES


def test_vectors_of_eight_full_rows_at_d_model_4096_stay_under_1_mb():
    ks = [0, 1, 10, 100, 1000, 10**4, 10**5, 10**6]
    x = np.arange(4096)
    fig = figs.vectors_figure(x, posenc.encode_positions(ks, 4096, 1e4, dims=x), ks, "j")
    assert len(fig.data) == 8 and chart_bytes(fig) < MAX_CHART_BYTES


@pytest.mark.parametrize("n, expected", [(1, 1), (5000, 1), (5001, 2), (8192, 2), (15001, 4)])
def test_line_stride_keeps_at_most_5000_points(n, expected):
    assert wl_data.line_stride(n) == expected
    assert -(-n // expected) <= MAX_LINE_POINTS


# --- clock -------------------------------------------------------------------------


def test_clock_hands_point_at_the_encoding_pair_of_every_dial():
    fig, pairs, _, _ = clock(d_model=20, p0=5)
    hand = fig.data[-1]
    tips_x = np.array(hand.x[1::3], dtype=float)
    tips_y = np.array(hand.y[1::3], dtype=float)
    centres_x = np.array(hand.x[0::3], dtype=float)
    centres_y = np.array(hand.y[0::3], dtype=float)
    row = posenc.sinusoidal(1, 20, 10000.0, offset=5)[0]
    np.testing.assert_allclose((tips_x - centres_x) / 0.9, row[2 * pairs], atol=2e-4)
    np.testing.assert_allclose((tips_y - centres_y) / 0.9, row[2 * pairs + 1], atol=2e-4)


def test_clock_animation_has_one_frame_per_position_and_moves_only_the_hands():
    fig, _, x, _ = clock(p0=10, step=3)
    assert len(fig.frames) == figs.MAX_FRAMES
    assert [f.name for f in fig.frames[:3]] == ["10", "13", "16"]
    assert all(f.traces == (len(fig.data) - 1,) for f in fig.frames)
    last = fig.frames[-1].data[0]
    tip = (np.array(last.x[1::3], dtype=float) - np.array(last.x[0::3], dtype=float)) / 0.9
    np.testing.assert_allclose(tip, x[-1], atol=2e-4)
    steps = fig.layout.sliders[0].steps
    assert len(steps) == figs.MAX_FRAMES and list(steps[1].args[0]) == ["13"]
    play = fig.layout.updatemenus[0].buttons[0]
    assert play.method == "animate" and play.args[1]["fromcurrent"] is True


def test_clock_with_48_dials_at_d_model_4096_and_far_positions_is_under_1_mb():
    fig, pairs, _, _ = clock(d_model=4096, base=1e9, p0=8192, step=1024, dials=48)
    assert pairs.size == 48
    assert chart_bytes(fig) < MAX_CHART_BYTES


@pytest.mark.parametrize("n_pairs, n_dials", [(1, 12), (64, 12), (2048, 48), (5, 5), (3, 1)])
def test_dial_pairs_spread_from_the_first_to_the_last_pair(n_pairs, n_dials):
    pairs = wl_data.dial_pairs(n_pairs, n_dials)
    assert pairs.size == min(n_pairs, n_dials)
    assert np.all(np.diff(pairs) > 0)
    assert pairs[0] == 0
    if n_dials > 1:
        assert pairs[-1] == n_pairs - 1


# --- frequency forms and drift -------------------------------------------------------


def test_forms_figure_shows_both_forms_in_both_dtypes():
    truth = spectrum.frequencies_reference(64, 1e4)
    errors = {
        dtype: (
            spectrum.ulps(spectrum.frequencies_power(64, 1e4, dtype=dtype), truth),
            spectrum.ulps(spectrum.frequencies_logspace(64, 1e4, dtype=dtype), truth),
        )
        for dtype in ("float64", "float32")
    }
    fig = ff.forms_figure(np.arange(32), errors, **FORM_WORDS)
    assert len(fig.data) == 4
    assert [a.text for a in fig.layout.annotations] == ["float64", "float32"]
    np.testing.assert_array_equal(y_of(fig.data[1]), errors["float64"][1])


def test_drift_figure_leaves_out_position_0_and_marks_the_context():
    positions = wl_data.drift_positions(50)
    assert {0, 49, 8191, 99999} <= set(positions.tolist())
    drift = spectrum.float32_drift(positions, 512, 1e4)
    fig = ff.drift_figure(positions, drift, 50, **DRIFT_WORDS)
    assert y_of(fig.data[0]).size == positions.size - 1
    assert fig.layout.xaxis.type == "log"
    marker = fig.data[-1]
    assert marker.text[1] == "L − 1 = 49" and list(marker.x) == [49, 49]
    assert chart_bytes(fig) < MAX_CHART_BYTES


def test_drift_figure_without_a_context_line_when_l_is_1():
    positions = wl_data.drift_positions(1)
    drift = spectrum.float32_drift(positions, 4096, 1e9)
    fig = ff.drift_figure(positions, drift, 1, **DRIFT_WORDS)
    assert not any(t.mode == "lines+text" for t in fig.data)


# --- specs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, raw, values",
    [
        (specs.DIMS, "4, 5, 6, 7", (4, 5, 6, 7)),
        (specs.DIMS, "4,5，6 ,  7", (4, 5, 6, 7)),
        (specs.DIMS, "7, 7, 3", (7, 3)),
        (specs.POSITIONS, "1000000", (1_000_000,)),
        (specs.BASES, "", ()),
        (specs.BASES, "100, 1e4, 2.5, .5e1", (100.0, 1e4, 2.5, 5.0)),
    ],
)
def test_number_lists_parse(spec, raw, values):
    assert spec.values(raw) == values
    assert spec.parse(raw) == raw  # the text itself goes into share links


@pytest.mark.parametrize(
    "spec, raw, fragment",
    [
        (specs.DIMS, "", "at least one"),
        (specs.DIMS, "4, x", "'x' is not a whole number"),
        (specs.DIMS, "4,,5", "'(empty)'"),
        (specs.DIMS, "-1", "not a whole number"),
        (specs.DIMS, "4.0", "not a whole number"),
        (specs.DIMS, "4096", "outside"),
        (specs.DIMS, ",".join(str(i) for i in range(13)), "at most 12"),
        (specs.POSITIONS, "1000001", "outside"),
        (specs.BASES, "1", "outside (1, 1e+09]"),
        (specs.BASES, "nan", "not a number"),
        (specs.BASES, "inf", "not a number"),
        (specs.BASES, "1e400", "outside"),
        (specs.BASES, "1_000", "not a number"),
        (specs.BASES, "2,3,4,5,6,7,8", "at most 6"),
        (specs.BASES, "9" * 200, "longer than"),
    ],
)
def test_bad_number_lists_name_the_key_and_the_problem(spec, raw, fragment):
    with pytest.raises(ValueError, match=spec.key) as error:
        spec.parse(raw)
    assert fragment in str(error.value)


@pytest.mark.parametrize("spec", [specs.BASES, specs.DIMS, specs.POSITIONS])
@pytest.mark.parametrize("which", ["min", "max"])
def test_the_extremes_of_a_number_list_are_valid(spec, which):
    raw = spec.extreme(which)
    values = spec.values(raw)
    assert len(values) <= spec.max_count
    if which == "max" and values:
        assert max(values) == spec.maximum


def test_specs_are_page_prefixed_and_presets_set_only_known_keys():
    keys = {s.key for s in specs.SPECS}
    assert all(key.startswith("wl_") for key in keys)
    for preset in specs.PRESETS.values():
        assert set(preset) <= keys | {"d_model", "seq_len", "base"}
        for key, value in preset.items():
            spec = next((s for s in specs.SPECS if s.key == key), None)
            if spec is not None:
                spec.parse(str(value))


@pytest.mark.parametrize(
    ("a", "b", "c", "d"),
    [
        (1.0, 1.0, 0.0, 0.0),
        (2.5, 8 * np.pi, 0.0, -1.0),
        (0.3, 0.25, -3.14, 2.0),
        (1.7, 3.3, 1.2, 0.4),
    ],
)
def test_sine_figure_draws_a_sin_bx_plus_c_plus_d_with_its_parts_marked(a, b, c, d):
    fig = figs.sine_figure(a, b, c, d, marks=sine_marks(a, b, c, d)).to_plotly_json()
    reference, wave, midline, period, amplitude, rise = fig["data"]
    x = np.asarray(decode(wave["x"]), dtype=float)
    np.testing.assert_allclose(decode(wave["y"]), a * np.sin(b * x + c) + d, atol=1e-12)
    np.testing.assert_allclose(decode(reference["y"]), np.sin(x), atol=1e-12)
    assert x[0] == 0 and x[-1] == pytest.approx(4 * 2 * np.pi / b)  # four periods
    assert list(decode(midline["y"])) == [d, d]
    # One period at the top, from a peak: y(peak) = D + A and y(peak + T) = D + A.
    x0, x1 = decode(period["x"])
    assert x1 - x0 == pytest.approx(2 * np.pi / b)
    for end in (x0, x1):
        assert a * np.sin(b * end + c) + d == pytest.approx(d + a, abs=1e-9)
    assert list(decode(amplitude["y"])) == pytest.approx([d, d + a])
    # The rise: on the midline, going up, within the first period.
    (up,) = decode(rise["x"])
    assert 0 <= up < 2 * np.pi / b
    assert np.sin(b * up + c) == pytest.approx(0, abs=1e-9) and np.cos(b * up + c) > 0
    assert f"{-c / b + 0.0:.4g}" in rise["name"]


def test_sine_parts_of_an_unshifted_wave_say_0_not_minus_0():
    assert f"{figs.sine_parts(1.0, 0.0).shift:.4g}" == "0"
    fig = figs.sine_figure(1.0, 1.0, 0.0, 0.0, marks=sine_marks(1.0, 1.0, 0.0, 0.0))
    fig = fig.to_plotly_json()
    assert "-0" not in fig["data"][-1]["name"]


def test_seed_003s_four_times_between_0_and_1_has_frequency_4_and_period_a_quarter():
    parts = figs.sine_parts(8 * np.pi, 0.0)
    assert (parts.period, parts.frequency) == pytest.approx((0.25, 4.0))
    fig = figs.sine_figure(1.0, 8 * np.pi, 0.0, 0.0, marks=sine_marks(1.0, 8 * np.pi, 0, 0))
    fig = fig.to_plotly_json()
    x = np.asarray(decode(fig["data"][1]["x"]), dtype=float)
    assert x[-1] == pytest.approx(1.0)  # the figure spans x = 0 .. 1, as the seed's does
    crossings = np.sum(np.diff(np.sign(np.sin(8 * np.pi * x[1:-1]))) > 0)
    assert crossings == 3  # 4 cycles in [0, 1]: 3 upward crossings strictly inside


def test_curve_samples_at_the_largest_dense_length_stay_under_1_mb():
    x = wl_data.curve_samples(MAX_LINE_POINTS)
    assert x.size <= MAX_LINE_POINTS and wl_data.curve_samples(MAX_LINE_POINTS + 1) is None
    dims = list(range(4084, 4096))
    values = posenc.encode_positions(x, 4096, 1e9, dims=dims)
    fig = figs.curves_figure(x, values, dims, **curve_words(dims))
    assert chart_bytes(fig) < MAX_CHART_BYTES
    x = wl_data.curve_samples(figs.MAX_MARKERS)  # the longest curve with dots
    fig = figs.curves_figure(
        x, posenc.encode_positions(x, 4096, 1e9, dims=dims), dims, **curve_words(dims), marked=True
    )
    assert chart_bytes(fig) < MAX_CHART_BYTES


@pytest.mark.parametrize("length", [2, 50, 313, 400, 4999])
def test_curve_samples_hold_every_integer_position(length):
    x = wl_data.curve_samples(length)
    assert x.size <= MAX_LINE_POINTS and x[-1] == length - 1
    assert set(range(length)) <= set(x.tolist())
