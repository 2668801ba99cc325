"""posenc.rope_pairs: one RoPE pair rotated between two positions, and the pairs an
extension kept, blended or slowed."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import posenc
from posenc.rope_pairs import pair_counts, pair_rotation

finite = st.floats(-10.0, 10.0, allow_nan=False)


@given(
    q=st.tuples(finite, finite),
    k=st.tuples(finite, finite),
    theta=st.floats(1e-6, 3.0),
    m=st.integers(-4096, 4096),
    n=st.integers(-4096, 4096),
)
# Found by this test: the angle from k to q is a hair above pi, and the modulo rounded
# it to -pi (outside (-pi, pi]).
@example(q=(-1.0, -1.0), k=(2.5, 2.5), theta=2.5, m=1, n=1)
def test_the_rotated_pair_scores_g_and_turns_by_m_minus_n_theta(q, k, theta, m, n):
    r = pair_rotation(q, k, theta, m, n)
    scale = max(1.0, math.hypot(*q) * math.hypot(*k))
    assert r.score == pytest.approx(r.g, abs=1e-9 * scale)
    assert r.dot == pytest.approx(q[0] * k[0] + q[1] * k[1], abs=1e-12 * scale)
    # The same score from posenc.rope_scores of the two 2-vectors at m and n.
    s = posenc.rope_scores([q], [k], [m], [n], inv_freq=[theta])[0, 0]
    assert r.score == pytest.approx(s, abs=1e-9 * scale)
    for angle in (r.measured, r.predicted, r.start):
        assert -math.pi < angle <= math.pi
    if min(math.hypot(*q), math.hypot(*k)) > 1e-3:  # angles of vectors that have one
        turn = (r.measured - r.predicted + math.pi) % (2 * math.pi) - math.pi
        assert abs(turn) < 1e-6


def test_pair_rotation_by_a_quarter_turn():
    r = pair_rotation([1.0, 0.0], [0.0, 2.0], math.pi / 2, 3, 2)
    np.testing.assert_allclose(r.q_m, [0.0, -1.0], atol=1e-15)  # turned by 3 pi / 2
    np.testing.assert_allclose(r.k_n, [0.0, -2.0], atol=1e-15)  # turned by pi
    assert r.start == -math.pi / 2 and abs(r.measured) < 1e-15
    assert (r.dot, r.cross) == (0.0, -2.0)
    assert r.score == pytest.approx(2.0) and r.g == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1.0, 0.0, 0.0], [1.0, 0.0], 1.0, 0, 0), r"q and k must have shape \(2,\)"),
        (([1.0, 0.0], [[1.0, 0.0]], 1.0, 0, 0), r"q and k must have shape \(2,\)"),
        (([1.0, 0.0], [1.0, 0.0], math.nan, 0, 0), "theta must be a finite real number"),
        (([1.0, 0.0], [1.0, 0.0], 1.0, 1.5, 0), "m must be an integer"),
        (([1.0, 0.0], [1.0, 0.0], 1.0, 0, 2**54), r"n must be an integer .* <= 9007199254740992"),
    ],
)
def test_pair_rotation_names_the_bad_parameter_and_its_range(args, message):
    with pytest.raises(ValueError, match=message):
        pair_rotation(*args)


# ---------------------------------------------------------------- pair counts


@pytest.mark.parametrize(("head_dim", "base", "factor", "orig"), [(64, 1e4, 4.0, 512)])
def test_pair_counts_of_the_scalings_posenc_computes(head_dim, base, factor, orig):
    theta = posenc.rope_frequencies(head_dim, base)[0]

    def counts(scaling):
        inv, _ = posenc.rope_frequencies(
            head_dim,
            base,
            scaling=scaling,
            factor=factor,
            original_context=orig,
            context=int(factor * orig),
        )
        return pair_counts(theta, inv, factor)._asdict()

    half = head_dim // 2
    assert counts(None) == {"kept": half, "blended": 0, "slowed": 0, "beyond": 0}
    assert counts("linear") == {"kept": 0, "blended": 0, "slowed": half, "beyond": 0}
    # Llama 3.1, from plain RoPE's turns inside L0: > 4 kept, < 1 slowed, else blended.
    turns = orig * theta / (2 * math.pi)
    fast, slow = int((turns > 4).sum()), int((turns < 1).sum())
    assert counts("llama3") == {
        "kept": fast,
        "blended": half - fast - slow,
        "slowed": slow,
        "beyond": 0,
    }
    # NTK at s L0 > L0 turns pair 0 as before and slows its slowest pairs more than s times.
    ntk = counts("ntk")
    assert ntk["kept"] == 1 and ntk["beyond"] > 0 and sum(ntk.values()) == half


def test_pair_counts_classify_pairs_a_hair_from_a_threshold_as_blended():
    theta = np.array([1.0, 0.5, 0.25, 0.125, 0.0625])
    inv = theta * np.array([1.0, 1 - 1e-13, (1 + 1e-13) / 4, 0.25, 0.2])
    assert tuple(pair_counts(theta, inv, 4.0)) == (1, 2, 1, 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1.0, 0.5], [1.0], 2.0), "theta and inv_freq must be 1-D of the same shape"),
        (([1.0, 0.0], [1.0, 0.5], 2.0), "theta > 0"),
        (([[1.0]], [[1.0]], 2.0), "theta and inv_freq must be 1-D"),
        (([1.0], [1.0], 0.5), "factor must be finite and >= 1"),
        (([1.0], [np.inf], 2.0), "inv_freq must contain only finite numbers"),
    ],
)
def test_pair_counts_name_the_bad_parameter_and_its_range(args, message):
    with pytest.raises(ValueError, match=message):
        pair_counts(*args)
