"""The rotation page in AppTest: every control, URL values (negative and fractional k),
extremes, both languages, the 1 MB chart budget at the largest settings.

The six sections are lazy tabs (only the open one runs): each check opens the tab that
holds what it looks at."""

import re

import numpy as np
import pytest
from support.apptest import Page
from support.screen import chart, chart_ids, chart_keys, chart_sizes, decode, notice_text
from support.views import setting_label

import posenc
from posenc.rotation import block_rotation
from ui.features.rotation import data, specs
from ui.features.rotation import figures as figs
from ui.plain.grids import MAX_CHART_BYTES
from ui.plain.texts import text

# Charts per tab (lazy tabs: only the open one runs).
CHARTS = {
    "matrix": ["rot_t_chart", "rot_block_chart"],  # T(k), its block
    "check": ["rot_check_chart"],
    "circle": ["rot_circle_chart"],
    "conventions": [],
    "dot": ["rot_dot_chart"],
    "fit": ["rot_fit_w_chart", "rot_fit_error_chart"],  # fitted W, fit error
}
N_CHARTS = 7  # T(k), block, check, circle, dot, fitted W, fit error
assert sum(map(len, CHARTS.values())) == N_CHARTS and tuple(CHARTS) == specs.TAB_NAMES


PAGE = Page("4_Rotation.py", specs, timeout=240)
tab_label, open_page, open_tab = PAGE.tab_label, PAGE.open, PAGE.open_tab


def metric(at, start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(start))


def markdown(at, start: str) -> str:
    return next(m.value for m in at.markdown if m.value.startswith(start))


def block_tex(at) -> str:
    return next(el.value for el in at.latex if el.value.strip("$\n").startswith(r"\Phi_{"))


def residual_curve(at) -> np.ndarray:
    return np.asarray(decode(chart(at, "rot_check_chart")["data"][0]["y"]), dtype=float)


def assert_charts(at, tab: str) -> None:
    """The open tab drew its own charts and no other."""
    assert chart_keys(at) == CHARTS[tab], chart_ids(at)


