"""The "Start here" story (issue #21 §1): every step opens in both languages with one
chart, the step lives in the URL, Back / Next move and stop at the ends, bad steps give a
notice, each go-deeper link opens an existing page and tab with the step's settings, and
every number a step's sentences state is computed here again."""

from __future__ import annotations

import importlib
import re
from urllib.parse import parse_qsl

import numpy as np
import pytest
from support.apptest import run_page
from support.screen import decode, figures, notice_text, rendered
from support.views import setting_label

import posenc
from posenc.criteria import counter_frequencies
from ui.features.story import data, specs
from ui.features.story.view import STEPS, tiny
from ui.plain.params import CARRIED
from ui.plain.texts import text
from ui.shared import menu

PAGE = "0_Start_here.py"
STEP_NUMBERS = list(range(1, len(STEPS) + 1))


def open_step(n: int, **query) -> object:
    return run_page(PAGE, {"step": str(n), **{k: str(v) for k, v in query.items()}})


def title(at) -> str:
    return at.header[0].value


def lead(at) -> str:
    """The step's two lines, as read on screen."""
    return rendered(at.markdown[1].value)


def deeper(at):
    """The go-deeper link: (menu entry of its page, its query as a dict)."""
    link = next(
        el for el in at.get("page_link") if el.proto.label.startswith(("Go deeper", "深入"))
    )
    entry = next(e for e in menu.PAGES if e.url_path == "/" + link.proto.page)
    return entry, dict(parse_qsl(link.proto.query_string))


def test_steps_agree_with_the_step_setting():
    assert len(STEPS) == specs.STEP_COUNT == specs.STEP.maximum
    assert specs.STEP.minimum == specs.STEP.default == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("n", STEP_NUMBERS)
@pytest.mark.slow  # a sweep: every step in both languages
def test_every_step_opens_with_exactly_one_chart_and_its_title(n, lang):
    at = open_step(n, lang=lang)
    assert len(at.get("plotly_chart")) == 1
    assert not at.warning, [w.value for w in at.warning]
    assert title(at) == text(lang, f"story.{STEPS[n - 1]}_title")
    assert at.markdown[0].value == text(lang, "story.step_of", n=n, total=len(STEPS))
    assert at.query_params["step"] == str(n)


def test_the_page_opens_on_the_first_step_and_names_it_in_the_url():
    at = run_page(PAGE)
    assert title(at) == text("en", "story.order_title")
    assert at.query_params["step"] == "1"


def test_next_and_back_move_the_step_and_the_url():
    at = open_step(1)
    for expected in (2, 3):
        at.button(key="story_next").click().run()
        assert title(at) == text("en", f"story.{STEPS[expected - 1]}_title")
        assert at.query_params["step"] == str(expected)
    at.button(key="story_back").click().run()
    assert title(at) == text("en", "story.naive_title")
    assert at.query_params["step"] == "2"
    assert not at.exception


def test_the_buttons_stop_at_the_ends():
    first, last = open_step(1), open_step(len(STEPS))
    assert first.button(key="story_back").disabled and not first.button(key="story_next").disabled
    assert last.button(key="story_next").disabled and not last.button(key="story_back").disabled


def test_the_buttons_answer_the_arrow_keys():
    at = open_step(5)
    assert at.button(key="story_next").proto.shortcut == "right"
    assert at.button(key="story_back").proto.shortcut == "left"


@pytest.mark.parametrize("raw", ["0", "14", "abc", "2.5", "9" * 400])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.slow  # a sweep: hostile step values in both languages
def test_a_bad_step_gives_a_notice_and_the_first_step(raw, lang):
    at = run_page(PAGE, {"step": raw, "lang": lang})
    assert setting_label(lang, "step") in notice_text(at)
    assert title(at) == text(lang, "story.order_title")
    assert len(at.get("plotly_chart")) == 1


def test_a_link_edited_to_another_step_wins_over_the_session():
    at = open_step(2)
    at.button(key="story_next").click().run()
    at.query_params["step"] = "9"  # the address bar, or the browser's back button
    at.run()
    assert title(at) == text("en", "story.weights_title")


