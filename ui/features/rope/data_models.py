"""RoPE settings of real released models, and what a model's settings do to each rotary
pair (the RoPE page's "Real models" tab); the reader of a pasted ``config.json`` is
``data_config`` (its names are re-exported here).

Pure Python and numpy (no Streamlit): the presets and the per-pair numbers are tested
without the app. The pretrained speeds come from ``posenc.rope_frequencies``, the
model's own (``inv_freq`` and attention factor) from ``posenc.rope_from_config``, which
equals transformers for every rope type.

Each preset holds the values of the model's ``config.json`` on the Hugging Face Hub and
where they were read (``sources``); the tab's notes cite them.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np

import posenc
from ui.features.rope.data_config import (  # noqa: F401  (the tab and tests read them here)
    CONTEXT_TYPES,
    MAX_CONFIG_CHARS,
    MAX_CONTEXT,
    MAX_HEAD_DIM,
    SCALING_TYPES,
    RopeModel,
    parse_config,
)

HF = "https://huggingface.co"
CONVERT_LLAMA = (
    "https://github.com/huggingface/transformers/blob/01cc9cd9d804d368d553c093c4eb0646320545bb/"
    "src/transformers/models/llama/convert_llama_weights_to_hf.py"
)
LLAMA3_SCALING = {
    "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192, "rope_type": "llama3",
}  # fmt: skip

# LongRoPE factors of microsoft/Phi-3-mini-128k-instruct's config.json (the same lists as
# Phi-3.5-mini-instruct's), float32 values written out as in the file.
PHI3_LONG = [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062]  # fmt: skip  # noqa: E501
PHI3_SHORT = [1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533]  # fmt: skip  # noqa: E501

# A source: (address, the fields read there). The config.json fields of a model, read by
# parse_config, give the preset (tests/features/rope/test_rope_models.py checks it).
PRESETS: dict[str, RopeModel] = {
    "llama2_7b": RopeModel(
        "Llama 2 7B", head_dim=4096 // 32, base=10000.0, original_context=4096, context=4096,
        sources=(
            (f"{HF}/meta-llama/Llama-2-7b-hf/blob/main/config.json", {
                "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0,
                "max_position_embeddings": 4096, "rope_scaling": None}),
            (CONVERT_LLAMA, {"CONTEXT_LENGTH_FOR_VERSION['2']": 4096}),
        ),
    ),
    "llama31_8b": RopeModel(
        "Llama 3.1 8B", head_dim=128, base=500000.0, original_context=8192, context=131072,
        scaling="llama3", factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
        sources=(
            (f"{HF}/meta-llama/Llama-3.1-8B/blob/main/config.json", {
                "head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
                "rope_theta": 500000.0, "max_position_embeddings": 131072,
                "rope_scaling": LLAMA3_SCALING}),
            (CONVERT_LLAMA, {"CONTEXT_LENGTH_FOR_VERSION['3.1']": 131072}),
        ),
    ),
    "mistral_7b": RopeModel(
        "Mistral 7B v0.1", head_dim=4096 // 32, base=10000.0, original_context=32768,
        context=32768,
        sources=(
            (f"{HF}/mistralai/Mistral-7B-v0.1/blob/main/config.json", {
                "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0,
                "max_position_embeddings": 32768, "sliding_window": 4096}),
        ),
    ),
    "qwen25_7b": RopeModel(
        "Qwen2.5 7B Instruct", head_dim=3584 // 28, base=1000000.0, original_context=32768,
        context=32768,
        sources=(
            (f"{HF}/Qwen/Qwen2.5-7B-Instruct/blob/main/config.json", {
                "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
                "max_position_embeddings": 32768}),
        ),
    ),
    "qwen25_7b_yarn": RopeModel(
        "Qwen2.5 7B Instruct + YaRN", head_dim=3584 // 28, base=1000000.0,
        original_context=32768, context=131072, scaling="yarn", factor=4.0,
        sources=(
            (f"{HF}/Qwen/Qwen2.5-7B-Instruct/blob/main/config.json", {
                "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
                "max_position_embeddings": 32768}),
            (f"{HF}/Qwen/Qwen2.5-7B-Instruct", {"rope_scaling": {
                "factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}}),
        ),
    ),
    "neox_20b": RopeModel(
        "GPT-NeoX 20B", head_dim=6144 // 64, base=10000.0, original_context=2048, context=2048,
        partial_rotary_factor=0.25,
        sources=(
            (f"{HF}/EleutherAI/gpt-neox-20b/blob/main/config.json", {
                "hidden_size": 6144, "num_attention_heads": 64, "rotary_pct": 0.25,
                "rotary_emb_base": 10000, "max_position_embeddings": 2048}),
        ),
    ),
    "phi2": RopeModel(
        "Phi-2", head_dim=2560 // 32, base=10000.0, original_context=2048, context=2048,
        partial_rotary_factor=0.4,
        sources=(
            (f"{HF}/microsoft/phi-2/blob/main/config.json", {
                "hidden_size": 2560, "num_attention_heads": 32, "partial_rotary_factor": 0.4,
                "rope_theta": 10000.0, "max_position_embeddings": 2048, "rope_scaling": None}),
        ),
    ),
    "phi3_mini_128k": RopeModel(
        "Phi-3 mini 128K", head_dim=3072 // 32, base=10000.0, original_context=4096,
        context=131072, scaling="longrope", factor=32.0,
        sources=(
            (f"{HF}/microsoft/Phi-3-mini-128k-instruct/blob/main/config.json", {
                "hidden_size": 3072, "num_attention_heads": 32,
                "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
                "rope_theta": 10000.0, "rope_scaling": {
                    "long_factor": PHI3_LONG, "short_factor": PHI3_SHORT, "type": "longrope"}}),
        ),
    ),
    "deepseek_v3": RopeModel(
        "DeepSeek-V3", head_dim=64, base=10000.0, original_context=4096, context=163840,
        scaling="yarn", factor=40.0,
        sources=(
            (f"{HF}/deepseek-ai/DeepSeek-V3/blob/main/config.json", {
                "hidden_size": 7168, "num_attention_heads": 128, "qk_rope_head_dim": 64,
                "qk_nope_head_dim": 128, "max_position_embeddings": 163840, "rope_theta": 10000,
                "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                                 "mscale_all_dim": 1.0,
                                 "original_max_position_embeddings": 4096, "type": "yarn"}}),
        ),
    ),
    "gpt_oss_20b": RopeModel(
        "gpt-oss-20b", head_dim=64, base=150000.0, original_context=4096, context=131072,
        scaling="yarn", factor=32.0,
        sources=(
            (f"{HF}/openai/gpt-oss-20b/blob/main/config.json", {
                "head_dim": 64, "hidden_size": 2880, "num_attention_heads": 64,
                "max_position_embeddings": 131072, "rope_theta": 150000,
                "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                                 "original_max_position_embeddings": 4096, "rope_type": "yarn",
                                 "truncate": False}}),
        ),
    ),
    "gemma3_4b": RopeModel(
        "Gemma 3 4B", head_dim=256, base=1000000.0, original_context=16384, context=131072,
        scaling="linear", factor=8.0,
        sources=(
            (f"{HF}/google/gemma-3-4b-it/blob/main/config.json", {"text_config": {
                "head_dim": 256, "hidden_size": 2560, "num_attention_heads": 8,
                "max_position_embeddings": 131072, "rope_theta": 1000000.0,
                "rope_local_base_freq": 10000.0,
                "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                "sliding_window": 1024}}),
        ),
    ),
    "qwen25_vl_7b": RopeModel(
        "Qwen2.5-VL 7B", head_dim=3584 // 28, base=1000000.0, original_context=128000,
        context=128000, mrope_section=(16, 24, 24),
        sources=(
            (f"{HF}/Qwen/Qwen2.5-VL-7B-Instruct/blob/main/config.json", {
                "hidden_size": 3584, "num_attention_heads": 28,
                "max_position_embeddings": 128000, "rope_theta": 1000000.0,
                "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}),
        ),
    ),
    "qwen3_vl_8b": RopeModel(
        "Qwen3-VL 8B", head_dim=128, base=5000000.0, original_context=262144, context=262144,
        mrope_section=(24, 20, 20), mrope_interleaved=True,
        sources=(
            (f"{HF}/Qwen/Qwen3-VL-8B-Instruct/blob/main/config.json", {"text_config": {
                "head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
                "max_position_embeddings": 262144, "rope_theta": 5000000,
                "rope_scaling": {"mrope_interleaved": True, "mrope_section": [24, 20, 20],
                                 "rope_type": "default"}}}),
        ),
    ),
}  # fmt: skip


def config_of(model: RopeModel) -> dict:
    """The config.json fields a preset cites (its sources on the Hub, merged)."""
    fields: dict = {}
    for address, values in model.sources:
        if address.startswith(HF):
            fields.update(values)
    return fields


# Each preset with the config posenc reads, as its cited fields give it.
PRESETS = {
    code: replace(model, config_json=parse_config(json.dumps(config_of(model))).config_json)
    for code, model in PRESETS.items()
}


# --- what the settings do to each pair ---------------------------------------------------


def frequencies(
    model: RopeModel, context: int | None = None
) -> tuple[np.ndarray, np.ndarray, float]:
    """``(theta, scaled, attention)``: each rotated pair's speed as pretrained
    (``base^(-2j/r)``, ``posenc.rope_frequencies``; for p-RoPE plain RoPE's over the
    whole head), and the model's ``inv_freq`` and attention factor at the current length
    ``context`` (default L, the context after scaling) from ``posenc.rope_from_config``."""
    d, b, p = model.head_dim, model.base, model.partial_rotary_factor
    if model.scaling == "proportional":
        theta, _ = posenc.rope_frequencies(d, b)
    else:
        theta, _ = posenc.rope_frequencies(d, b, partial_rotary_factor=p)
    scaled, attention = posenc.rope_from_config(model.config, context or model.context)
    return theta, scaled, attention


def longrope_factors(model: RopeModel) -> tuple[np.ndarray, np.ndarray, float]:
    """LongRoPE's ``(short, long, attention)``: the factor dividing each pair's speed up
    to L0 and past it, read back from ``posenc.rope_from_config`` as ``theta_j /
    inv_freq_j`` at L0 and at L0 + 1, and the attention factor (the same on both sides)."""
    theta, short, attention = frequencies(model, model.original_context)
    _, long, _ = frequencies(model, model.original_context + 1)
    return theta / short, theta / long, attention


# Contexts at which the dynamic-NTK chart evaluates the model: L0 / 8 .. 64 L0.
NTK_SPAN = (1 / 8, 64)
NTK_POINTS = 97


def ntk_growth(model: RopeModel, context: int) -> dict:
    """Dynamic NTK as the sequence grows: at lengths ``lengths`` (log-spaced from L0/8 to
    64 L0, with L0, L and ``context``), the base ``b'`` the model uses (read back from
    ``posenc.rope_from_config``'s second pair, ``theta'_1 = b'^(-2/r)``), the slowest
    pair's ``speed`` ``theta'_{r/2-1}`` and its wavelength ``slowest`` = ``2 pi / speed``."""
    L0 = model.original_context
    low, high = max(1, round(L0 * NTK_SPAN[0])), round(L0 * NTK_SPAN[1])
    grid = np.geomspace(low, high, NTK_POINTS).round().astype(np.int64)
    lengths = np.unique(np.concatenate([grid, [L0, model.context, context]]))
    speeds = np.array([frequencies(model, int(n))[1] for n in lengths])
    return dict(
        lengths=lengths, base=speeds[:, 1] ** (-model.rotated / 2), speed=speeds[:, -1],
        slowest=2 * np.pi / speeds[:, -1],
    )  # fmt: skip


def first_under_one_turn(theta: np.ndarray, length: int) -> int | None:
    """The first pair j that does not complete a full turn within ``length`` positions
    (``length * theta_j < 2 pi``, wavelength ``2 pi / theta_j > length``); None if all do.
    Speeds fall with j, so every later pair is under one turn too."""
    under = np.flatnonzero(length * np.asarray(theta) < 2 * np.pi)
    return int(under[0]) if under.size else None


def pair_view(model: RopeModel) -> dict:
    """Per rotated pair j: ``theta`` and ``scaled`` speeds, their wavelengths ``2 pi /
    theta`` (inf for a speed of 0), ``turns`` inside L0 (pretrained speeds) and
    ``turns_scaled`` inside L (scaled speeds), ``ratio`` = scaled / theta; and the
    ``critical`` pair (first under one turn inside L0) and ``critical_scaled`` (inside L);
    ``attention``, the factor on cos and sin (``posenc.rope_from_config``).
    """
    theta, scaled, attention = frequencies(model)
    with np.errstate(divide="ignore"):  # a pair that does not turn: wavelength inf
        wavelength, wavelength_scaled = 2 * np.pi / theta, 2 * np.pi / scaled
    L0, L = model.original_context, model.context
    return dict(
        theta=theta, scaled=scaled, wavelength=wavelength, wavelength_scaled=wavelength_scaled,
        turns=L0 * theta / (2 * np.pi), turns_scaled=L * scaled / (2 * np.pi),
        ratio=scaled / theta, critical=first_under_one_turn(theta, L0),
        critical_scaled=first_under_one_turn(scaled, L), attention=attention,
    )  # fmt: skip


def table(view: dict) -> np.ndarray:
    """The per-pair numbers as columns (for a CSV / .npy download): j, theta, scaled,
    wavelength, scaled wavelength, turns in L0, turns in L, scaled / theta."""
    keys = ("theta", "scaled", "wavelength", "wavelength_scaled", "turns", "turns_scaled", "ratio")
    return np.column_stack([np.arange(view["theta"].size), *(view[k] for k in keys)])
