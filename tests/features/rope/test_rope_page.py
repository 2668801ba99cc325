"""The RoPE page in AppTest: every control, every tab, both languages, the numbers shown."""

from __future__ import annotations

import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from support.apptest import Page
from support.screen import chart, decode

import posenc
from ui.features.rope import specs as sp
from ui.plain.texts import text

ROPE = Page("5_RoPE.py", sp, timeout=120)
SMALL = {"rope_len": "24", "rope_head_dim": "16"}


def opened(query: dict | None = None, lang: str = "en", tab: str | None = None) -> AppTest:
    """The page opened by a link (``lang``, ``query``, ``tab``), checked by :func:`assert_ok`."""
    return assert_ok(ROPE.open({**(query or {}), "lang": lang}, tab))


def assert_ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.message for e in at.exception]
    assert at.get("plotly_chart"), "every tab draws a chart"
    assert not at.warning, [w.value for w in at.warning]
    return at


def metric_values(at: AppTest) -> list[str]:
    return [m.value for m in at.metric]


# ---------------------------------------------------------------- every control


RADIOS = {
    "scores": ["rope_layout", "rope_content", "rope_view"],
    "decay": ["rope_decay"],
    "extension": ["rope_scaling"],
}


# Sliders and number boxes to both ends, on every tab: test_pages (widget ends, no notice).


@pytest.mark.parametrize("tab, key", [(t, k) for t, keys in RADIOS.items() for k in keys])
@pytest.mark.slow  # a sweep: every option of every choice
def test_every_choice_takes_every_option(tab, key):
    at = opened(SMALL, tab=tab)
    for option in next(s for s in sp.SPECS if s.key == key).options:
        at.radio(key=key).set_value(option).run()
        assert_ok(at)
        assert at.radio(key=key).value == option


def test_scale_toggle_divides_the_drawn_scores_by_sqrt_d():
    at = opened({**SMALL, "rope_scale": "false"})
    raw = decode(chart(at, "rope_scores_chart")["data"][0]["z"])
    at.checkbox(key="rope_scale").check().run()
    assert_ok(at)
    scaled = decode(chart(at, "rope_scores_chart")["data"][0]["z"])
    np.testing.assert_allclose(scaled, raw / 4.0, rtol=1e-6)


@pytest.mark.parametrize("view", ["attention", "attention_all"])
def test_attention_views_normalise_rows_causally_or_over_every_key(view):
    at = opened({**SMALL, "rope_view": view})
    weights = decode(chart(at, "rope_scores_chart")["data"][0]["z"]).astype(np.float64)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-5)  # 24 x 24: not sampled
    above = weights[np.triu_indices(24, 1)]  # keys after the query
    assert np.all(above == 0) if view == "attention" else np.all(above > 0)
    formula = "".join(latex.value for latex in at.latex)
    assert ("n'\\le m" in formula) == (view == "attention")  # n', not the pair index j
    assert ("n'=0}^{L-1}" in formula) == (view == "attention_all")
    assert "j\\le m" not in formula and "j=0}^{L-1}" not in formula
    assert "o_m = \\sum_{n} a_{mn} v_n" in formula  # seed 002's output of the attention


def test_pair_tab_walks_through_seed_002s_proof_with_its_numbers():
    at = opened({**SMALL, "rope_m": "9", "rope_n": "4"}, tab="pair")
    assert_ok(at)
    label = "Step by step: the RoPE article's proof, with this pair's numbers"
    assert at.expander[0].label == label
    steps = at.expander[0].latex
    assert "Re" in steps[0].value and "g\\end{aligned}" in steps[0].value
    g, score = (float(v) for v in re.findall(r"= (-?\d+\.\d{6})", steps[1].value)[-2:])
    assert g == score  # seed 002's g from q and k = the rotated pair's dot product
    assert "5 \\cdot" in steps[1].value  # m - n = 5
    typo = at.expander[0].caption[0].value.replace("$", "")  # the article slips twice
    assert "f_k(x_n, m)" in typo and "f_k(x_m, N)" in typo and "typos for f_k(x_n, n)" in typo