# Settings each step carries into its link: step setting -> (link key, value of the link).
CARRIED_SETTINGS = {
    "naive": {"story_naive_len": ("20", "seq_len", "20")},
    "binary": {"story_bits": ("3", "seq_len", "8")},  # and d_model 6: one pair per bit
    "clock": {"story_clock_p": ("17", "wl_clock_p", "17")},
    "table": {"story_table_d": ("64", "d_model", "64")},
    "shift": {"story_shift_k": ("-5", "rot_k", "-5")},
    "dot": {"story_dot_p": ("40", "rot_p", "40")},
    "weights": {"story_w_seed": ("7", "rope_seed", "7")},
    "rope": {"story_rope_k": ("6", "rope_m", "9")},
    "decay": {"story_decay_d": ("128", "rope_head_dim", "128")},
    "extend": {"story_factor": ("8", "rope_factor", "8")},
    "pictures": {"story_picture_w": ("8", "mrope_w", "16")},  # tokens -> patches
}


@pytest.mark.parametrize("n", STEP_NUMBERS)
@pytest.mark.slow  # a sweep: every step's link
def test_each_go_deeper_link_opens_a_page_tab_with_the_steps_settings(n):
    name = STEPS[n - 1]
    moved = CARRIED_SETTINGS.get(name, {})
    at = open_step(n, **{key: value for key, (value, _, _) in moved.items()})
    entry, query = deeper(at)
    page_specs = importlib.import_module(f"ui.features.{entry.name}.specs")
    tab_key = page_specs.TAB.key
    assert query[tab_key] in page_specs.TAB_NAMES
    for _, link_key, expected in moved.values():
        assert query[link_key] == expected, (link_key, query)
    known = {spec.key: spec for spec in (*CARRIED, *page_specs.SPECS)}
    for key, value in query.items():
        known[key].parse(value)  # a setting of the target page, valid there
    target = run_page(entry.path.removeprefix("pages/"), query, timeout=240)
    assert not target.warning, [w.value for w in target.warning]
    # The page keeps an opened tab's code in the URL (none for its first tab).
    code = query[tab_key]
    assert target.query_params.get(tab_key) == code or code == page_specs.TAB_NAMES[0]


def test_the_counter_link_gives_one_sine_pair_per_bit():
    _, query = deeper(open_step(3, story_bits=5))
    assert (query["seq_len"], query["d_model"]) == ("32", "10")


def test_links_keep_the_language_and_presenter_mode():
    at = open_step(7, lang="zh", present="true")
    _, query = deeper(at)
    assert (query["lang"], query["present"]) == ("zh", "true")


# ---------------------------------------------------------- numbers the sentences state


def test_order_without_positions_both_orders_give_one_output():
    a, b = data.dog_outputs(False)
    assert np.abs(a - b).max() < 1e-12
    at = open_step(1)
    line = [decode(d["y"]) for d in figures(at)[0]["data"]]
    assert np.allclose(line[0], a) and np.allclose(line[1], b)
    assert text("en", "story.order_same") in lead(at)


def test_order_with_positions_the_outputs_part_by_the_stated_gap():
    a, b = data.dog_outputs(True)
    gap = np.abs(a - b).max()
    assert gap > 0.5
    at = open_step(1, story_order_pe="true")
    assert f"{gap:.3g}" in lead(at)


def test_naive_codes_of_position_3_differ_with_the_length():
    at = open_step(2, story_naive_len=11)
    assert "3 is 0.75 in a text of 5 words but 0.3 in one of 11" in lead(at)
    assert "here to 10" in lead(at)
    codes = data.naive_codes(11)
    assert (codes["short"][3], codes["index"].max()) == (0.75, 10)
    assert codes["long"][3] == pytest.approx(3 / 10)


@pytest.mark.parametrize("bits", range(specs.BITS.minimum, specs.BITS.maximum + 1))
def test_the_counter_is_unique_bounded_and_bit_i_flips_every_2_to_the_i(bits):
    table = data.counter(bits)
    assert len({tuple(row) for row in table}) == 2**bits and set(table.ravel()) <= {0, 1}
    for i in range(bits):
        column = table[:, bits - 1 - i]
        flips = np.flatnonzero(np.diff(column)) + 1
        assert flips.tolist() == list(range(2**i, 2**bits, 2**i))


def test_each_smooth_bit_has_twice_the_wavelength_of_the_previous():
    omega = counter_frequencies(6)
    assert np.allclose(omega[:-1] / omega[1:], 2.0)
    assert 1 / data.speed_ratio() == 2.0
    assert "has 2 times the wavelength" in lead(open_step(4))


