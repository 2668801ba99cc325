"""The numbers behind statements the texts make (issue #20, section 1), computed with
posenc / numpy, so that a text and the mathematics cannot drift apart. Where a page now
passes a computed number into its text, a page test checks that the number shown is
the computed one."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from support.apptest import run_page_on_tab
from support.paths import ROOT
from support.screen import captions

import posenc
from posenc import criteria, spectrum
from posenc.attention import decay_bound, relative_scores, toeplitz_residual
from ui.features.binary import data as binary_data
from ui.features.binary import specs as bin_specs
from ui.features.rope import data as rope_data
from ui.features.rope import specs as rope_specs
from ui.features.rotation import data as rotation_data
from ui.features.rotation import specs as rot_specs
from ui.features.wavelengths import data as wavelengths_data
from ui.features.wavelengths import specs as wl_specs
from ui.plain.params import BASE, base_limits
from ui.plain.texts import text

TIMEOUT = 120


# ------------------------------------------- 1. wavelengths.drift_intro: div_term error


@pytest.mark.parametrize(("d_model", "measured"), [(128, 4.9e-7), (512, 5.7e-7), (4096, 6.2e-7)])
def test_torch_div_term_is_off_by_8_to_11_times_2_pow_minus_24(d_model, measured):
    truth = spectrum.frequencies_reference(d_model, 10000.0)
    div_term = spectrum.frequencies_logspace(d_model, 10000.0, dtype=np.float32)
    rel = float((np.abs(div_term.astype(np.float64) - truth) / truth).max())
    assert rel == pytest.approx(measured, rel=0.02)
    assert 8 < rel / 2.0**-24 < 11  # not "up to 2^-24": exp amplifies its rounded argument
    assert wavelengths_data.form_errors(d_model, 10000.0)["div_term_rel"] == rel


def test_float_forms_tab_quotes_the_computed_div_term_error():
    at = run_page_on_tab("2_Wavelengths.py", wl_specs, {}, "forms", TIMEOUT)
    rel = wavelengths_data.form_errors(128, 10000.0)["div_term_rel"]
    shown = "\n".join(m.value for m in at.markdown)
    assert f"{rel:.2g}" in shown and f"{rel / 2.0**-24:.2g} × 2⁻²⁴" in shown
    assert "4.9e-07" in shown


# ------------------------------------------- 2. wavelengths.forms_notice: which form grows


def _ulps(form, d_model: int, base: float, dtype=np.float64) -> np.ndarray:
    truth = spectrum.frequencies_reference(d_model, base)
    return spectrum.ulps(form(d_model, base, dtype=dtype), truth)


@pytest.mark.parametrize("d_model", [128, 512, 4096])
@pytest.mark.parametrize("base", [10000.0, 1e9])
def test_power_form_does_not_grow_with_ln_omega_when_d_is_a_power_of_two(d_model, base):
    assert _ulps(spectrum.frequencies_power, d_model, base).max() <= 1
    assert _ulps(spectrum.frequencies_power, d_model, base, np.float32).max() <= 2.5


@pytest.mark.parametrize("d_model", [300, 768])
def test_power_form_grows_with_ln_omega_when_2i_over_d_is_rounded(d_model):
    ulps = _ulps(spectrum.frequencies_power, d_model, 10000.0)
    assert ulps.max() >= 3
    assert ulps[d_model // 4 :].max() > ulps[: d_model // 4].max()  # slow pairs: larger |ln w|


@pytest.mark.parametrize(("base", "top"), [(10000.0, 14), (1e9, 22)])
def test_log_form_grows_with_ln_omega_to_more_than_a_few_ulp(base, top):
    ulps = _ulps(spectrum.frequencies_logspace, 512, base)
    assert ulps.max() == top
    assert ulps[128:].max() > ulps[:128].max()


# ------------------------------------------- 3. binary.distance_notice: not monotonic


@pytest.mark.parametrize(("d_model", "dip"), [(64, 6), (128, 12), (512, 44)])
def test_sinusoid_distance_first_falls_at(d_model, dip):
    distance = posenc.offset_distance(np.arange(dip + 1), d_model)
    assert np.all(np.diff(distance[:dip]) > 0) and distance[dip] < distance[dip - 1]
    assert binary_data.first_distance_dip(d_model, 10000.0, 2048) == dip
    # The heatmap's similarity first rises again at the same offset: |PE|^2 = d/2, so
    # ||PE(0) - PE(k)||^2 = d - 2 PE(0).PE(k) (heatmap.sim_notice: "not monotonic").
    dots = posenc.dot_products(np.arange(dip + 1), d_model)
    assert np.flatnonzero(np.diff(dots) > 0)[0] + 1 == dip


def test_distance_rises_over_a_view_shorter_than_the_first_dip():
    assert binary_data.first_distance_dip(128, 10000.0, 12) is None
    assert binary_data.first_distance_dip(128, 10000.0, 13) == 12


def test_distance_tab_quotes_the_first_dip():
    at = run_page_on_tab("3_Binary_vs_sinusoid.py", bin_specs, {}, "distance", TIMEOUT)
    assert "first falls at k = 12 (d = 128, b = 10000)" in captions(at)
    short = {"seq_len": "10"}
    at = run_page_on_tab("3_Binary_vs_sinusoid.py", bin_specs, short, "distance", TIMEOUT)
    assert "over these 10 positions ‖PE(0) − PE(k)‖ rises" in captions(at)


# ------------------------------------------- 4. binary.counter_derivation: pi is a frequency


@pytest.mark.parametrize("bits", [1, 4, 8])
def test_counter_multiplies_the_papers_frequencies_by_pi(bits):
    paper = posenc.frequencies(2 * bits, criteria.counter_base(bits))
    counter = criteria.counter_frequencies(bits)
    np.testing.assert_allclose(counter / paper, np.pi, rtol=1e-15)
    np.testing.assert_allclose(2 * np.pi / counter, 2.0 ** (np.arange(bits) + 1))  # bit periods
    np.testing.assert_allclose(2 * np.pi / paper, 2 * np.pi * 2.0 ** np.arange(bits))


@pytest.mark.parametrize("bit", [0, 2, 5])
def test_counter_phase_is_the_half_step_shift_from_the_cos_partner(bit):
    t = np.linspace(0, 2.0 ** (bit + 2), 257)
    w = criteria.counter_frequencies(bit + 1)[bit]
    mix = np.cos(w / 2) * np.sin(w * t) + np.sin(w / 2) * np.cos(w * t)
    np.testing.assert_allclose(criteria.bit_fundamental(t, bit), 0.5 - 2 / np.pi * mix, atol=1e-14)


# ------------------------------------------- 5. rope.compare_notice: W breaks Toeplitz


def test_position_term_with_projections_is_not_toeplitz():
    text_ = rope_specs.TEXT.default
    term = rope_data.position_term(64, 10000.0, 256, text_, 0)
    c = rope_data.make_content(64, 1, "sentence", text_, 0)
    pe = posenc.sinusoidal(256, 64)
    whole = (pe @ c.w_q.T) @ (pe @ c.w_k.T).T
    assert term.residual == pytest.approx(toeplitz_residual(whole), rel=1e-12)  # blocked = whole
    assert term.max_abs == pytest.approx(np.abs(whole).max(), rel=1e-12)
    assert term.residual > 0.2 * term.max_abs
    assert toeplitz_residual(pe @ pe.T) < 1e-12 * np.abs(pe @ pe.T).max()  # no W: Toeplitz


def test_compare_tab_quotes_the_position_term_residual_for_a_sentence():
    query = {"rope_content": "sentence"}
    at = run_page_on_tab("5_RoPE.py", rope_specs, query, "compare", TIMEOUT)
    term = rope_data.position_term(64, 10000.0, 256, rope_specs.TEXT.default, 0)
    assert f"residual {term.residual:.3g} against max" in captions(at)
    assert r"$PE_m^\top W_q^\top W_k PE_n$" in captions(at)
    at = run_page_on_tab("5_RoPE.py", rope_specs, {}, "compare", TIMEOUT)
    assert r"$PE_m^\top W_q^\top W_k PE_n$" not in captions(at)  # no projections: random


# ------------------------------------------- 6. RoPE formulas: sqrt(d), h_j, one rotation


@pytest.mark.parametrize(("scale", "shown"), [("true", True), ("false", False)])
def test_scores_formula_divides_by_sqrt_d_only_when_the_toggle_is_on(scale, shown):
    at = run_page_on_tab("5_RoPE.py", rope_specs, {"rope_scale": scale}, "scores", TIMEOUT)
    formulas = [f.value for f in at.latex if "S_{mn} =" in f.value]
    assert len(formulas) == 1 and (r"\sqrt d" in formulas[0]) is shown


@pytest.mark.parametrize("layout", ["interleaved"])
def test_bound_formula_h_j_gives_the_rope_score_and_is_bounded(layout):
    rng = np.random.default_rng(0)
    d, base = 16, 10000.0
    q, k = rng.standard_normal((2, d))
    theta = posenc.rope_frequencies(d, base)[0]
    h = (q[0::2] + 1j * q[1::2]) * (k[0::2] - 1j * k[1::2])  # h_j of the formula
    m, n = np.arange(40), np.arange(40)[::-1]
    r = (m - n).astype(float)
    scores = [posenc.rope(q[None], [mi], base, layout=layout)[0]
              @ posenc.rope(k[None], [ni], base, layout=layout)[0]
              for mi, ni in zip(m, n, strict=True)]  # fmt: skip
    series = np.exp(1j * np.multiply.outer(r, theta)) @ h
    np.testing.assert_allclose(series.real, scores, atol=1e-12)  # Re sum h_j e^{i r theta_j}
    steps = np.abs(np.diff(np.append(h, 0)))  # with h_{d/2} = 0
    assert np.all(np.abs(series) <= steps.max() * (d / 2) * decay_bound(r, theta) + 1e-12)


def test_compare_formula_rotates_each_vector_once():
    at = run_page_on_tab("5_RoPE.py", rope_specs, {}, "compare", TIMEOUT)
    formula = next(f.value for f in at.latex if r"\text{(c) }" in f.value)
    assert r"R(m\theta)q_m" not in formula and r"R(m\theta)q\big)" in formula


# ------------------------------------------- 7. rope.decay_notice_bound: a ceiling


def test_bound_starts_at_half_of_d_over_2_plus_1():
    for d in (4, 64, 256):
        theta = posenc.rope_frequencies(d, 10000.0)[0]
        assert decay_bound([0.0], theta)[0] == pytest.approx((d / 2 + 1) / 2)


def test_expected_score_of_independent_q_and_k_is_zero_at_every_distance():
    rng = np.random.default_rng(1)
    d, draws = 32, 4000
    theta = posenc.rope_frequencies(d, 10000.0)[0]
    r = np.array([0.0, 1.0, 5.0, 50.0, 500.0])
    pairs = rng.standard_normal((draws, 2, d))
    scores = np.array([relative_scores(q, k, r, theta) for q, k in pairs])
    spread = scores.std(axis=0) / math.sqrt(draws)
    assert np.all(np.abs(scores.mean(axis=0)) < 5 * spread)  # 0, not a decaying weight
    assert np.all(scores.std(axis=0) > 0.5 * math.sqrt(d))  # the scores themselves do not fade


# ------------------------------------------- 8. rope.ext_notice_ntk: slower than PI


@pytest.mark.parametrize("factor", [2.0, 4.0, 8.0])
def test_dynamic_ntk_at_s_l0_slows_the_slowest_pair_s2_minus_s_plus_1_times(factor):
    d, orig = 64, 512
    theta = posenc.rope_frequencies(d, 10000.0)[0]
    ntk = posenc.rope_frequencies(
        d, 10000.0, scaling="ntk", factor=factor, original_context=orig,
        context=int(factor * orig),
    )[0]  # fmt: skip
    assert theta[-1] / ntk[-1] == pytest.approx(factor**2 - factor + 1, rel=1e-12)
    base_ntk = ntk[1] ** (-d / 2)
    assert base_ntk == pytest.approx(10000.0 * (factor**2 - factor + 1) ** (d / (d - 2)))


def test_ntk_at_the_defaults_slows_the_slowest_pair_13_times_and_15_pairs_beyond_pi():
    view = rope_data.extension_view(
        head_dim=64, base=10000.0, layout="interleaved", kind="random", text="", seed=0,
        scaling="ntk", factor=4.0, original=512, scale=True,
    )  # fmt: skip
    inv = view["inv_freq"]
    assert view["context"] == 2048
    assert inv["none"][-1] / inv["ntk"][-1] == pytest.approx(13.0)
    assert inv["none"][-1] / inv["linear"][-1] == pytest.approx(4.0)
    assert view["counts"]["ntk"]["beyond"] == 15


def test_ntk_notice_quotes_the_computed_slowdown():
    at = run_page_on_tab("5_RoPE.py", rope_specs, {"rope_scaling": "ntk"}, "extension", TIMEOUT)
    assert "the slowest turns 13× slower (PI: 4×), and 15 of 32 pairs" in captions(at)


# ------------------------------------------- 9. wavelengths.metric_beyond_help


@pytest.mark.parametrize("context", [1, 2, 3, 7, 50, 400])
def test_sine_turns_back_matches_brute_force(context):
    lam = np.geomspace(2.0, 20.0 * context + 20, 3000)
    p = np.arange(context)
    steps = np.diff(np.sin(2 * np.pi * np.outer(p, 1 / lam)), axis=0)
    brute = ~(np.all(steps >= 0, axis=0) | np.all(steps <= 0, axis=0))
    np.testing.assert_array_equal(spectrum.sine_turns_back(lam, context), brute)


def test_nine_of_the_49_pairs_beyond_context_have_a_sine_that_rises_and_falls():
    lam = posenc.wavelengths(128, 10000.0)
    beyond = spectrum.classify_wavelengths(lam, 50).beyond_context
    assert beyond.sum() == 49
    assert (beyond & spectrum.sine_turns_back(lam, 50)).sum() == 9
    at = run_page_on_tab("2_Wavelengths.py", wl_specs, {}, "lambdas", TIMEOUT)
    helps = [m.proto.help for m in at.metric]
    assert any("here 9 of these 49 pairs" in h for h in helps)


# ------------------------------------------- 10. the extrapolation check: codes only


def test_extrapolation_check_is_exactly_bounded_and_distinct_codes_at_2l():
    length, d_model = 50, 128
    row = criteria.scheme_criteria("sinusoidal", length, d_model, 10000.0, k=1)
    table = posenc.sinusoidal(2 * length, d_model)
    gaps = np.linalg.norm(table[:, None] - table[None], axis=-1)[np.triu_indices(2 * length, 1)]
    assert (row.low_2l, row.high_2l) == (table.min(), table.max())
    assert row.min_distance_2l == pytest.approx(gaps.min(), rel=1e-9)
    assert row.extrapolates == bool(np.abs(table).max() <= 1 and gaps.min() > criteria.UNIQUE_TOL)


# ------------------------------------------- 11. rotation.check_bound_help


@pytest.mark.parametrize(("k", "value"), [(1.0, 0.13), (0.5, 0.067), (3.0, 0.40)])
def test_index_one_pair_off_leaves_a_residual_far_from_1(k, value):
    residual = rotation_data.wrong_index_residual(50, 128, 10000.0, k, "interleaved")
    assert residual == pytest.approx(value, abs=0.005)
    omega = posenc.frequencies(128)  # pair 0 dominates: 2 |sin(k (w0 - w1) / 2)|
    assert residual == pytest.approx(2 * abs(math.sin(k * (omega[0] - omega[1]) / 2)), rel=0.01)


def test_check_bound_help_quotes_the_wrong_index_residual():
    at = run_page_on_tab("4_Rotation.py", rot_specs, {"rot_k": "1"}, "check", TIMEOUT)
    assert any("the residual here is 0.13." in m.proto.help for m in at.metric)


# ------------------------------------------- 12. rotation.layout_help: who splits


def test_distilbert_xlm_interleave_and_marian_splits():
    n_pos, dim = 30, 16
    # transformers' create_sinusoidal_embeddings (DistilBERT, XLM) and Marian's _init_weight
    position_enc = np.array([[p / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)]
                             for p in range(n_pos)])  # fmt: skip
    xlm = np.empty((n_pos, dim))
    xlm[:, 0::2], xlm[:, 1::2] = np.sin(position_enc[:, 0::2]), np.cos(position_enc[:, 1::2])
    marian = np.concatenate([np.sin(position_enc[:, 0::2]), np.cos(position_enc[:, 1::2])], 1)
    np.testing.assert_allclose(xlm, posenc.sinusoidal(n_pos, dim, layout="interleaved"), atol=1e-12)
    np.testing.assert_allclose(marian, posenc.sinusoidal(n_pos, dim, layout="split"), atol=1e-12)


# ------------------------------------------- 13. the step-distance identity


@pytest.mark.parametrize("k", [1, 3, 17])
def test_step_distance_is_the_sum_of_2_minus_2_cos(k):
    d_model = 64
    table = posenc.sinusoidal(40 + k, d_model)
    squared = ((table[k:] - table[:-k]) ** 2).sum(axis=1)
    omega = posenc.frequencies(d_model)
    np.testing.assert_allclose(squared, np.sum(2 - 2 * np.cos(omega * k)), rtol=1e-12)


# ------------------------------------------- 14. base_help: the controls' limits


def test_base_help_states_the_limits_the_control_enforces():
    for spec, key in ((BASE, "common.base_help"), (rope_specs.BASE, "rope.base_help")):
        for lang in ("en", "zh"):
            said = text(lang, key, **base_limits(spec))
            assert "1,000,000,000" in said and f"{spec.minimum:g}" in said
        assert spec.parse("1000000000") == 1e9
        with pytest.raises(ValueError):
            spec.parse("1000000001")


# ------------------------------------------- 15. R(m theta) and T(m): one matrix, two sides


def _rope_page_r(m: float, d: int, base: float) -> np.ndarray:
    """R(m theta) as the RoPE page writes it: blocks [[cos, -sin], [sin, cos]] of m theta_j."""
    r = np.zeros((d, d))
    for j, theta in enumerate(base ** (-np.arange(0, d, 2) / d)):
        c, s = math.cos(m * theta), math.sin(m * theta)
        r[2 * j : 2 * j + 2, 2 * j : 2 * j + 2] = [[c, -s], [s, c]]
    return r


@pytest.mark.parametrize("m", [3, 7.5, -4])
def test_r_of_m_theta_is_the_matrix_t_of_m_and_turns_a_row_by_t_of_minus_m(m):
    d, base = 16, 10000.0
    r, t_m = _rope_page_r(m, d, base), posenc.rotation_matrix(m, d, base)
    np.testing.assert_allclose(r, t_m, atol=1e-15)  # the same matrix
    q = np.random.default_rng(2).standard_normal(d)
    rotated = posenc.rope(q[None, :], [m], base)[0]
    np.testing.assert_allclose(rotated, r @ q, atol=1e-12)  # RoPE: column, from the left
    np.testing.assert_allclose(rotated, q @ posenc.rotation_matrix(-m, d, base), atol=1e-12)
    assert not np.allclose(rotated, q @ t_m)  # the row form is T(-m), not T(m)


def test_home_and_rope_texts_say_r_is_t_of_m_on_columns_and_t_of_minus_m_on_rows():
    for lang in ("en", "zh"):
        for key in ("home.notation_rope", "rope.notation_notes"):
            said = text(lang, key)
            assert "T(m)" in said and ("T(-m)" in said or "T(−m)" in said), (lang, key)
        assert "T(m)" in text(lang, "rope.lead") and "T(−m)" in text(lang, "rope.lead")
        assert r"\theta_j" in text(lang, "home.notation_rope")  # j, as on the RoPE page
    home = (ROOT / "ui" / "features" / "home" / "page.py").read_text(encoding="utf-8")
    assert r"q_m^\top = q^\top T(-m)" in home and r"\theta_j = \omega_j" in home


# ------------------------------------------- 16. the longest wavelength: 2 pi b^((d-2)/d)


def test_longest_wavelength_is_one_ratio_below_2_pi_b():
    d, base = 128, 10000.0
    longest = float(posenc.wavelengths(d, base).max())
    assert longest == pytest.approx(2 * math.pi * base ** ((d - 2) / d), rel=1e-12)
    assert round(longest) == 54410 and longest < 0.87 * 2 * math.pi * base  # not "almost 2 pi b"
    assert longest * base ** (2 / d) == pytest.approx(2 * math.pi * base, rel=1e-12)
    for lang, key in itertools.product(
        ("en", "zh"), ("heatmap.main_notice", "binary.flaw_sinusoidal")
    ):
        assert "2π·b^((d−2)/d)" in text(lang, key)


def test_t2t_frequencies_keep_the_first_pair_and_slow_every_later_one():
    """heatmap.fw_what_t2t: exponent i/(d/2 - 1): pair 0 as the paper, the others slower."""
    d, base = 16, 10000.0
    i = np.arange(d // 2)
    t2t, paper = base ** (-i / (d / 2 - 1)), posenc.frequencies(d, base)
    assert t2t[0] == paper[0] == 1 and np.all(t2t[1:] < paper[1:])
    assert 2 * math.pi / t2t[-1] == pytest.approx(2 * math.pi * base)


# ------------------------------------------- 17. wavelengths.metric_beyond_help: 4L - 6


@pytest.mark.parametrize("length", [5, 50, 301])
def test_sine_rises_over_the_integer_positions_iff_its_peak_lies_beyond_them(length):
    """The peak of sin(2 pi p / lambda) is at lambda/4; the samples 0 .. L-1 rise while it
    lies beyond L - 1.5 (between the last two), i.e. lambda >= 4L - 6, not 4(L - 1)."""
    p = np.arange(length)
    for lam, rises in ((4 * length - 6 + 0.01, True), (4 * length - 6 - 0.01, False)):
        assert bool(np.all(np.diff(np.sin(2 * math.pi * p / lam)) > 0)) is rises
        assert bool(spectrum.sine_turns_back([lam], context=length)[0]) is not rises


# ------------------------------------------- 18. heatmap.seed_help: E's entries are N(0, 1/d)


def test_unscaled_embedding_has_standard_deviation_one_over_root_d():
    from ui.features.heatmap import data as heatmap_data

    d = 128
    panels = heatmap_data.embedding_panels(100, d, 10000.0, "interleaved", 0, scaled=False)
    assert panels["emb"].std() == pytest.approx(d**-0.5, rel=0.05)  # N(0, 1/d)
    scaled = heatmap_data.embedding_panels(100, d, 10000.0, "interleaved", 0, scaled=True)
    assert scaled["emb"].std() == pytest.approx(1.0, rel=0.05)  # sqrt(d) E is N(0, 1)


# ------------------------------------------- 19. binary.crit_consistent: 0 up to rounding


def test_sinusoid_changes_by_rounding_when_the_sequence_doubles_and_still_passes():
    c = criteria.scheme_criteria("sinusoidal", 50, 128, 10000.0)
    assert 0 < c.length_change < 1e-12 and c.consistent_length
    assert "up to rounding" in text("en", "binary.crit_consistent").split("2L")[1]
