"""Figure builders (ui.features.rope.figures) and computations (ui.features.rope.data) of
the RoPE page."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

import posenc
from ui.features.rope import data
from ui.features.rope import figures as figs
from ui.plain.grids import MAX_CHART_BYTES, Grid, chart_bytes
from ui.shared import export

POS = dict(x_title="n", y_title="m")
SENTENCE = "the cat sat on the mat"


def score_view(length=64, kind="random", view="scores", head_dim=64, text=SENTENCE):
    return data.score_view(
        head_dim=head_dim, base=10000.0, length=length, layout="interleaved", kind=kind,
        text=text, seed=0, scale=True, view=view,
    )  # fmt: skip


def extension_view(head_dim=64, base=10000.0, *, layout="interleaved", kind="random", seed=0,
                   scaling="ntk", factor=4.0, original=512, scale=True):  # fmt: skip
    """``data.extension_view`` of a random (or ``same``) content; the page's defaults."""
    return data.extension_view(
        head_dim=head_dim, base=base, layout=layout, kind=kind, text="", seed=seed,
        scaling=scaling, factor=factor, original=original, scale=scale,
    )  # fmt: skip


# ---------------------------------------------------------------- payload budgets


@pytest.mark.parametrize("view", ["scores", "attention"])
def test_score_heatmap_at_length_4096_stays_under_1_mb(view):
    sv = score_view(4096, view=view)
    assert sv.grid.downsampled and max(sv.grid.z.shape) <= data.MAX_SIDE
    assert sv.grid.row_step == sv.grid.col_step  # square cells
    fig = figs.score_heatmap(sv.grid, **POS, attention=view == "attention")
    assert chart_bytes(fig) < MAX_CHART_BYTES


def test_largest_undownsampled_heatmap_stays_under_1_mb():
    sv = score_view(data.MAX_SIDE, head_dim=256)
    assert not sv.grid.downsampled and sv.grid.z.dtype == np.float32
    assert chart_bytes(figs.score_heatmap(sv.grid, **POS)) < MAX_CHART_BYTES


def test_comparison_at_length_4096_stays_under_1_mb():
    views = data.compare_views(256, 10000.0, 4096, "split", "sentence", SENTENCE, 3, True)
    fig = figs.compare_heatmaps([v.grid for v in views], ["a", "b", "c"], **POS)
    assert chart_bytes(fig) < MAX_CHART_BYTES


def test_decay_and_extension_figures_at_4096_stay_under_1_mb():
    curves = data.decay_curves(256, 777.0, 4096, "bound", (10000.0, 500000.0, 1e6))
    assert len(curves) == 4  # the current base is added
    fig = figs.decay_figure(data.decay_distances(4096), curves, **POS)
    assert chart_bytes(fig) < MAX_CHART_BYTES
    ext = extension_view(256, 1e9, seed=1, scaling="yarn", factor=32.0, original=4096)
    assert ext["context"] == 4096
    fig = figs.extension_figure(
        ext["distances"], ext["scores"], ext["bounds"], 4096,
        titles=["a", "b"], x_title="r", y_titles=["S", "B"], original_label="L0",
    )  # fmt: skip
    assert chart_bytes(fig) < MAX_CHART_BYTES
    assert chart_bytes(figs.frequency_figure(ext["turns"], **POS)) < MAX_CHART_BYTES


def test_long_lines_are_subsampled_to_5000_points():
    fig = figs.decay_figure(np.arange(12000.0), {"a": np.zeros(12000)}, **POS)
    assert len(fig.data[0].x) <= figs.MAX_LINE_POINTS


# ---------------------------------------------------------------- what the figures show


def test_score_heatmap_shows_the_matrix_and_is_centred_on_zero():
    sv = score_view(40)
    fig = figs.score_heatmap(sv.grid, **POS)
    z = np.asarray(fig.data[0].z)
    assert z.shape == (40, 40)
    assert fig.data[0].zmin == -fig.data[0].zmax == -np.abs(z).max()
    assert np.abs(np.diagonal(z, 5) - np.diagonal(z, 5)[0]).max() < 1e-5  # Toeplitz


def test_attention_heatmap_starts_at_zero_with_a_sequential_scale():
    sv = score_view(40, view="attention")
    fig = figs.score_heatmap(sv.grid, **POS, attention=True)
    assert fig.data[0].zmin == 0.0
    assert fig.data[0].colorscale[0][1] != fig.data[0].colorscale[-1][1]
    np.testing.assert_allclose(np.asarray(fig.data[0].z).sum(axis=1), 1.0, rtol=1e-5)


