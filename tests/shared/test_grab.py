"""Grab the thing itself (issue #21): a click on a chart sets its control, as the widget
would: the widget's value, the URL and the chart change. AppTest has no Plotly chart
element, so :func:`click` sends the selection Streamlit's front end sends for a click
(its ``{"selection": {"points": ...}}`` JSON, as ``PlotlyChartSelectionSerde`` reads it)
in the chart's widget state, and runs the script."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from support.apptest import run_page, tab_label
from support.screen import chart, chart_key, decode, figures

from ui.features.heatmap import specs as hm
from ui.plain.pick import PICK
from ui.shared import grab

TIMEOUT = 90


def chart_element(at: AppTest, key: str):
    for element in at.get("plotly_chart"):
        if chart_key(element.proto.id) == key:
            return element
    raise KeyError(key)


def pick_points(fig: dict) -> list[tuple[int, object]]:
    """(curve_number, customdata) of every point of the figure's picking traces."""
    found = []
    for number, trace in enumerate(fig["data"]):
        if trace.get("meta") == PICK:
            values = decode(trace["customdata"])
            found += [(number, np.asarray(values).tolist()[i]) for i in range(len(values))]
    return found


def click(at: AppTest, key: str, points: list | None = None, raw: str | None = None) -> AppTest:
    """Run ``at`` as after a click on chart ``key`` that selected ``points`` (or with the
    raw selection text ``raw``)."""
    element = chart_element(at, key)
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = element.proto.id
    selection = {"points": points or [], "point_indices": [], "box": [], "lasso": []}
    state.string_value = raw if raw is not None else json.dumps({"selection": selection})
    at._run(states)
    assert not at.exception, [e.message for e in at.exception]
    return at


def point(curve: int, value, index: int = 0) -> dict:
    return {"curve_number": curve, "point_number": index, "point_index": index,
            "customdata": value, "x": 0, "y": 0}  # fmt: skip


# ---- the value a click gives -------------------------------------------------------


def test_picked_reads_only_picking_traces():
    state = {"selection": {"points": [point(0, 5), point(2, [7])]}}
    assert grab.picked(state, [2]) == 7
    assert grab.picked(state, [1]) is None


def test_picked_reads_a_row_of_2d_customdata_as_the_browser_sends_it():
    # Chromium sent this for a click on the distance matrix's picker (typed array rows).
    row = {"0": 6, "1": 19, "2": 25, "3": 1.4142135381698608}
    assert grab.picked({"selection": {"points": [point(1, row)]}}, [1]) == 6
    assert grab.picked({"selection": {"points": [point(1, {"1": 6})]}}, [1]) is None


@pytest.mark.parametrize(
    "state",
    [None, {}, {"selection": None}, {"selection": {"points": None}}, {"selection": {}},
     {"selection": {"points": ["x", 3, None]}}, {"selection": {"points": [{"customdata": 4}]}},
     {"selection": {"points": [point(0, None), point(0, []), point(0, "7"), point(0, True),
                               point(0, float("nan")), point(0, {"a": 1})]}}],
)  # fmt: skip
def test_picked_ignores_what_is_not_a_pick(state):
    assert grab.picked(state, [0]) is None


def test_setting_clamps_to_the_widget_range_and_checks_the_spec():
    assert grab.setting(hm.SIM_ROW, 12.4, high=9) == 9.0
    assert grab.setting(hm.SIM_ROW, -3, high=9) == 0.0
    assert grab.setting(hm.SIM_ROW, 1e12) == hm.SIM_ROW.maximum
    assert isinstance(grab.setting(hm.SIM_ROW, 3), float)


# ---- Heatmap: a row of the similarity matrix picks the reference position ------------


def similarity_page(query=None) -> AppTest:
    tab = {hm.TAB.key: tab_label(hm, "similarity")}
    return run_page("1_Heatmap.py", {**tab, **(query or {})}, TIMEOUT)


def test_heatmap_click_on_a_row_sets_the_reference_row():
    at = similarity_page()
    fig = chart(at, "hm_similarity")
    picks = pick_points(fig)
    assert [v for _, v in picks] == list(range(50))  # one per row of L = 50
    curve, _ = picks[17]
    click(at, "hm_similarity", [point(curve, 17, 17)])
    assert at.number_input(key=hm.SIM_ROW.key).value == 17
    assert at.query_params[hm.SIM_ROW.key] == "17.0"
    # The curve below is row 17 of PE PE^T, its peak (d/2 = 64) at n = 17.
    row = [f for f in figures(at) if f["data"][0].get("mode") == "lines"][-1]
    y = decode(row["data"][0]["y"])
    assert int(np.argmax(y)) == 17 and y[17] == pytest.approx(64)


def test_heatmap_rows_of_a_downsampled_matrix_pick_their_first_position():
    at = similarity_page({"seq_len": "1200"})
    picks = pick_points(chart(at, "hm_similarity"))
    values = [v for _, v in picks]
    step = values[1]
    assert step > 1 and values == list(range(0, 1200, step))
    curve, value = picks[-1]
    click(at, "hm_similarity", [point(curve, value)])
    assert at.number_input(key=hm.SIM_ROW.key).value == value <= 1199


