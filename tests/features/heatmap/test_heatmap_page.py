"""The Heatmap page in AppTest (every control and preset) and in a real browser.

Values on screen are checked against the peers' own tables (tests/peers/peer_values.npz).
"""

from __future__ import annotations

import json
import re
import time
import tracemalloc

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from support.apptest import Page, rerun
from support.browser import wait_for_app
from support.peers import peer
from support.screen import captions, chart, chart_keys, chart_sizes, decode
from support.views import setting_label

import posenc
from posenc.frameworks import FRAMEWORKS, NATIVE_LAYOUT, framework_frequencies
from posenc.rotation import split_permutation
from ui.features.heatmap import data
from ui.features.heatmap import specs as spec
from ui.features.heatmap.data_frameworks import LISTINGS
from ui.features.heatmap.specs import MAX_TOKENS, PRESETS, TAB, TAB_NAMES
from ui.plain.grids import MAX_CHART_BYTES
from ui.plain.texts import text

TIMEOUT = 240


PAGE = Page("1_Heatmap.py", spec, timeout=TIMEOUT)
tab_label, open_page, open_tab, run = PAGE.tab_label, PAGE.open, PAGE.open_tab, rerun


by_key = chart


def table_z(at: AppTest) -> np.ndarray:
    return decode(by_key(at, "hm_table")["data"][0]["z"]).astype(np.float64)


# ---------------------------------------------------------------- defaults and values


def test_default_view_draws_the_paper_table_with_the_torch_values():
    at = open_page()
    assert not at.warning, [w.value for w in at.warning]
    np.testing.assert_allclose(table_z(at), peer("torch_pe_f64_L50_d128"), atol=1e-7)
    assert len(at.get("plotly_chart")) == 1  # lazy tabs: only the open one is computed
    assert "Showing block means" not in captions(at)


@pytest.mark.parametrize(
    ("tab", "keys"),
    [
        ("table", ["hm_table"]),
        ("frameworks", ["hm_difference"]),  # the paper: the largest difference (t2t) drawn
        ("embedding", ["hm_embedding"]),
        ("similarity", ["hm_similarity", "hm_curve"]),
    ],
)
def test_each_tab_draws_only_its_own_charts(tab, keys):
    at = open_page(tab=tab)
    assert chart_keys(at) == keys
    assert at.query_params.get(TAB.key, "table") == tab  # shareable, the same in any language


def test_a_language_switch_keeps_the_open_tab():
    at = open_page(tab="similarity")
    at.query_params["lang"] = "zh"
    at.session_state["lang"] = "zh"
    run(at)
    assert at.session_state[TAB.key] == TAB.options[len(TAB_NAMES) + TAB_NAMES.index("similarity")]
    assert "hm_similarity" in chart_keys(at)


def test_robot_preset_shows_the_tutorials_table_with_its_exact_values():
    at = open_page()
    at.button(key="hm_preset_robot").click()
    run(at)
    assert at.text_input(key="hm_sentence").value == "I am a robot"
    assert at.number_input(key="d_model").value == 4
    assert at.number_input(key="base").value == 100.0
    frame = at.dataframe[0].value
    assert list(frame.index) == ["0: I", "1: am", "2: a", "3: robot"]
    np.testing.assert_allclose(frame.to_numpy(), peer("tutorial_pe_L4_d4_n100"), rtol=0, atol=1e-15)
    formats = {
        c["type_config"]["format"] for c in json.loads(at.dataframe[0].proto.columns).values()
    }
    assert formats == {"%.8f"}  # at least 4 decimals on screen (the tutorial prints 8)
    np.testing.assert_allclose(table_z(at), peer("tutorial_pe_L4_d4_n100"), atol=1e-7)
    assert "robot" in "".join(by_key(at, "hm_table")["data"][0]["y"])


