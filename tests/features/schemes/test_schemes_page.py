"""The "Schemes compared" page: what its curves are, and that every number its captions
state is what posenc computes."""

from __future__ import annotations

import numpy as np
import pytest
from support.apptest import run_page_on_tab
from support.screen import caption_list, chart, decode

import posenc
from posenc.tables import (
    cosine_by_distance,
    dominant_frequencies,
    row_pca,
    shift_residual,
    toeplitz_deviation,
)
from posenc.xpos import xpos_scores
from ui.features.schemes import data
from ui.features.schemes import specs as sp
from ui.plain.texts import catalogue, text

PAGE = "6_Schemes_compared.py"
TIMEOUT = 120


def curves(head_dim=64, train=512):
    return data.distance_curves.__wrapped__(head_dim, train)


def test_xpos_curve_is_the_exact_same_content_expectation():
    """E x^T A x = tr A for x ~ N(0, I): the mean of xpos_scores over the basis vectors."""
    d, r = 16, np.array([0.0, 1.0, 7.0, 40.0, 300.0])
    basis = np.eye(d)
    exact = [
        np.mean(
            [
                xpos_scores(e[None], e[None], [m], [0.0], scale_base=data.XPOS_SCALE)[0, 0]
                for e in basis
            ]
        )
        for m in r
    ]
    np.testing.assert_allclose(data.xpos_same_content(r, d), exact, rtol=1e-12, atol=1e-14)


def test_rotary_curves_are_rope_scores_averaged_over_the_basis():
    d, r = 16, np.array([0.0, 3.0, 50.0])
    freqs = data.rotary_frequencies(d)
    for key in ("rope", "partial", "prope"):
        exact = [
            np.mean(
                [
                    posenc.rope_scores(e[None], e[None], [m], [0.0], inv_freq=freqs[key])[0, 0]
                    for e in np.eye(d)
                ]
            )
            for m in r
        ]
        np.testing.assert_allclose(
            posenc.same_content_decay(r, freqs[key]), exact, rtol=1e-12, atol=1e-14
        )


def test_partial_rope_keeps_three_quarters_of_the_head_unrotated():
    r, c, _ = curves()
    rotated = posenc.rope_frequencies(64, data.BASE, partial_rotary_factor=data.PARTIAL)[0]
    turning = posenc.same_content_decay(r, rotated)
    np.testing.assert_allclose(c["partial"], (1 - data.PARTIAL) + data.PARTIAL * turning)


def test_sinusoid_and_rope_curves_coincide_as_the_notes_say():
    _, c, _ = curves(head_dim=32, train=256)
    np.testing.assert_allclose(c["sinusoidal"], c["rope"], atol=1e-12)


def test_learned_curve_is_minilms_cosine_and_stops_after_its_rows():
    r, c, _ = curves(train=1024)
    table = posenc.learned_position_embeddings(data.LEARNED)
    rows = table.shape[0]
    np.testing.assert_allclose(c["learned"][:rows], cosine_by_distance(table), atol=1e-12)
    assert np.all(np.isnan(c["learned"][rows:])) and r.size > rows