def test_sentence_text_input_changes_the_tokens_and_the_period():
    at = opened({**SMALL, "rope_content": "sentence"})
    at.text_input(key="rope_text").input("我 爱 你 啊 !").run()
    assert_ok(at)
    assert any("我 | 爱 | 你 | 啊 | !" in c.value for c in at.caption)
    assert "P = 5" in at.metric[0].label


@pytest.mark.parametrize("scaling", sp.SCALING.options)
def test_each_context_extension_method_runs_and_shows_its_attention_factor(scaling):
    query = {**SMALL, "rope_scaling": scaling, "rope_factor": "8", "rope_orig": "256"}
    at = opened(query, tab="extension")
    context, factor, squared = metric_values(at)
    assert context == "2048"
    expected = 0.1 * np.log(8) + 1 if scaling == "yarn" else 1.0
    assert float(factor) == pytest.approx(expected, abs=1e-5)
    assert float(squared) == pytest.approx(expected**2, abs=1e-5)
    names = [trace["name"] for trace in chart(at, "rope_ext_chart")["data"]]
    assert len(set(names)) == (1 if scaling == "none" else 2)


@pytest.mark.parametrize("scaling, fast", [("llama3", 4.0), ("yarn", 32.0), ("ntk", 32.0)])
def test_turns_chart_marks_the_thresholds_of_the_chosen_method(scaling, fast):
    # Llama 3.1 keeps pairs above 4 turns inside L0, YaRN above 32 (also drawn for the
    # methods without thresholds); both divide pairs below 1 turn by s.
    at = opened({**SMALL, "rope_scaling": scaling}, tab="extension")
    lines = chart(at, "rope_turns_chart")["data"][-2:]  # named in the legend
    assert [list(line["y"]) for line in lines] == [[fast, fast], [1.0, 1.0]]
    method = "llama3" if scaling == "llama3" else "yarn"
    assert [line["name"] for line in lines] == [
        text("en", f"rope.turns_fast_{method}"),
        text("en", f"rope.turns_slow_{method}"),
    ]
    names = [trace["name"] for trace in chart(at, "rope_inv_chart")["data"]]
    assert names[-1] == text("en", "rope.method_llama3")


# ---------------------------------------------------------------- the numbers shown


def test_defaults_show_a_toeplitz_residual_at_rounding_level():
    at = opened()
    assert float(at.metric[0].value) < 1e-11
    z = decode(chart(at, "rope_scores_chart")["data"][0]["z"])
    assert z.shape == (256, 256)
    assert np.abs(np.diagonal(z, -9) - z[9, 0]).max() < 1e-5


def test_comparison_shows_additive_pe_far_from_toeplitz_and_rope_at_rounding():
    at = opened(SMALL, tab="compare")
    none, additive, rope = (float(v) for v in metric_values(at))
    assert none == 0.0 and rope < 1e-12 and additive > 0.1
    assert [m.label for m in at.metric] == [
        f"Toeplitz residual, ({c}) {name}"
        for c, name in zip(
            "abc", ("no position code", "additive sinusoidal PE", "RoPE"), strict=True
        )
    ]


def test_layouts_agree_after_the_permutation_and_not_before():
    at = opened(SMALL, tab="layouts")
    permuted, vectors, unpermuted = (float(v) for v in metric_values(at))
    assert permuted < 1e-12 and vectors == 0.0 and unpermuted > 0.1
    assert not [c for c in at.caption if "query positions 0, " in c.value]  # all 24 rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_layout_check_at_the_largest_size_says_which_rows_it_checked(lang):
    at = opened({"rope_len": "4096", "rope_head_dim": "256"}, lang=lang, tab="layouts")
    permuted, vectors, unpermuted = (float(v) for v in metric_values(at))
    assert permuted < 1e-11 and vectors == 0.0 and unpermuted > 1.0
    said = text(lang, "rope.layout_sampled", step=2, rows=2048, n=4096)
    assert said in [c.value for c in at.caption]
    assert text(lang, "rope.layout_notice", rows=2048, n=4096) in [c.value for c in at.caption]