def test_overview_preset_restores_l50_d128_from_any_state_including_sentence_mode():
    at = open_page({"d_model": 16, "base": 77, "hm_layout": "split", "hm_sentence": "a b c"})
    assert all(n.key != "seq_len" for n in at.number_input)  # sentence mode: no L control
    assert all(s.key != "seq_len_coarse" for s in at.select_slider)
    at.button(key="hm_preset_overview").click()
    run(at)
    assert at.number_input(key="seq_len").value == 50
    assert at.number_input(key="d_model").value == 128
    assert at.radio(key="hm_layout").value == "interleaved"
    np.testing.assert_allclose(table_z(at), peer("torch_pe_f64_L50_d128"), atol=1e-7)


def test_gentle_preset_draws_l100_d512_cell_by_cell():
    at = open_page({"seq_len": 7})
    at.button(key="hm_preset_gentle").click()
    run(at)
    z = table_z(at)
    assert z.shape == (100, 512)  # not downsampled: every column is one dimension
    np.testing.assert_allclose(z, peer("torch_pe_f64_L100_d512"), atol=1e-7)
    assert "Showing block means" not in captions(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_clicked_on_another_tab_opens_the_table_it_draws(name, lang):
    at = open_page({"lang": lang}, tab="similarity")
    assert "hm_table" not in chart_keys(at)
    at.button(key=f"hm_preset_{name}").click()
    run(at)
    assert at.session_state[TAB.key] == text(lang, "heatmap.tab_table")
    assert "hm_table" in chart_keys(at)
    assert "hm_similarity" not in chart_keys(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_table_names_the_seeds_indexing_slips_and_seed_003s_yellow(lang):
    at = open_page({"lang": lang})
    note = next(c.value for c in at.caption if c.value == text(lang, "heatmap.seed_notes"))
    assert all(s in note for s in ("0 … L−1", "PE₍L₎", "L + 1", "0 … 99", "hot"))


# ---------------------------------------------------------------- every control


def test_layout_split_draws_the_tensorflow_tutorial_columns():
    at = open_page()
    at.radio(key="hm_layout").set_value("split")
    run(at)
    np.testing.assert_allclose(table_z(at), peer("tf_pe_L50_d128"), atol=1e-7)
    assert "dotted line" in captions(at)


def test_grouping_reorders_only_the_display_and_keeps_dimension_numbers():
    at = open_page()
    at.checkbox(key="hm_group").check()
    run(at)
    fig = by_key(at, "hm_table")
    perm = split_permutation(128)
    np.testing.assert_allclose(table_z(at), peer("torch_pe_f64_L50_d128")[:, perm], atol=1e-7)
    x = fig["data"][0]["x"]
    assert x[1].startswith("dimension 2 · sin") and x[64].startswith("dimension 1 · cos")
    assert fig["layout"]["shapes"], "the sin | cos boundary is drawn"


@pytest.mark.parametrize("name", ["t2t", "fairseq", "tf"])
def test_framework_choice_draws_that_frameworks_table(name):
    key = {"t2t": "t2t_pe_L50_d128", "fairseq": "fairseq_pe_L50_d128", "tf": "tf_pe_L50_d128"}[name]
    at = open_page()
    at.radio(key="hm_framework").set_value(name)
    at.radio(key="hm_layout").set_value("split")
    run(at)
    np.testing.assert_allclose(table_z(at), peer(key), atol=1e-7)


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_framework_preset_buttons_set_framework_and_native_layout(name):
    at = open_page(tab="frameworks")
    at.button(key=f"hm_fw_{name}").click()
    run(at)
    assert at.radio(key="hm_framework").value == name
    assert at.radio(key="hm_layout").value == NATIVE_LAYOUT[name]
    if name in ("t2t", "fairseq", "torch32"):
        diff = decode(by_key(at, "hm_difference")["data"][0]["z"])
        assert np.abs(diff).max() > 0
    # ... its whole "what it changes" text (the table's column is cut) ...
    assert any(m.value.endswith(text("en", f"heatmap.fw_what_{name}")) for m in at.markdown)
    # ... and its code under the table, as ui.features.heatmap.data_frameworks quotes it.
    (box,) = [e for e in at.expander if e.label.startswith("The code behind")]
    assert [c.value for c in box.code] == [code.rstrip() for _, code in LISTINGS[name]]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        # At L = 1 every implementation gives the paper's row: nothing to draw, and the
        # notice is not "the paper equals the paper".
        ({"seq_len": "1"}, "This is the paper's own formula"),
        ({"hm_framework": "tf"}, "TensorFlow tutorial gives the paper's values exactly"),
    ],
)
def test_frameworks_tab_says_why_there_is_no_difference_to_draw(query, said):
    at = open_page(query, tab="frameworks")
    notes = [info.value for info in at.info]
    assert any(said in note for note in notes), notes
    assert "hm_difference" not in chart_keys(at)


