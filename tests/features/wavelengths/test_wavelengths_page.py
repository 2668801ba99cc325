"""The Wavelength explorer page in AppTest: every control, both presets, URL, budgets."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from support.apptest import Page, rerun
from support.screen import chart, chart_ids, chart_keys, chart_sizes, decode, notice_text
from support.views import setting_label

import posenc
from posenc import spectrum
from ui.features.wavelengths import figures as figs
from ui.features.wavelengths import specs
from ui.plain.grids import MAX_CHART_BYTES
from ui.plain.params import LANG

# Charts per tab (lazy tabs: only the open one runs): seven in all.
CHARTS = {
    "lambdas": ["wl_lambda_chart"],
    "curves": ["wl_curves_chart"],
    "vector": ["wl_vector_chart"],
    "clock": ["wl_clock_chart"],
    "forms": ["wl_forms_chart", "wl_drift_chart"],
    "basics": ["wl_basics_chart"],
}
# Formulas per tab: eight in all (the forms tab: both forms and the drift).
FORMULAS = {"lambdas": 1, "curves": 1, "vector": 1, "clock": 1, "forms": 3, "basics": 1}
# Download buttons per tab: three per figure with data (the forms tab has two), one for
# the clock and the sine basics.
DOWNLOADS = {"lambdas": 3, "curves": 3, "vector": 3, "clock": 1, "forms": 3 * 2, "basics": 1}
LAMBDA, CURVES, VECTORS, CLOCK, FORMS, DRIFT, BASICS = (
    key for keys in CHARTS.values() for key in keys
)


PAGE = Page("2_Wavelengths.py", specs, timeout=120)
tab_label, open_page, open_tab = PAGE.tab_label, PAGE.open, PAGE.open_tab


def draws(at: AppTest, tab: str) -> bool:
    """Whether exactly the charts of ``tab`` are on screen."""
    return chart_keys(at) == CHARTS[tab]


def base_names(at: AppTest) -> list[str]:
    traces = chart(at, LAMBDA)["data"]
    return [t["name"] for t in traces if t.get("showlegend") is not False and "b = " in t["name"]]


def test_page_opens_at_defaults_on_the_wavelengths_tab():
    at = open_page()
    assert draws(at, "lambdas"), chart_ids(at)  # lazy tabs: only the open one is computed
    assert not at.warning


@pytest.mark.parametrize("tab", specs.TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab
def test_each_tab_draws_its_own_charts_and_no_notice(tab):
    assert sum(len(keys) for keys in CHARTS.values()) == 7
    assert sum(FORMULAS.values()) >= 8
    assert sum(DOWNLOADS.values()) == 3 * 5 + 2  # five figures with data, clock, sine
    at = open_page(tab=tab)
    assert draws(at, tab), chart_ids(at)
    assert not at.warning
    assert at.title[0].value == "Wavelengths and frequencies"
    assert len(at.latex) >= FORMULAS[tab]
    assert len(at.get("download_button")) == DOWNLOADS[tab]
    assert at.query_params.get(specs.TAB.key, "lambdas") == tab  # the tab's code


def test_metrics_count_the_pairs_longer_than_the_context():
    at = open_page({"d_model": "20", "seq_len": "100"}, tab="lambdas")
    lam = posenc.wavelengths(20, 10000.0)
    values = [m.value for m in at.metric]
    assert values[:3] == ["10", str(int((lam > 100).sum())), "0"]


def test_extra_bases_text_adds_one_series_per_base():
    at = open_page(tab="lambdas")
    assert base_names(at) == ["b = 10000", "b = 100", "b = 500000"]
    at.text_input(key="wl_bases").input("2, 1e6, 10000")
    rerun(at)
    assert base_names(at) == ["b = 10000", "b = 2", "b = 1e+06"]  # the shared base once
    table = next(m.value for m in at.markdown if m.value.startswith("| "))
    assert len(table.splitlines()) == 2 + 3  # the bases table: header, rule, a row per base
    assert table.splitlines()[3].startswith("| 2 |")


def test_empty_extra_bases_draw_only_the_shared_base():
    at = open_page({"wl_bases": ""}, tab="lambdas")
    assert base_names(at) == ["b = 10000"]
    assert not at.warning


@pytest.mark.parametrize(
    ("d_model", "base", "lang"), [(512, 10000, "en"), (128, 500000, "zh"), (2, 1.5, "en")]
)
def test_the_longest_wavelength_is_given_and_the_seeds_2_pi_n_called_a_limit(d_model, base, lang):
    """Seeds 003/004: "from 2 pi to 2 pi 10000"; the last pair stops a factor n^(2/d) short."""
    at = open_page({"d_model": str(d_model), "base": str(base), "lang": lang})
    longest = 2 * np.pi * base ** ((d_model - 2) / d_model)
    assert posenc.wavelengths(d_model, base)[-1] == pytest.approx(longest, rel=1e-12)
    notice = next(c.value for c in at.caption if "2π·b^((d−2)/d)" in c.value)

    def shown(x):  # whole positions from 1000 up; below, 4 digits (2 pi is 6.283, not 6)
        return f"{x:,.0f}" if x >= 1000 else f"{x:.4g}"

    assert f"= {shown(longest)} " in notice and f"= {shown(2 * np.pi * base)}" in notice
    assert "2π·10000" in notice and "2πn" in notice  # seed 003's and seed 004's words
    assert ("limit" in notice) if lang == "en" else ("极限" in notice)


def test_bad_bases_text_gives_a_notice_and_falls_back_to_the_default():
    at = open_page(tab="lambdas")
    at.text_input(key="wl_bases").input("100, one")
    rerun(at)
    assert setting_label("en", "wl_bases") in notice_text(at) and "'one'" in notice_text(at)
    assert at.text_input(key="wl_bases").value == specs.BASES.default


def at_integers(trace: dict) -> np.ndarray:
    """A curve's values at the integer positions (it is also sampled between them)."""
    x = np.asarray(decode(trace["x"]), dtype=float)
    return np.asarray(decode(trace["y"]), dtype=float)[x % 1 == 0]