@pytest.mark.parametrize("bit", range(specs.BIT.minimum, specs.BIT.maximum + 1))
def test_the_smooth_bit_crosses_one_half_where_the_bit_jumps(bit):
    curves = data.smooth_bit(bit)
    jumps = np.flatnonzero(np.diff(curves.square)) + 1  # first sample after each jump
    for j in jumps:
        before, after = curves.smooth[j - 1] - 0.5, curves.smooth[j] - 0.5
        assert before * after <= 0 or min(abs(before), abs(after)) < 0.05


def test_smooth_notes_quote_the_transformers_wavelength_ratio():
    # The Transformer's factor per pair, b^(2/d), is not always below 2 (d = 16: 3.16).
    small, big = (posenc.wavelengths(d, 10000.0) for d in (512, 16))
    assert round(small[1] / small[0], 2) == 1.04 and round(big[1] / big[0], 2) == 3.16
    for lang in ("en", "zh"):
        notes = text(lang, "story.smooth_notes")
        assert "1.04" in notes and "3.16" in notes and "512" in notes


def test_the_smooth_lead_names_the_drawn_bit_and_its_period():
    shown = lead(open_step(4, story_bit=2))
    assert shown.startswith("Bit 2 is a square wave of period 8")


def test_clock_wavelengths_grow_by_the_stated_ratio():
    lam = posenc.wavelengths(16, 10000.0)
    assert np.allclose(lam[1:] / lam[:-1], data.wavelength_ratio())
    assert "3.16 times the previous one's, up to 19,869 positions" in lead(open_step(5))
    assert round(lam[-1]) == 19869


@pytest.mark.parametrize("d", range(specs.TABLE_D.minimum, specs.TABLE_D.maximum + 1, 8))
def test_table_first_column_changes_fast_and_last_two_barely(d):
    fast, slow = data.column_changes(d)
    pe = posenc.sinusoidal(40, d)
    assert fast == pytest.approx(np.abs(np.diff(pe[:, 0])).mean()) and fast > 0.5
    assert slow == pytest.approx(np.ptp(pe[:, -2:], axis=0).max()) and slow < 0.05


def test_table_sentence_quotes_the_computed_changes():
    fast, slow = data.column_changes(32)
    assert f"changes by {fast:.2f} from row to row" in lead(open_step(6))
    assert f"at most {slow:.3f} over all 40 rows" in lead(open_step(6))


@pytest.mark.parametrize("k", [specs.SHIFT_K.minimum, -1, 0, 3, 8, specs.SHIFT_K.maximum])
def test_every_arrow_turns_by_omega_k(k):
    omega = posenc.frequencies(16)[2]
    expected = np.angle(np.exp(1j * omega * k))
    assert np.allclose(data.shift_angles(k), expected, atol=1e-12)
    starts = data.arrow_starts(k)
    assert (starts + k >= 0).all()
    assert f"ω k = {expected:.2f} rad" in lead(open_step(7, story_shift_k=k))


@pytest.mark.parametrize("p", [1, 30, specs.DOT_P.maximum])
def test_dot_products_depend_on_the_offset_only(p):
    k, first, moved = data.dot_curves(p)
    assert np.abs(first - moved).max() < 1e-12
    assert np.allclose(first, posenc.offset_dot(k, data.DOT_D), atol=1e-12)


def test_dot_sentence_quotes_the_gap_in_plain_notation_and_notes_d_over_2():
    _, first, moved = data.dot_curves(30)
    gap = np.abs(first - moved).max()
    shown = lead(open_step(8))
    assert f"at most {tiny(gap)}, rounding" in shown and "e-" not in shown
    assert tiny(5.3e-15) == "5 × 10⁻¹⁵" and tiny(0.0) == "0"
    assert first[0] == pytest.approx(data.DOT_D / 2) and first.max() == first[0]
    assert "d = 32" in text("en", "story.dot_notes") and data.DOT_D == 32


@pytest.mark.parametrize("seed", [0, 1, 42, 99])
@pytest.mark.parametrize("k", [0, 4, 30])
def test_through_weights_the_score_at_a_fixed_offset_swings(k, seed):
    plain, weighted = data.added_scores(k, seed)
    assert data.swing(plain) < 1e-9
    assert plain[0] == pytest.approx(posenc.offset_dot(k, data.SCORE_D))
    assert data.swing(weighted) > 1.0


