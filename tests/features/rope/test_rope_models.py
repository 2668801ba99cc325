"""The RoPE page's "Real models" tab (issue 22 §3): presets cited from each model's
config.json, the reader of a pasted config.json, and the per-pair numbers."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from support.apptest import run_page
from support.screen import chart, decode, rendered

import posenc
from ui.features.rope import data_models as mp
from ui.features.rope import specs as sp
from ui.features.rope.tab_models import counts
from ui.plain.texts import LANGUAGES, TextError, text

PAGE = "5_RoPE.py"
TAB = {"rope_tab": "models"}

# A config.json as the Hub serves Llama 3.1 8B's (every field, not only RoPE's).
LLAMA31 = """{
  "architectures": ["LlamaForCausalLM"], "attention_bias": false,
  "bos_token_id": 128000, "eos_token_id": 128001, "head_dim": 128, "hidden_act": "silu",
  "hidden_size": 4096, "intermediate_size": 14336, "max_position_embeddings": 131072,
  "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
  "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"},
  "rope_theta": 500000.0, "tie_word_embeddings": false, "vocab_size": 128256
}"""
# Phi-2 as transformers 5 writes it: the RoPE fields in one rope_parameters block.
PHI2_V5 = json.dumps(
    {
        "hidden_size": 2560, "num_attention_heads": 32, "max_position_embeddings": 2048,
        "partial_rotary_factor": 0.4,
        "rope_parameters": {"partial_rotary_factor": 0.4, "rope_theta": 10000.0,
                            "rope_type": "default"},
    }
)  # fmt: skip
NUMBERS = ("head_dim", "base", "original_context", "context", "partial_rotary_factor",
           "scaling", "factor", "low_freq_factor", "high_freq_factor")  # fmt: skip


def numbers(model: mp.RopeModel) -> tuple:
    return tuple(getattr(model, name) for name in NUMBERS)


def config(**fields) -> str:
    base = {"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 1024}
    return json.dumps({**base, **fields})


# --- presets ------------------------------------------------------------------------------


@pytest.mark.parametrize("code", mp.PRESETS)
def test_each_preset_is_what_its_cited_config_fields_say(code):
    preset = mp.PRESETS[code]
    read = mp.parse_config(json.dumps(mp.config_of(preset)))
    assert numbers(read) == numbers(preset)
    assert all(address.startswith("https://") for address, _ in preset.sources)


def test_every_model_the_issue_names_has_a_preset():
    names = {p.name for p in mp.PRESETS.values()}
    for model in ("Llama 2 7B", "Llama 3.1 8B", "Mistral 7B", "Qwen2.5 7B", "GPT-NeoX 20B",
                  "Phi-2", "Phi-3 mini 128K", "DeepSeek-V3", "gpt-oss-20b", "Qwen2.5-VL 7B",
                  "Qwen3-VL 8B", "Gemma 3"):  # fmt: skip
        assert any(name.startswith(model) for name in names), model
    assert set(sp.MODELS) == {*mp.PRESETS, "pasted"}


def test_the_presets_settings_match_the_issue():
    llama = mp.PRESETS["llama31_8b"]
    assert (llama.scaling, llama.factor, llama.low_freq_factor, llama.high_freq_factor) == (
        "llama3", 8.0, 1.0, 4.0,
    )  # fmt: skip
    assert (llama.original_context, llama.base) == (8192, 500000.0)
    assert mp.PRESETS["neox_20b"].partial_rotary_factor == 0.25
    assert mp.PRESETS["phi2"].partial_rotary_factor == 0.4
    assert (mp.PRESETS["neox_20b"].rotated, mp.PRESETS["phi2"].rotated) == (24, 32)


@pytest.mark.parametrize("code", mp.PRESETS)
def test_each_presets_speeds_are_posencs_and_the_rope_formula(code):
    m = mp.PRESETS[code]
    view = mp.pair_view(m)
    r = m.rotated
    j = np.arange(r // 2)
    np.testing.assert_allclose(view["theta"], m.base ** (-2.0 * j / r), rtol=1e-12)
    expected, attention = posenc.rope_from_config(mp.config_of(m), m.context)
    np.testing.assert_array_equal(view["scaled"], expected)
    assert view["attention"] == attention
    if m.scaling in posenc.SCALINGS and code != "gpt_oss_20b":  # (gpt-oss: YaRN untruncated)
        engine, _ = posenc.rope_frequencies(
            m.head_dim, m.base, scaling=m.scaling, factor=m.factor,
            original_context=m.original_context, context=m.context,
            partial_rotary_factor=m.partial_rotary_factor,
        )  # fmt: skip
        np.testing.assert_allclose(view["scaled"], engine, rtol=1e-12)
    np.testing.assert_allclose(view["wavelength"] * view["theta"], 2 * np.pi, rtol=1e-12)
    np.testing.assert_allclose(view["turns"], m.original_context / view["wavelength"])
    np.testing.assert_allclose(view["turns_scaled"], m.context / view["wavelength_scaled"])


def test_llama31_keeps_the_fast_pairs_and_slows_the_slow_ones_by_the_factor():
    """Llama 3.1's rule, directly: wavelength under L0 / 4 kept, over L0 divided by 8,
    in between blended (the tab's caption states these counts)."""
    m = mp.PRESETS["llama31_8b"]
    view = mp.pair_view(m)
    wave = view["wavelength"]
    kept, slowed = wave < 8192 / 4, wave > 8192 / 1
    np.testing.assert_allclose(view["ratio"][kept], 1.0)
    np.testing.assert_allclose(view["ratio"][slowed], 1 / 8)
    n = counts(view, m)
    assert (n["kept"], n["divided"], n["zero"]) == (kept.sum(), slowed.sum(), 0)
    assert n["between"] == 64 - kept.sum() - slowed.sum() == 6
    assert (n["kept"], n["divided"]) == (29, 29)


# --- the critical pair --------------------------------------------------------------------


def first_under_one_turn_directly(base: float, rotated: int, length: int) -> int | None:
    for j in range(rotated // 2):
        if 2 * math.pi * base ** (2 * j / rotated) > length:  # wavelength > length
            return j
    return None


@pytest.mark.parametrize("code", mp.PRESETS)
def test_the_critical_pair_is_the_first_whose_wavelength_exceeds_l0(code):
    m = mp.PRESETS[code]
    view = mp.pair_view(m)
    assert view["critical"] == first_under_one_turn_directly(m.base, m.rotated, m.original_context)
    closed = math.ceil(m.rotated / 2 * math.log(m.original_context / (2 * math.pi), m.base))
    assert view["critical"] == closed  # Liu et al.'s critical dimension, in pairs
    j = view["critical"]
    assert view["turns"][j] < 1 <= view["turns"][j - 1]


def test_the_critical_pairs_the_captions_state():
    critical = {code: mp.pair_view(m)["critical"] for code, m in mp.PRESETS.items()}
    assert critical == {
        "llama2_7b": 46, "llama31_8b": 35, "mistral_7b": 60, "qwen25_7b": 40,
        "qwen25_7b_yarn": 40, "neox_20b": 8, "phi2": 11, "phi3_mini_128k": 34,
        "deepseek_v3": 23, "gpt_oss_20b": 18, "gemma3_4b": 73, "qwen25_vl_7b": 46,
        "qwen3_vl_8b": 45,
    }  # fmt: skip
    view = mp.pair_view(mp.PRESETS["llama31_8b"])
    theta = 500000.0 ** (-np.arange(64) / 64)
    wave = 2 * np.pi / theta  # Llama 3.1's rule, written out (transformers' llama3)
    smooth = np.clip((8192 / wave - 1) / (4 - 1), 0, 1)
    scaled = np.where(wave < 8192 / 4, theta, (1 - smooth) * theta / 8 + smooth * theta)
    first = int(np.flatnonzero(131072 * scaled < 2 * np.pi)[0])
    assert view["critical_scaled"] == first == 39
    assert int((view["turns_scaled"] < 1).sum()) == 64 - first == 25


def test_no_critical_pair_when_every_pair_turns():
    assert mp.first_under_one_turn(np.array([1.0, 0.5]), 100) is None
    assert mp.first_under_one_turn(np.array([1.0, 0.01]), 100) == 1


# --- reading a pasted config.json ---------------------------------------------------------


def test_a_full_llama31_config_is_read_like_the_preset():
    assert numbers(mp.parse_config(LLAMA31)) == numbers(mp.PRESETS["llama31_8b"])


def test_transformers_5_rope_parameters_are_read():
    assert numbers(mp.parse_config(PHI2_V5)) == numbers(mp.PRESETS["phi2"])


def test_rotary_dim_and_rotary_emb_base_are_read():
    m = mp.parse_config(config(rotary_dim=16, rotary_emb_base=20000))
    assert (m.head_dim, m.rotated, m.base, m.assumed) == (64, 16, 20000.0, ())


def test_a_missing_rope_theta_uses_transformers_default_and_says_so():
    m = mp.parse_config(config())
    assert (m.base, m.assumed) == (10000.0, ("rope_theta",))


def test_dynamic_and_yarn_contexts():
    dynamic = mp.parse_config(config(rope_scaling={"type": "dynamic", "factor": 2.0}))
    assert (dynamic.scaling, dynamic.original_context, dynamic.context) == ("ntk", 1024, 2048)
    yarn = mp.parse_config(
        config(rope_scaling={"rope_type": "yarn", "factor": 4.0,
                             "original_max_position_embeddings": 256})
    )  # fmt: skip
    assert (yarn.original_context, yarn.context) == (256, 1024)  # max(1024, 4 * 256)


def test_proportional_keeps_the_fastest_pairs_and_stops_the_rest():
    m = mp.parse_config(
        config(partial_rotary_factor=0.25, rope_scaling={"rope_type": "proportional", "factor": 1})
    )
    view = mp.pair_view(m)
    assert m.rotated == 64 and view["scaled"].size == 32
    assert counts(view, m) == dict(kept=8, divided=0, zero=24, between=0)
    assert np.isinf(view["wavelength_scaled"][8:]).all()


BAD = [
    ("", "rope.cfg_empty"),
    ("   \n", "rope.cfg_empty"),
    ("{", "rope.cfg_json"),
    ("{'hidden_size': 1}", "rope.cfg_json"),
    ("[1, 2]", "rope.cfg_not_object"),
    ("[" * 100_000, "rope.cfg_too_long"),
    ("[" * 1990 + "]" * 1990, "rope.cfg_not_object"),
    ('{"hidden_size": 4096}', "rope.cfg_missing"),
    ('{"head_dim": 64}', "rope.cfg_missing"),
    (config(max_position_embeddings=None), "rope.cfg_missing"),
    (config(hidden_size="4096"), "rope.cfg_number"),
    (config(hidden_size=True), "rope.cfg_number"),
    (config(rope_theta=1.0), "rope.cfg_number"),
    (config(rope_theta=-5), "rope.cfg_number"),
    (config(max_position_embeddings=2.5), "rope.cfg_number"),
    (config(partial_rotary_factor=0), "rope.cfg_number"),
    (config(partial_rotary_factor=1.5), "rope.cfg_number"),
    (config(num_attention_heads=7), "rope.cfg_heads"),
    (config(head_dim=4096), "rope.cfg_number"),
    (config(head_dim=63), "rope.cfg_rotated"),
    (config(partial_rotary_factor=0.3), "rope.cfg_rotated"),  # int(64 * 0.3) = 19
    (config(rope_scaling={"rope_type": "longrope", "factor": 2}), "rope.cfg_rope"),
    (config(rope_scaling={"factor": 2}), "rope.cfg_scaling"),
    (config(rope_scaling="yarn"), "rope.cfg_number"),
    (config(rope_scaling={"type": "linear"}), "rope.cfg_missing"),
    (config(rope_scaling={"type": "linear", "factor": 0.5}), "rope.cfg_number"),
    (config(rope_scaling={"rope_type": "llama3", "factor": 8}), "rope.cfg_missing"),
    (
        config(
            rope_scaling={
                "rope_type": "llama3",
                "factor": 8,
                "low_freq_factor": 4,
                "high_freq_factor": 1,
            }
        ),
        "rope.cfg_llama3",
    ),
    (config(rope_scaling={"rope_type": "yarn", "factor": 4, "beta_fast": "16"}), "rope.cfg_rope"),
    (
        config(
            rope_scaling={
                "rope_type": "longrope",
                "short_factor": [1.0] * 3,
                "long_factor": [2.0] * 32,
                "original_max_position_embeddings": 256,
            }
        ),
        "rope.cfg_rope",
    ),
]


@pytest.mark.parametrize(("pasted", "key"), BAD, ids=[f"{k}-{i}" for i, (_, k) in enumerate(BAD)])
def test_a_bad_config_raises_a_notice_in_both_languages(pasted, key):
    with pytest.raises(TextError) as caught:
        mp.parse_config(pasted)
    error = caught.value
    assert error.key == key
    for lang in LANGUAGES:
        said = text(lang, error.key, **error.fields)
        assert re.search(r"\{\w+\}", said) is None, said  # every placeholder filled


def test_a_visitors_scaling_type_is_shown_as_code_not_as_a_link():
    hostile = "[Sign in](https://evil.co) <b>x</b>"
    with pytest.raises(TextError) as caught:
        mp.parse_config(config(rope_scaling={"rope_type": hostile, "factor": 2}))
    kind = caught.value.fields["kind"]
    assert kind.startswith("`") and kind.endswith("`") and "\n" not in kind
    assert len(kind) <= 42  # cut to one short line


def test_the_box_and_the_parser_share_one_cap():
    assert sp.CONFIG.max_chars == mp.MAX_CONFIG_CHARS
    with pytest.raises(TextError, match="longer"):
        mp.parse_config(config(pad="x" * mp.MAX_CONFIG_CHARS))


def test_the_download_table_has_one_row_per_pair():
    view = mp.pair_view(mp.PRESETS["phi2"])
    table = mp.table(view)
    assert table.shape == (16, 8)
    np.testing.assert_array_equal(table[:, 0], np.arange(16))
    np.testing.assert_array_equal(table[:, 3], view["wavelength"])


# --- the tab --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", ["llama31_8b", "phi2"])
def test_the_tab_draws_the_wavelengths_with_l0_and_the_critical_pair(lang, code):
    at = run_page(PAGE, {**TAB, "lang": lang, "rope_model": code})
    m = mp.PRESETS[code]
    view = mp.pair_view(m)
    fig = chart(at, "rope_models_chart")
    assert len(json.dumps(fig)) < 1_000_000
    waves = decode(fig["data"][0]["y"])
    np.testing.assert_allclose(waves, view["wavelength"])
    lines = {tr["name"]: tr for tr in fig["data"]}
    l0 = next(tr for name, tr in lines.items() if "8,192" in name or "2,048" in name)
    assert decode(l0["y"])[0] == m.original_context
    critical = next(tr for name, tr in lines.items() if f"j = {view['critical']}" in name)
    assert list(decode(critical["x"])) == [view["critical"]] * 2
    captions = " ".join(c.value for c in at.caption)
    assert f"{view['critical']}" in captions and f"{m.original_context:,}" in captions
    assert not at.info  # no notice for a preset


def test_the_scaled_wavelengths_are_drawn_for_a_scaled_model():
    at = run_page(PAGE, {**TAB, "rope_model": "llama31_8b"})
    fig = chart(at, "rope_models_chart")
    view = mp.pair_view(mp.PRESETS["llama31_8b"])
    np.testing.assert_allclose(decode(fig["data"][1]["y"]), view["wavelength_scaled"])
    assert "29 pairs keep" in " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pasted_config_is_drawn(lang):
    at = run_page(PAGE, {**TAB, "lang": lang, "rope_model": "pasted", "rope_config": LLAMA31})
    fig = chart(at, "rope_models_chart")
    np.testing.assert_allclose(
        decode(fig["data"][0]["y"]), mp.pair_view(mp.PRESETS["llama31_8b"])["wavelength"]
    )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("pasted", "key"),
    [("", "rope.cfg_empty"), ("{oops", "rope.cfg_json"), (BAD[21][0], BAD[21][1])],
)
def test_a_bad_pasted_config_gives_a_notice_and_no_chart(lang, pasted, key):
    at = run_page(PAGE, {**TAB, "lang": lang, "rope_model": "pasted", "rope_config": pasted})
    assert not at.get("plotly_chart")
    shown = rendered(at.info[0].value)
    with pytest.raises(TextError) as caught:
        mp.parse_config(pasted)
    assert shown == rendered(text(lang, key, **caught.value.fields))


def test_a_hostile_pasted_config_stays_text():
    hostile = config(rope_scaling={"rope_type": "[x](https://evil.co)![](https://e.co/i.png)"})
    at = run_page(PAGE, {**TAB, "rope_model": "pasted", "rope_config": hostile})
    notice = at.info[0].value
    code = notice[notice.index("`") : notice.rindex("`") + 1]
    assert "https" in code and "https" not in notice.replace(code, "")


def test_the_configs_extreme_values_are_valid_and_the_largest_is_drawn():
    """Tests walking every setting's ends paste the largest valid config (4000 characters,
    a 1024-dimension head scaled to 100,000,000 positions): it is read and drawn."""
    largest = sp.CONFIG.extreme("max")
    assert len(largest) == sp.CONFIG.max_chars and sp.CONFIG.parse(largest) == largest
    assert sp.CONFIG.extreme("min") == ""
    model = mp.parse_config(largest)
    assert (model.head_dim, model.context) == (1024, mp.MAX_CONTEXT)
    at = run_page(PAGE, {**TAB, "rope_model": "pasted", "rope_config": largest})
    fig = chart(at, "rope_models_chart")
    assert len(json.dumps(fig)) < 1_000_000
    assert decode(fig["data"][0]["y"]).size == 512


@pytest.mark.browser
def test_a_config_pasted_in_chromium_is_drawn(server, page):
    """A multi-line config.json typed into the box (a one-line text box drops the line
    breaks, which JSON does not need) draws that model's wavelengths; bad JSON a notice."""
    from support.browser import wait_for_app

    page.goto(server.url + "/RoPE?rope_tab=models&rope_model=pasted")
    wait_for_app(page)
    box = page.get_by_role("textbox", name=text("en", "rope.config"))
    box.fill(LLAMA31)
    box.press("Enter")
    page.locator("[data-testid=stPlotlyChart] .main-svg").first.wait_for(timeout=60_000)
    waves = page.evaluate("document.querySelector('.js-plotly-plot')._fullData[0].y")
    expected = mp.pair_view(mp.PRESETS["llama31_8b"])["wavelength"]
    np.testing.assert_allclose(np.asarray(waves, dtype=float), expected, rtol=1e-9)
    box.fill('{"hidden_size": 4096,')
    box.press("Enter")
    notice = page.locator("[data-testid=stAlert]").first
    notice.wait_for(timeout=60_000)
    assert "not valid JSON" in notice.inner_text()
    assert page.locator("[data-testid=stException]").count() == 0


def test_qwen_yarn_counts_follow_yarns_ramp_written_out():
    """YaRN as transformers computes it: pairs up to floor(dim(32 turns)) keep theta, from
    ceil(dim(1 turn)) on get theta / s, a linear ramp between (the caption's counts)."""
    m = mp.PRESETS["qwen25_7b_yarn"]
    d, b, L0 = 128, 1_000_000.0, 32768

    def dim(turns):  # the (fractional) pair index that turns `turns` times inside L0
        return d * math.log(L0 / (turns * 2 * math.pi)) / (2 * math.log(b))

    low, high = max(math.floor(dim(32)), 0), min(math.ceil(dim(1)), d - 1)
    view = mp.pair_view(m)
    n = counts(view, m)
    assert (n["kept"], n["divided"], n["between"]) == (low + 1, 64 - high, high - low - 1)
    assert (n["kept"], n["divided"], n["between"]) == (24, 24, 16)
    assert int((view["turns_scaled"] < 1).sum()) == 24  # inside L = 131,072