def test_dims_text_chooses_the_curves():
    at = open_page({"seq_len": "30"}, tab="curves")
    at.text_input(key="wl_dims").input("0, 9")
    rerun(at)
    traces = chart(at, CURVES)["data"]
    assert [t["name"] for t in traces] == ["dim 0", "dim 9"]
    table = posenc.sinusoidal(30, 128, 10000.0)
    np.testing.assert_allclose(at_integers(traces[1]), table[:, 9], atol=1e-7)


def test_dims_beyond_d_model_are_dropped_with_a_notice():
    at = open_page({"d_model": "8", "wl_dims": "1, 9, 12"}, tab="curves")
    assert "9, 12" in notice_text(at)
    assert [t["name"] for t in chart(at, CURVES)["data"]] == ["dim 1"]


def test_no_existing_dim_falls_back_to_the_first_pair():
    at = open_page({"d_model": "2"}, tab="curves")  # default dims 4..7 do not exist
    assert "0 and 1" in notice_text(at)
    assert [t["name"] for t in chart(at, CURVES)["data"]] == ["dim 0", "dim 1"]


def test_long_contexts_are_subsampled_and_say_so():
    at = open_page({"seq_len": "8192"}, tab="curves")
    x = decode(chart(at, CURVES)["data"][0]["x"])
    assert len(x) <= figs.MAX_LINE_POINTS and x[1] - x[0] == 2
    assert any("One position in 2" in c.value for c in at.caption)


def test_positions_text_chooses_the_vector_panels():
    at = open_page(tab="vector")
    at.text_input(key="wl_positions").input("3, 30")
    rerun(at)
    titles = [a["text"] for a in chart(at, VECTORS)["layout"]["annotations"]]
    assert titles == ["p = 3", "p = 30"]