def framework_rows(at) -> dict[str, dict[str, str]]:
    """The frameworks' Markdown table on screen: {code: {column title: cell text}},
    rows found by each implementation's display name."""
    table = next(m.value for m in at.markdown if m.value.startswith("| implementation |"))
    lines = [
        [re.sub(r"\\([\\|$*_~`<])", r"\1", c.strip()) for c in line.strip(" |").split(" | ")]
        for line in table.splitlines()
    ]  # cells split at " | ", then Markdown's escapes undone
    header, rows = lines[0], lines[2:]
    by_name = {text("en", f"heatmap.fw_name_{code}"): code for code in FRAMEWORKS}
    return {by_name[r[0]]: dict(zip(header, r, strict=True)) for r in rows}


def test_framework_table_names_each_implementation_and_layout_in_words():
    rows = framework_rows(open_page(tab="frameworks"))
    assert list(rows) == list(FRAMEWORKS)  # every row found by its display name
    for code, row in rows.items():
        assert row["native layout"] == text("en", f"common.layout_{NATIVE_LAYOUT[code]}")
        assert row["ωᵢ"].startswith("$b^{") and row["what it changes"].startswith(
            text("en", f"heatmap.fw_what_{code}")
        )


def test_framework_differences_on_screen_match_the_peers():
    at = open_page(tab="frameworks")
    shown = {code: row["max |table − paper|"] for code, row in framework_rows(at).items()}
    precise = data.framework_differences(50, 128, 10000.0)
    assert shown == {code: f"{value:.3e}" for code, value in precise.items()}
    column = precise
    torch64 = peer("torch_pe_f64_L50_d128")
    t2t = np.abs(peer("t2t_pe_L50_d128") - torch64[:, split_permutation(128)]).max()
    assert column["t2t"] == pytest.approx(t2t, abs=1e-12)
    assert column["fairseq"] == pytest.approx(
        np.abs(peer("fairseq_pe_L50_d128") - torch64[:, split_permutation(128)]).max(), abs=1e-12
    )
    tf = np.abs(peer("tf_pe_L50_d128") - torch64[:, split_permutation(128)]).max()
    assert column["tf"] == pytest.approx(tf, abs=1e-12) and column["tf"] < 1e-13
    assert column["tf_old"] < 1e-13 and column["paper"] == 0
    # float32: torch's own float32 buffer, to 3 digits
    torch32 = np.abs(peer("torch_pe_f32_L50_d128") - torch64).max()
    assert column["torch32"] == pytest.approx(torch32, rel=1e-3)


def test_sentence_sets_the_rows_and_hides_the_length_slider():
    at = open_page()
    at.text_input(key="hm_sentence").input("the cat sat on the mat")
    run(at)
    assert all(n.key != "seq_len" for n in at.number_input)
    assert all(s.key != "seq_len_coarse" for s in at.select_slider)
    y = by_key(at, "hm_table")["data"][0]["y"]
    assert y == [f"position {p}: {w}" for p, w in enumerate("the cat sat on the mat".split())]
    assert "Sentence mode: L = 6" in at.sidebar.info[0].value


def test_a_long_sentence_is_capped_with_a_notice():
    at = open_page({"hm_sentence": " ".join(str(k % 10) for k in range(90))})  # 179 chars
    assert table_z(at).shape[0] == MAX_TOKENS
    assert f"The sentence has 90 tokens; the first {MAX_TOKENS} are used." in captions(at)