def test_weights_sentence_quotes_the_flat_value_and_the_swing():
    plain, weighted = data.added_scores(4, 0)
    shown = lead(open_step(9))
    assert f"is {plain[0]:.2f} for every m" in shown
    assert f"swings by {data.swing(weighted):.2f}" in shown


def test_the_rope_chart_names_its_grey_line_as_the_previous_steps_score():
    data_ = figures(open_step(10))[0]["data"]
    assert [d["name"] for d in data_] == [
        text("en", "story.rope_line"),
        text("en", "story.rope_previous"),
    ]
    _, weighted = data.added_scores(4, 0)
    assert np.allclose(decode(data_[1]["y"]), weighted)


@pytest.mark.parametrize("n", [9, 10])
def test_score_charts_name_the_key_position_with_the_chosen_offset(n):
    key = "story_w_k" if n == 9 else "story_rope_k"
    layout = figures(open_step(n, **{key: 7}))[0]["layout"]
    assert layout["xaxis"]["title"]["text"] == "query position m (key position n = m − 7)"


@pytest.mark.parametrize("k", [0, 4, 30])
def test_rope_scores_at_a_fixed_offset_are_flat_and_equal_g(k):
    scores = data.rope_scores(k)
    assert data.swing(scores) < 1e-9
    rng = np.random.default_rng(1)
    q, key = rng.standard_normal(data.SCORE_D), rng.standard_normal(data.SCORE_D)
    theta, _ = posenc.rope_frequencies(data.SCORE_D)
    g = posenc.relative_scores(q, key, [k], theta)[0]
    assert scores[0] == pytest.approx(g)
    shown = lead(open_step(10, story_rope_k=k))
    assert f"the score is {scores[0]:.2f} for every m" in shown
    assert f"(spread {tiny(data.swing(scores))}, rounding)" in shown


@pytest.mark.parametrize("d", range(specs.DECAY_D.minimum, specs.DECAY_D.maximum + 1, 8))
def test_the_same_word_scores_less_farther_away(d):
    at = data.decay_at(d)
    assert at[10] > at[100] > at[1000]
    theta, _ = posenc.rope_frequencies(d)
    assert at[100] == pytest.approx(np.cos(100 * theta).mean())


def test_decay_sentence_quotes_the_percentages():
    at = data.decay_at(64)
    shown = lead(open_step(11))
    for r in (10, 100, 1000):
        assert f"{100 * at[r]:.0f}% at r = {r}" in shown


@pytest.mark.parametrize("factor", [1.5, 4.0, 8.0, 32.0])
def test_extension_methods_slow_the_pairs_as_stated(factor):
    ratios = data.speed_ratios(factor)
    assert np.allclose(ratios["linear"], 1 / factor)
    assert ratios["ntk"][0] == 1.0 and (np.diff(ratios["ntk"]) < 0).all()
    assert ratios["yarn"][0] == 1.0 and ratios["yarn"][-1] == pytest.approx(1 / factor)
    assert (ratios["yarn"] >= 1 / factor - 1e-12).all()


def test_extension_sentence_names_the_factor_and_context():
    assert "s = 4 times the trained context (L₀ = 512)" in lead(open_step(12))