@pytest.mark.parametrize("tab", specs.TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab
def test_each_tab_draws_its_own_charts_without_warnings(tab):
    at = open_page(tab=tab)
    assert_charts(at, tab)
    assert not at.warning
    assert at.number_input(key="rot_k").value == specs.K.default
    assert at.query_params.get(specs.TAB.key, "matrix") == tab  # the tab's code
    if tab == "check":
        assert float(metric(at, "max residual")) < 1e-13


def test_the_live_check_draws_the_residuals_of_posenc():
    at = open_page({"seq_len": "40", "d_model": "16", "rot_k": "5"}, tab="check")
    expected = posenc.shift_residuals(40, 16, 5.0)
    np.testing.assert_allclose(residual_curve(at), expected, atol=0)


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_seed_000s_coefficient_must_be_omega_one_pair_off_is_another_shift(layout):
    """Seed 000: r_n = omega_{n-1}. With omega_{i+1} = omega_i n^(-2/d) the blocks are
    T(k n^(-2/d)): PE[p] moves to PE[p + k n^(-2/d)], not to PE[p + k]."""
    query = {"seq_len": "40", "d_model": "16", "base": "100", "rot_k": "5", "rot_layout": layout}
    at = open_page({**query, "rot_coef": "omega_next"}, tab="check")
    shift = 5 * 100 ** (-2 / 16)
    pe = posenc.sinusoidal(40, 16, 100.0, layout=layout)
    moved = posenc.apply_rotation(pe, shift, 100.0, layout=layout)
    np.testing.assert_allclose(
        moved, posenc.sinusoidal(40, 16, 100.0, layout=layout, offset=shift), atol=1e-13
    )
    later = posenc.sinusoidal(40, 16, 100.0, layout=layout, offset=5)
    np.testing.assert_allclose(residual_curve(at), np.abs(moved - later).max(axis=1), atol=1e-13)
    assert float(metric(at, "max residual")) > 0.1
    assert f"the code of p + {shift:.6g}, not of p + 5" in at.info[0].value


def test_seed_000s_coefficient_one_for_every_pair_moves_no_position_to_another():
    at = open_page({"seq_len": "30", "d_model": "8", "rot_k": "2", "rot_coef": "one"}, tab="check")
    pe = posenc.sinusoidal(30, 8)
    dense = block_rotation(np.full(4, 2.0))  # every Phi_n(k) with r_n = 1
    expected = np.abs(pe @ dense - posenc.sinusoidal(30, 8, offset=2)).max(axis=1)
    np.testing.assert_allclose(residual_curve(at), expected, atol=1e-13)
    assert "k/ωᵢ positions ahead" in at.info[0].value
    assert any(figs.COEFFICIENT_FORMULAS["one"] in x.value for x in at.latex)  # r_n = 1 shown
    at.radio(key="rot_coef").set_value("omega").run()
    assert not at.exception and not at.info
    assert float(metric(at, "max residual")) < 1e-13


@pytest.mark.parametrize(
    "query", [{"d_model": "2", "rot_coef": "one"}, {"rot_k": "0", "rot_coef": "omega_next"}]
)
def test_a_coefficient_that_equals_omega_here_is_said_to_hold_not_to_fail(query):
    """d = 2: the only pair has omega_0 = 1, so r = 1 is right; k = 0 turns nothing."""
    at = open_page({"seq_len": "30", **query}, tab="check")
    assert float(metric(at, "max residual")) < 1e-13
    assert [i.value for i in at.info] == [text("en", "rotation.coef_same")]


@pytest.mark.parametrize("k", ["-2.5", "0.25", "-1000", "1000", "0"])
def test_negative_and_fractional_k_from_the_url(k):
    query = {"rot_k": k, "seq_len": "64", "d_model": "32"}
    check = open_page(query, tab="check")
    matrix = open_page(query, tab="matrix")
    for at in (check, matrix):
        assert at.number_input(key="rot_k").value == float(k)
        assert not at.warning
    assert float(metric(check, "max residual")) < 1e-11
    assert rf"\Phi_{{0}}({float(k):g})" in block_tex(matrix)


@pytest.mark.parametrize(
    ("k", "said"), [("1000", "(159 of them)"), ("-1000", "(159 of them, turning back)")]
)
def test_circle_counts_whole_turns_without_a_minus_sign(k, said):
    at = open_page({"rot_k": k}, tab="circle")  # pair 0: omega = 1, 1000 rad = 159 turns + 0.97
    text = next(m.value for m in at.markdown if m.value.startswith("Modulo whole turns"))
    assert said in text and "-159" not in text


def test_k_zero_leaves_every_row_in_place():
    at = open_page({"rot_k": "0"}, tab="check")
    assert float(metric(at, "max residual")) == 0.0


def test_typing_k_recomputes_the_block():
    at = open_page(tab="matrix")
    at.number_input(key="rot_k").set_value(-7.5).run()
    assert not at.exception
    assert r"\Phi_{0}(-7.5)" in block_tex(at)
    assert f"{np.cos(-7.5):.6f}" in block_tex(at)


def test_choosing_a_pair_magnifies_its_block():
    at = open_page(tab="matrix")
    at.number_input(key="rot_pair").set_value(5).run()
    assert not at.exception
    assert markdown(at, "**Pair 5")
    omega = posenc.frequencies(128)[5]
    assert f"{np.cos(3 * omega):.6f}" in block_tex(at)


def test_a_typed_fraction_in_a_whole_number_box_is_reset_with_a_notice():
    at = open_page(tab="matrix")
    at.number_input(key="rot_pair").set_value(3.7).run()
    assert not at.exception
    notice = notice_text(at)
    assert "not valid (in the link or as typed)" in notice
    assert setting_label("en", "rot_pair") in notice
    assert at.number_input(key="rot_pair").value == 0
    assert markdown(at, "**Pair 0")


def test_a_pair_beyond_d_model_shows_the_last_pair_with_a_notice():
    at = open_page({"d_model": "8", "rot_pair": "100"}, tab="matrix")
    assert any("Pair 100 does not exist" in i.value for i in at.info)
    assert markdown(at, "**Pair 3")


def test_moving_p_moves_the_highlight_but_not_the_arc():
    at = open_page(tab="circle")
    arc_before = chart(at, "rot_circle_chart")["data"][2]["name"]
    at.slider(key="rot_p").set_value(123).run()
    assert not at.exception
    fig = chart(at, "rot_circle_chart")
    x, y = (np.asarray(decode(fig["data"][3][c]), dtype=float) for c in ("x", "y"))
    np.testing.assert_allclose((x[1], y[1]), (np.sin(123.0), np.cos(123.0)), atol=1e-12)
    assert fig["data"][2]["name"] == arc_before
    open_tab(at, "conventions")  # p is a page control: kept across the tabs
    assert at.slider(key="rot_p").value == 123
    assert "p = 123" in markdown(at, "**Overview article")


@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_seed_003s_clockwise_formula_lands_on_pe_at_p_plus_k(layout):
    query = {"rot_p": "40", "rot_k": "-7.5", "rot_pair": "2", "d_model": "16", "rot_layout": layout}
    at = open_page(query, tab="conventions")
    steps = at.expander[0]
    assert steps.label == "Where the rotation matrix comes from (evolution article)"
    assert "B \\to -B" in steps.latex[0].value
    # B = omega_2 k, x1 = ..., y1 = ...: the last two numbers are (sin, cos) of omega (p + k).
    x1, y1 = (float(v) for v in re.findall(r"= (-?\d+\.\d{6})", steps.latex[1].value)[-2:])
    angle = posenc.frequencies(16)[2] * (40 - 7.5)
    np.testing.assert_allclose((x1, y1), (np.sin(angle), np.cos(angle)), atol=1e-6)


def test_split_layout_draws_the_permuted_matrix():
    at = open_page({"d_model": "8"}, tab="matrix")
    at.radio(key="rot_layout").set_value("split").run()
    assert not at.exception
    z = decode(chart(at, "rot_t_chart")["data"][0]["z"])
    np.testing.assert_allclose(z, posenc.rotation_matrix(3.0, 8, layout="split"), atol=1e-7)


def test_wide_split_layout_shows_a_window_with_true_dimensions():
    query = {"d_model": "4096", "rot_layout": "split", "rot_pair": "7", "seq_len": "8"}
    at = open_page(query, tab="matrix")
    fig = chart(at, "rot_t_chart")
    assert fig["layout"]["xaxis"]["type"] == "category"
    assert any("2048–" in c.value for c in at.caption)


def test_fit_positions_switch_between_random_positions_and_the_run():
    at = open_page({"seq_len": "300", "d_model": "64", "rot_k": "-2.5"}, tab="fit")
    assert float(metric(at, "distance max")) < 1e-8  # spread: T(k) recovered
    at.radio(key="rot_fit").set_value("sequence").run()
    assert not at.exception
    assert float(metric(at, "distance max")) > 0.5  # the run: slow pairs not recovered
    assert any("numerical rank" in i.value for i in at.info)


def test_too_few_positions_say_the_fit_is_underdetermined():
    at = open_page({"seq_len": "50", "d_model": "128", "rot_fit_n": "L"}, tab="fit")
    assert any("Underdetermined" in i.value for i in at.info)
    assert metric(at, "rank of X") == "50 / 128"


def test_smallest_settings():
    query = {"seq_len": "1", "d_model": "2", "rot_k": "-1000", "rot_p": "0", "rot_fit_n": "L"}
    for tab in specs.TAB_NAMES:
        at = open_page(query, tab=tab)
        assert_charts(at, tab)
        if tab == "fit":
            assert metric(at, "rank of X") == "1 / 2"


def test_chinese_page():
    query = {"lang": "zh", "rot_k": "-2.5", "rot_fit_n": "L"}
    at = open_page(query | {specs.TAB.key: tab_label("fit", "zh")})
    assert at.title[0].value.startswith("旋转演示")
    assert any("欠定" in i.value for i in at.info)  # the Chinese label opened the fit tab


LARGEST = {
    "seq_len": "8192",
    "d_model": "4096",
    "base": "1e9",
    "rot_k": "-999.5",
    "rot_pair": "2047",
    "rot_p": "8191",
}


@pytest.mark.parametrize("tab", specs.TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab at the largest settings
def test_largest_settings_keep_charts_under_1_mb(tab):
    at = open_page(LARGEST, tab=tab)
    assert_charts(at, tab)
    sizes = chart_sizes(at)
    assert max(sizes, default=0) < MAX_CHART_BYTES, sizes
    if tab == "check":
        assert float(metric(at, "max residual")) < 1e-11
        for coef in ("omega_next", "one"):  # seed 000's wrong coefficients, at the largest
            at.radio(key="rot_coef").set_value(coef).run()
            assert not at.exception
            sizes = chart_sizes(at)
            assert max(sizes) < MAX_CHART_BYTES and float(metric(at, "max residual")) > 0.1
    if tab == "fit":
        assert any(f"{data.FIT_DIMS} of 4096" in i.value for i in at.info)


def test_fit_opens_solvable_with_the_underdetermined_case_one_click_away():
    at = open_page(tab="fit")  # L = 50 < m = 128 columns
    assert at.radio(key="rot_fit_n").value == "2m"
    assert not any("Underdetermined" in i.value for i in at.info)
    assert metric(at, "rank of X") == "128 / 128"
    assert float(metric(at, "distance max")) < 1e-8  # W is T(k)
    at.radio(key="rot_fit_n").set_value("L").run()
    assert not at.exception
    assert any("Underdetermined" in i.value for i in at.info)


def test_sine_only_code_has_no_T_its_residual_is_orders_of_magnitude_larger():
    at = open_page(tab="fit")
    sin_cos, sin_only = float(metric(at, "fit error")), float(metric(at, "sin only"))
    assert sin_only > 0.1 and sin_only > 1e6 * sin_cos


def test_fit_caption_names_the_dotted_line_only_when_it_is_drawn():
    line = text("en", "rotation.fit_slow_line")
    for fit, drawn in (("spread", False), ("sequence", True)):
        at = open_page({"rot_fit": fit}, tab="fit")
        shapes = chart(at, "rot_fit_error_chart")["layout"].get("shapes", [])
        assert bool(shapes) == drawn
        says = " ".join(c.value for c in at.caption)
        assert ("dotted line" in says) == drawn, fit
        assert drawn or line not in says


def test_check_tab_derives_the_block_of_T_from_angle_addition_before_the_check():
    at = open_page(tab="check")
    formulas = [el.value for el in at.get("latex")] if at.get("latex") else []
    first = next(i for i, f in enumerate(formulas) if r"\sin\omega_i(p+k) &=" in f)
    check = next(i for i, f in enumerate(formulas) if figs.CHECK_FORMULA in f)
    assert first < check and r"\Phi_i(k)" in formulas[first]


def test_position_p_is_drawn_only_in_the_tabs_whose_view_depends_on_it():
    for tab in specs.TAB_NAMES:
        at = open_page({"rot_p": "7"}, tab=tab)
        has_p = any(s.key == "rot_p" for s in at.slider)
        assert has_p == (tab in ("circle", "conventions", "dot")), tab
        if has_p:
            assert at.slider(key="rot_p").value == 7


def test_check_lead_quotes_the_residual_below_the_rounding_of_the_largest_angle():
    """The lead's claim at the defaults: the worst residual over all L positions is
    below eps * (L - 1 + |k|), the rounding of the largest angle (issue #20, less text)."""
    at = open_page(tab="check")
    length, d_model, base, k = 50, 128, 10000.0, specs.K.default
    check = data.coefficient_check(length, d_model, base, k, "interleaved", "omega")
    bound = np.finfo(np.float64).eps * (length - 1 + abs(k))
    assert check.worst <= bound
    lead = text("en", "rotation.check_lead", L=length, worst=f"{check.worst:.2e}",
                bound=f"{bound:.2e}")  # fmt: skip
    assert lead in [c.value for c in at.caption]


def test_wide_t_export_note_quotes_the_computed_size_of_the_dense_matrix():
    """rotation.t_export_blocks: the d x d float64 T(k) it replaces, in MB (8 d^2 bytes)."""
    d = 2048
    at = open_page({"d_model": str(d), "seq_len": "8"}, tab="matrix")
    dense = posenc.rotation_matrix(1, d)
    assert dense.nbytes == 8 * d * d
    size = f"{dense.nbytes / 1e6:.3g}"
    assert size == "33.6"  # not "hundreds of MB"
    shown = text("en", "rotation.t_export_blocks", limit=data.EXPORT_DIMS, d=d, size=size)
    assert shown in [c.value for c in at.caption]


def test_random_fit_positions_use_n_positions_not_L():
    """rotation.fit_spread / fit_help: under "2m" the random positions number n = 2m, not L."""
    view = data.fit(50, 128, 10000.0, 3.0, "interleaved", "spread", "2m")
    m = view.fit.columns.size
    assert view.fit.positions.size == 2 * m != 50
    assert "L" not in text("en", "rotation.fit_spread") and "n positions" in text(
        "en", "rotation.fit_help"
    )