def test_sentence_tokens_label_small_heatmaps_only():
    small = score_view(12, kind="sentence")
    fig = figs.score_heatmap(small.grid, **POS, tokens=small.tokens)
    assert list(fig.layout.xaxis.ticktext[:3]) == ["the·0", "cat·1", "sat·2"]
    large = score_view(1000, kind="sentence")
    fig = figs.score_heatmap(large.grid, **POS, tokens=large.tokens)
    assert fig.layout.xaxis.ticktext is None


def test_pair_figure_draws_the_rotated_vectors():
    ps = data.pair_state(8, 100.0, "split", "random", "", 4, 2, 30, 11)
    labels = {"q": "q", "k": "k", "q_m": "qm", "k_n": "kn", "x": "x", "y": "y"}
    fig = figs.pair_figure(ps, labels=labels)
    arrows = {trace.name: trace for trace in fig.data if trace.name}
    assert arrows["qm"].x[1] == pytest.approx(ps["q_m"][0])
    assert arrows["kn"].y[1] == pytest.approx(ps["k_n"][1])
    assert set(arrows) == {"q", "k", "qm", "kn"}


def test_layout_figure_shows_pair_index_and_permutation():
    perm = posenc.split_permutation(8)
    fig = figs.layout_figure(8, perm, row_labels=["i", "s"], x_title="dim")
    z = np.asarray(fig.data[0].z)
    assert z[0].tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert z[1].tolist() == [0, 1, 2, 3, 0, 1, 2, 3]
    assert list(fig.data[0].text[1]) == ["0", "2", "4", "6", "1", "3", "5", "7"]
    assert fig.data[0].texttemplate == "%{text}"


def test_layout_figure_names_the_moved_dimension_on_hover_when_cells_are_too_small():
    perm = posenc.split_permutation(64)
    fig = figs.layout_figure(64, perm, row_labels=["i", "s"], x_title="dim")
    assert fig.data[0].texttemplate is None  # 64 cells: no room for labels
    assert list(fig.data[0].text[1]) == [str(int(p)) for p in perm]
    assert "%{text}" in fig.data[0].hovertemplate


def test_frequency_figure_uses_a_log_axis_and_marks_thresholds():
    ext = extension_view()
    fig = figs.frequency_figure(ext["turns"], **POS, thresholds={"32": 32.0, "1": 1.0})
    assert fig.layout.yaxis.type == "log"
    methods = ["none", "linear", "ntk", "yarn", "llama3"]
    assert [trace.name for trace in fig.data] == [*methods, "32", "1"]
    lines = fig.data[len(methods) :]
    assert [list(trace.y) for trace in lines] == [[32.0, 32.0], [1.0, 1.0]]
    assert [list(trace.x) for trace in lines] == [[0, 31], [0, 31]]  # across every pair
    assert lines[0].line.dash != lines[1].line.dash
    # Named in the legend, not written at the lines, where the curves crossed the labels.
    assert fig.layout.annotations == ()


def test_extension_figure_breaks_its_titles_on_a_phone():
    ext = extension_view(scaling="yarn")
    title = "Score of q with itself r positions apart (÷√d, × a²)"
    kw = dict(titles=[title, "RoFormer bound"], x_title="r", y_titles=["S", "B"],
              original_label="L₀")  # fmt: skip
    wide = figs.extension_figure(ext["distances"], ext["scores"], ext["bounds"], 512, **kw)
    narrow = figs.extension_figure(
        ext["distances"], ext["scores"], ext["bounds"], 512, narrow=True, **kw
    )
    assert wide.layout.annotations[0].text == title
    assert narrow.layout.annotations[0].text.split("<br>") == [
        "Score of q with itself r positions apart",
        "(÷√d, × a²)",
    ]
    assert narrow.layout.annotations[1].text == "RoFormer bound"


# ---------------------------------------------------------------- computations


def test_tokens_are_words_single_chinese_characters_and_punctuation():
    assert data.tokenize("我爱 RoPE, ok!") == ("我", "爱", "rope", ",", "ok", "!")
    assert data.tokenize("   ") == ()


