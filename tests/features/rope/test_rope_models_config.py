"""The "Real models" tab through posenc.rope_from_config (issue 31 §3): the new presets
(Phi-3 mini 128K, DeepSeek-V3, gpt-oss-20b, Gemma 3, Qwen2.5-VL, Qwen3-VL) and pasted
configs of every rope type draw transformers' own inv_freq and attention factor
(tests/peers/rope_config_peer_values.npz); LongRoPE's factors and switch; M-RoPE's
sections; dynamic NTK as the length grows."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from support.apptest import run_page
from support.peers import PeerFile
from support.screen import chart, decode

from ui.features.rope import data_models as mp
from ui.features.rope import tab_models
from ui.plain.texts import LANGUAGES, text

PEERS = PeerFile("rope_config_peer_values.npz")
PAGE = "5_RoPE.py"
TAB = {"rope_tab": "models"}
# transformers forms inv_freq in float32: a few float32 ulp.
RTOL_F32 = 1e-6

# Preset -> the peer key of its inv_freq at the preset's L (transformers at seq_len L;
# Qwen2.5-VL's RoPE is Qwen2-VL's: same head, same base, default frequencies).
PEER_OF = {
    "llama2_7b": "llama2_7b",
    "llama31_8b": "llama31_8b",
    "phi2": "phi2",
    "qwen25_7b_yarn": "qwen25_7b_yarn",
    "phi3_mini_128k": "phi3_mini_128k_ctx131072",
    "deepseek_v3": "deepseek_v3",
    "gpt_oss_20b": "gpt_oss_20b",
    "gemma3_4b": "gemma3_4b_full_attention",
    "qwen25_vl_7b": "qwen2_vl_7b",
    "qwen3_vl_8b": "qwen3_vl_8b",
}
NEW = ("phi3_mini_128k", "deepseek_v3", "gpt_oss_20b", "gemma3_4b", "qwen25_vl_7b", "qwen3_vl_8b")
# Preset -> the peer config it must cite with the same numbers.
SAME_CONFIG = {
    "phi3_mini_128k": "phi3_mini_128k",
    "deepseek_v3": "deepseek_v3",
    "gpt_oss_20b": "gpt_oss_20b",
    "gemma3_4b": "gemma3_4b",
    "qwen3_vl_8b": "qwen3_vl_8b",
}


def peer_configs() -> dict[str, dict]:
    return {n: c["config"] for n, c in json.loads(str(PEERS.peer("configs_json"))).items()}


def peer_inv(tag: str) -> np.ndarray:
    return PEERS.peer(f"hf_inv_freq_{tag}_f32").astype(np.float64)


def peer_attention(tag: str) -> float:
    return float(PEERS.peer(f"hf_attn_{tag}")[0])


def text_part(config: dict) -> dict:
    return config.get("text_config", config)


def drawn_speeds(at) -> np.ndarray:
    """The model's speeds as drawn: 2 pi over the last wavelength line (after scaling,
    or the pretrained one for a model without scaling)."""
    fig = chart(at, "rope_models_chart")
    lines = [tr for tr in fig["data"] if tr.get("mode") == "lines+markers"]
    return 2 * np.pi / decode(lines[-1]["y"])


# --- presets against the peers --------------------------------------------------------------


@pytest.mark.parametrize("code", SAME_CONFIG)
def test_each_new_preset_cites_the_peer_configs_numbers(code):
    ours = text_part(mp.config_of(mp.PRESETS[code]))
    peer = text_part(peer_configs()[SAME_CONFIG[code]])
    shared = set(ours) & set(peer)
    assert {"rope_theta", "max_position_embeddings"} <= shared
    assert "rope_scaling" in shared or code == "gemma3_4b" or "rope_scaling" not in peer
    for key in shared:
        assert ours[key] == peer[key], key


@pytest.mark.parametrize("code", PEER_OF)
def test_each_presets_speeds_and_attention_factor_are_transformers(code):
    view = mp.pair_view(mp.PRESETS[code])
    np.testing.assert_allclose(view["scaled"], peer_inv(PEER_OF[code]), rtol=RTOL_F32, atol=0)
    assert view["attention"] == pytest.approx(peer_attention(PEER_OF[code]), rel=1e-12)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", NEW)
def test_each_new_preset_draws_transformers_speeds(lang, code):
    at = run_page(PAGE, {**TAB, "lang": lang, "rope_model": code})
    np.testing.assert_allclose(drawn_speeds(at), peer_inv(PEER_OF[code]), rtol=RTOL_F32)
    assert len(json.dumps(chart(at, "rope_models_chart"))) < 1_000_000


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", ["phi3_mini_128k", "gpt_oss_20b", "deepseek_v3", "gemma3_4b"])
def test_the_attention_factor_shown_is_transformers(lang, code):
    at = run_page(PAGE, {**TAB, "lang": lang, "rope_model": code})
    a = peer_attention(PEER_OF[code])
    said = text(lang, "rope.models_attention", a=f"{a:.5g}", a2=f"{a * a:.5g}")
    assert said in [c.value for c in at.caption]


def test_the_attention_factors_the_report_quotes():
    """Phi-3's sqrt(1 + ln 32 / ln 4096), gpt-oss's 0.1 ln 32 + 1, DeepSeek's ratio 1."""
    factors = {c: mp.pair_view(mp.PRESETS[c])["attention"] for c in PEER_OF}
    assert factors["phi3_mini_128k"] == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    assert round(factors["phi3_mini_128k"], 4) == 1.1902
    assert factors["gpt_oss_20b"] == pytest.approx(0.1 * math.log(32) + 1)
    assert round(factors["gpt_oss_20b"], 4) == 1.3466
    assert factors["deepseek_v3"] == 1.0 and factors["gemma3_4b"] == 1.0