def test_pair_angle_measured_equals_the_predicted_angle():
    at = opened({"rope_m": "1000", "rope_n": "997", "rope_pair": "2"}, tab="pair")
    measured = float(at.metric[0].value)
    prediction = next(x.value for x in at.latex if "\\angle q_m" in x.value)
    assert f"{measured:.6f}" in prediction  # the prediction, typeset
    at.slider(key="rope_m").set_value(1500).run()
    at.slider(key="rope_n").set_value(1497).run()
    assert float(at.metric[0].value) == pytest.approx(measured, abs=2e-6)


def test_decay_tab_draws_the_three_bases_and_the_current_one():
    at = opened({**SMALL, "rope_base": "2000"}, tab="decay")
    names = [trace["name"] for trace in chart(at, "rope_decay_chart")["data"]]
    assert names == ["b = 10,000", "b = 500,000", "b = 1,000,000", "b = 2,000"]


def _notice_pattern(lang: str, n_rows: int, n_cols: int) -> re.Pattern:
    """The block-means notice of ``lang`` for an ``n_rows x n_cols`` matrix, the cell
    counts and steps left open (groups ``rows`` and ``cols``)."""
    fields = {"rows": r"(?P<rows>\d+)", "cols": r"(?P<cols>\d+)", "row_step": r"\d+",
              "col_step": r"\d+", "n_rows": str(n_rows), "n_cols": str(n_cols)}  # fmt: skip
    parts = re.split(r"(\{\w+\})", text(lang, "common.downsampled"))
    return re.compile(
        "".join(fields[p[1:-1]] if p.startswith("{") else re.escape(p) for p in parts)
    )


def test_long_sequences_are_downsampled_and_say_so():
    """The block-means notice itself, with the drawn size (the download caption also
    holds "4096 × 4096" and "2048": bench/mutations.py's downsampled_notice_hidden
    survived a test that looked for those alone)."""
    at = opened({"rope_len": "4096", "rope_head_dim": "32"})
    z = decode(chart(at, "rope_scores_chart")["data"][0]["z"])
    assert max(z.shape) <= 346
    found = [m for c in at.caption if (m := _notice_pattern("en", 4096, 4096).search(c.value))]
    assert len(found) == 1, [c.value for c in at.caption]
    assert (int(found[0]["rows"]), int(found[0]["cols"])) == z.shape
    assert "2048" in " ".join(c.value for c in at.caption)  # the export cap is said


# ---------------------------------------------------------------- tabs and languages


@pytest.mark.parametrize("tab", sp.TAB_NAMES)
@pytest.mark.slow  # a sweep: every tab in Chinese
def test_every_tab_runs_in_chinese(tab):
    at = opened(SMALL, lang="zh", tab=None)
    at.session_state[sp.TAB.key] = ROPE.tab_label(tab, "zh")
    at.run()
    assert_ok(at)
    assert at.title[0].value == text("zh", "rope.title")


def test_a_language_switch_keeps_the_open_tab():
    at = opened(SMALL, tab="pair")
    at.radio(key="lang").set_value("zh").run()
    assert_ok(at)
    assert at.session_state[sp.TAB.key] == ROPE.tab_label("pair", "zh")
    assert at.slider(key="rope_m")  # the pair tab is still open


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_extension_tab_counts_the_pairs_each_method_keeps_blends_and_slows(lang):
    # d = 16, base 10000, s = 4, L0 = 512: computed here from posenc, not from the page.
    at = opened({**SMALL, "rope_scaling": "llama3"}, lang=lang, tab="extension")
    theta = posenc.rope_frequencies(16, 10000.0)[0]
    turns = 512 * theta / (2 * np.pi)
    kept, slowed = int((turns > 4).sum()), int((turns < 1).sum())
    blended = 8 - kept - slowed
    assert kept and slowed and blended  # the three kinds all occur at these settings
    body = next(m.value for m in at.markdown if text(lang, "rope.count_header", pairs=8) in m.value)
    assert f"| {text(lang, 'rope.method_llama3')} | {kept} | {blended} | {slowed} | 0 |" in body
    assert f"| {text(lang, 'rope.method_linear')} | 0 | 0 | 8 | 0 |" in body
    notice = text(
        lang, "rope.ext_notice_llama3", kept=kept, pairs=8, slowed=slowed, blended=blended,
        orig=512, context=2048,
    )  # fmt: skip
    assert notice in [c.value for c in at.caption]


