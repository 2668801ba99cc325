"""The short leads of Home, Heatmap and Wavelengths (issue #20, section 4): what they
state at the defaults is what the computation gives."""

from __future__ import annotations

import itertools

import numpy as np
from support.apptest import run_page_on_tab
from support.screen import caption_list, chart, decode

import posenc
from posenc import spectrum
from ui.features.heatmap import specs as hm_specs
from ui.features.wavelengths import data as wl_data
from ui.features.wavelengths import specs as wl_specs
from ui.plain import params
from ui.plain.texts import text

TIMEOUT = 120
L, D, B = params.SEQ_LEN.default, params.D_MODEL.default, params.BASE.default


def test_embedding_notice_quotes_the_largest_added_position_and_pe_stays_within_one():
    at = run_page_on_tab("1_Heatmap.py", hm_specs, {}, "embedding", TIMEOUT)
    panels = [decode(trace["z"]).astype(np.float64) for trace in chart(at, "hm_embedding")["data"]]
    emb, pe, _, index, _ = panels
    added = index - emb  # E + pos minus E: the position of each row
    rows = emb.shape[0]
    np.testing.assert_allclose(added, np.arange(rows)[:, None] * np.ones_like(emb), atol=1e-3)
    assert np.abs(pe).max() <= 1  # "PE adds at most 1"
    assert np.abs(emb).std() > 0.5 and added.max() > 10 * np.abs(emb).std()  # words vs drowned
    assert text("en", "heatmap.emb_short_notice", max_pos=rows - 1) in caption_list(at)


def test_similarity_depends_only_on_the_offset():
    gram = posenc.similarity_matrix(L, D, B)
    for offset in range(-L + 1, L):
        diagonal = np.diagonal(gram, offset)
        np.testing.assert_allclose(diagonal, diagonal[0], atol=1e-9)


def test_wavelengths_grow_by_one_factor_from_two_pi_to_the_quoted_longest():
    at = run_page_on_tab("2_Wavelengths.py", wl_specs, {}, "lambdas", TIMEOUT)
    lam = posenc.wavelengths(D, B)
    np.testing.assert_allclose(lam[1:] / lam[:-1], B ** (2 / D), rtol=1e-12)
    assert lam[0] == 2 * np.pi
    longest = wl_data.positions(lam[-1])
    assert text("en", "wavelengths.lambda_short_notice", longest=longest) in caption_list(at)


def test_float32_drift_grows_with_the_position_at_the_defaults():
    at = run_page_on_tab("2_Wavelengths.py", wl_specs, {}, "forms", TIMEOUT)
    shown = [float(m.value) for m in at.metric]
    marks = sorted({L - 1, 8191, 99999})
    expected = spectrum.float32_drift(marks, D, B).torch_f32
    assert shown == [float(f"{v:.3g}") for v in expected]
    assert all(a < b for a, b in itertools.pairwise(shown))  # "drifts ... as p grows"


def test_ropes_rotation_is_the_block_rotation_T_of_the_rotation_page():
    """Home's notation note: R(m theta) is T(m) (theta_i = omega_i), applied to q."""
    m, d, base = 7, 8, 10000.0
    q = np.random.default_rng(0).standard_normal((1, d))
    rotated = posenc.rope(q, positions=[m], base=base)
    np.testing.assert_allclose(rotated[0], posenc.rotation_matrix(m, d, base) @ q[0], atol=1e-12)
