"""posenc.xpos_scores against rotary-embedding-torch's RotaryEmbedding(use_xpos=True)
(values in tests/peers/scheme_peer_values.npz), and xPos's identities by hypothesis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scheme_peers import keys, peer
from support.scheme_peers import settings as peer_settings

import posenc
from posenc import rope_scores, xpos_scores
from posenc.xpos import xpos_zeta

SCORE_KEYS = keys("xpos_scores_")
SAME_LENGTH = [k for k in SCORE_KEYS if "_q" not in k.split("_b")[-1]]
CACHED = [k for k in SCORE_KEYS if k not in SAME_LENGTH]


def inputs(key):
    tag = key.removeprefix("xpos_scores_")
    s = peer_settings()[key]
    q_positions = np.arange(s["L"] - s["q_len"], s["L"])
    return peer(f"xpos_q_{tag}"), peer(f"xpos_k_{tag}"), q_positions, s


def test_the_peer_file_has_both_methods():
    assert len(SAME_LENGTH) == 4 and len(CACHED) == 1


@pytest.mark.parametrize("key", SAME_LENGTH)
def test_scores_equal_rotary_embedding_torch_to_float32_precision(key):
    q, k, q_positions, s = inputs(key)
    ours = xpos_scores(q, k, q_positions, base=s["base"], scale_base=s["scale_base"])
    theirs = peer(key)
    assert ours.shape == theirs.shape and ours.dtype == np.float64
    top = np.abs(theirs).max()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5 * top)


@pytest.mark.parametrize("key", CACHED)
def test_cached_keys_path_of_the_peer_is_off_by_a_constant_decay(key):
    """rotate_queries_with_cached_keys centres the query scales on q_len // 2 and the key
    scales on k_len // 2, so its decay is zeta ** ((m - n + c) / B), c = k_len//2 - q_len//2,
    not zeta ** ((m - n) / B). posenc gives the paper's decay; this test pins the peer's."""
    q, k, q_positions, s = inputs(key)
    ours = xpos_scores(q, k, q_positions, base=s["base"], scale_base=s["scale_base"])
    theirs = peer(key)
    assert np.abs(ours - theirs).max() > 0.01 * np.abs(theirs).max()  # not the same
    c = s["L"] // 2 - s["q_len"] // 2
    zeta = xpos_zeta(s["d"]) ** (c / s["scale_base"])
    weight = np.repeat(zeta, 2)  # interleaved pairs
    shifted = xpos_scores(q * weight, k, q_positions, base=s["base"], scale_base=s["scale_base"])
    np.testing.assert_allclose(shifted, theirs, rtol=1e-5, atol=1e-5 * np.abs(theirs).max())


def test_zeta_is_the_papers_formula():
    d = 64
    i = np.arange(d // 2)
    np.testing.assert_allclose(xpos_zeta(d), (2 * i / d + 0.4) / 1.4, rtol=1e-15)
    assert xpos_zeta(d)[0] == pytest.approx(2 / 7) and xpos_zeta(d)[-1] < 1


vectors = st.integers(1, 6).flatmap(
    lambda half: st.tuples(
        st.lists(st.floats(-3, 3), min_size=2 * half, max_size=2 * half),
        st.lists(st.floats(-3, 3), min_size=2 * half, max_size=2 * half),
    )
)


@settings(max_examples=60, deadline=None)
@given(vectors, st.integers(-500, 500), st.sampled_from(["interleaved", "split"]))
def test_equal_positions_give_the_plain_dot_product(pair, position, layout):
    q, k = (np.array(v)[None, :] for v in pair)
    s = xpos_scores(q, k, [position], [position], layout=layout, scale_base=7.0)
    assert s[0, 0] == pytest.approx(float(q[0] @ k[0]), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(vectors, st.integers(0, 50), st.integers(0, 50), st.integers(-100, 100))
def test_scores_depend_on_m_minus_n_only(pair, m, n, shift):
    q, k = (np.array(v)[None, :] for v in pair)
    a = xpos_scores(q, k, [m], [n], scale_base=16.0)
    b = xpos_scores(q, k, [m + shift], [n + shift], scale_base=16.0)
    assert a[0, 0] == pytest.approx(b[0, 0], rel=1e-9, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(vectors, st.integers(-30, 30))
def test_a_huge_scale_base_gives_rope(pair, distance):
    """zeta ** (distance / B) -> 1 as B grows: RoPE's score."""
    q, k = (np.array(v)[None, :] for v in pair)
    s = xpos_scores(q, k, [distance], [0], scale_base=1e12)
    r = rope_scores(q, k, [distance], [0])
    assert s[0, 0] == pytest.approx(r[0, 0], rel=1e-9, abs=1e-9)


def test_each_pair_decays_by_its_zeta():
    d, B = 8, 4.0
    zeta = xpos_zeta(d)
    for i in range(d // 2):
        q = np.zeros((1, d))
        q[0, 2 * i] = 1.0  # one pair only: RoPE's cos(12 theta_i) times the decay
        s = xpos_scores(q, q, [12.0], [0.0], base=100.0, scale_base=B)
        r = rope_scores(q, q, [12.0], [0.0], base=100.0)
        assert s[0, 0] == pytest.approx(zeta[i] ** (12 / B) * r[0, 0], rel=1e-9)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: xpos_scores([[1.0, 0.0]], [[1.0, 0.0, 0.0]]), "q and k"),
        (lambda: xpos_scores([[1.0, 0.0, 1.0]], [[1.0, 0.0, 0.0]]), "q and k"),
        (lambda: xpos_scores([[np.nan, 0.0]], [[1.0, 0.0]]), "q"),
        (lambda: xpos_scores([[1.0, 0.0]], [[1.0, 0.0]], [0, 1]), "q_positions"),
        (lambda: xpos_scores([[1.0, 0.0]], [[1.0, 0.0]], None, [2, 3]), "k_positions"),
        (lambda: xpos_scores([[1.0, 0.0]], [[1.0, 0.0]], base=1.0), "base"),
        (lambda: xpos_scores([[1.0, 0.0]], [[1.0, 0.0]], layout="x"), "layout"),
        (lambda: xpos_scores([[1.0, 0.0]], [[1.0, 0.0]], scale_base=0), "scale_base"),
        (lambda: xpos_scores([[1.0, 0.0]], [[1.0, 0.0]], [0.0], [1e7], scale_base=1), "q_pos"),
        (lambda: xpos_zeta(3), "head_dim"),
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()


def test_exported():
    assert posenc.xpos_scores is xpos_scores


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 8).map(lambda h: 2 * h), st.floats(-300, 300), st.floats(1.0, 1000.0))
def test_same_content_expectation_is_the_trace_over_the_basis(d, r, scale_base):
    """E x^T A x = tr A for x ~ N(0, I): the mean of xpos_scores over the basis vectors."""
    from posenc.xpos import xpos_same_content

    exact = np.mean(
        [xpos_scores(e[None], e[None], [r], [0.0], scale_base=scale_base)[0, 0] for e in np.eye(d)]
    )
    assert xpos_same_content([r], d, scale_base=scale_base)[0] == pytest.approx(
        exact, rel=1e-9, abs=1e-12
    )


def test_same_content_expectation_refuses_bad_input_naming_it():
    from posenc.xpos import xpos_same_content

    for call, name in (
        (lambda: xpos_same_content([1.0], 3), "head_dim"),
        (lambda: xpos_same_content([np.inf], 4), "distances"),
        (lambda: xpos_same_content([1.0], 4, scale_base=-1.0), "scale_base"),
    ):
        with pytest.raises(ValueError, match=rf"^{name}"):
            call()