@pytest.mark.parametrize(
    ("d_model", "add", "concat"), [(128, "16,384", "32,768"), (8, "64", "128")]
)
def test_add_vs_concatenate_counts_the_weights_of_a_projection_at_this_d(d_model, add, concat):
    at = open_page({"d_model": d_model, "seq_len": 5}, tab="embedding")
    box = at.expander[0]
    assert box.label == "Why add rather than concatenate? (overview article)"
    assert "W_E E_p + W_{PE}" in box.latex[0].value
    assert f"at d = {d_model} each projection to d dimensions" in box.markdown[0].value
    assert "would map 2d inputs instead of d" in box.markdown[0].value
    assert f"and need {concat} weights instead of {add}" in box.markdown[0].value


def test_embedding_seed_draws_the_seeded_embedding_and_the_sums():
    at = open_page({"d_model": 8, "seq_len": 5}, tab="embedding")
    at.slider(key="hm_seed").set_value(7)
    run(at)
    panels = [decode(trace["z"]).astype(np.float64) for trace in by_key(at, "hm_embedding")["data"]]
    emb = np.random.default_rng(7).standard_normal((5, 8))
    pe = posenc.sinusoidal(5, 8)
    np.testing.assert_allclose(panels[0], emb, atol=1e-6)
    np.testing.assert_allclose(panels[1], pe, atol=1e-6)
    np.testing.assert_allclose(panels[2], emb + pe, atol=1e-6)
    np.testing.assert_allclose(panels[3], emb + np.arange(5)[:, None], atol=1e-5)
    np.testing.assert_allclose(panels[4], emb + np.arange(5)[:, None] / 4, atol=1e-6)


def test_reference_position_draws_that_row_of_pe_pe_transposed():
    at = open_page(tab="similarity")
    at.number_input(key="hm_sim_row").set_value(10)
    run(at)
    curve = by_key(at, "hm_curve")["data"][0]
    pe = peer("torch_pe_f64_L50_d128")
    np.testing.assert_allclose(decode(curve["y"]), (pe @ pe.T)[10], atol=1e-10)
    sim = decode(by_key(at, "hm_similarity")["data"][0]["z"]).astype(np.float64)
    np.testing.assert_allclose(sim, pe @ pe.T, rtol=1e-6)


def test_a_fractional_reference_from_a_link_is_rounded_to_a_position():
    at = open_page({"hm_sim_row": "10.4"}, tab="similarity")
    assert int(np.argmax(decode(by_key(at, "hm_curve")["data"][0]["y"]))) == 10


def test_a_reference_beyond_the_sequence_is_clamped_with_a_notice():
    at = open_page({"seq_len": 20, "hm_sim_row": 500}, tab="similarity")
    assert "r = 500 is not a position of this sequence (0 … 19); using r = 19." in captions(at)
    assert int(np.argmax(decode(by_key(at, "hm_curve")["data"][0]["y"]))) == 19


def test_shared_sliders_and_base_drive_every_chart():
    at = open_page()
    at.number_input(key="seq_len").set_value(9)
    at.number_input(key="d_model").set_value(6)
    at.number_input(key="base").set_value(50.0)
    run(at)
    np.testing.assert_allclose(table_z(at), posenc.sinusoidal(9, 6, 50.0), atol=1e-7)
    assert at.dataframe[0].value.shape == (9, 6)  # small enough for the numeric table
    open_tab(at, "similarity")
    sim = decode(by_key(at, "hm_similarity")["data"][0]["z"])
    assert sim.shape == (9, 9) and sim[0, 0] == 3.0
    open_tab(at, "embedding")
    panels = by_key(at, "hm_embedding")["data"]
    np.testing.assert_allclose(decode(panels[1]["z"]), posenc.sinusoidal(9, 6, 50.0), atol=1e-6)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fairseq_at_d2_falls_back_to_the_paper_with_a_notice(lang):
    at = open_page({"d_model": 2, "hm_framework": "fairseq", "lang": lang}, tab="frameworks")
    assert at.warning[0].value == text(lang, "heatmap.framework_unavailable", d_model=2)
    assert at.button(key="hm_fw_fairseq").disabled
    with pytest.raises(ValueError, match="d_model"):  # the library's own refusal
        framework_frequencies("fairseq", 2)


