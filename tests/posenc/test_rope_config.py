"""posenc.rope_from_config against transformers' own RoPE initialisation (issue 31 §1),
on configs modelled on real models' config.json (tests/peers/make_rope_config_peer_values.py)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.peers import PeerFile

import posenc
from posenc import ROPE_TYPES, rope_frequencies, rope_from_config

PEERS = PeerFile("rope_config_peer_values.npz")
# transformers forms inv_freq in float32: a few float32 ulp.
RTOL_F32 = 1e-6


def configs() -> dict[str, dict]:
    return json.loads(str(PEERS.peer("configs_json")))


def config(name: str) -> dict:
    return json.loads(json.dumps(configs()[name]["config"]))


INV_KEYS = PEERS.keys("hf_inv_freq_")


def ours(key: str) -> tuple[np.ndarray, float]:
    s = PEERS.settings()[key]
    return rope_from_config(config(s["config"]), s["context"], layer_type=s.get("layer_type"))


@pytest.mark.parametrize("key", INV_KEYS)
def test_inv_freq_equals_transformers(key):
    inv, _ = ours(key)
    peer = PEERS.peer(key).astype(np.float64)
    assert inv.shape == peer.shape
    np.testing.assert_allclose(inv, peer, rtol=RTOL_F32, atol=0)


@pytest.mark.parametrize("key", INV_KEYS)
def test_attention_factor_equals_transformers(key):
    _, attention = ours(key)
    peer = float(PEERS.peer(key.replace("hf_inv_freq_", "hf_attn_").removesuffix("_f32"))[0])
    assert attention == pytest.approx(peer, rel=1e-12)


def test_every_rope_type_has_a_peer():
    types = {PEERS.settings()[k].get("rope_type") for k in INV_KEYS}
    layered = {k for k in INV_KEYS if "gemma3" in k}  # linear (full) and default (sliding)
    assert set(ROPE_TYPES) - {"linear"} <= types and layered


def test_longrope_switches_to_the_long_factors_past_the_original_context():
    phi3 = config("phi3_mini_128k")
    factors = phi3["rope_scaling"]
    theta, _ = rope_frequencies(96, 10000.0)
    short, _ = rope_from_config(phi3, 4096)
    long, _ = rope_from_config(phi3, 4097)
    np.testing.assert_allclose(short, theta / np.array(factors["short_factor"]), rtol=1e-15)
    np.testing.assert_allclose(long, theta / np.array(factors["long_factor"]), rtol=1e-15)


def test_longrope_attention_factor_is_the_same_on_both_sides_of_the_switch():
    phi3 = config("phi3_mini_128k")
    expected = math.sqrt(1 + math.log(131072 / 4096) / math.log(4096))
    assert rope_from_config(phi3, 10)[1] == rope_from_config(phi3, 10**6)[1] == expected


def test_dynamic_ntk_keeps_the_base_up_to_the_original_context():
    dynamic = config("llama2_dynamic")
    plain, _ = rope_frequencies(128, 10000.0)
    np.testing.assert_array_equal(rope_from_config(dynamic, 4096)[0], plain)
    assert rope_from_config(dynamic, 4097)[0][-1] < plain[-1]


def test_deepseek_softmax_scale_is_outside_the_rope_attention_factor():
    # The docstring's claim: DeepSeek multiplies its softmax scale by m(s, mscale_all_dim)^2,
    # while RoPE's own factor m(s, mscale) / m(s, mscale_all_dim) is 1 for V3.
    mscale = 0.1 * math.log(40) + 1
    peer = float(PEERS.peer("hf_softmax_mscale_deepseek_v3")[0])
    assert rope_from_config(config("deepseek_v3"))[1] == 1.0
    assert peer == pytest.approx(mscale**2, rel=1e-12)
    assert peer == pytest.approx(posenc.yarn_mscale(40.0, 1.0) ** 2, rel=1e-12)


@pytest.mark.parametrize(
    "kwargs, match",
    [(dict(scale=0.0), "scale"), (dict(scale=float("nan")), "scale"),
     (dict(scale=2.0, mscale=float("inf")), "mscale")],
)  # fmt: skip
def test_yarn_mscale_names_the_bad_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        posenc.yarn_mscale(**kwargs)


def as_rope_parameters(old: dict) -> dict:
    """The same config in transformers 5's form: rope_theta inside rope_parameters."""
    new = {k: v for k, v in old.items() if k not in ("rope_scaling", "rope_theta")}
    params = dict(old.get("rope_scaling") or {})
    params["rope_type"] = params.pop("type", params.get("rope_type", "default"))
    params["rope_theta"] = old["rope_theta"]
    new["rope_parameters"] = params
    return new


