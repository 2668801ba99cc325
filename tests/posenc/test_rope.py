"""posenc.rope against the real peers (transformers, rotary-embedding-torch, Meta LLaMA code)
and the identities of seed 002, checked with hypothesis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.peers import keys as peer_keys
from support.peers import peer
from support.peers import settings as peer_settings

import posenc
from posenc import rope, rope_frequencies, rope_scores, split_permutation

# posenc's name for each Hugging Face rope_type.
HF_SCALING = {
    "default": None,
    "linear": "linear",
    "dynamic": "ntk",
    "yarn": "yarn",
    "llama3": "llama3",
}


# ---------------------------------------------------------------- rotary application


@pytest.mark.parametrize("which", ["q", "k"])
@pytest.mark.parametrize("source", ["ret", "meta"])
def test_interleaved_rope_matches_rotary_embedding_torch_and_meta_llama(source, which):
    x = peer(f"rope_{which}")
    expected = peer(f"{source}_rope_{which}_interleaved")
    s = peer_settings()[f"{source}_rope_{which}_interleaved"]
    got = rope(x, base=s["base"], layout="interleaved")
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-13)


@pytest.mark.parametrize("which", ["q", "k"])
def test_split_rope_matches_transformers_rotate_half(which):
    x = peer(f"rope_{which}")
    got = rope(x, base=peer_settings()[f"hf_rope_{which}_split"]["base"], layout="split")
    np.testing.assert_allclose(got, peer(f"hf_rope_{which}_split"), rtol=0, atol=1e-13)


@pytest.mark.parametrize(
    "key, layout",
    [
        ("hf_rope_q_split_f32", "split"),
        ("hf_rope_k_split_f32", "split"),
        ("ret_rope_q_interleaved_f32", "interleaved"),
        ("ret_rope_k_interleaved_f32", "interleaved"),
    ],
)
def test_float32_rope_agrees_with_the_float32_peers_within_float32_rounding(key, layout):
    # The peers form their angles in float32; posenc forms them in float64 and rounds
    # once, so a few float32 ulps (|x| < 5, ulp 4.8e-7) of difference are expected.
    x = peer("rope_q" if "_q_" in key else "rope_k").astype(np.float32)
    got = rope(x, layout=layout)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, peer(key), rtol=0, atol=1e-6)


def test_rope_scores_equal_the_dot_products_of_the_peer_rotated_vectors():
    q, k = peer("rope_q"), peer("rope_k")
    expected = peer("ret_rope_q_interleaved") @ peer("ret_rope_k_interleaved").T
    np.testing.assert_allclose(rope_scores(q, k), expected, rtol=0, atol=1e-12)
    expected = peer("hf_rope_q_split") @ peer("hf_rope_k_split").T
    np.testing.assert_allclose(rope_scores(q, k, layout="split"), expected, rtol=0, atol=1e-12)


# ---------------------------------------------------------------- frequencies


def _frequencies_for(key: str):
    s = peer_settings()[key]
    scaling = HF_SCALING[s["scaling"]]
    return rope_frequencies(
        s["head_dim"],
        s["base"],
        scaling=scaling,
        factor=s["factor"],
        original_context=s["original_context"] if scaling else None,
        context=s["context"] if scaling == "ntk" else None,
        **{k: s[k] for k in ("low_freq_factor", "high_freq_factor") if k in s},
    )


@pytest.mark.parametrize("key", peer_keys("hf_inv_freq_"))
def test_inverse_frequencies_match_transformers(key):
    inv_freq, _ = _frequencies_for(key)
    expected = peer(key)
    assert expected.dtype == np.float32  # transformers computes them in float32
    np.testing.assert_allclose(inv_freq, expected.astype(np.float64), rtol=1e-6, atol=0)


def test_every_scaling_is_covered_by_the_peer_frequencies():
    kinds = {peer_settings()[key]["scaling"] for key in peer_keys("hf_inv_freq_")}
    assert kinds == set(HF_SCALING)


@pytest.mark.parametrize("key", peer_keys("hf_attn_yarn_"))
def test_yarn_attention_factor_matches_transformers(key):
    inv_key = key.replace("hf_attn_yarn_", "hf_inv_freq_yarn_") + "_f32"
    _, attention_factor = _frequencies_for(inv_key)
    assert attention_factor == pytest.approx(float(peer(key)[0]), rel=1e-12)


def test_yarn_keeps_fast_pairs_and_interpolates_slow_ones_in_the_peer_values():
    key = "hf_inv_freq_yarn_hd128_b10000_x8_orig4096_f32"
    theta = rope_frequencies(128, 10000.0)[0]
    hf = peer(key).astype(np.float64)
    assert np.allclose(hf[:4], theta[:4], rtol=1e-6)  # > 32 turns in 4096 positions
    assert np.allclose(hf[-4:], theta[-4:] / 8, rtol=1e-6)  # < 1 turn


@pytest.mark.parametrize("low, high", [(1, 4), (2, 8)])
def test_llama3_keeps_fast_pairs_divides_slow_ones_and_blends_between(low, high):
    # The peer values, read by turns inside L0: > high kept, < low divided, else a blend.
    key = f"hf_inv_freq_llama3_hd128_b500000_x8_orig8192_lo{low}_hi{high}_f32"
    theta = rope_frequencies(128, 500000.0)[0]
    turns = 8192 * theta / (2 * np.pi)
    fast, slow = turns > high, turns < low
    middle = ~fast & ~slow
    assert fast.sum() > 0 and slow.sum() > 0 and middle.sum() > 0
    ours = rope_frequencies(
        128, 500000.0, scaling="llama3", factor=8.0, original_context=8192,
        low_freq_factor=low, high_freq_factor=high,
    )[0]  # fmt: skip
    for inv, rtol in ((peer(key).astype(np.float64), 1e-6), (ours, 1e-15)):
        np.testing.assert_allclose(inv[fast], theta[fast], rtol=rtol)
        np.testing.assert_allclose(inv[slow], theta[slow] / 8, rtol=rtol)
        assert np.all((inv[middle] > theta[middle] / 8) & (inv[middle] < theta[middle]))


# ---------------------------------------------------------------- identities (seed 002)

dims = st.integers(1, 16).map(lambda half: 2 * half)
finite = st.floats(-10, 10, allow_nan=False, allow_subnormal=False)
bases = st.floats(1.5, 1e6)
positions = st.integers(-5000, 5000)


def vectors(d, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(d), rng.standard_normal(d)


@settings(max_examples=200, deadline=None)
@given(d=dims, seed=st.integers(0, 2**32 - 1), m=positions, n=positions, shift=positions,
       base=bases, layout=st.sampled_from(["interleaved", "split"]))  # fmt: skip
def test_score_depends_on_m_minus_n_only(d, seed, m, n, shift, base, layout):
    q, k = vectors(d, seed)

    def score(a, b):
        return rope_scores([q], [k], [a], [b], base, layout=layout)[0, 0]

    tol = 1e-10 * (1 + abs(m) + abs(n) + abs(shift)) * np.linalg.norm(q) * np.linalg.norm(k)
    assert abs(score(m + shift, n + shift) - score(m, n)) <= tol
    # ... and equals the complex formula Re[sum_j q_j conj(k_j) e^{i (m - n) theta_j}].
    theta = rope_frequencies(d, base)[0]
    pairs = (lambda v: v[0::2] + 1j * v[1::2]) if layout == "interleaved" else (
        lambda v: v[: d // 2] + 1j * v[d // 2 :]
    )  # fmt: skip
    expected = np.real(np.sum(pairs(q) * np.conj(pairs(k)) * np.exp(1j * (m - n) * theta)))
    assert abs(score(m, n) - expected) <= tol


@settings(max_examples=100, deadline=None)
@given(d=dims, seed=st.integers(0, 2**32 - 1), base=bases, start=positions,
       layout=st.sampled_from(["interleaved", "split"]))  # fmt: skip
def test_rope_preserves_norms(d, seed, base, start, layout):
    x = np.random.default_rng(seed).standard_normal((5, d))
    pos = start + np.arange(5)
    got = rope(x, pos, base, layout=layout)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), np.linalg.norm(x, axis=1), rtol=1e-12)


@settings(max_examples=100, deadline=None)
@given(d=dims, seed=st.integers(0, 2**32 - 1), base=bases, start=positions)
def test_layouts_agree_after_split_permutation(d, seed, base, start):
    x = np.random.default_rng(seed).standard_normal((4, d))
    pos = start + np.arange(4)
    perm = split_permutation(d)
    interleaved = rope(x, pos, base, layout="interleaved")
    split = rope(x[:, perm], pos, base, layout="split")
    np.testing.assert_array_equal(split, interleaved[:, perm])


def test_layouts_differ_without_the_permutation():
    x = peer("rope_q")
    assert np.abs(rope(x, layout="split") - rope(x, layout="interleaved")).max() > 0.1


def test_position_zero_is_the_identity_and_rotation_is_the_2x2_matrix_of_seed_002():
    x = np.array([[0.3, -1.2]])
    assert np.array_equal(rope(x, [0]), x)
    angle = 5 * 0.01
    matrix = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    np.testing.assert_allclose(rope(x, [5], inv_freq=[0.01])[0], matrix @ x[0], atol=1e-15)


@given(
    d=dims.filter(lambda d: d >= 4),
    base=bases,
    factor=st.floats(1, 64),
    orig=st.integers(1, 10**6),
    low=st.floats(0.01, 16),
    gap=st.floats(0.01, 64),
)
def test_llama3_lies_between_theta_over_factor_and_theta_and_is_monotone_in_turns(
    d, base, factor, orig, low, gap
):
    theta = rope_frequencies(d, base)[0]
    inv, a = rope_frequencies(
        d, base, scaling="llama3", factor=factor, original_context=orig,
        low_freq_factor=low, high_freq_factor=low + gap,
    )  # fmt: skip
    assert a == 1.0
    ratio = inv / theta  # 1/factor for slow pairs, rising to 1 for fast ones
    assert np.all(ratio >= 1 / factor * (1 - 1e-12)) and np.all(ratio <= 1 + 1e-12)
    assert np.all(np.diff(ratio) <= 1e-12)  # j grows: slower pairs, never less scaled


@settings(max_examples=50, deadline=None)
@given(d=dims, factor=st.floats(1, 64), seed=st.integers(0, 2**32 - 1))
def test_linear_scaling_is_position_interpolation(d, factor, seed):
    x = np.random.default_rng(seed).standard_normal((6, d))
    pos = np.arange(6) * 37.0
    inv, a = rope_frequencies(d, scaling="linear", factor=factor)
    assert a == 1.0
    np.testing.assert_allclose(rope(x, pos, inv_freq=inv), rope(x, pos / factor), atol=1e-12)


@pytest.mark.parametrize("scaling", ["linear", "ntk", "yarn", "llama3"])
def test_factor_one_changes_nothing(scaling):
    plain = rope_frequencies(64, 10000.0)
    scaled = rope_frequencies(64, 10000.0, scaling=scaling, factor=1.0, original_context=2048)
    np.testing.assert_allclose(scaled[0], plain[0], rtol=1e-15)
    assert scaled[1] == 1.0


def test_ntk_within_the_original_context_changes_nothing():
    inv, _ = rope_frequencies(64, scaling="ntk", factor=8.0, original_context=2048, context=1000)
    np.testing.assert_allclose(inv, rope_frequencies(64)[0], rtol=1e-15)


def test_float32_input_gives_float32_output_and_float64_gives_float64():
    x = np.ones((3, 4))
    assert rope(x).dtype == np.float64
    assert rope(x.astype(np.float32)).dtype == np.float32


# ---------------------------------------------------------------- input checks


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rope(np.ones((3, 5))), "x"),
        (lambda: rope(np.ones(4)), "x"),
        (lambda: rope([[np.nan, 1.0]]), "x"),
        (lambda: rope(np.ones((3, 4)), positions=[0, 1]), "positions"),
        (lambda: rope(np.ones((3, 4)), base=1.0), "base"),
        (lambda: rope(np.ones((3, 4)), base=float("inf")), "base"),
        (lambda: rope(np.ones((3, 4)), layout="halves"), "layout"),
        (lambda: rope(np.ones((3, 4)), inv_freq=[1.0]), "inv_freq"),
        (lambda: rope_scores(np.ones((3, 4)), np.ones((3, 6))), "q and k"),
        (lambda: rope_frequencies(7), "head_dim"),
        (lambda: rope_frequencies(8, 0.5), "base"),
        (lambda: rope_frequencies(8, scaling="dynamic"), "scaling"),
        (lambda: rope_frequencies(8, scaling="linear", factor=0.5), "factor"),
        (lambda: rope_frequencies(8, scaling="yarn", factor=2.0), "original_context"),
        (lambda: rope_frequencies(8, scaling="ntk", factor=2.0), "original_context"),
        (lambda: rope_frequencies(2, scaling="ntk", factor=2, original_context=8), "head_dim"),
        (lambda: rope_frequencies(8, scaling="ntk", original_context=8, context=0), "context"),
        (lambda: rope_frequencies(8, scaling="llama3", factor=2.0), "original_context"),
        (
            lambda: rope_frequencies(8, scaling="llama3", original_context=8, low_freq_factor=0.0),
            "low_freq_factor",
        ),
        (
            lambda: rope_frequencies(
                8, scaling="llama3", original_context=8, low_freq_factor=4, high_freq_factor=4
            ),
            "high_freq_factor",
        ),
        (
            lambda: rope_frequencies(
                8, scaling="llama3", original_context=8, high_freq_factor=float("nan")
            ),
            "high_freq_factor",
        ),
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_rope_is_exported_with_its_scalings():
    assert posenc.SCALINGS == (None, "linear", "ntk", "yarn", "llama3")
    assert posenc.rope is rope


def test_llama3_says_which_bound_high_freq_factor_must_exceed():
    with pytest.raises(ValueError, match=r"> low_freq_factor \(4\), got 3\.0"):
        rope_frequencies(
            8, scaling="llama3", original_context=8, low_freq_factor=4, high_freq_factor=3.0
        )


def test_yarn_ramp_turns_over_at_a_tiny_base_as_in_transformers():
    # Every pair turns > 32 times in L0 = 4096 at base 2 and 5; transformers' clamped ramp
    # slows them all at base 2 and keeps them all at base 5. posenc: the same.
    for base, kept in ((2, False), (5, True)):
        theta = rope_frequencies(64, float(base))[0]
        assert (4096 * theta / (2 * np.pi) > 32).all()
        hf = peer(f"hf_inv_freq_yarn_hd64_b{base}_x4_orig4096_f32").astype(np.float64)
        np.testing.assert_allclose(hf, theta if kept else theta / 4, rtol=1e-6)
        inv, _ = rope_frequencies(
            64, float(base), scaling="yarn", factor=4.0, original_context=4096
        )
        np.testing.assert_allclose(inv, hf, rtol=1e-6)