def test_deepseeks_mscale_note_is_shown_for_deepseek_only():
    note = text("en", "rope.models_mscale")
    deepseek = run_page(PAGE, {**TAB, "rope_model": "deepseek_v3"})
    gpt_oss = run_page(PAGE, {**TAB, "rope_model": "gpt_oss_20b"})
    assert note in [c.value for c in deepseek.caption]
    assert note not in [c.value for c in gpt_oss.caption]


# --- pasted configs of every rope type ------------------------------------------------------


PASTED = [n for n in peer_configs() if f"hf_inv_freq_{n}_f32" in PEERS.data.files]


@pytest.mark.parametrize("name", PASTED)
def test_a_pasted_peer_config_reads_transformers_speeds_at_its_length(name):
    """Every rope type, pasted as its config.json: the tab's speeds at the model's L are
    transformers' at that L (the peer at seq_len None equals it where L does not matter)."""
    model = mp.parse_config(json.dumps(peer_configs()[name]))
    tags = [f"{name}_ctx{model.context}", name, f"{name}_full_attention"]
    tag = next(t for t in tags if f"hf_inv_freq_{t}_f32" in PEERS.data.files)
    view = mp.pair_view(model)
    np.testing.assert_allclose(view["scaled"], peer_inv(tag), rtol=RTOL_F32, atol=0)
    assert view["attention"] == pytest.approx(peer_attention(tag), rel=1e-12)


@pytest.mark.parametrize("name", ["phi3_mini_128k", "deepseek_v3_mscale_ratio", "kimi_k2"])
def test_a_pasted_config_of_a_formerly_notice_only_type_is_drawn(name):
    pasted = json.dumps(peer_configs()[name])
    at = run_page(PAGE, {**TAB, "rope_model": "pasted", "rope_config": pasted})
    model = mp.parse_config(pasted)
    np.testing.assert_allclose(drawn_speeds(at), mp.pair_view(model)["scaled"], rtol=1e-12)
    assert not at.info


# --- LongRoPE -------------------------------------------------------------------------------


def test_longropes_factors_are_read_back_from_posenc_as_the_config_gives_them():
    short, long, attention = mp.longrope_factors(mp.PRESETS["phi3_mini_128k"])
    scaling = peer_configs()["phi3_mini_128k"]["rope_scaling"]
    np.testing.assert_allclose(short, scaling["short_factor"], rtol=1e-14)
    np.testing.assert_allclose(long, scaling["long_factor"], rtol=1e-14)
    assert attention == pytest.approx(peer_attention("phi3_mini_128k_ctx4097"), rel=1e-12)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("length", "active"), [(4096, "short"), (4097, "long")])
def test_phi3s_factor_chart_marks_the_set_in_use_on_each_side_of_the_switch(lang, length, active):
    at = run_page(
        PAGE, {**TAB, "lang": lang, "rope_model": "phi3_mini_128k", "rope_models_len": str(length)}
    )
    fig = chart(at, "rope_models_factors")
    traces = {tr["name"]: tr for tr in fig["data"]}
    drawn = {key: traces[text(lang, f"rope.models_factor_{key}")] for key in ("short", "long")}
    assert (
        drawn[active]["line"]["width"]
        > drawn[{"short": "long", "long": "short"}[active]]["line"]["width"]
    )
    theta = 10000.0 ** (-np.arange(48) / 48)
    # theta / factor in use = transformers' inv_freq at this length
    speeds = theta / decode(drawn[active]["y"])
    np.testing.assert_allclose(speeds, peer_inv(f"phi3_mini_128k_ctx{length}"), rtol=RTOL_F32)
    captions = [c.value for c in at.caption]
    assert (
        text(lang, f"rope.models_longrope_{active}", length=f"{length:,}", orig="4,096") in captions
    )
    a = peer_attention(f"phi3_mini_128k_ctx{length}")
    switch = text(lang, "rope.models_longrope_switch", orig="4,096", changed=48, pairs=48,
                  a=f"{a:.5g}")  # fmt: skip
    assert switch in captions