@pytest.mark.parametrize(
    "name", ["llama31_8b", "phi3_mini_128k", "deepseek_v3", "gpt_oss_20b", "llama2_dynamic"]
)
def test_rope_parameters_and_rope_scaling_read_alike(name):
    old = config(name)
    for context in (None, 1000, 200_000):
        a, fa = rope_from_config(old, context)
        b, fb = rope_from_config(as_rope_parameters(old), context)
        np.testing.assert_array_equal(a, b)
        assert fa == fb


def test_a_multimodal_config_is_read_through_its_text_config():
    gemma = config("gemma3_4b")
    wrapped = {"model_type": "gemma3", "text_config": gemma, "vision_config": {"hidden_size": 1}}
    np.testing.assert_array_equal(rope_from_config(wrapped)[0], rope_from_config(gemma)[0])


@settings(max_examples=60, deadline=None)
@given(
    half=st.integers(2, 128),
    base=st.floats(100.0, 1e7),
    factor=st.floats(1.0, 64.0),
    original=st.integers(256, 65536),
)
def test_yarn_with_default_settings_is_rope_frequencies_yarn(half, base, factor, original):
    head_dim = 2 * half
    cfg = {
        "head_dim": head_dim,
        "rope_theta": base,
        "max_position_embeddings": original,
        "rope_scaling": {"rope_type": "yarn", "factor": factor,
                         "original_max_position_embeddings": original},
    }  # fmt: skip
    inv, attention = rope_from_config(cfg)
    expected, expected_attention = rope_frequencies(
        head_dim, base, scaling="yarn", factor=factor, original_context=original
    )
    np.testing.assert_allclose(inv, expected, rtol=1e-14)
    assert attention == pytest.approx(expected_attention, rel=1e-14)


GOOD = {"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 4096}


def with_rope(**params) -> dict:
    return {**GOOD, "rope_scaling": params}


BAD = [
    ("not a dict", [1, 2], None, "config"),
    ("unknown type", with_rope(rope_type="spiral"), None, '"rope_type"'),
    ("linear factor below 1", with_rope(rope_type="linear", factor=0.5), None, '"factor"'),
    ("linear without factor", with_rope(rope_type="linear"), None, '"factor"'),
    ("base 1", {**GOOD, "rope_theta": 1.0}, None, "rope_theta"),
    ("base nan", {**GOOD, "rope_theta": float("nan")}, None, "rope_theta"),
    ("no head size", {"rope_theta": 10000.0}, None, "head_dim"),
    ("zero heads", {"hidden_size": 64, "num_attention_heads": 0}, None, "num_attention_heads"),
    ("partial above 1", {**GOOD, "partial_rotary_factor": 1.5}, None, "partial_rotary_factor"),
    ("context 0", GOOD, 0, "context"),
    ("context float", GOOD, 2.5, "context"),
    ("truncate text", with_rope(rope_type="yarn", factor=4.0, truncate="no"), None, "truncate"),
    ("llama3 no low", with_rope(rope_type="llama3", factor=8.0, high_freq_factor=4.0),
     None, "low_freq_factor"),
    ("short factors", with_rope(rope_type="longrope", short_factor=[1.0] * 3,
                                long_factor=[1.0] * 32), None, "short_factor"),
    ("long factors", with_rope(rope_type="longrope", short_factor=[1.0] * 32,
                               long_factor=[1.0] * 31), 5000, "long_factor"),
    ("yarn no length", {"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4.0}},
     None, "max_position_embeddings"),
    ("scaling a list", {**GOOD, "rope_scaling": [1]}, None, "rope_scaling"),
]  # fmt: skip


@pytest.mark.parametrize(("config_", "context", "names"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])  # fmt: skip
def test_bad_config_raises_value_error_naming_the_setting(config_, context, names):
    with pytest.raises(ValueError, match=names):
        rope_from_config(config_, context)


def test_unknown_layer_type_of_a_layered_config_raises_naming_layer_type():
    per_layer = {"full_attention": {"rope_type": "default"},
                 "sliding_attention": {"rope_type": "default"}}  # fmt: skip
    layered = {**GOOD, "rope_parameters": per_layer}
    with pytest.raises(ValueError, match="layer_type"):
        rope_from_config(layered, layer_type="chunked_attention")