def test_content_is_reproducible_from_the_seed_and_tokens_keep_their_vectors():
    a = data.make_content(16, 20, "sentence", "a b a", 5)
    b = data.make_content(16, 20, "sentence", "a b a", 5)
    c = data.make_content(16, 20, "sentence", "a b a", 6)
    np.testing.assert_array_equal(a.q, b.q)
    assert not np.allclose(a.q, c.q)
    np.testing.assert_array_equal(a.q[0], a.q[2])  # the same token, the same query
    assert a.period == 3 and a.tokens == ("a", "b", "a")
    same = data.make_content(16, 4, "same", "", 0)
    np.testing.assert_array_equal(same.q, same.k)


def test_empty_sentence_falls_back_to_one_placeholder_token():
    c = data.make_content(8, 5, "sentence", "", 0)
    assert c.tokens == (data.EMPTY_TOKEN,) and c.period == 1


def test_rope_residual_is_tiny_and_additive_residual_large_for_a_repeated_sentence():
    views = data.compare_views(32, 10000.0, 100, "interleaved", "sentence", SENTENCE, 0, True)
    none, additive, rope = views
    assert rope.period == 6
    assert rope.residual < 1e-12 * rope.max_abs
    assert none.residual < 1e-12 * none.max_abs
    assert additive.residual > 0.1 * additive.max_abs


def test_layout_check_finds_agreement_only_with_the_permutation():
    check = data.layout_check(32, 10000.0, 700, "random", "", 0)
    assert check["permuted"] < 1e-11 and check["vectors"] == 0.0
    assert check["unpermuted"] > 1.0


@pytest.mark.parametrize("m, n", [(0, 0), (7, 3), (4000, 3996), (5, 4095)])
def test_pair_angle_is_the_start_angle_plus_m_minus_n_theta(m, n):
    ps = data.pair_state(64, 10000.0, "interleaved", "random", "", 0, 3, m, n)
    wrapped = (ps["measured"] - ps["predicted"] + np.pi) % (2 * np.pi) - np.pi
    assert abs(wrapped) < 1e-9
    shifted = data.pair_state(64, 10000.0, "interleaved", "random", "", 0, 3, m + 50, n + 50)
    assert shifted["score"] == pytest.approx(ps["score"], abs=1e-9)


@pytest.mark.parametrize("layout", ["interleaved", "split"])
@pytest.mark.parametrize("m, n", [(0, 0), (7, 3), (3, 7), (4000, 3996), (5, 4095)])
def test_seed_002s_expanded_g_equals_the_score_of_the_rotated_pair(layout, m, n):
    """g = (q1 k1 + q2 k2) cos((m-n) theta) - (q2 k1 - q1 k2) sin((m-n) theta), from q and k
    alone, is the dot product of the pair after posenc.rope turned q to m and k to n."""
    ps = data.pair_state(64, 10000.0, layout, "sentence", "to be or not", 3, 5, m, n)
    dot, cross, g = ps["g"]
    (q1, q2), (k1, k2) = ps["q"], ps["k"]
    assert (dot, cross) == pytest.approx((q1 * k1 + q2 * k2, q2 * k1 - q1 * k2))
    assert g == pytest.approx(ps["score"], abs=1e-12)
    assert g == pytest.approx(float(ps["q_m"] @ ps["k_n"]), abs=1e-12)


def test_pair_index_is_clamped_to_the_last_pair():
    assert data.pair_state(8, 10000.0, "interleaved", "random", "", 0, 99, 1, 0)["pair"] == 3


def test_linear_extension_is_plain_rope_stretched_by_the_factor():
    ext = extension_view(layout="split", seed=2, scaling="linear", original=256)
    plain, linear = ext["scores"]["none"], ext["scores"]["linear"]
    np.testing.assert_allclose(linear[::4], plain[: linear[::4].size], rtol=1e-9, atol=1e-12)


def test_yarn_extension_scales_scores_by_the_attention_factor_squared():
    ext = extension_view(kind="same", scaling="yarn", factor=8.0, scale=False)
    a = ext["attention_factor"]
    assert a == pytest.approx(0.1 * np.log(8.0) + 1)
    # At r = 0 no pair is rotated: the score is a^2 |q|^2 with or without interpolation.
    assert ext["scores"]["yarn"][0] == pytest.approx(a**2 * ext["scores"]["none"][0])