@pytest.mark.parametrize(
    "query",
    [
        {"seq_len": 1, "d_model": 2},
        {"seq_len": 1, "d_model": 4096},
        {"seq_len": 8192, "d_model": 2},
    ],
)
def test_extreme_shapes_run_without_warnings(query):
    at = open_page(query)
    assert not at.warning
    z = table_z(at)
    assert z.shape[0] <= 1024 and z.shape[1] <= 1024


def test_chinese_page_has_chinese_labels_and_hover_words():
    at = open_page({"lang": "zh"})
    assert at.title[0].value == "位置编码表，逐格查看"
    y = by_key(at, "hm_table")["data"][0]["y"]
    assert y[3] == "位置 3"
    assert "维度对 i = 0" in by_key(at, "hm_table")["data"][0]["x"][0]


def test_downloads_offer_the_matrix_only_up_to_the_cap():
    def csv_buttons(at: AppTest) -> int:
        return [b.proto.label for b in at.get("download_button")].count("CSV")

    for tab in ("table", "embedding", "similarity"):  # each offers its matrix when small
        assert csv_buttons(open_page(tab=tab)) == 1, tab
    big = {"seq_len": 4096, "d_model": 512}
    assert csv_buttons(table := open_page(big)) == 0
    assert "posenc.sinusoidal(4096, 512, 10000, layout='interleaved')" in captions(table)
    assert csv_buttons(open_page(big, tab="similarity")) == 0
    # The embedding view's matrix is itself capped to the rows it shows.
    assert csv_buttons(open_page(big, tab="embedding")) == 1


# ---------------------------------------------------------------- largest settings


EXPECTED_AT_LARGEST = {  # charts per tab, and what the captions must say
    "table": (1, ["Showing block means"]),
    "frameworks": (1, ["Each cell shows the largest |difference| among"]),
    "embedding": (1, []),
    "similarity": (2, ["Showing block means", "The curve shows one point in 2 (4,096 of 8,192)"]),
}