def test_t5_curve_saturates_from_max_distance_and_alibi_is_a_line():
    r, c, t5 = curves()
    assert np.all(t5[data.T5_MAX_DISTANCE :] == data.T5_BUCKETS // 2 - 1)
    assert np.all(np.diff(t5) >= 0)
    np.testing.assert_allclose(c["alibi"], -r / 256)  # gentlest of 8 heads: 2^-8


def test_distance_tab_draws_every_scheme_and_states_what_posenc_computes():
    at = run_page_on_tab(PAGE, sp, {}, None, TIMEOUT)
    fig = chart(at, "sc_distance_chart")
    assert len(fig["data"]) == len(data.CURVES) + 1  # + T5's panel
    expected = text("en", "schemes.distance_notice", rows=512, t5_max=128, t5_last=15, rest="75%")
    assert expected in caption_list(at)
    assert posenc.t5_bucket(-128) == 15 and posenc.t5_bucket(-(10**6)) == 15


@pytest.mark.parametrize("head_dim", [8, 64, 256])
def test_ropes_curve_hides_the_added_sinusoids_as_the_caption_says(head_dim):
    # PE_m . PE_n / (d/2) and RoPE's same-content expectation are one sum of cosines.
    _, c, _ = data.distance_curves.__wrapped__(head_dim, 512)
    np.testing.assert_allclose(c["rope"], c["sinusoidal"], rtol=0, atol=1e-12)
    assert "RoPE's curve hides the added sinusoid's" in text("en", "schemes.distance_how")


@pytest.mark.parametrize("length", [8, 64, 128])
def test_matrix_tab_quotes_minilms_toeplitz_deviation(length):
    at = run_page_on_tab(PAGE, sp, {"sc_len": length}, "matrix", TIMEOUT)
    table = posenc.learned_position_embeddings(data.LEARNED)[:length].astype(np.float64)
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    dev = toeplitz_deviation(unit @ unit.T)
    shown = f"{dev:.1%}" if dev >= 1e-3 else f"{dev:.1e}"
    assert text("en", "schemes.matrix_notice", dev=shown) in caption_list(at)
    fig = chart(at, "sc_matrix_chart")
    assert [trace["name"] for trace in fig["data"]] == [
        text("en", f"schemes.mtitle_{key}") for key in data.MATRICES
    ]
    t5 = decode(fig["data"][0]["z"])
    i, j = np.indices((length, length))
    np.testing.assert_array_equal(t5, posenc.t5_bucket(j - i))


def test_properties_table_has_five_cells_a_row_in_both_languages():
    for lang in ("en", "zh"):
        rows = [v for k, v in catalogue(lang).items() if k.startswith("schemes.row_")]
        assert len(rows) == 9
        assert all(len(row.split(" | ")) == 5 for row in rows), lang


def test_learned_tab_states_the_measured_numbers():
    at = run_page_on_tab(PAGE, sp, {}, "learned", TIMEOUT)
    mini = posenc.learned_position_embeddings(data.LEARNED).astype(np.float64)
    sin = posenc.sinusoidal(*mini.shape)
    shown = caption_list(at)

    def pct(x):
        return f"{x:.1%}" if x >= 1e-3 else f"{x:.1e}"

    coords, explained = row_pca(mini, 2)
    step = dominant_frequencies(coords)[0]
    pca = text(
        "en", "schemes.pca_notice", step=f"{step:.2f}", period=f"{2 * np.pi / step:.1f}",
        mini_pc=pct(explained.sum()), sin_pc=pct(row_pca(sin, 2)[1].sum()),
    )  # fmt: skip
    assert pca in shown
    gram = text(
        "en", "schemes.gram_notice", mini_toe=pct(toeplitz_deviation(mini @ mini.T)),
        mini_shift=pct(shift_residual(mini, 1).residual),
    )  # fmt: skip
    assert gram in shown
    freq = dominant_frequencies(mini)
    slow = int(np.count_nonzero(np.isclose(freq, 2 * np.pi / 512)))
    assert text("en", "schemes.freq_notice", slow=slow, cols=384) in shown
    c_sin, c_mini = cosine_by_distance(sin), cosine_by_distance(mini)
    cos = text(
        "en", "schemes.cos_notice", sin1=f"{c_sin[1]:.2f}", mini1=f"{c_mini[1]:.2f}",
        sin100=f"{c_sin[100]:.2f}", mini100=f"{c_mini[100]:.2f}",
    )  # fmt: skip
    assert cos in shown
    metrics = [m.value for m in at.metric]
    assert metrics[1] == pct(toeplitz_deviation(mini @ mini.T))
    assert float(metrics[0]) < 1e-12 and float(metrics[2]) < 1e-12  # the sinusoid: exact


def test_minilm_turns_like_a_learned_sinusoid_pair():
    """What a learner sees: MiniLM's top two components rotate by ~1.08 rad a position,
    the sinusoid's Gram matrix is exactly Toeplitz and MiniLM's is not."""
    mini = posenc.learned_position_embeddings(data.LEARNED).astype(np.float64)
    coords, _ = row_pca(mini, 2)
    angle = np.unwrap(np.arctan2(coords[:, 1], coords[:, 0]))
    step = dominant_frequencies(coords)[0]
    assert abs(np.median(np.diff(angle)) - step) < 2 * np.pi / 512
    assert 0.5 < toeplitz_deviation(mini @ mini.T) < 0.8


def test_learned_notes_quote_the_shipped_hash():
    at = run_page_on_tab(PAGE, sp, {}, "learned", TIMEOUT)
    sha = posenc.learned_provenance(data.LEARNED)["data_sha256"]
    assert any(sha in m.value for m in at.markdown)


def test_three_components_draw_3d_scenes_and_quote_three_components_share():
    at = run_page_on_tab(PAGE, sp, {"sc_pca": "3d"}, "learned", TIMEOUT)
    fig = chart(at, "sc_pca_chart")
    assert [trace["type"] for trace in fig["data"]] == ["scatter3d", "scatter3d"]
    mini = posenc.learned_position_embeddings(data.LEARNED).astype(np.float64)
    share = row_pca(mini, 3)[1].sum()
    assert any(f"hold {share:.1%} of the variance" in c for c in caption_list(at))
    np.testing.assert_allclose(decode(fig["data"][1]["z"]), row_pca(mini, 3)[0][:, 2], rtol=1e-6)


def test_an_uploaded_table_is_measured_like_the_others():
    """The upload path's computation: the same posenc measurements on the first rows."""
    rng = np.random.default_rng(3)
    table = rng.standard_normal((data.UPLOAD_ROWS + 50, 8)).astype(np.float32)
    assert data.usable(table)
    result = data.upload_analysis(table)  # no session upload: computed, not kept
    rows = table[: data.UPLOAD_ROWS].astype(np.float64)
    assert result.pca.shape == (data.UPLOAD_ROWS, 3)
    assert result.toeplitz == pytest.approx(toeplitz_deviation(rows @ rows.T))
    assert result.shift == pytest.approx(shift_residual(rows, 1).residual)
    assert not data.usable(table[:3]) and not data.usable(table[:, :2])
    assert not data.usable(np.vstack([table[:10], np.zeros((1, 8))]))


@pytest.mark.browser
def test_an_uploaded_table_joins_the_learned_tab_in_the_browser(server, page):
    import io
    import re

    from support.browser import real_errors, wait_for_app

    good = np.random.default_rng(0).standard_normal((60, 32)).astype(np.float32)
    buffer = io.BytesIO()
    np.save(buffer, good)
    page.goto(server.url + "/Schemes_compared?sc_tab=learned")
    wait_for_app(page)
    page.wait_for_selector("[data-testid=stPlotlyChart]")
    page.get_by_role("button", name=re.compile("Compare with your embeddings")).click()
    page.locator("input[type=file]").set_input_files(
        files=[
            {
                "name": "mine.npy",
                "mimeType": "application/octet-stream",
                "buffer": buffer.getvalue(),
            }
        ]
    )
    page.wait_for_timeout(500)
    wait_for_app(page)
    title = text("en", "schemes.table_upload", rows=60)
    page.wait_for_function(f"() => document.body.innerText.includes({title!r})", timeout=60_000)
    assert page.locator("[data-testid=stMetric]").count() == 6  # 3 tables x 2 measures
    assert page.locator("[data-testid=stException]").count() == 0
    assert real_errors(page) == []