@pytest.mark.parametrize("factor", [1.5, 4.0, 32.0])
def test_ntk_keeps_the_fastest_pair_and_slows_the_slowest_s_times(factor):
    # The NTK-aware base b s^(d/(d-2)) (not Hugging Face's dynamic form, whose slowest
    # pair turns s^2 - s + 1 times slower at context s L0 with factor s).
    ntk = data.speed_ratios(factor)["ntk"]
    assert ntk[0] == 1.0 and ntk[-1] == pytest.approx(1 / factor, rel=1e-12)
    assert ((ntk[1:-1] > 1 / factor) & (ntk[1:-1] < 1)).all()
    shown = lead(open_step(12, story_factor=factor))
    assert "the slowest turns s times slower. YaRN" in shown
    assert "最慢的降为 1/s。YaRN" in lead(open_step(12, story_factor=factor, lang="zh"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_ntk_curve_is_not_called_dynamic(lang):
    """The curve is the static NTK-aware base; the Chinese legend said 动态 (dynamic) after
    the step moved off Hugging Face's dynamic form."""
    at = open_step(12, lang=lang)
    names = [trace.get("name", "") for trace in figures(at)[0]["data"]]
    ntk = [name for name in names if "NTK" in name]
    assert len(ntk) == 1 and not re.search(r"dynamic|动态", ntk[0], re.IGNORECASE), names


def direct_picture_scores(width: int) -> dict[str, np.ndarray]:
    """Step 13 from the definitions: pair j = (q_j, q_{j+64}) turned by its angle."""
    d, base = data.PICTURE_D, data.PICTURE_BASE
    q = np.random.default_rng([0, 0]).standard_normal(d)
    theta = base ** (-2 * np.arange(d // 2) / d)
    height = (np.arange(d // 2) % 3 == 1) & (np.arange(d // 2) < 60)  # Qwen3-VL's rows

    def score(angles):  # <R(a) q, q> / |q|^2: each pair keeps its length, turns by a
        a, b = q[: d // 2], q[d // 2 :]
        return float(((a * a + b * b) * np.cos(angles)).sum() / (q @ q))

    rows = np.arange(data.PICTURE_ROWS + 1)
    return {
        "raster": np.array([score(r * width * theta) for r in rows]),
        "mrope": np.array([score(r * height * theta) for r in rows]),
    }


@pytest.mark.parametrize("width", [2, 16, 32])
def test_a_row_below_is_w_positions_row_by_row_and_one_step_per_axis(width):
    found, expected = data.picture_scores(width), direct_picture_scores(width)
    for name in ("raster", "mrope"):
        np.testing.assert_allclose(found[name], expected[name], atol=1e-12)
    assert found["mrope"][1] > found["raster"][1]


def test_pictures_sentence_quotes_the_scores_one_row_below():
    scores = direct_picture_scores(16)
    shown = lead(open_step(13))
    assert "16 tokens wide puts" in shown and "directly below 16 positions on" in shown
    assert f"keeps {scores['raster'][1]:.3f} of its self-score read row by row" in shown
    assert f"and {scores['mrope'][1]:.3f} with one position per axis" in shown


# ---------------------------------------------------------- presenter mode and phones


@pytest.mark.parametrize("n", STEP_NUMBERS)
@pytest.mark.slow  # a sweep: every step in presenter mode
def test_presenter_mode_shows_every_step_with_taller_charts(n):
    plain, shown = open_step(n), open_step(n, present="true")
    assert len(shown.get("plotly_chart")) == 1 and not shown.warning
    height = figures(plain)[0]["layout"]["height"]
    assert figures(shown)[0]["layout"]["height"] >= height


def test_presenter_mode_stacks_the_two_panels():
    fig = figures(open_step(2, present="true"))[0]["layout"]
    assert fig["xaxis"]["domain"] == fig["xaxis2"]["domain"]  # one above the other
    # One x title, under the lower panel (the upper one's touched the lower panel's title).
    assert not fig["xaxis"].get("title", {}).get("text")
    assert fig["xaxis2"]["title"]["text"] == text("en", "story.position")
    side = figures(open_step(2))[0]["layout"]
    assert side["xaxis"]["domain"][1] < side["xaxis2"]["domain"][0]


def test_a_phone_stacks_the_two_panels_and_moves_legends_off_the_top(monkeypatch):
    from bench.first_view import IPHONE
    from ui.shared import layout

    monkeypatch.setattr(layout, "user_agent", lambda: IPHONE["user_agent"])
    fig = figures(open_step(2))[0]["layout"]
    assert fig["xaxis"]["domain"] == fig["xaxis2"]["domain"]
    for n in STEP_NUMBERS:
        layout = figures(open_step(n))[0]["layout"]
        assert layout.get("legend", {}).get("y", 0) <= 1, n


@pytest.mark.slow  # a sweep: every step's text
def test_no_step_shows_a_url_key_or_more_than_60_words_in_its_lines():
    from sweeps.test_word_budget import words

    for lang in ("en", "zh"):
        for n in STEP_NUMBERS:
            shown = lead(open_step(n, lang=lang))
            assert words(shown) <= 60, (lang, n, words(shown))
            assert not re.search(r"\bstory_\w+|\bstep=", shown)


def test_home_links_to_the_story_under_its_intro():
    for lang in ("en", "zh"):
        at = run_page(None, {"lang": lang})
        main = [el for el in at.main.get("page_link")]
        assert main[0].proto.page == "Start_here"
        assert main[0].proto.label == text(lang, "home.story_link", n=len(STEPS))


def test_the_menu_lists_the_story_right_after_home():
    assert [entry.name for entry in menu.PAGES[:2]] == ["home", "story"]