def test_vector_mode_row_draws_sines_and_cosines_of_the_row():
    at = open_page({"d_model": "16"}, tab="vector")
    at.radio(key="wl_vec_mode").set_value("row")
    rerun(at)
    trace = chart(at, VECTORS)["data"][1]  # k = 4
    expected = posenc.sinusoidal(1, 16, 10000.0, offset=4)[0]
    np.testing.assert_allclose(decode(trace["y"]), expected, atol=1e-7)


def test_vector_count_slider_sets_the_pairs_shown():
    at = open_page({"d_model": "512"}, tab="vector")
    at.slider(key="wl_vec_count").set_value(37)
    rerun(at)
    assert len(decode(chart(at, VECTORS)["data"][0]["y"])) == 37


def test_clock_position_and_step_sliders_set_the_frames():
    at = open_page(tab="clock")
    at.slider(key="wl_clock_p").set_value(40)
    at.slider(key="wl_clock_step").set_value(5)
    rerun(at)
    frames = chart(at, CLOCK)["frames"]
    assert [f["name"] for f in frames[:3]] == ["40", "45", "50"]
    assert len(frames) == figs.MAX_FRAMES


def test_dials_slider_sets_the_number_of_dials():
    at = open_page(tab="clock")
    at.slider(key="wl_dials").set_value(5)
    rerun(at)
    hand = chart(at, CLOCK)["data"][-1]
    assert len(hand["x"]) == 3 * 5
    assert any("Showing 5 of 64 pairs" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("preset", "tab"), [("003", "curves"), ("004", "vector")])
def test_a_seed_preset_opens_the_tab_that_draws_its_figure(preset, tab, lang):
    at = open_page({"lang": lang}, tab="forms")
    at.button(key=f"wl_preset_{preset}").click()
    rerun(at)
    assert draws(at, tab)
    assert at.session_state[specs.TAB.key] == tab_label(tab, lang)


def test_seed_003_preset_reproduces_dims_4_to_7_over_100_positions_at_d_20():
    at = open_page(tab="curves")
    at.button(key="wl_preset_003").click()
    rerun(at)
    assert at.number_input(key="d_model").value == 20
    assert at.number_input(key="seq_len").value == 100
    traces = chart(at, CURVES)["data"]
    assert [t["name"] for t in traces] == ["dim 4", "dim 5", "dim 6", "dim 7"]
    table = posenc.sinusoidal(100, 20, 10000.0)
    for trace, dim in zip(traces, range(4, 8), strict=True):
        np.testing.assert_allclose(at_integers(trace), table[:, dim], atol=1e-7)