@pytest.mark.parametrize(("base", "shown"), [("2", True), ("5", False), ("10000", False)])
def test_a_turned_over_yarn_ramp_is_explained_where_it_happens(base, shown):
    # At base 2 (or 4) and L0 = 4096 every pair turns > 32 times, yet transformers' YaRN
    # slows them all (its ramp, clamped to d - 1, turns over); at base 5 it keeps them all.
    at = opened({**SMALL, "rope_base": base, "rope_orig": "4096"}, tab="extension")
    caption = text("en", "rope.yarn_turned_over", pairs=8, d_1=15)
    assert (caption in [c.value for c in at.caption]) == shown


@pytest.mark.parametrize(
    ("scaling", "query", "orig", "context"),
    [
        ("ntk", {"rope_orig": "4096"}, 4096, 4096),  # L = min(s L0, 4096) = L0: NTK waits
        ("yarn", {"rope_base": "5", "rope_orig": "4096"}, 4096, 4096),  # all > 32 turns
        ("llama3", {"rope_base": "100", "rope_orig": "4096"}, 4096, 4096),  # all > 4 turns
        ("linear", {"rope_factor": "1"}, 512, 512),
    ],
)
def test_a_method_that_keeps_every_pair_says_so_instead_of_claiming_a_change(
    scaling, query, orig, context
):
    at = opened({**SMALL, "rope_scaling": scaling, **query}, tab="extension")
    table = next(
        m.value for m in at.markdown if text("en", "rope.count_header", pairs=8) in m.value
    )
    assert f"| {text('en', f'rope.method_{scaling}')} | 8 | 0 | 0 | 0 |" in table
    expected = text("en", f"rope.ext_unchanged_{scaling}", orig=orig, context=context, pairs=8)
    assert expected in [c.value for c in at.caption]


def test_the_yarn_notice_quotes_yarns_own_counts():
    # Counted here from posenc's frequencies, independently of ui.features.rope.data.
    at = opened({**SMALL, "rope_scaling": "yarn"}, tab="extension")
    theta = posenc.rope_frequencies(16, 10000.0)[0]
    inv, _ = posenc.rope_frequencies(16, 10000.0, scaling="yarn", factor=4.0, original_context=512)
    kept = int(np.isclose(inv, theta, rtol=1e-12).sum())
    slowed = int(np.isclose(inv, theta / 4, rtol=1e-12).sum())
    assert kept and slowed and 8 - kept - slowed
    notice = text(
        "en", "rope.ext_notice_yarn", kept=kept, pairs=8, slowed=slowed,
        blended=8 - kept - slowed, context=2048,
    )  # fmt: skip
    assert notice in [c.value for c in at.caption]


def test_the_page_lead_says_theta_is_omega_and_r_is_t_of_the_rotation_page():
    """R(m theta) is the Rotation page's T(m) with theta_j = omega_j (interleaved pairs)."""
    at = opened(SMALL)
    assert text("en", "rope.lead") in [m.value for m in at.markdown]
    d, m = 16, 7
    q = np.random.default_rng(0).standard_normal(d)
    rotated = posenc.rope(q[None, :], [m], 10000.0)[0]  # R(m theta) q
    t_m = posenc.rotation_matrix(m, d, 10000.0)  # the Rotation page's T(m)
    np.testing.assert_allclose(t_m @ q, rotated, atol=1e-12)
    np.testing.assert_allclose(q @ posenc.rotation_matrix(-m, d, 10000.0), rotated, atol=1e-12)


def test_the_extension_lead_names_the_original_context():
    at = opened(SMALL | {"rope_orig": "128"}, tab="extension")
    assert text("en", "rope.frequency_lead", orig=128) in [c.value for c in at.caption]
