"""The rotation page in AppTest: every control, URL values (negative and fractional k),
extremes, both languages, the 1 MB chart budget at the largest settings."""

import numpy as np
import pytest
from conftest import decode, figures, run_page
from streamlit.testing.v1 import AppTest

import posenc
from ui import rotation_data as data
from ui.figures.common import MAX_CHART_BYTES
from ui.specs import rotation as specs

PAGE = "pages/4_Rotation.py"
N_CHARTS = 7  # T(k), block, check, circle, dot, fitted W, fit error


def open_page(query: dict | None = None, timeout: float = 240) -> AppTest:
    """The page with ``query`` in the URL, reached through app.py as a visitor does."""
    return run_page("4_Rotation.py", query, timeout)


def metric(at, start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(start))


def markdown(at, start: str) -> str:
    return next(m.value for m in at.markdown if m.value.startswith(start))


def block_tex(at) -> str:
    return next(el.value for el in at.latex if el.value.strip("$\n").startswith(r"\Phi_{"))


def residual_curve(at) -> np.ndarray:
    return np.asarray(decode(figures(at)[2]["data"][0]["y"]), dtype=float)


def test_defaults_draw_every_chart_without_warnings():
    at = open_page()
    assert len(figures(at)) == N_CHARTS
    assert not at.warning
    assert at.number_input(key="rot_k").value == specs.K.default
    assert float(metric(at, "max residual")) < 1e-13


def test_the_live_check_draws_the_residuals_of_posenc():
    at = open_page({"seq_len": "40", "d_model": "16", "rot_k": "5"})
    expected = posenc.shift_residuals(40, 16, 5.0)
    np.testing.assert_allclose(residual_curve(at), expected, atol=0)


@pytest.mark.parametrize("k", ["-2.5", "0.25", "-1000", "1000", "0"])
def test_negative_and_fractional_k_from_the_url(k):
    at = open_page({"rot_k": k, "seq_len": "64", "d_model": "32"})
    assert at.number_input(key="rot_k").value == float(k)
    assert not at.warning
    assert float(metric(at, "max residual")) < 1e-11
    assert rf"\Phi_{{0}}({float(k):g})" in block_tex(at)


def test_k_zero_leaves_every_row_in_place():
    at = open_page({"rot_k": "0"})
    assert float(metric(at, "max residual")) == 0.0


def test_typing_k_recomputes_the_block():
    at = open_page()
    at.number_input(key="rot_k").set_value(-7.5).run()
    assert not at.exception
    assert r"\Phi_{0}(-7.5)" in block_tex(at)
    assert f"{np.cos(-7.5):.6f}" in block_tex(at)


def test_choosing_a_pair_magnifies_its_block():
    at = open_page()
    at.number_input(key="rot_pair").set_value(5).run()
    assert not at.exception
    assert markdown(at, "**Pair 5")
    omega = posenc.frequencies(128)[5]
    assert f"{np.cos(3 * omega):.6f}" in block_tex(at)


def test_a_pair_beyond_d_model_shows_the_last_pair_with_a_notice():
    at = open_page({"d_model": "8", "rot_pair": "100"})
    assert any("Pair 100 does not exist" in i.value for i in at.info)
    assert markdown(at, "**Pair 3")


def test_moving_p_moves_the_highlight_but_not_the_arc():
    at = open_page()
    arc_before = figures(at)[3]["data"][2]["name"]
    at.slider(key="rot_p").set_value(123).run()
    assert not at.exception
    assert "p = 123" in markdown(at, "**Seed 000")
    fig = figures(at)[3]
    x, y = (np.asarray(decode(fig["data"][3][c]), dtype=float) for c in ("x", "y"))
    np.testing.assert_allclose((x[1], y[1]), (np.sin(123.0), np.cos(123.0)), atol=1e-12)
    assert fig["data"][2]["name"] == arc_before


def test_split_layout_draws_the_permuted_matrix():
    at = open_page({"d_model": "8"})
    at.radio(key="rot_layout").set_value("split").run()
    assert not at.exception
    z = decode(figures(at)[0]["data"][0]["z"])
    np.testing.assert_allclose(z, posenc.rotation_matrix(3.0, 8, layout="split"), atol=1e-7)


def test_wide_split_layout_shows_a_window_with_true_dimensions():
    at = open_page({"d_model": "4096", "rot_layout": "split", "rot_pair": "7", "seq_len": "8"})
    fig = figures(at)[0]
    assert fig["layout"]["xaxis"]["type"] == "category"
    assert any("2048–" in c.value for c in at.caption)


def test_fit_positions_switch_between_spread_and_the_run():
    at = open_page({"seq_len": "300", "d_model": "64", "rot_k": "-2.5"})
    assert float(metric(at, "distance max")) < 1e-8  # spread: T(k) recovered
    at.radio(key="rot_fit").set_value("sequence").run()
    assert not at.exception
    assert float(metric(at, "distance max")) > 0.5  # the run: slow pairs not recovered
    assert any("numerical rank" in i.value for i in at.info)


def test_too_few_positions_say_the_fit_is_underdetermined():
    at = open_page({"seq_len": "50", "d_model": "128"})
    assert any("Underdetermined" in i.value for i in at.info)
    assert metric(at, "rank of X") == "50 / 128"


@pytest.mark.parametrize(
    ("query", "name"),
    [({"rot_k": "abc"}, "rot_k"), ({"rot_k": "5000"}, "rot_k"), ({"rot_fit": "x"}, "rot_fit")],
)
def test_bad_url_values_give_a_notice_and_defaults(query, name):
    at = open_page(query)
    assert len(at.warning) == 1 and name in at.warning[0].value
    assert len(figures(at)) == N_CHARTS


def test_smallest_settings():
    at = open_page({"seq_len": "1", "d_model": "2", "rot_k": "-1000", "rot_p": "0"})
    assert len(figures(at)) == N_CHARTS
    assert metric(at, "rank of X") == "1 / 2"


def test_chinese_page():
    at = open_page({"lang": "zh", "rot_k": "-2.5"})
    assert at.title[0].value.startswith("旋转演示")
    assert any("欠定" in i.value for i in at.info)


def test_largest_settings_keep_charts_under_1_mb():
    query = {
        "seq_len": "8192",
        "d_model": "4096",
        "base": "1e9",
        "rot_k": "-999.5",
        "rot_pair": "2047",
        "rot_p": "8191",
    }
    at = open_page(query)
    sizes = [len(el.proto.spec.encode()) for el in at.get("plotly_chart")]
    assert len(sizes) == N_CHARTS and max(sizes) < MAX_CHART_BYTES, sizes
    assert float(metric(at, "max residual")) < 1e-11
    assert any(f"{data.FIT_DIMS} of 4096" in i.value for i in at.info)