def test_sine_basics_reads_a_to_d_from_the_url_and_the_seed_003_button_sets_b_to_8_pi():
    query = {"wl_sin_a": "2", "wl_sin_b": "0.5", "wl_sin_c": "1.57", "wl_sin_d": "-1"}
    at = open_page(query, tab="basics")
    readout = next(m.value for m in at.markdown if m.value.startswith("Amplitude"))
    assert "period T = 2π/B = **12.57**" in readout and "vertical shift **-1**" in readout
    assert "phase shift −C/B = **-3.14**" in readout
    y = decode(chart(at, BASICS)["data"][1]["y"])
    assert max(y) == pytest.approx(1.0, abs=1e-3) and min(y) == pytest.approx(-3.0, abs=1e-3)
    at.button(key="wl_basics_four_in_one").click()
    rerun(at)
    assert at.slider(key="wl_sin_b").value == pytest.approx(8 * np.pi)
    readout = next(m.value for m in at.markdown if m.value.startswith("Amplitude"))
    assert "period T = 2π/B = **0.25**" in readout and "f = 1/T = **4**" in readout
    assert decode(chart(at, BASICS)["data"][1]["x"])[-1] == pytest.approx(1.0)
    at.button(key="wl_basics_sin_x").click()
    rerun(at)
    assert [at.slider(key=s.key).value for s in specs.SINE] == [1.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize(("query", "said"), [({}, True), ({"wl_vec_count": "37"}, False)])
def test_asking_for_more_pairs_than_d_has_says_all_are_shown(query, said):
    at = open_page(query, tab="vector")  # d = 128: 64 pairs
    note = "d = 128 has d/2 = 64 pairs: all of them are shown."
    assert (note in [c.value for c in at.caption]) == said
    assert len(decode(chart(at, VECTORS)["data"][0]["x"])) == (64 if said else 37)


def test_pairs_shown_slider_ends_at_d_over_2():
    at = open_page({"wl_vec_count": "100"}, tab="vector")  # d = 128: 64 pairs
    slider = at.slider(key="wl_vec_count")
    assert (slider.max, slider.value) == (64, 64)
    at.number_input(key="d_model").set_value(32)
    rerun(at)
    assert (at.slider(key="wl_vec_count").max, at.slider(key="wl_vec_count").value) == (16, 16)


def test_seed_004_preset_reproduces_the_four_sine_panels_at_d_512():
    at = open_page({"wl_positions": "1", "wl_vec_mode": "row"}, tab="vector")
    at.button(key="wl_preset_004").click()
    rerun(at)
    assert at.number_input(key="d_model").value == 512
    fig = chart(at, VECTORS)
    assert [a["text"] for a in fig["layout"]["annotations"]] == [
        "p = 0",
        "p = 4",
        "p = 8",
        "p = 12",
    ]
    x = np.arange(100)
    for trace, k in zip(fig["data"], (0, 4, 8, 12), strict=True):
        seed = np.sin(k / np.power(10000, 2 * x / 512))  # seed 004's plotSinusoid
        np.testing.assert_allclose(decode(trace["y"]), seed, atol=1e-7)


def test_url_reproduces_the_view():
    query = {
        "d_model": "64",
        "wl_bases": "3",
        "wl_dims": "2,3",
        "wl_positions": "5",
        "wl_vec_mode": "row",
        "wl_vec_count": "7",
        "wl_clock_p": "11",
        "wl_clock_step": "2",
        "wl_dials": "4",
    }
    views = {tab: open_page(query, tab=tab) for tab in specs.TAB_NAMES}
    for tab, at in views.items():
        assert not at.warning, tab
        assert draws(at, tab), (tab, chart_ids(at))
    assert views["curves"].text_input(key="wl_dims").value == "2,3"
    assert views["vector"].radio(key="wl_vec_mode").value == "row"
    assert views["clock"].slider(key="wl_dials").value == 4
    assert base_names(views["lambdas"]) == ["b = 10000", "b = 3"]
    assert chart(views["clock"], CLOCK)["frames"][1]["name"] == "13"


def test_chinese_texts_with_lang_zh():
    at = open_page({"lang": "zh"})
    assert at.title[0].value == "波长与频率"
    assert at.button(key="wl_preset_003").label.startswith("演进篇")
    index = len(specs.TAB_NAMES) + specs.TAB_NAMES.index("forms")
    forms = open_page({"lang": "zh", specs.TAB.key: specs.TAB.options[index]})
    assert draws(forms, "forms"), chart_ids(forms)  # the Chinese label opened the forms tab


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tab_label_of_the_other_language_opens_that_tab(lang):
    other = 1 - LANG.options.index(lang)  # the index of the other language
    label = specs.TAB.options[other * len(specs.TAB_NAMES) + specs.TAB_NAMES.index("forms")]
    at = open_page({LANG.key: lang, specs.TAB.key: label})
    assert not at.warning
    assert draws(at, "forms"), chart_ids(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_open_tab_is_kept_in_the_url_as_a_code_of_no_language(lang):
    at = open_page({LANG.key: lang, specs.TAB.key: "forms"})  # a link with the code opens
    assert not at.warning
    assert draws(at, "forms"), chart_ids(at)
    at.session_state[specs.TAB.key] = tab_label("curves", lang)  # a click on a tab
    rerun(at)
    assert draws(at, "curves"), chart_ids(at)
    assert at.query_params[specs.TAB.key] == "curves"  # not the label of either language


def test_drift_metrics_are_the_torch_style_float32_errors():
    at = open_page({"d_model": "512", "seq_len": "1000"}, tab="forms")
    drift = spectrum.float32_drift([999, 8191, 99999], 512, 10000.0)
    shown = [m.value for m in at.metric]  # the forms tab shows the drift metrics only
    assert shown == [f"{v:.3g}" for v in drift.torch_f32]


def test_forms_table_shows_the_measured_differences():
    at = open_page({"d_model": "512"}, tab="forms")
    table = at.dataframe[0].value  # the forms tab's only table
    c64 = spectrum.compare_forms(512, 10000.0)
    c32 = spectrum.compare_forms(512, 10000.0, dtype="float32")
    assert table.iloc[0].tolist() == [
        f"{c64.max_abs:.3g}",
        f"{c64.max_rel:.3g}",
        f"{c64.power_ulps:.3g}",
        f"{c64.log_ulps:.3g}",
    ]
    assert table.iloc[1, 3] == f"{c32.log_ulps:.3g}"
    assert any("less accurate" in c.value for c in at.caption)


@pytest.mark.parametrize("tab", specs.TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab at the largest settings
def test_largest_settings_keep_every_chart_under_1_mb_and_memory_under_512_mb(tab):
    query = {
        "seq_len": "8192",
        "d_model": "4096",
        "base": "1e9",
        "wl_bases": "1.000001, 2, 100, 1e4, 5e5, 1e8",
        "wl_dims": ", ".join(str(j) for j in range(4084, 4096)),
        "wl_positions": "1000000, 999999, 999998, 999997, 999996, 999995, 999994, 999993",
        "wl_vec_mode": "row",
        "wl_vec_count": "2048",
        "wl_clock_p": "8192",
        "wl_clock_step": "1024",
        "wl_dials": "48",
    }
    tracemalloc.start()
    try:
        at = open_page(query, tab=tab, timeout=240)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not at.warning, notice_text(at)
    assert draws(at, tab), chart_ids(at)
    sizes = chart_sizes(at)
    assert len(sizes) == len(CHARTS[tab]) and max(sizes) < MAX_CHART_BYTES, sizes
    assert peak < 512 * 2**20


def test_curves_at_the_defaults_are_continuous_with_dots_at_the_integer_positions():
    at = open_page(tab="curves")
    lines = chart(at, "wl_curves_chart")["data"]
    assert [tr["name"] for tr in lines] == ["dim 4", "dim 5", "dim 6", "dim 7"]
    x = np.asarray(decode(lines[0]["x"]), dtype=float)
    # At d = 128, dims 4-7 turn ~0.75 rad per position: 16 points per position draw the
    # sine, one per position (before) drew a zigzag.
    assert (x.size - 1) / x.max() >= 16
    y = np.asarray(decode(lines[0]["y"]), dtype=float)
    np.testing.assert_allclose(
        y, posenc.encode_positions(x, 128, 10000.0, dims=[4])[:, 0], atol=1e-6
    )
    sizes = np.asarray(decode(lines[0]["marker"]["size"]), dtype=float)
    assert list(x[sizes > 0]) == list(range(50))  # a dot at each integer position


def test_clock_start_slider_and_the_animation_agree_on_the_first_frame():
    at = open_page({"wl_clock_p": "40"}, tab="clock")
    slider = at.slider(key="wl_clock_p")
    assert "p₀" in slider.label  # the slider sets where the animation starts
    fig = chart(at, CLOCK)
    steps = fig["layout"]["sliders"][0]
    assert steps["active"] == 0 and steps["steps"][0]["label"] == str(slider.value)
    first = fig["frames"][0]
    assert first["name"] == "40"
    assert first["data"][0]["x"] == fig["data"][-1]["x"]  # the static hands are frame p₀
