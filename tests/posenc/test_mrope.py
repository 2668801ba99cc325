"""posenc.mrope_position_ids and posenc.mrope_cos_sin against transformers' Qwen-VL code
(get_rope_index, the rotary embeddings' recomposition), issue 31 §1."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.peers import PeerFile

from posenc import mrope_cos_sin, mrope_position_ids, rope

PEERS = PeerFile("rope_config_peer_values.npz")
SEQUENCES = json.loads(str(PEERS.peer("sequences_json")))
COS_KEYS = [k for k in PEERS.keys("hf_mrope_cos_") if not k.endswith("_f32")]


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_position_ids_equal_get_rope_index(name):
    ids = mrope_position_ids(SEQUENCES[name]["posenc_segments"])
    peer = PEERS.peer(f"hf_mrope_ids_{name}")
    assert ids.dtype == np.int64
    np.testing.assert_array_equal(ids, peer)


def ours(key: str):
    s = PEERS.settings()[key]
    return mrope_cos_sin(
        PEERS.peer(s["positions"]), s["head_dim"], s["theta"], s["mrope_section"],
        interleaved=s["interleaved"],
    )  # fmt: skip


@pytest.mark.parametrize("key", COS_KEYS)
def test_cos_and_sin_equal_the_models_recomposition_in_float64(key):
    cos, sin = ours(key)
    np.testing.assert_allclose(cos, PEERS.peer(key), rtol=0, atol=1e-11)
    np.testing.assert_allclose(sin, PEERS.peer(key.replace("_cos_", "_sin_")), rtol=0, atol=1e-11)


@pytest.mark.parametrize("key", [k for k in COS_KEYS if k.endswith("_small")])
def test_cos_and_sin_equal_the_models_float32_forward_at_small_positions(key):
    cos, sin = ours(key)
    np.testing.assert_allclose(cos, PEERS.peer(key + "_f32"), rtol=0, atol=5e-6)
    np.testing.assert_allclose(sin, PEERS.peer(key.replace("_cos_", "_sin_") + "_f32"), atol=5e-6)


def test_transformers_float32_angles_drift_at_position_10000():
    # Why posenc forms the angles in float64 (the docstring's ~1e-3 at 10 000).
    key = "hf_mrope_cos_qwen2_vl_at10000"
    cos, _ = ours(key)
    assert 1e-4 < np.abs(cos - PEERS.peer(key + "_f32")).max() < 2e-3


def test_text_after_a_video_resumes_at_the_larger_spatial_side():
    ids = mrope_position_ids([("text", 2), ("video", (6, 2, 4)), ("text", 1)])
    # 6 frames on a 1 x 2 grid: time runs 2..7, the next text starts at 2 + max(1, 2).
    assert ids[0, 2:-1].max() == 7
    assert ids[:, -1].tolist() == [4, 4, 4]


def test_each_image_gives_t_h_w_over_merge_squared_tokens():
    segments = [("text", 3), ("image", (2, 6, 10)), ("video", (3, 4, 4)), ("text", 1)]
    ids = mrope_position_ids(segments, spatial_merge_size=2)
    assert ids.shape == (3, 3 + 2 * 6 * 10 // 4 + 3 * 4 * 4 // 4 + 1)


@settings(max_examples=100, deadline=None)
@given(lengths=st.lists(st.integers(0, 50), max_size=6))
def test_text_only_position_ids_are_arange_on_every_axis(lengths):
    ids = mrope_position_ids([("text", n) for n in lengths])
    np.testing.assert_array_equal(ids, np.tile(np.arange(sum(lengths)), (3, 1)))


sections = st.integers(3, 32).flatmap(
    lambda half: st.tuples(st.integers(0, half // 3), st.integers(0, half // 3)).map(
        lambda hw: (half - hw[0] - hw[1], hw[0], hw[1])
    )
)


@settings(max_examples=100, deadline=None)
@given(
    section=sections,
    interleaved=st.booleans(),
    positions=st.lists(st.integers(0, 100_000), min_size=1, max_size=20),
    base=st.floats(2.0, 1e7),
    seed=st.integers(0, 2**32 - 1),
)
def test_equal_rows_reduce_to_one_axis_rope(section, interleaved, positions, base, seed):
    head_dim = 2 * sum(section)
    p = np.array(positions)
    cos, sin = mrope_cos_sin(np.stack([p, p, p]), head_dim, base, section, interleaved=interleaved)
    x = np.random.default_rng(seed).standard_normal((len(p), head_dim))
    half = head_dim // 2
    rotated_half = np.concatenate([-x[:, half:], x[:, :half]], axis=1)
    expected = rope(x, p.astype(np.float64), base, layout="split")
    np.testing.assert_allclose(x * cos + rotated_half * sin, expected, rtol=0, atol=1e-9)


def axes_of_pairs(section, interleaved):
    """Which row turns each pair: the pairs that turn when only row a is at position 1."""
    head_dim = 2 * sum(section)
    axes = np.full(head_dim // 2, -1)
    for a in range(3):
        ids = np.zeros((3, 1), dtype=np.int64)
        ids[a] = 1
        _, sin = mrope_cos_sin(ids, head_dim, 10000.0, section, interleaved=interleaved)
        axes[sin[0, : head_dim // 2] != 0] = a
    return axes


def test_chunked_sections_give_time_the_fastest_pairs():
    axes = axes_of_pairs((16, 24, 24), interleaved=False)
    assert axes.tolist() == [0] * 16 + [1] * 24 + [2] * 24


def test_interleaved_sections_cycle_the_axes_and_give_time_the_tail():
    axes = axes_of_pairs((24, 20, 20), interleaved=True)
    assert axes[:60].tolist() == [0, 1, 2] * 20 and axes[60:].tolist() == [0] * 4


BAD_SEGMENTS = [
    ("not a sequence", 5, "segments"),
    ("a string", "text", "segments"),
    ("unknown kind", [("audio", 3)], r"segments\[0\]"),
    ("negative text", [("text", -1)], r"segments\[0\] text length"),
    ("short grid", [("text", 1), ("image", (1, 4))], r"segments\[1\]"),
    ("odd height", [("image", (1, 3, 4))], r"segments\[0\] grid h"),
    ("zero frames", [("video", (0, 4, 4))], r"segments\[0\] grid t"),
    ("negative interval", [("video", (2, 4, 4), -1.0)], r"segments\[0\] interval"),
    ("text with interval", [("text", 3, 1.0)], r"segments\[0\]"),
]


@pytest.mark.parametrize(("segments", "names"), [b[1:] for b in BAD_SEGMENTS],
                         ids=[b[0] for b in BAD_SEGMENTS])  # fmt: skip
def test_bad_segments_raise_value_error_naming_the_segment(segments, names):
    with pytest.raises(ValueError, match=names):
        mrope_position_ids(segments)


def test_bad_spatial_merge_size_raises_naming_it():
    with pytest.raises(ValueError, match="spatial_merge_size"):
        mrope_position_ids([("text", 1)], spatial_merge_size=0)


IDS = np.zeros((3, 4), dtype=np.int64)
BAD_COS_SIN = [
    ("two rows", (np.zeros((2, 4), dtype=np.int64), 128, 1e4, (16, 24, 24)), "position_ids"),
    ("float ids", (np.zeros((3, 4)), 128, 1e4, (16, 24, 24)), "position_ids"),
    ("negative ids", (-IDS - 1, 128, 1e4, (16, 24, 24)), "position_ids"),
    ("odd head_dim", (IDS, 127, 1e4, (16, 24, 24)), "head_dim"),
    ("base 1", (IDS, 128, 1.0, (16, 24, 24)), "base"),
    ("section sum", (IDS, 128, 1e4, (16, 24, 23)), "mrope_section"),
    ("section negative", (IDS, 128, 1e4, (72, -4, -4)), "mrope_section"),
    ("two sections", (IDS, 128, 1e4, (32, 32)), "mrope_section"),
]


@pytest.mark.parametrize(("args", "names"), [b[1:] for b in BAD_COS_SIN],
                         ids=[b[0] for b in BAD_COS_SIN])  # fmt: skip
def test_bad_cos_sin_input_raises_value_error_naming_it(args, names):
    with pytest.raises(ValueError, match=names):
        mrope_cos_sin(*args)


def test_interleaved_section_wider_than_a_third_raises_naming_mrope_section():
    with pytest.raises(ValueError, match="mrope_section"):
        mrope_cos_sin(IDS, 128, 1e4, (16, 24, 24), interleaved=True)


def test_interleaved_must_be_a_bool():
    with pytest.raises(ValueError, match="interleaved"):
        mrope_cos_sin(IDS, 128, 1e4, (24, 20, 20), interleaved="yes")