@pytest.mark.parametrize("lang", LANGUAGES)
def test_phi3s_speeds_sentence_gives_its_per_pair_factors_not_s(lang):
    """LongRoPE divides each pair by its own factor (at L > L0 the long ones); s = 32 only
    sets the attention factor, so the sentence quotes the factors' range, not 'theta/s'."""
    at = run_page(PAGE, {**TAB, "lang": lang, "rope_model": "phi3_mini_128k"})
    long = np.asarray(peer_configs()["phi3_mini_128k"]["rope_scaling"]["long_factor"])
    theta = 10000.0 ** (-np.arange(48) / 48)
    under = int((131072 * peer_inv("phi3_mini_128k_ctx131072") / (2 * math.pi) < 1).sum())
    fields = dict(low=f"{long.min():.3g}", high=f"{long.max():.3g}", factor="32")
    expected = text(lang, "rope.models_scaling_longrope", **fields, context="131,072", under=under)
    assert expected in [c.value for c in at.caption]
    assert np.allclose(theta / long, peer_inv("phi3_mini_128k_ctx131072"), rtol=1e-6)


def test_every_phi3_speed_changes_at_the_switch():
    """The caption's '48 of the 48 speeds': every pair's inv_freq differs between L0 and L0 + 1."""
    before, after = peer_inv("phi3_mini_128k_ctx4096"), peer_inv("phi3_mini_128k_ctx4097")
    assert int(np.sum(before != after)) == before.size == 48


def test_no_factor_chart_for_a_model_without_longrope():
    at = run_page(PAGE, {**TAB, "rope_model": "gpt_oss_20b"})
    with pytest.raises(KeyError):
        chart(at, "rope_models_factors")


# --- M-RoPE ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("code", "sections", "layout"),
    [("qwen25_vl_7b", (16, 24, 24), "chunked"), ("qwen3_vl_8b", (24, 20, 20), "interleaved")],
)
def test_an_mrope_model_names_its_sections(lang, code, sections, layout):
    at = run_page(PAGE, {**TAB, "lang": lang, "rope_model": code})
    assert mp.PRESETS[code].mrope_section == sections and sum(sections) == 64
    joined = text(lang, "rope.models_sections_sep").join(map(str, sections))
    said = text(lang, "rope.models_mrope", pairs=64, sections=joined,
                layout=text(lang, f"rope.models_mrope_{layout}"))  # fmt: skip
    assert [i.value for i in at.info] == [said]
    # The link only when the page exists (it was being built beside this tab).
    links = [el for el in at.main.get("page_link") if el.proto.page == "Multi_axis_RoPE"]
    assert len(links) == int((tab_models.ROOT / tab_models.MROPE_PAGE).exists())


def test_a_pasted_qwen2_vl_config_is_read_as_mrope():
    model = mp.parse_config(json.dumps(peer_configs()["qwen2_vl_7b"]))
    assert (model.scaling, model.mrope_section, model.mrope_interleaved) == (
        None, (16, 24, 24), False,
    )  # fmt: skip
    qwen3 = mp.parse_config(json.dumps(peer_configs()["qwen3_vl_8b"]))
    assert (qwen3.mrope_section, qwen3.mrope_interleaved, qwen3.head_dim) == (
        (24, 20, 20),
        True,
        128,
    )


# --- dynamic NTK ----------------------------------------------------------------------------


DYNAMIC = json.dumps(peer_configs()["llama2_dynamic"])


@pytest.mark.parametrize("length", [2048, 4096, 4097, 6000, 8192, 16384])
def test_ntks_base_and_slowest_wavelength_are_transformers_at_each_length(length):
    model = mp.parse_config(DYNAMIC)
    growth = mp.ntk_growth(model, length)
    at = int(np.flatnonzero(growth["lengths"] == length)[0])
    inv = peer_inv(f"llama2_dynamic_ctx{length}")
    assert growth["base"][at] == pytest.approx(inv[1] ** (-64), rel=1e-4)
    assert growth["slowest"][at] == pytest.approx(2 * np.pi / inv[-1], rel=RTOL_F32)
    # the closed form: b' = b (s L / L0 - (s - 1)) ** (r / (r - 2)) past L0
    expected = 10000.0 * max(1.0, 2 * length / 4096 - 1) ** (128 / 126)
    assert growth["base"][at] == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_dynamic_chart_and_caption_follow_the_length(lang):
    query = {**TAB, "lang": lang, "rope_model": "pasted", "rope_config": DYNAMIC}
    at = run_page(PAGE, {**query, "rope_models_len": "6000"})
    fig = chart(at, "rope_models_ntk")
    assert len(json.dumps(fig)) < 1_000_000
    model = mp.parse_config(DYNAMIC)
    growth = mp.ntk_growth(model, 6000)
    np.testing.assert_allclose(decode(fig["data"][0]["y"]), growth["base"])
    at_6000 = int(np.flatnonzero(decode(fig["data"][1]["x"]) == 6000)[0])
    slowest = decode(fig["data"][1]["y"])[at_6000]
    assert slowest == pytest.approx(peer_inv("llama2_dynamic_ctx6000")[-1], rel=RTOL_F32)
    base = 10000.0 * (2 * 6000 / 4096 - 1) ** (128 / 126)
    wave = tab_models.positions(2 * np.pi / peer_inv("llama2_dynamic_ctx6000")[-1])
    said = text(lang, "rope.models_ntk_caption", length="6,000", orig="4,096",
                base=f"{base:,.0f}", b="10,000", wave=wave)  # fmt: skip
    assert said in [c.value for c in at.caption]