@pytest.mark.parametrize("tab", TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab at the largest settings
def test_largest_settings_stay_under_1_mb_per_chart_and_512_mb_and_say_so(tab):
    query = {"seq_len": 8192, "d_model": 4096, "hm_framework": "torch32"}  # + difference chart
    tracemalloc.start()
    try:
        start = time.perf_counter()
        at = open_page(query, tab=tab)
        cold = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    start = time.perf_counter()
    run(at)
    warm = time.perf_counter() - start
    sizes = chart_sizes(at)  # bytes, as sent
    print(f"\n{tab}: cold {cold:.1f} s, warm {warm:.2f} s, peak {peak / 2**20:.0f} MB, {sizes}")
    charts, notices = EXPECTED_AT_LARGEST[tab]
    assert len(sizes) == charts and max(sizes) < MAX_CHART_BYTES, sizes
    assert peak < 512 * 2**20
    for notice in notices:
        assert notice in captions(at), notice


# ---------------------------------------------------------------- real browser

TABLE_ROWS = "() => document.querySelector('.js-plotly-plot')?._fullData?.[0]?.z?.length"
TABLE_Z = "() => document.querySelector('.js-plotly-plot')._fullData[0].z"


def open_presets(pg) -> None:
    """The presets are in a popover: open it."""
    pg.get_by_role("button", name=re.compile("Figures of the source articles")).click()


def _no_exception(pg) -> None:
    assert pg.locator("[data-testid=stException]").count() == 0


@pytest.mark.browser
def test_robot_preset_button_works_in_the_browser(server, page):
    page.goto(server.url + "/Heatmap")
    wait_for_app(page)
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 50", timeout=60_000)
    open_presets(page)
    page.get_by_role("button", name="“I am a robot”, b = 100, d = 4").click()
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 4", timeout=60_000)
    wait_for_app(page)
    z = np.array(page.evaluate(TABLE_Z), dtype=np.float64)
    np.testing.assert_allclose(z, peer("tutorial_pe_L4_d4_n100"), atol=1e-7)
    assert "d_model=4" in page.url and "base=100" in page.url and "hm_sentence=I" in page.url
    assert page.get_by_text("Sentence mode: L = 4").count() == 1
    _no_exception(page)


@pytest.mark.browser
def test_seed_preset_leaves_sentence_mode_in_the_browser(server, page):
    page.goto(server.url + "/Heatmap?hm_sentence=a+b+c&d_model=8")
    wait_for_app(page)
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 3", timeout=60_000)
    open_presets(page)
    page.get_by_role("button", name="L = 50, d = 128").click()
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 50", timeout=60_000)
    wait_for_app(page)
    z = np.array(page.evaluate(TABLE_Z), dtype=np.float64)
    np.testing.assert_allclose(z, peer("torch_pe_f64_L50_d128"), atol=1e-7)
    assert page.get_by_role("slider", name="Sequence length L").count() == 1
    assert "d_model=128" in page.url or "d_model" not in page.url
    _no_exception(page)


@pytest.mark.browser
def test_hover_names_pair_kind_omega_lambda_and_value_in_the_browser(server, page):
    page.goto(server.url + "/Heatmap?seq_len=4&d_model=4&base=100")
    wait_for_app(page)
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 4", timeout=60_000)
    wait_for_app(page)
    drag = page.locator(".js-plotly-plot .nsewdrag").first
    drag.wait_for(state="visible", timeout=30_000)
    hover = page.locator(".hoverlayer .hovertext")
    for _ in range(20):  # the chart may be redrawn once after the first paint
        box = drag.bounding_box()
        if box is not None:
            # Cell (position 1, dimension 3): second row, fourth column.
            page.mouse.move(box["x"] + box["width"] * 7 / 8, box["y"] + box["height"] * 3 / 8)
            if hover.count():
                break
        page.wait_for_timeout(500)
    text = page.locator(".hoverlayer .hovertext").first.text_content()
    assert "position 1" in text and "dimension 3 · cos · pair i = 1" in text
    assert "ω = 0.1" in text and "λ = 62.83" in text
    assert f"value = {peer('tutorial_pe_L4_d4_n100')[1, 3]:.4f}" in text


@pytest.mark.browser
def test_largest_settings_in_the_browser_receive_block_means_only(server, page):
    page.goto(server.url + "/Heatmap?seq_len=8192&d_model=4096")
    wait_for_app(page, timeout=240_000)
    page.wait_for_selector("[data-testid=stPlotlyChart] .main-svg", timeout=240_000)
    rows = page.evaluate(TABLE_ROWS)
    cols = page.evaluate("() => document.querySelector('.js-plotly-plot')._fullData[0].z[0].length")
    assert rows * cols <= 120_000 and rows <= 1024 and cols <= 1024
    assert page.get_by_text("Showing block means").count() == 1
    # A click on a lazy tab computes it then, and the address keeps it for sharing.
    page.get_by_role("tab", name="Similarity").click()
    page.wait_for_selector(".st-key-hm_similarity .main-svg", timeout=240_000)
    wait_for_app(page, timeout=240_000)
    assert page.get_by_text("Showing block means").count() == 1
    assert "hm_tab=similarity" in page.url  # the tab's code, the same in every language
    sim = "() => document.querySelector('.st-key-hm_similarity .js-plotly-plot')._fullData[0].z"
    z = page.evaluate(sim)
    assert len(z) * len(z[0]) <= 120_000
    _no_exception(page)


@pytest.mark.browser
@pytest.mark.parametrize("key", ["hm_seed", "hm_sim_row", "hm_layout", "hm_sentence"])
def test_a_10000_digit_page_setting_gives_a_notice_not_a_crash(server, page, key):
    page.goto(f"{server.url}/Heatmap?{key}={'9' * 10_000}")
    wait_for_app(page)
    page.wait_for_selector("[data-testid=stPlotlyChart] .main-svg", timeout=60_000)
    _no_exception(page)
    label = setting_label("en", key)  # a notice names the setting by its label (#20)
    assert any(label in text for text in page.locator("[data-testid=stAlert]").all_inner_texts())


@pytest.mark.browser
def test_menu_link_from_home_opens_the_heatmap_with_the_carried_length(server, page):
    page.goto(server.url + "/?seq_len=12")
    wait_for_app(page)
    menu = page.locator("[data-testid=stSidebar] [data-testid=stPageLink]")
    menu.filter(has_text=text("en", "menu.heatmap")).click()
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 12", timeout=60_000)
    _no_exception(page)


@pytest.mark.browser
def test_gentle_preset_draws_l100_d512_in_the_browser(server, page):
    page.goto(server.url + "/Heatmap?seq_len=7&hm_group=true")
    wait_for_app(page)
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 7", timeout=60_000)
    open_presets(page)
    page.get_by_role("button", name="L = 100, d = 512").click()
    page.wait_for_function(f"() => ({TABLE_ROWS})() === 100", timeout=60_000)
    wait_for_app(page)
    z = np.array(page.evaluate(TABLE_Z), dtype=np.float64)
    np.testing.assert_allclose(z, peer("torch_pe_f64_L100_d512"), atol=1e-7)
    _no_exception(page)


def test_frameworks_tab_draws_a_visible_difference_at_the_defaults():
    at = open_page(tab="frameworks")  # framework = paper, the reference
    z = decode(by_key(at, "hm_difference")["data"][0]["z"]).astype(np.float64)
    assert np.abs(z).max() > 0.1  # t2t / fairseq: exponent i/(d/2 - 1), 0.28 at most here
    name = text("en", "heatmap.fw_name_t2t")
    assert any(name in c.value and "paper" in c.value for c in at.caption)


def test_frameworks_caption_says_in_which_pairs_the_difference_is_largest():
    at = open_page(tab="frameworks")  # the paper: t2t - paper drawn, L = 50, d = 128
    diff = np.abs(
        peer("t2t_pe_L50_d128") - peer("torch_pe_f64_L50_d128")[:, split_permutation(128)]
    )
    per_pair = np.maximum(diff[:, :64], diff[:, 64:]).max(axis=0)  # split: sin | cos
    big = np.flatnonzero(per_pair >= per_pair.max() / 2)
    position = int(diff.max(axis=1).argmax())
    said = (
        f"at position p = {position} in pair i = {int(per_pair.argmax())}. Pairs with at least"
        f" half of it: i = {big[0]} … {big[-1]} (of 0 … 63)."
    )
    assert any(said in c.value for c in at.caption), [c.value for c in at.caption]
    assert big[-1] < 32  # the fast half of the pairs, not "the slow right-hand pairs"


def test_embedding_is_multiplied_by_sqrt_d_before_pe_is_added():
    at = open_page(tab="embedding")
    assert any(r"\sqrt{d" in f.value and r"E_p + PE_p" in f.value for f in at.get("latex"))
    scaled = by_key(at, "hm_embedding")["data"]
    at.checkbox(key="hm_scale").uncheck()
    run(at)
    plain = by_key(at, "hm_embedding")["data"]
    e_scaled, e_plain = (decode(d[0]["z"]).astype(np.float64) for d in (scaled, plain))
    np.testing.assert_allclose(e_scaled, e_plain * np.sqrt(128), rtol=1e-6)
    assert 0.8 < e_scaled.std() < 1.2 and e_plain.std() < 0.12  # unscaled, PE drowns E
    np.testing.assert_allclose(  # PE itself does not change
        decode(scaled[1]["z"]), decode(plain[1]["z"])
    )


def test_upload_names_learned_absolute_position_embeddings():
    at = open_page()
    said = " ".join(c.value for c in at.caption)
    assert "BERT" in said and "GPT-2" in said
    code = " ".join(c.value for c in at.code)
    assert "position_embeddings" in code and "wpe" in code


def test_embedding_notes_quote_the_largest_position_the_panels_add():
    """heatmap.emb_notice: "PE = p adds ... up to {max_pos} here": the panels' last row,
    not L - 1, when L exceeds the rows drawn."""
    from ui.features.heatmap.data import EMBED_ROWS

    at = open_page({"seq_len": 300, "d_model": 16}, tab="embedding")
    said = text("en", "heatmap.emb_notice", max_pos=EMBED_ROWS - 1)
    assert said in [c.value for c in at.caption]
    assert text("en", "heatmap.emb_notice", max_pos=299) not in [c.value for c in at.caption]