def test_exported_matrix_is_the_full_matrix_capped_at_export_max():
    full = data.rope_matrix(
        head_dim=16, base=10000.0, length=30, layout="interleaved", kind="random", text="",
        seed=0, scale=False, view="scores",
    )  # fmt: skip
    c = data.make_content(16, 30, "random", "", 0)
    np.testing.assert_allclose(full, posenc.rope_scores(c.q, c.k), rtol=1e-15)
    loaded = np.load(io.BytesIO(export.matrix_npy(full)))
    np.testing.assert_array_equal(loaded, full)
    capped = data.rope_matrix(
        head_dim=8, base=10000.0, length=data.EXPORT_MAX + 10, layout="split", kind="same",
        text="", seed=0, scale=True, view="attention",
    )  # fmt: skip
    assert capped.shape == (data.EXPORT_MAX, data.EXPORT_MAX)
    np.testing.assert_allclose(capped.sum(axis=1), 1.0, rtol=1e-12)


def test_figures_serialise_to_plain_json():
    fig = figs.score_heatmap(score_view(10).grid, **POS)
    assert json.loads(fig.to_json())["data"][0]["type"] == "heatmap"


@pytest.mark.parametrize(("attention", "symbol"), [(False, "S"), (True, "a")])
def test_score_hover_names_the_formulas_symbol_not_an_english_word(attention, symbol):
    grid = Grid(np.eye(3, dtype=np.float32), np.arange(3), np.arange(3), 1, 1)
    fig = figs.score_heatmap(grid, x_title="n", y_title="m", attention=attention)
    assert (
        fig.data[0].hovertemplate == f"m %{{y}}<br>n %{{x}}<br>{symbol} = %{{z:.4f}}<extra></extra>"
    )


def test_line_figures_hover_names_the_curve_and_both_axes():
    curves = data.decay_curves(64, 10000.0, 512, "bound", (500.0, 10000.0))
    fig = figs.decay_figure(data.decay_distances(512), curves, x_title="m − n", y_title="bound")
    ext = extension_view()
    freq = figs.frequency_figure(ext["turns"], x_title="pair j", y_title="turns")
    for figure, (x, y) in ((fig, ("m − n", "bound")), (freq, ("pair j", "turns"))):
        for trace in figure.data:
            assert trace.hovertemplate.startswith("%{fullData.name}<br>")
            assert f"{x} = %{{x}}" in trace.hovertemplate and f"{y} = " in trace.hovertemplate


def test_compare_panels_share_one_y_axis_and_one_colour_range():
    """Same query positions in all three: they zoom together, one colour bar reads all."""
    views = data.compare_views(64, 10000.0, 64, "interleaved", "sentence", "a b c", 0, True)
    fig = figs.compare_heatmaps([v.grid for v in views], ["a", "b", "c"], **POS)
    assert (fig.layout.yaxis2.matches, fig.layout.yaxis3.matches) == ("y", "y")
    assert not fig.layout.yaxis2.showticklabels  # no ticks squeezed between the panels
    assert {t.coloraxis for t in fig.data} == {"coloraxis"}
    top = max(float(np.max(np.abs(v.grid.z))) for v in views)
    assert fig.layout.coloraxis.cmax == pytest.approx(top) == -fig.layout.coloraxis.cmin


def method_style_problems(styles: dict, codes) -> list[str]:
    """Methods of ``codes`` without a style in ``styles``, and styles worn twice."""
    missing = [f"no style: {code}" for code in codes if code not in styles]
    worn = [styles[code] for code in codes if code in styles]
    shared = [f"shared style: {s}" for s in dict.fromkeys(worn) if worn.count(s) > 1]
    return missing + shared


def test_every_context_extension_method_of_posenc_has_its_own_style():
    """A method added to ``posenc.SCALINGS`` without a ``METHOD_STYLE`` entry would be drawn
    in a fallback colour another curve may already wear."""
    assert list(data.SCALINGS.values()) == list(posenc.SCALINGS)  # every method, by its code
    assert method_style_problems(figs.METHOD_STYLE, data.SCALINGS) == []


def test_the_method_style_rule_can_fail():
    styles = {"none": ("#1f77b4", "solid"), "linear": ("#1f77b4", "solid")}
    assert method_style_problems(styles, ["none", "linear", "ntk"]) == [
        "no style: ntk",
        "shared style: ('#1f77b4', 'solid')",
    ]
