"""Builders and data helpers of the rotation page, without Streamlit."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from support.screen import decode

import posenc
from posenc.rotation import block_rotation
from ui.features.rotation import data
from ui.features.rotation import figures as figs
from ui.plain.grids import MAX_CHART_BYTES, chart_bytes

# The words the page passes to each builder (translated there; any strings do here).
DIM = dict(axis_title="dim")
RESIDUAL = dict(names={"residual": "residual", "rounding": "rounding"}, x_title="p", y_title="r")
CIRCLE = dict(names={"positions": "positions", "arc": "arc"}, p_title="p")
DOT = dict(titles=("dot", "distance"))
PAIR_ERROR = dict(title="fit", x_title="pair", y_title="error", slow_label="slow")


def trace_xy(trace):
    return np.asarray(decode(trace["x"]), dtype=float), np.asarray(decode(trace["y"]), dtype=float)


# --- the T(k) window -------------------------------------------------------------------


def test_window_is_the_whole_matrix_up_to_the_window_size():
    w = data.WINDOW
    assert data.window_indices(w, w // 2 - 1, "interleaved").tolist() == list(range(w))
    assert data.window_indices(w, 3, "split").tolist() == list(range(w))
    assert data.window_indices(2, 0, "split").tolist() == [0, 1]


@pytest.mark.parametrize("layout", ["interleaved", "split"])
@pytest.mark.parametrize("pair", [0, 1, 700, 2047])
def test_window_holds_the_chosen_pair_and_stays_small(layout, pair):
    idx = data.window_indices(4096, pair, layout)
    assert idx.size == data.WINDOW
    assert np.all(np.diff(idx) > 0) and idx.min() >= 0 and idx.max() < 4096
    assert set(data.pair_indices(4096, pair, layout)) <= set(idx.tolist())


def test_pair_indices_follow_the_layout():
    assert data.pair_indices(8, 2, "interleaved") == (4, 5)
    assert data.pair_indices(8, 2, "split") == (2, 6)


def test_t_window_is_the_dense_submatrix():
    idx, z = data.t_window(2.5, 512, 10000.0, "split", 100)
    dense = posenc.rotation_matrix(2.5, 512, layout="split")
    assert_allclose(z, dense[np.ix_(idx, idx)], atol=0)


def test_runs_describes_a_window():
    assert data.runs(np.arange(5)) == "0–4"
    assert data.runs(np.r_[0:3, 10:12]) == "0–2, 10–11"


def test_matrix_figure_draws_the_values_and_outlines_the_block():
    idx, z = data.t_window(3.0, 16, 10000.0, "interleaved", 2)
    fig = figs.matrix_figure(idx, z, (4, 5), **DIM).to_plotly_json()
    assert_allclose(decode(fig["data"][0]["z"]), z, atol=1e-7)
    rects = [s for s in fig["layout"]["shapes"] if s["type"] == "rect"]
    assert sorted((r["x0"] + 0.5, r["y0"] + 0.5) for r in rects) == [
        (4, 4),
        (4, 5),
        (5, 4),
        (5, 5),
    ]


def test_split_window_uses_category_axes_labelled_with_true_dimensions():
    idx, z = data.t_window(3.0, 4096, 10000.0, "split", 5)
    fig = figs.matrix_figure(idx, z, data.pair_indices(4096, 5, "split"), **DIM).to_plotly_json()
    assert fig["layout"]["xaxis"]["type"] == "category"
    labels = list(decode(fig["data"][0]["x"]))
    assert "2053" in labels and "5" in labels  # pair 5: dimensions 5 and 2048 + 5
    rects = [s for s in fig["layout"]["shapes"] if s["type"] == "rect"]
    assert len(rects) == 4
    assert {r["x0"] + 0.5 for r in rects} == {labels.index("5"), labels.index("2053")}


def test_block_figure_shows_the_numbers():
    block = posenc.rotation_matrix(1.0, 2, base=100.0)
    fig = figs.block_figure(block, (0, 1), **DIM).to_plotly_json()
    assert_allclose(decode(fig["data"][0]["z"]), block)
    assert fig["data"][0]["texttemplate"] == "%{z:.6f}"


# --- the live check --------------------------------------------------------------------


def test_live_check_pools_by_maximum_and_keeps_every_residual():
    check = data.live_check(9000 // 2, 8, 10000.0, -3.5, "interleaved")
    full = posenc.shift_residuals(4500, 8, -3.5)
    assert_allclose(check.full, full, atol=0)
    assert check.pool == 2 and check.positions.size <= data.MAX_POINTS
    assert check.worst == full.max() == check.residuals.max()
    assert check.worst_at == int(full.argmax())


def test_residual_figure_draws_the_residuals_and_the_rounding_line():
    p = np.arange(10.0)
    r = np.full(10, 1e-16)
    fig = figs.residual_figure(p, r, -4.0, **RESIDUAL).to_plotly_json()
    x, y = trace_xy(fig["data"][0])
    assert_allclose(x, p)
    assert_allclose(y, r)
    _, bound = trace_xy(fig["data"][1])
    assert_allclose(bound, figs.EPS * (p + 4.0))


# --- the pair view ------------------------------------------------------------------------


def test_wrap_angle_lands_in_minus_pi_to_pi():
    assert figs.wrap_angle(3.0) == 3.0
    assert_allclose(figs.wrap_angle(4.0), 4.0 - 2 * np.pi)
    assert_allclose(figs.wrap_angle(-1000.0), -1000.0 + 159 * 2 * np.pi)
    assert figs.wrap_angle(-np.pi) == np.pi


def _arc_angle(fig):
    x, y = trace_xy(fig["data"][2])
    start, end = np.arctan2(x[0], y[0]), np.arctan2(x[-1], y[-1])
    return figs.wrap_angle(end - start)


@pytest.mark.parametrize("k", [3.0, -2.5, 700.25])
def test_circle_arc_has_the_same_angle_whichever_p(k):
    omega = 0.3
    c = data.circle(50, omega)
    angles = [
        _arc_angle(figs.circle_figure(c.positions, c.angles, p, k, omega, **CIRCLE))
        for p in (0, 17, 4000)
    ]
    assert_allclose(angles, figs.wrap_angle(omega * k), atol=1e-9)


def test_circle_marks_p_and_p_plus_k_on_the_unit_circle():
    omega, p, k = 0.7, 12, -3.25
    c = data.circle(30, omega)
    fig = figs.circle_figure(c.positions, c.angles, p, k, omega, **CIRCLE).to_plotly_json()
    px, py = trace_xy(fig["data"][3])
    qx, qy = trace_xy(fig["data"][4])
    assert_allclose((px[1], py[1]), (np.sin(omega * p), np.cos(omega * p)))
    assert_allclose((qx[1], qy[1]), (np.sin(omega * (p + k)), np.cos(omega * (p + k))))
    x, y = trace_xy(fig["data"][1])
    assert x.size == 30
    assert_allclose(x**2 + y**2, 1.0)


def test_circle_subsamples_long_sequences():
    c = data.circle(8192, 1.0)
    assert c.step == 3 and c.positions.size <= data.MAX_POINTS


def test_pair_rows_agree_in_both_conventions():
    row, moved_row, moved_col, block = data.pair_rows(10, -2.5, 64, 10000.0, "split", 3)
    assert_allclose(moved_row, moved_col, atol=1e-15)
    omega = posenc.frequencies(64)[3]
    assert_allclose(row, [np.sin(omega * 10), np.cos(omega * 10)], atol=1e-15)
    assert_allclose(moved_row, [np.sin(omega * 7.5), np.cos(omega * 7.5)], atol=1e-14)
    assert_allclose(row @ block, moved_row, atol=1e-15)


def test_convention_gap_is_rounding_and_caps_the_dimensions():
    gap, used = data.convention_gap(100, 4096, 10000.0, 3.0, "interleaved")
    assert used == data.FIT_DIMS
    assert gap < 1e-14


# --- dot products --------------------------------------------------------------------------


def test_dot_curve_covers_the_sequence_and_k():
    curve = data.dot_curve(50, 16, 10000.0, -300.0)
    assert curve.k[0] == -300.0 and curve.k[-1] == 300.0
    assert curve.k.size == data.MAX_POINTS + 1
    assert_allclose(curve.dot, curve.dot[::-1])  # even in k
    assert_allclose(curve.dot, posenc.offset_dot(curve.k, 16), atol=0)
    assert_allclose(curve.distance, posenc.offset_distance(curve.k, 16), atol=1e-9)


def test_dot_at_compares_rows_with_the_formula():
    measured, formula = data.dot_at(17, 2.5, 32, 10000.0)
    a, b = posenc.sinusoidal(1, 32, offset=17)[0], posenc.sinusoidal(1, 32, offset=19.5)[0]
    assert_allclose(measured, a @ b, atol=1e-13)
    assert_allclose(formula, np.cos(2.5 * posenc.frequencies(32)).sum())


def test_dot_figure_marks_plus_and_minus_k_at_one_height():
    curve = data.dot_curve(20, 8, 10000.0, 4.0)
    at_k = (float(posenc.offset_dot(4.0, 8)), float(posenc.offset_distance(4.0, 8)))
    fig = figs.dot_figure(curve.k, curve.dot, curve.distance, 4.0, at_k, **DOT).to_plotly_json()
    for marker in (fig["data"][1], fig["data"][3]):
        x, y = trace_xy(marker)
        assert x.tolist() == [-4.0, 4.0] and y[0] == y[1]


# --- the fit -----------------------------------------------------------------------------


def test_fit_view_recovers_T_with_enough_spread_positions():
    view = data.fit(300, 64, 10000.0, -7.5, "interleaved", "spread")
    assert not view.capped_dims and not view.capped_rows
    assert view.fit.matrix_error < 1e-9 and view.slow_from is None


def test_fit_view_on_the_run_marks_the_slow_pairs():
    view = data.fit(300, 64, 10000.0, 3.0, "interleaved", "sequence")
    assert view.fit.matrix_error > 0.5
    slow = posenc.frequencies(64) * 299 / (2 * np.pi) < 1
    assert view.slow_from == int(np.argmax(slow))


def test_fit_view_caps_dimensions_and_rows_with_flags():
    view = data.fit(2000, 2048, 10000.0, 3.0, "split", "spread")
    assert view.capped_dims and view.capped_rows
    assert view.fit.columns.size == data.FIT_DIMS
    assert view.fit.positions.size == data.FIT_ROWS


def test_pair_error_figure_is_logarithmic_and_marks_the_slow_pairs():
    fig = figs.pair_error_figure(np.array([0.0, 1e-12, 0.5]), 2, **PAIR_ERROR).to_plotly_json()
    assert fig["layout"]["yaxis"]["type"] == "log"
    _, y = trace_xy(fig["data"][0])
    assert y.min() > 0
    assert any(s["type"] == "line" for s in fig["layout"]["shapes"])


# --- export ----------------------------------------------------------------------------------


def test_t_export_is_T_up_to_the_limit_then_its_blocks():
    assert_allclose(
        data.t_export(2.0, 8, 100.0, "split"), posenc.rotation_matrix(2.0, 8, 100.0, layout="split")
    )
    blocks = data.t_export(2.0, 2048, 10000.0, "interleaved")
    assert blocks.shape == (1024, 4)
    a = 2.0 * posenc.frequencies(2048)
    assert_allclose(blocks, np.column_stack([np.cos(a), -np.sin(a), np.sin(a), np.cos(a)]))


# --- formulas --------------------------------------------------------------------------------


def test_numbers_for_latex():
    assert figs.num(-0.0) == "0.000000"
    assert figs.num(0.5) == "0.500000"
    assert figs.num(-1.5e-9) == r"-1.500 \times 10^{-9}"
    assert figs.base_latex(10000.0) == "10000"
    assert figs.base_latex(1e9) == "10^{9}"
    assert figs.base_latex(2.5e7) == "25000000"
    assert figs.base_latex(3e12) == r"3 \times 10^{12}"


def test_block_latex_carries_the_actual_numbers():
    omega = float(posenc.frequencies(128)[3])
    block = posenc.rotation_matrix(2.5, 128)[6:8, 6:8]
    latex = figs.block_latex(3, 2.5, block)
    assert r"\Phi_{3}(2.5)" in latex
    assert figs.num(np.cos(2.5 * omega)) in latex and figs.num(-np.sin(2.5 * omega)) in latex
    angle = figs.angle_latex(3, 128, 10000.0, 2.5, omega)
    assert "10000^{-6/128}" in angle and figs.num(2.5 * omega) in angle
    assert "(10^{9})^{-6/128}" in figs.angle_latex(3, 128, 1e9, 2.5, omega)


def test_row_and_column_latex_show_the_same_result():
    row, moved, _, block = data.pair_rows(10, 3.0, 8, 10000.0, "interleaved", 1)
    row_tex = figs.row_latex(1, row, block, moved)
    col_tex = figs.column_latex(block, row, moved)
    for value in (*row, *moved):
        assert figs.num(value) in row_tex and figs.num(value) in col_tex
    assert figs.bmatrix(block.T) in col_tex and figs.bmatrix(block) in row_tex


# --- payload at the largest settings -----------------------------------------------------------


def test_every_figure_stays_under_1_mb_at_the_largest_settings():
    L, d, base, k, pair, p = 8192, 4096, 1e9, 1000.0, 2047, 8191
    omega = float(posenc.frequencies(d, base)[pair])
    idx, z = data.t_window(k, d, base, "split", pair)
    check = data.live_check(L, d, base, k, "interleaved")
    c = data.circle(L, omega)
    curve = data.dot_curve(L, d, base, k)
    view = data.fit(L, d, base, k, "interleaved", "sequence")
    inner = data.window_indices(view.fit.columns.size, 255, "interleaved")
    built = [
        figs.matrix_figure(idx, z, data.pair_indices(d, pair, "split"), **DIM),
        figs.block_figure(z[:2, :2], (0, 1), **DIM),
        figs.residual_figure(check.positions, check.residuals, k, **RESIDUAL),
        figs.circle_figure(c.positions, c.angles, p, k, omega, **CIRCLE),
        figs.dot_figure(curve.k, curve.dot, curve.distance, k, (1.0, 1.0), **DOT),
        figs.matrix_figure(
            view.fit.columns[inner], view.fit.matrix[np.ix_(inner, inner)], (0, 1), **DIM
        ),
        figs.pair_error_figure(view.fit.pair_errors, view.slow_from, **PAIR_ERROR),
    ]
    sizes = [chart_bytes(fig) for fig in built]
    assert max(sizes) < MAX_CHART_BYTES, sizes
    assert sum(sizes) < 2 * MAX_CHART_BYTES, sizes


def row_vector_matrices(latex: str, b: float) -> list[np.ndarray]:
    """Every 2 x 2 matrix that multiplies ``[x_0, y_0]`` from the right in ``latex``,
    its entries (+-cos B, +-sin B) evaluated at ``B = b``."""
    value = {r"\cosB": np.cos(b), r"\sinB": np.sin(b)}
    bodies = re.findall(
        r"\[x_0,y_0\]\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", latex.replace(" ", "")
    )
    return [
        np.array(
            [
                [-value[c[1:]] if c.startswith("-") else value[c] for c in row.split("&")]
                for row in body.split("\\\\")
            ]
        )
        for body in bodies
    ]


def test_the_derivation_gives_seed_003s_row_vector_matrices_for_both_directions():
    """Seed 003: [x, y] times its matrix gives x1 = x cos B - y sin B, y1 = x sin B +
    y cos B (anticlockwise), then x1 = x cos B + y sin B, y1 = -x sin B + y cos B
    (clockwise, B -> -B). The matrices are read from the formula the page draws."""
    x0, y0, b = 0.3, -1.7, 0.9
    c, s = np.cos(b), np.sin(b)
    anticlockwise, clockwise = row_vector_matrices(figs.ROTATION_DERIVATION, b)
    assert_allclose(np.array([x0, y0]) @ anticlockwise, [x0 * c - y0 * s, x0 * s + y0 * c])
    assert_allclose(np.array([x0, y0]) @ clockwise, [x0 * c + y0 * s, -x0 * s + y0 * c])
    text = figs.ROTATION_DERIVATION.replace(" ", "")
    assert text.index("B\\to-B") < text.rindex("[x_0,y_0]")  # the clockwise one comes after


@settings(max_examples=60, deadline=None)
@given(
    d=st.integers(1, 24).map(lambda n: 2 * n),
    base=st.floats(1.5, 1e6),
    k=st.floats(-50, 50),
    length=st.integers(1, 40),
    layout=st.sampled_from(["interleaved", "split"]),
)
def test_seed_000s_blocks_one_pair_off_are_t_of_a_shorter_offset(d, base, k, length, layout):
    """r_n = omega_n instead of omega_{n-1}: the blocks are T(k n^(-2/d)), so the check
    measures the gap between the codes of p + k n^(-2/d) and p + k, at every p."""
    shorter = k * base ** (-2 / d)
    blocks = block_rotation(k * data.coefficients(d, base, "omega_next"), layout=layout)
    assert_allclose(blocks, posenc.rotation_matrix(shorter, d, base, layout=layout), atol=1e-12)
    check = data.coefficient_check(length, d, base, k, layout, "omega_next")
    gap = posenc.sinusoidal(length, d, base, layout=layout, offset=shorter) - posenc.sinusoidal(
        length, d, base, layout=layout, offset=k
    )
    assert_allclose(check.full, np.abs(gap).max(axis=1), atol=1e-12)
    assert_allclose(data.coefficients(d, base, "omega"), posenc.frequencies(d, base))


@pytest.mark.parametrize(
    ("x", "reference", "shown"),
    [
        (3.0, None, "+ 3"),
        (-2.5, None, "− 2.5"),
        (2.9999996, 3.0, "+ 2.9999996"),
        (0.0, None, "+ 0"),
    ],
)
def test_an_offset_is_written_with_its_sign_and_enough_digits_to_differ(x, reference, shown):
    assert data.signed(x, reference) == shown


@pytest.mark.parametrize(
    ("choice", "d", "k", "key"),
    [
        ("omega", 128, 3.0, None),
        ("one", 2, 3.0, "rotation.coef_same"),  # the only pair has omega_0 = 1
        ("one", 128, 0.0, "rotation.coef_same"),
        ("omega_next", 128, 0.0, "rotation.coef_same"),
        ("one", 4, 3.0, "rotation.coef_one_notice"),
        ("omega_next", 2, -2.5, "rotation.coef_omega_next_notice"),
    ],
)
def test_the_coefficient_note_says_failure_only_where_the_blocks_differ(choice, d, k, key):
    note = data.coefficient_note(choice, d, 10000.0, k)
    assert (note and note[0]) == key
    worst = data.coefficient_check(20, d, 10000.0, k, "interleaved", choice).worst
    assert (worst < 1e-13) == (key in (None, "rotation.coef_same"))
    if key == "rotation.coef_omega_next_notice":
        shift = 2.5 * 10000.0 ** (-2 / d)  # the blocks are T(k n^(-2/d))
        assert note[1] == {"k": "− 2.5", "shift": f"− {shift:.6g}"} and shift == 0.00025


def test_a_base_near_1_shows_the_two_offsets_with_enough_digits_to_tell_apart():
    key, fields = data.coefficient_note("omega_next", 128, 1.0001, 3.0)
    assert key == "rotation.coef_omega_next_notice" and fields["shift"] != fields["k"]
    assert float(fields["shift"].replace("+ ", "")) == pytest.approx(3 * 1.0001 ** (-2 / 128))


def test_fit_view_on_twice_the_columns_is_determined_whatever_L():
    view = data.fit(50, 128, 10000.0, 3.0, "interleaved", "spread", "2m")
    m = view.fit.columns.size
    assert view.fit.positions.size == 2 * m >= 50 and view.fit.rank == m
    assert view.fit.matrix_error < 1e-8 and not view.capped_rows


@pytest.mark.parametrize("kind", ["spread", "sequence"])
def test_sine_only_fit_misses_by_orders_of_magnitude_more_than_sin_cos(kind):
    view = data.fit(50, 128, 10000.0, 3.0, "interleaved", kind, "2m")
    assert view.sine_only > 0.1
    assert view.sine_only > 1e6 * view.fit.fit_error
