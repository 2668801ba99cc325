"""rope_frequencies(partial_rotary_factor=...) and scaling="proportional" (p-RoPE) against
transformers' GPT-NeoX, Phi and ROPE_INIT_FUNCTIONS (tests/peers/scheme_peer_values.npz)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scheme_peers import keys, peer
from support.scheme_peers import settings as peer_settings

from posenc import rope_frequencies

PARTIAL = [k for k in keys("hf_inv_freq_") if "proportional" not in k]
PROPORTIONAL = keys("hf_inv_freq_proportional_")


def test_the_peer_file_has_partial_and_proportional_cases():
    assert len(PARTIAL) == 12 and len(PROPORTIONAL) == 6
    assert {peer_settings()[k]["scaling"] for k in PARTIAL} == {
        None,
        "linear",
        "ntk",
        "yarn",
        "llama3",
    }


@pytest.mark.parametrize("key", PARTIAL)
def test_partial_rotary_equals_transformers(key):
    s = peer_settings()[key]
    inv, _ = rope_frequencies(
        s["head_dim"],
        s["base"],
        scaling=s["scaling"],
        factor=s.get("factor", 1.0),
        original_context=s.get("original_context"),
        context=s.get("context"),
        partial_rotary_factor=s["partial_rotary_factor"],
    )
    theirs = peer(key)
    rotary_dim = int(s["head_dim"] * s["partial_rotary_factor"])
    assert inv.shape == theirs.shape == (rotary_dim // 2,)
    np.testing.assert_allclose(inv, theirs, rtol=4e-7, atol=0)


@pytest.mark.parametrize("key", PROPORTIONAL)
def test_proportional_equals_transformers(key):
    s = peer_settings()[key]
    inv, attention = rope_frequencies(
        s["head_dim"],
        s["base"],
        scaling="proportional",
        factor=s["factor"],
        partial_rotary_factor=s["partial_rotary_factor"],
    )
    theirs = peer(key)
    assert inv.shape == theirs.shape == (s["head_dim"] // 2,) and attention == 1.0
    np.testing.assert_array_equal(inv == 0, theirs == 0)  # the same pairs stop turning
    np.testing.assert_allclose(inv, theirs, rtol=4e-7, atol=0)


def test_gpt_neox_20b_and_phi_2_rotate_a_quarter_and_two_fifths():
    assert rope_frequencies(96, partial_rotary_factor=0.25)[0].size == 12  # 24 of 96 dims
    assert rope_frequencies(80, partial_rotary_factor=0.4)[0].size == 16  # 32 of 80 dims


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 64).map(lambda h: 2 * h),
    st.floats(2.0, 1e6),
    st.sampled_from([None, "linear", "ntk", "yarn", "llama3"]),
    st.floats(1.0, 16.0),
)
def test_factor_one_is_full_rope(head_dim, base, scaling, factor):
    if scaling == "ntk" and head_dim < 4:
        head_dim = 4
    kwargs = dict(scaling=scaling, factor=factor, original_context=1024)
    full = rope_frequencies(head_dim, base, **kwargs)
    same = rope_frequencies(head_dim, base, partial_rotary_factor=1.0, **kwargs)
    np.testing.assert_array_equal(full[0], same[0])
    assert full[1] == same[1]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 64).map(lambda h: 2 * h), st.floats(0.01, 1.0), st.floats(2.0, 1e6))
def test_partial_is_full_rope_on_the_rotated_dims(head_dim, p, base):
    rotary_dim = int(head_dim * p)
    if rotary_dim < 2 or rotary_dim % 2:
        with pytest.raises(ValueError, match=r"^partial_rotary_factor"):
            rope_frequencies(head_dim, base, partial_rotary_factor=p)
        return
    ours = rope_frequencies(head_dim, base, partial_rotary_factor=p)[0]
    np.testing.assert_array_equal(ours, rope_frequencies(rotary_dim, base)[0])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 64).map(lambda h: 2 * h),
    st.floats(0.01, 1.0),
    st.floats(2.0, 1e6),
    st.floats(1.0, 16.0),
)
def test_proportional_keeps_the_fastest_pairs_of_the_full_head(head_dim, p, base, factor):
    """The definition: int(p * head_dim / 2) pairs keep base^(-2j/d), the rest stop,
    all divided by factor."""
    inv = rope_frequencies(
        head_dim, base, scaling="proportional", factor=factor, partial_rotary_factor=p
    )[0]
    kept = int(p * head_dim / 2)
    full = rope_frequencies(head_dim, base)[0]
    assert inv.shape == (head_dim // 2,)
    np.testing.assert_allclose(inv[:kept], full[:kept] / factor, rtol=1e-15)
    assert np.all(inv[kept:] == 0)
    if p == 1.0:
        np.testing.assert_allclose(
            inv, rope_frequencies(head_dim, base, scaling="linear", factor=factor)[0], rtol=1e-15
        )


@pytest.mark.parametrize("p", [0.0, -0.5, 1.5, float("nan"), "half", True])
def test_a_factor_outside_0_1_is_refused_naming_it(p):
    with pytest.raises(ValueError, match=r"^partial_rotary_factor"):
        rope_frequencies(64, partial_rotary_factor=p)
    with pytest.raises(ValueError, match=r"^partial_rotary_factor"):
        rope_frequencies(64, scaling="proportional", partial_rotary_factor=p)


def test_an_odd_rotary_dimension_is_refused():
    with pytest.raises(ValueError, match=r"^partial_rotary_factor.*-> 3"):
        rope_frequencies(10, partial_rotary_factor=0.3)


def test_unknown_scaling_lists_proportional():
    with pytest.raises(ValueError, match=r"^scaling .*'proportional'"):
        rope_frequencies(8, scaling="p-rope")