@pytest.mark.parametrize(
    "raw",
    [
        json.dumps({"selection": {"points": [], "point_indices": [], "box": [], "lasso": []}}),
        json.dumps({"selection": {"points": [point(0, 3)], "box": [], "lasso": []}}),  # heatmap
        json.dumps({"selection": {"points": [point(1, 1e300)], "box": [], "lasso": []}}),
        json.dumps({"selection": {"points": [point(1, -5)], "box": [], "lasso": []}}),
        json.dumps({"selection": {"points": [{"curve_number": 1}], "box": [{"x": [0, 1]}]}}),
        json.dumps({"selection": {"points": "none"}}),
        json.dumps({"nothing": 1}),
    ],
)
def test_heatmap_hostile_or_empty_clicks_do_not_crash(raw):
    at = similarity_page()
    click(at, "hm_similarity", raw=raw)
    value = at.number_input(key=hm.SIM_ROW.key).value
    assert 0 <= value <= 49


# ---- Rotation: a position on the circle sets p -----------------------------------------


def test_rotation_click_on_a_circle_position_sets_p():
    from ui.features.rotation import specs as rot

    at = run_page("4_Rotation.py", {rot.TAB.key: tab_label(rot, "circle")}, TIMEOUT)
    assert at.slider(key=rot.POS.key).value == 10
    picks = pick_points(chart(at, "rot_circle_chart"))
    assert [v for _, v in picks] == list(range(50))
    curve, _ = picks[23]
    click(at, "rot_circle_chart", [point(curve, 23, 23)])
    assert at.slider(key=rot.POS.key).value == 23
    assert at.query_params[rot.POS.key] == "23"
    # The p marker (red) is drawn at (sin 23w, cos 23w) of pair 0 (w = 1).
    marker = next(t for t in chart(at, "rot_circle_chart")["data"] if t.get("name") == "p")
    tip = (decode(marker["x"])[1], decode(marker["y"])[1])
    assert tip == pytest.approx((np.sin(23.0), np.cos(23.0)))


def test_rotation_click_on_another_trace_leaves_p():
    from ui.features.rotation import specs as rot

    at = run_page("4_Rotation.py", {rot.TAB.key: tab_label(rot, "circle")}, TIMEOUT)
    click(at, "rot_circle_chart", [point(3, 40), point(0, 41)])  # the arc, the ring
    assert at.slider(key=rot.POS.key).value == 10


# ---- Wavelengths: a pair's dot on the wavelength chart picks that pair ------------------


def test_wavelengths_click_on_a_pair_draws_its_sine_and_cosine():
    from ui.features.wavelengths import specs as wl

    at = run_page("2_Wavelengths.py", {}, TIMEOUT)
    picks = pick_points(chart(at, "wl_lambda_chart"))
    assert sorted(v for _, v in picks) == list(range(64))  # every pair of d = 128, once
    curve, _ = next(p for p in picks if p[1] == 5)
    click(at, "wl_lambda_chart", [point(curve, 5)])
    assert at.text_input(key=wl.DIMS.key).value == "10, 11"
    assert at.query_params[wl.DIMS.key] == "10, 11"
    assert at.query_params[wl.TAB.key] == "curves"  # the tab that draws them is open
    fig = chart(at, "wl_curves_chart")
    names = [trace["name"] for trace in fig["data"]]
    assert len(names) == 2 and "10" in names[0] and "11" in names[1]


def test_wavelengths_click_on_a_reference_line_changes_nothing():
    from ui.features.wavelengths import specs as wl

    at = run_page("2_Wavelengths.py", {}, TIMEOUT)
    lines = [i for i, t in enumerate(chart(at, "wl_lambda_chart")["data"]) if "meta" not in t]
    click(at, "wl_lambda_chart", [point(i, 3) for i in lines])
    assert wl.DIMS.key not in at.session_state and wl.DIMS.key not in at.query_params
    assert wl.TAB.key not in at.query_params  # still on the wavelengths tab
    chart(at, "wl_lambda_chart")


# ---- RoPE: the pair view plays m and n together, then m - n changing --------------------


def rope_pair_chart(query=None) -> dict:
    from ui.features.rope import specs as sp

    at = run_page("5_RoPE.py", {sp.TAB.key: tab_label(sp, "pair"), **(query or {})}, TIMEOUT)
    return chart(at, "rope_pair_chart")


def frame_positions(frame: dict) -> tuple[int, int]:
    m, n = (int(part.split("=")[1]) for part in frame["name"].split(","))
    return m, n


