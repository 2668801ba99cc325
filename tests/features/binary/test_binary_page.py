"""The page "Binary counter vs sinusoid" in AppTest: every control, URL values, extremes,
both languages, and what each tab draws and says at the largest settings (their 1 MB and
512 MB budgets: test_pages)."""

import time

import numpy as np
import pytest
from support.apptest import Page
from support.screen import captions, chart, chart_keys, chart_sizes, decode, figures

import posenc
from posenc import criteria
from posenc.criteria import scheme_criteria
from ui.features.binary import specs
from ui.plain.texts import text

# Charts per tab (lazy tabs: only the open one runs).
CHARTS = {
    "evolution": ["bin_evolution"],
    "criteria": [],
    "counter": ["bin_waves"],
    "steps": ["bin_steps"],
    "loops": ["bin_loop_high", "bin_loop_low"],
    "distance": ["bin_distance"],
}
HIGH, LOW = 0, 1  # the two 3-D charts of the loops tab
LARGEST = {"seq_len": "8192", "d_model": "4096", "base": "1000000000.0"} | {
    s.key: str(s.maximum) for s in specs.SPECS if hasattr(s, "maximum")
}


PAGE = Page("3_Binary_vs_sinusoid.py", specs, timeout=300)
tab_label, open_page, open_tab = PAGE.tab_label, PAGE.open, PAGE.open_tab


def criteria_table(at):
    return next(df.value for df in at.dataframe if df.value.shape[0] == len(posenc.SCHEMES))


@pytest.mark.parametrize("tab", specs.TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab
def test_each_tab_draws_its_own_charts_without_warnings(tab):
    at = open_page(tab=tab)
    assert chart_keys(at) == CHARTS[tab]
    assert not at.warning
    assert not at.info  # nothing is capped at the defaults
    if tab == "criteria":
        assert "Passing every column at these settings: sin/cos pairs." in captions(at)


def test_criteria_table_shows_the_numbers_of_posenc():
    at = open_page({"seq_len": "30", "d_model": "16", "base": "100"}, tab="criteria")
    table = criteria_table(at)
    binary = table.iloc[posenc.SCHEMES.index("binary")]
    index = table.iloc[posenc.SCHEMES.index("index")]
    assert binary.iloc[1] == "✓ 1"  # unique: min distance 1
    expected = scheme_criteria("index", 30, 16, 100.0).max_abs
    assert index.iloc[2] == f"✗ {expected:.4g}"  # bounded fails: 29
    sinus = table.iloc[posenc.SCHEMES.index("sinusoidal")]
    assert all(cell.startswith("✓") for cell in sinus.iloc[1:])


def test_offset_k_slider_changes_the_table_and_the_step_chart():
    at = open_page({"seq_len": "40"}, tab="criteria")
    at.slider(key="bin_k").set_value(5).run()
    assert not at.exception
    assert any("k = 5" in column for column in criteria_table(at).columns)
    open_tab(at, "steps")  # k is kept across the tabs
    assert at.slider(key="bin_k").value == 5
    steps = chart(at, "bin_steps")["data"][posenc.SCHEMES.index("binary")]
    expected = scheme_criteria("binary", 40, 128, k=5).steps
    np.testing.assert_allclose(decode(steps["y"]), expected)


def test_step_formula_gives_the_distance_the_chart_draws():
    at = open_page({"seq_len": "40", "bin_k": "3"}, tab="steps")
    formula = next(latex.value for latex in at.latex if "PE(p{+}k)" in latex.value)
    assert "\\rVert^2" not in formula and "\\sqrt" in formula  # the distance, not its square
    drawn = decode(chart(at, "bin_steps")["data"][posenc.SCHEMES.index("sinusoidal")]["y"])
    omega = posenc.frequencies(128)
    np.testing.assert_allclose(drawn, np.sqrt(np.sum(2 - 2 * np.cos(omega * 3))), rtol=1e-9)


def test_bits_slider_redraws_the_counter_and_the_base():
    at = open_page(tab="counter")
    at.slider(key="bin_bits").set_value(6).run()
    assert not at.exception
    counter = next(df.value for df in at.dataframe if "b5" in df.value.columns)
    assert counter.shape == (64, 7)
    square = [t for t in chart(at, "bin_waves")["data"] if t.get("line", {}).get("shape") == "hvh"]
    assert len(square) == 6
    assert any("= 64" in latex.value for latex in at.latex)  # n = 2^(d/2) = 64


@pytest.mark.parametrize(
    ("bits", "jump"), [(2, "1.41 from p = 1 "), (3, "1.73 from p = 3 "), (4, None)]
)
def test_two_and_three_bit_codes_are_drawn_as_corners_with_their_largest_jump(bits, jump):
    at = open_page({"bin_bits": str(bits)}, tab="counter")
    assert ("bin_code_space" in chart_keys(at)) == (jump is not None)
    if jump:
        corners = chart(at, "bin_code_space")["data"][0]
        assert len(decode(corners["x"])) == 2**bits
        assert jump in captions(at)  # sqrt 2, sqrt 3: all bits flip at the middle


def test_gap_slider_moves_the_marked_pair():
    at = open_page({"seq_len": "50"}, tab="loops")
    assert "Positions 8 and 33" in captions(at)
    at.slider(key="bin_gap").set_value(60).run()
    assert not at.exception
    assert "No two positions are 60 apart" in captions(at)


@pytest.mark.parametrize(("d_model", "shown"), [(128, "54,410"), (512, "60,611"), (2, "6.283")])
def test_loops_notice_gives_the_slowest_wavelength_of_the_settings(d_model, shown):
    """2 pi n^((d-2)/d), not 2 pi n (62 832): 54 410 positions at the default d = 128."""
    at = open_page({"seq_len": "20", "d_model": str(d_model)}, tab="loops")
    slowest = 2 * np.pi * 10000 ** ((d_model - 2) / d_model)
    assert float(shown.replace(",", "")) == pytest.approx(slowest, abs=0.5)
    assert f"{shown} positions at b = 10000, d = {d_model}" in captions(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_seed_003_button_sets_its_own_slow_frequencies_and_says_what_they_leave(lang):
    """Seed 003's omega_i = 1 / 10000^(i / (d - 1)) at d = 3; omega_0 = 1 still loops."""
    at = open_page({"seq_len": "50", "lang": lang}, tab="loops")
    note = text(lang, "binary.loop_evolution_note")
    assert note not in captions(at)
    at.button(key="bin_lo_evolution").click().run()
    assert not at.exception
    omegas = [10000 ** (-i / (3 - 1)) for i in range(3)]
    assert [at.number_input(key=s.key).value for s in specs.LOW] == pytest.approx(omegas)
    points = next(t for t in figures(at)[LOW]["data"] if t["mode"] == "markers")
    path = criteria.sine_table(50, omegas)
    for i, axis in enumerate("xyz"):
        np.testing.assert_allclose(decode(points[axis]), path[:, i], atol=1e-12)
    pair = criteria.min_distance(path, min_gap=10)
    assert note in captions(at)
    if lang == "en":
        assert f"Positions {pair.i} and {pair.j} are {pair.distance:.3g} apart" in captions(at)
    assert [at.number_input(key=s.key).value for s in specs.HIGH] == [1.0, 0.5, 0.25]


@pytest.mark.parametrize("spec", specs.HIGH + specs.LOW, ids=lambda s: s.key)
def test_each_frequency_input_redraws_its_3d_path(spec):
    at = open_page({"seq_len": "20"}, tab="loops")
    at.number_input(key=spec.key).set_value(0.3).run()
    assert not at.exception
    which = HIGH if spec in specs.HIGH else LOW
    axis = "xyz"[int(spec.key[-1])]
    points = next(t for t in figures(at)[which]["data"] if t["mode"] == "markers")
    np.testing.assert_allclose(decode(points[axis]), np.sin(0.3 * np.arange(20)))


@pytest.mark.parametrize("scheme", posenc.SCHEMES)
def test_scheme_choice_draws_that_distance_matrix(scheme):
    at = open_page({"seq_len": "24", "d_model": "8", "base": "50"}, tab="distance")
    at.radio(key="bin_scheme").set_value(scheme).run()
    assert not at.exception
    z = decode(chart(at, "bin_distance")["data"][0]["z"])
    table = posenc.scheme_table(scheme, 24, 8, 50.0)
    expected = np.linalg.norm(table[:, None] - table[None], axis=-1)
    np.testing.assert_allclose(z, expected, atol=1e-6)


# The tab that draws each page control.
WIDGET_TAB = {
    "bin_k": "criteria",
    "bin_bits": "counter",
    "bin_gap": "loops",
    "bin_scheme": "distance",
}


def widget(at, key: str):
    return at.radio(key=key) if key == "bin_scheme" else at.slider(key=key)


def test_url_values_of_the_page_are_used():
    query = {"bin_k": "3", "bin_bits": "3", "bin_gap": "4", "bin_scheme": "sinusoidal"}
    for key, tab in WIDGET_TAB.items():
        at = open_page(query, tab=tab)
        assert str(widget(at, key).value) == query[key]
        assert not at.warning


def test_one_position_and_two_dimensions():
    query = {"seq_len": "1", "d_model": "2"}
    at = open_page(query, tab="criteria")
    table = criteria_table(at)
    assert table.iloc[:, 1].str.startswith("–").all()  # unique: no pair at L = 1
    assert "Passing every column at these settings: none." in captions(at)
    steps = open_page(query, tab="steps")
    assert "No two positions are 1 apart: increase L or decrease k." in captions(steps)
    loops = open_page(query, tab="loops")
    assert "No two positions are 10 apart" in captions(loops)  # the 3-D pair
    for tab in ("evolution", "counter", "distance"):
        assert not open_page(query, tab=tab).warning


def test_chinese_texts():
    at = open_page({"lang": "zh", specs.TAB.key: specs.TAB.options[len(specs.TAB_NAMES) + 1]})
    assert at.title[0].value.startswith("二进制计数器")
    assert "方案" in criteria_table(at).columns  # the Chinese label opened the criteria tab


# What each tab must say at the largest settings.
NOTICES = {
    "evolution": ["block means", "panels show the first 1024 of the 8192 positions"],
    "criteria": ["among the first 8192 of the 16384 positions"],  # closest pair at 2L
    "counter": [],
    "steps": ["smallest and largest value of every group"],
    "loops": ["first 2000 of the 8192 positions"],
    "distance": ["block means", "matrix shows the first 2048 of the 8192 positions"],
}


@pytest.mark.parametrize("tab", specs.TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab at the largest settings
def test_largest_settings_draw_each_tabs_charts_and_say_what_they_cap(tab):
    """The 1 MB chart budget and the 512 MB memory cap at these settings (every number at
    its maximum, the same query) are test_pages' largest-settings test; here each tab
    still draws all its charts and says what it reduced."""
    start = time.perf_counter()
    at = open_page(LARGEST, tab=tab, timeout=600)
    sizes = chart_sizes(at)
    print(f"{tab} largest: {time.perf_counter() - start:.1f} s, charts {sizes}")
    assert len(sizes) == len(CHARTS[tab]), sizes
    notes = captions(at) + "\n".join(i.value for i in at.info)
    for notice in NOTICES[tab]:
        assert notice in notes, notice


def constant_column_fraction(trace) -> float:
    """Share of a heatmap's columns whose values spread by less than 0.05: drawn blank."""
    z = np.asarray(decode(trace["z"]), dtype=float)
    return float(np.mean(np.ptp(z, axis=0) < 0.05))


def test_binary_and_sine_panels_fill_their_width_at_the_defaults():
    at = open_page()
    traces = chart(at, "bin_evolution")["data"]
    binary, sines = (traces[posenc.SCHEMES.index(n)] for n in ("binary", "sin_pow2"))
    # Drawn over all d = 128 columns: 122 of 128 (95 %) and 118 of 128 (92 %) constant.
    assert constant_column_fraction(binary) == 0 and constant_column_fraction(sines) == 0
    assert list(decode(binary["x"])) == list(range(122, 128))  # the true dimensions
    assert "122–127" in captions(at)
    at.checkbox(key="bin_focus").uncheck().run()
    assert not at.exception
    traces = chart(at, "bin_evolution")["data"]
    assert constant_column_fraction(traces[posenc.SCHEMES.index("binary")]) > 0.9


def test_evolution_lead_quotes_the_index_top_and_the_bounded_others_at_the_defaults():
    """The lead says the index reaches L - 1 while the other four stay within +-1 and
    both sine codes slow down from column to column (issue #20, less text)."""
    at = open_page()
    length, d_model, base = 50, 128, 10000.0
    tables = {name: posenc.scheme_table(name, length, d_model, base) for name in posenc.SCHEMES}
    top = tables["index"].max()
    assert top == length - 1
    assert all(np.abs(tables[n]).max() <= 1 for n in posenc.SCHEMES if n != "index")
    assert np.all(np.diff(posenc.frequencies(d_model, base)) < 0)  # sin/cos pairs slow down
    assert np.all(np.diff(1 / 2.0 ** np.arange(d_model)) < 0)  # sin(p / 2^j) slows down
    assert text("en", "binary.evolution_lead", top=f"{top:g}") in captions(at)
    assert "reaches 49" in captions(at)


def test_criteria_lead_names_the_schemes_passing_all_four():
    at = open_page(tab="criteria")
    passing = [
        text("en", f"binary.scheme_{n}")
        for n in posenc.SCHEMES
        if scheme_criteria(n, 50, 128, 10000.0, k=specs.K.default).passes
    ]
    assert passing == ["sin/cos pairs"]
    assert text("en", "binary.criteria_lead", passing=", ".join(passing)) in captions(at)


def test_loops_lead_names_the_gap_of_the_marked_pairs():
    at = open_page({"seq_len": "50"}, tab="loops")
    at.slider(key="bin_gap").set_value(15).run()
    assert not at.exception
    assert text("en", "binary.loop_lead", gap=15) in captions(at)