def test_rope_animation_keeps_the_score_while_m_minus_n_is_fixed_then_changes_it():
    import posenc

    fig = rope_pair_chart()
    frames = fig["frames"]
    assert [frame_positions(f) for f in frames[:3]] == [(7, 3), (8, 4), (9, 5)]
    theta = posenc.rope_frequencies(64, 10000.0)[0][0]  # pair 0 at the defaults
    q, k = (np.array([decode(fig["data"][i][a])[1] for a in "xy"]) for i in (0, 1))
    scores, gaps = [], []
    for frame in frames:
        m, n = frame_positions(frame)
        q_m = posenc.rope(q[None], [m], inv_freq=[theta])[0]
        k_n = posenc.rope(k[None], [n], inv_freq=[theta])[0]
        drawn_q, drawn_k = (np.array([decode(d[a])[1] for a in "xy"]) for d in frame["data"][:2])
        assert drawn_q == pytest.approx(q_m, abs=1e-12) and drawn_k == pytest.approx(k_n, abs=1e-12)
        score = float(q_m @ k_n)
        assert f"⟨qₘ, kₙ⟩ = {score:.6f}" in frame["data"][2]["text"][0]
        scores.append(score)
        gaps.append(m - n)
        assert [d["name"] for d in frame["data"][:2]] == [
            f"q rotated to m = {m}",
            f"k rotated to n = {n}",
        ]  # the legend follows the frame
    fixed = [s for s, g in zip(scores, gaps, strict=True) if g == 4]
    assert len(fixed) == 13 and max(fixed) - min(fixed) < 1e-12  # m - n = 4 throughout
    assert len(set(gaps)) == 13 and max(scores) - min(scores) > 0.1  # then m - n grows
    steps = fig["layout"]["sliders"][0]["steps"]
    assert [s["label"] for s in steps] == [str(g) for g in gaps]
    assert fig["layout"]["updatemenus"][0]["buttons"][0]["args"][0] is None  # play all


def test_rope_animation_turns_back_at_the_last_position():
    fig = rope_pair_chart({"rope_m": "4095", "rope_n": "4090"})
    positions = [frame_positions(f) for f in fig["frames"]]
    assert positions[0] == (4095, 4090)
    assert all(0 <= m <= 4095 and 0 <= n <= 4095 for m, n in positions)
    assert {m - n for m, n in positions[:13]} == {5}


# ---- Binary vs sinusoid: a diagonal of the distance matrix picks the offset k ------------


def test_binary_click_near_a_diagonal_sets_k_and_opens_its_step_distances():
    from ui.features.binary import specs as bn

    at = run_page("3_Binary_vs_sinusoid.py", {bn.TAB.key: tab_label(bn, "distance")}, TIMEOUT)
    fig = chart(at, "bin_distance")
    trace = next(i for i, t in enumerate(fig["data"]) if t.get("meta") == PICK)
    picks = decode(fig["data"][trace]["customdata"])
    k, m, n, value = picks[picks[:, 0] == 7][3]
    assert n - m == k == 7  # each point sits on its diagonal
    z = decode(fig["data"][0]["z"])
    assert value == pytest.approx(z[int(m), int(n)])  # and shows the matrix's value there
    assert set(picks[:, 0]) == set(range(1, 50))  # k = 1 .. L - 1 at L = 50 (slider: 1 .. 64)
    row = {"0": 7, "1": m, "2": n, "3": value}  # as the browser sends a 2-D customdata row
    click(at, "bin_distance", [point(trace, row)])
    assert at.query_params[bn.K.key] == "7"
    assert at.query_params[bn.TAB.key] == "steps"
    assert at.slider(key=bn.K.key).value == 7
    steps = chart(at, "bin_steps")
    assert all(len(decode(t["x"])) == 50 - 7 for t in steps["data"] if t.get("x") is not None)


def test_binary_click_on_a_matrix_cell_or_colour_bar_keeps_k():
    from ui.features.binary import specs as bn

    at = run_page("3_Binary_vs_sinusoid.py", {bn.TAB.key: tab_label(bn, "distance")}, TIMEOUT)
    click(at, "bin_distance", [point(0, None, 3)])  # the heatmap: not a picking trace
    assert bn.K.key not in at.query_params and at.query_params[bn.TAB.key] == "distance"


def test_rotation_click_on_the_dot_product_curve_sets_k():
    import posenc
    from ui.features.rotation import specs as rot

    at = run_page("4_Rotation.py", {rot.TAB.key: tab_label(rot, "dot")}, TIMEOUT)
    fig = chart(at, "rot_dot_chart")
    pickers = [i for i, t in enumerate(fig["data"]) if t.get("meta") == PICK]
    assert len(pickers) == 2  # one per curve
    ks = decode(fig["data"][pickers[0]]["customdata"])
    assert list(ks) == list(range(-49, 50))  # every whole offset of the drawn range
    dots = decode(fig["data"][pickers[0]]["y"])
    assert dots == pytest.approx(posenc.offset_dot(ks.astype(float), 128, 10000.0))
    click(at, "rot_dot_chart", [point(pickers[1], -12)])
    assert at.number_input(key=rot.K.key).value == -12
    assert at.query_params[rot.K.key] == "-12.0"
    marked = next(t for t in chart(at, "rot_dot_chart")["data"] if t.get("text") == ["−k", "k"])
    assert list(decode(marked["x"])) == [12, -12]  # the chart marks the new +-k
