"""Reference values for issue 31 §1 (RoPE from any config.json, M-RoPE, the base bound),
computed by the REAL transformers and torch code.

``rope_config_peer_values.npz`` (next to this file) was produced by this script; the
versions used are stored under ``versions_json`` (python, numpy, torch, transformers).
Only library functions and modules built from configs are used, never pretrained
weights, so nothing is downloaded. To regenerate, in a separate venv (CPU torch):

    python -m venv /tmp/peers
    /tmp/peers/bin/pip install torch==2.13.0 transformers numpy
    /tmp/peers/bin/python tests/peers/make_rope_config_peer_values.py

Every import of torch and transformers is inside :func:`main`, so pytest's doctest
collection can import this file without them. The configs below are typed in: each is
modelled on a real model's ``config.json`` (named in ``modelled_on``; only the fields
RoPE reads, values as published, from memory or a public copy where noted); the peer
VALUES are all computed by transformers / torch, never typed.

Keys (``settings_json`` maps each array key to its settings; ``configs_json`` holds the
configs, ``sequences_json`` the M-RoPE sequences):

* ``hf_inv_freq_{name}[_ctx{L}]_f32`` and ``hf_attn_{name}[_ctx{L}]`` (1-element float64):
  transformers' ``(inv_freq, attention_factor)`` for config ``name`` at sequence length
  ``L`` (no suffix: ``seq_len=None``, as at model load). Default type: the model's
  ``RotaryEmbedding.compute_default_rope_parameters``; the others
  ``ROPE_INIT_FUNCTIONS[rope_type](config, seq_len=L)``, checked against the model's
  rotary module after a forward pass over ``L`` positions (dynamic, longrope).
  Gemma 3: ``layer_type`` full or sliding, read off ``Gemma3RotaryEmbedding``.
* ``hf_softmax_mscale_{name}``: DeepSeek-V3's extra softmax-scale factor
  (``DeepseekV3Attention.scaling / qk_head_dim ** -0.5``), outside RoPE.
* ``hf_mrope_ids_{seq}`` (int64, (3, L)): ``get_rope_index`` of Qwen2-VL (or Qwen2.5-VL
  for ``*_q25`` sequences, with ``second_per_grid_ts``) on input_ids built as the
  processor builds them (text ids, ``<|vision_start|>``, ``image_pad`` / ``video_pad``
  repeated ``t h w / 4`` times, ``<|vision_end|>``) and ``mm_token_type_ids`` from
  transformers' ``ProcessorMixin.create_mm_token_type_ids``.
* ``mrope_positions_{tag}`` (int64, (3, L)) and ``hf_mrope_{cos,sin}_{model}_{tag}``
  (float64): the model's ``recomposition_frequencies`` applied to float64 cos / sin of
  ``positions * inv_freq`` (inv_freq in float64, HF's formula); ``..._f32``: the
  rotary module's own float32 forward. Models: Qwen2-VL and Qwen2.5-VL (chunked,
  [16, 24, 24]), Qwen3-VL (interleaved, [24, 20, 20]).
* ``torch_base_sums_b{b}_d{d}_L{L}``: ``B(m) = sum_i cos(m b^(-2i/d))`` for
  ``m = 0..L`` in torch float64; ``torch_base_sums_sampled_...`` at ``m`` in
  ``torch_base_offsets_sampled_...``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "rope_config_peer_values.npz"

# LongRoPE factors of Phi-3-mini-128k-instruct / Phi-3.5-mini-instruct config.json, as
# quoted in a public evaluation script (float32 values written out as in the file).
PHI3_LONG = [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062]  # fmt: skip  # noqa: E501
PHI3_SHORT = [1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533]  # fmt: skip  # noqa: E501

LLAMA = {"hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 32}
DEEPSEEK = {"qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128,
            "hidden_size": 7168, "num_attention_heads": 128}  # fmt: skip

# name -> (modelled_on, config dict, contexts: None = seq_len None)
CONFIGS: dict[str, tuple[str, dict, list]] = {
    "llama2_7b": (
        "meta-llama/Llama-2-7b-hf (default RoPE)",
        {"model_type": "llama", **LLAMA, "max_position_embeddings": 4096,
         "rope_theta": 10000.0, "rope_scaling": None},
        [None],
    ),
    "llama31_8b": (
        "meta-llama/Llama-3.1-8B (llama3)",
        {"model_type": "llama", **LLAMA, "num_key_value_heads": 8,
         "max_position_embeddings": 131072, "rope_theta": 500000.0,
         "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                          "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
        [None],
    ),
    "phi3_mini_128k": (
        "microsoft/Phi-3-mini-128k-instruct (longrope, factors as Phi-3.5-mini-instruct)",
        {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
         "num_key_value_heads": 32, "max_position_embeddings": 131072,
         "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
         "rope_scaling": {"long_factor": PHI3_LONG, "short_factor": PHI3_SHORT,
                          "type": "longrope"}},
        [None, 2048, 4096, 4097, 131072],
    ),
    "deepseek_v3": (
        "deepseek-ai/DeepSeek-V3 (yarn, mscale = mscale_all_dim = 1)",
        {"model_type": "deepseek_v3", **DEEPSEEK, "max_position_embeddings": 163840,
         "rope_theta": 10000,
         "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                          "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                          "type": "yarn"}},
        [None],
    ),
    "kimi_k2": (
        "moonshotai/Kimi-K2-Instruct (DeepSeek-V3 layout, yarn with beta_fast = beta_slow = 1)",
        {"model_type": "deepseek_v3", **DEEPSEEK, "num_attention_heads": 64,
         "max_position_embeddings": 131072, "rope_theta": 50000.0,
         "rope_scaling": {"beta_fast": 1.0, "beta_slow": 1.0, "factor": 32.0, "mscale": 1.0,
                          "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                          "type": "yarn"}},
        [None],
    ),
    "deepseek_v3_mscale_ratio": (
        "synthetic: DeepSeek-V3 with mscale 1.0 over mscale_all_dim 0.707 (a ratio != 1)",
        {"model_type": "deepseek_v3", **DEEPSEEK, "max_position_embeddings": 163840,
         "rope_theta": 10000,
         "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                          "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096,
                          "type": "yarn"}},
        [None],
    ),
    "gpt_oss_20b": (
        "openai/gpt-oss-20b (yarn, truncate false)",
        {"model_type": "gpt_oss", "hidden_size": 2880, "num_attention_heads": 64,
         "num_key_value_heads": 8, "head_dim": 64, "max_position_embeddings": 131072,
         "rope_theta": 150000,
         "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                          "original_max_position_embeddings": 4096, "rope_type": "yarn",
                          "truncate": False}},
        [None],
    ),
    "qwen25_7b_yarn": (
        "Qwen/Qwen2.5-7B-Instruct with the model card's YaRN block for 128K",
        {"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
         "num_key_value_heads": 4, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
         "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768,
                          "type": "yarn"}},
        [None],
    ),
    "llama2_dynamic": (
        "meta-llama/Llama-2-7b-hf with dynamic NTK factor 2 (transformers' dynamic example)",
        {"model_type": "llama", **LLAMA, "max_position_embeddings": 4096,
         "rope_theta": 10000.0, "rope_scaling": {"type": "dynamic", "factor": 2.0}},
        [None, 2048, 4096, 4097, 6000, 8192, 16384],
    ),
    "gemma3_4b": (
        "google/gemma-3-4b-it text_config (global layers linear x8, local layers base 1e4)",
        {"model_type": "gemma3_text", "hidden_size": 2560, "num_attention_heads": 8,
         "num_key_value_heads": 4, "head_dim": 256, "max_position_embeddings": 131072,
         "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
         "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
        [None],
    ),
    "gemma4_global": (
        "transformers' Gemma4TextConfig defaults for full-attention layers (proportional)",
        {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 8, "head_dim": 512,
         "max_position_embeddings": 131072,
         "rope_parameters": {"rope_type": "proportional", "partial_rotary_factor": 0.25,
                             "rope_theta": 1000000.0}},
        [None],
    ),
    "phi2": (
        "microsoft/phi-2 (default RoPE on 32 of 80 dimensions)",
        {"model_type": "phi", "hidden_size": 2560, "num_attention_heads": 32,
         "max_position_embeddings": 2048, "partial_rotary_factor": 0.4, "rope_theta": 10000.0},
        [None],
    ),
    "qwen2_vl_7b": (
        "Qwen/Qwen2-VL-7B-Instruct (mrope [16, 24, 24], default frequencies)",
        {"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
         "num_key_value_heads": 4, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
         "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}},
        [None],
    ),
    "qwen3_vl_8b": (
        "Qwen/Qwen3-VL-8B-Instruct (text_config; interleaved mrope [24, 20, 20])",
        {"model_type": "qwen3_vl",
         "text_config": {"model_type": "qwen3_vl_text", "hidden_size": 4096,
                         "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
                         "max_position_embeddings": 262144, "rope_theta": 5000000,
                         "rope_scaling": {"mrope_interleaved": True, "mrope_section": [24, 20, 20],
                                          "rope_type": "default"}}},
        [None],
    ),
}  # fmt: skip

# Qwen2-VL token ids (tokenizer of Qwen/Qwen2-VL-7B-Instruct).
VISION_START, VISION_END, IMAGE_PAD, VIDEO_PAD = 151652, 151653, 151655, 151656
# M-RoPE sequences: posenc segments; an image or video is written to input_ids as
# <|vision_start|> pads <|vision_end|>, and those two tokens count as text.
SEQUENCES: dict[str, list] = {
    "text_image_text": [("text", 5), ("image", (1, 8, 12)), ("text", 4)],
    "two_images": [("text", 3), ("image", (1, 4, 4)), ("text", 2), ("image", (1, 6, 2)),
                   ("text", 3)],
    "video_many_frames": [("text", 2), ("video", (6, 2, 4)), ("text", 3)],
    "image_video_image": [("text", 4), ("image", (1, 10, 6)), ("text", 2),
                          ("video", (3, 4, 8)), ("text", 2), ("image", (1, 2, 2)),
                          ("text", 1)],
    "video_q25": [("text", 3), ("video", (4, 4, 6), 2.0), ("text", 2), ("image", (1, 4, 4)),
                  ("text", 2)],
    "video_q25_half": [("text", 2), ("video", (5, 2, 2), 0.5), ("text", 3),
                       ("video", (2, 6, 4), 1.5), ("text", 1)],
}  # fmt: skip

BASE_SUMS = [(10000.0, 128, 8192), (500000.0, 128, 16384), (14865.222645413896, 16, 300)]
BASE_SAMPLED = [(5.0e8, 128, 1 << 20, 997)]


def expand(segments) -> list[tuple[str, object]]:
    """Segments with each image / video wrapped in its vision-start / vision-end text."""
    out = []
    for seg in segments:
        if seg[0] == "text":
            out.append(seg)
        else:
            out += [("text", 1), seg, ("text", 1)]
    merged = []
    for seg in out:
        if merged and seg[0] == "text" and merged[-1][0] == "text":
            merged[-1] = ("text", merged[-1][1] + seg[1])
        else:
            merged.append(seg)
    return merged


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import importlib.metadata as md
    import types

    import numpy as np
    import torch
    import transformers
    from transformers import AutoConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3Attention
    from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    from transformers.models.phi.modeling_phi import PhiRotaryEmbedding
    from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding
    from transformers.models.qwen2_5_vl import modeling_qwen2_5_vl as q25
    from transformers.models.qwen2_vl import modeling_qwen2_vl as q2
    from transformers.models.qwen3_vl import modeling_qwen3_vl as q3
    from transformers.processing_utils import ProcessorMixin

    arrays: dict[str, np.ndarray] = {}
    settings: dict[str, dict] = {}

    def put(key: str, value, **setting) -> None:
        if isinstance(value, torch.Tensor):
            value = value.detach().cpu().numpy()
        value = np.asarray(value)
        assert key not in arrays, key
        assert (value.dtype == np.float32) == key.endswith("_f32"), (key, value.dtype)
        arrays[key] = value
        settings[key] = setting

    rotary_classes = {"llama": LlamaRotaryEmbedding, "phi3": Phi3RotaryEmbedding,
                      "phi": PhiRotaryEmbedding, "qwen2_vl": q2.Qwen2VLRotaryEmbedding}  # fmt: skip

    # ------------------------------------------------------------ rope_from_config
    for name, (_modelled_on, config_dict, contexts) in CONFIGS.items():
        raw = json.loads(json.dumps(config_dict))
        if "text_config" in raw:
            raw = raw["text_config"]
        raw = dict(raw)
        model_type = raw.pop("model_type")
        config = AutoConfig.for_model(model_type, **raw)
        if model_type == "qwen2_vl":
            config = config.text_config
        for context in contexts:
            suffix = "" if context is None else f"_ctx{context}"
            if model_type == "gemma3_text":
                module = Gemma3RotaryEmbedding(config)
                for layer in ("full_attention", "sliding_attention"):
                    tag = f"{name}_{layer}{suffix}"
                    put(f"hf_inv_freq_{tag}_f32", getattr(module, f"{layer}_inv_freq"),
                        config=name, layer_type=layer, context=context,
                        source="Gemma3RotaryEmbedding")  # fmt: skip
                    put(
                        f"hf_attn_{tag}",
                        [getattr(module, f"{layer}_attention_scaling")],
                        config=name,
                        layer_type=layer,
                        context=context,
                    )
                continue
            rope_type = config.rope_parameters["rope_type"]
            if rope_type == "default":
                cls = rotary_classes.get(model_type, LlamaRotaryEmbedding)
                inv, attention = cls.compute_default_rope_parameters(config)
                source = f"{cls.__name__}.compute_default_rope_parameters"
            else:
                inv, attention = ROPE_INIT_FUNCTIONS[rope_type](config, seq_len=context)
                source = f'ROPE_INIT_FUNCTIONS["{rope_type}"](config, seq_len={context})'
            if rope_type in ("dynamic", "longrope") and context is not None:
                cls = rotary_classes[model_type]
                module = cls(config)
                x = torch.zeros(1, 1, dtype=torch.float32)
                module(x, torch.arange(context)[None])
                assert torch.equal(module.inv_freq, inv), (name, context)
                assert module.attention_scaling == attention, (name, context)
                source += f"; equal to {cls.__name__} after a forward over {context} positions"
            put(f"hf_inv_freq_{name}{suffix}_f32", inv, config=name, context=context,
                rope_type=rope_type, source=source)  # fmt: skip
            put(f"hf_attn_{name}{suffix}", [float(attention)], config=name, context=context)
        if model_type == "deepseek_v3":
            config._attn_implementation = "eager"
            attention_module = DeepseekV3Attention(config, layer_idx=0)
            put(f"hf_softmax_mscale_{name}",
                [attention_module.scaling / config.qk_head_dim ** -0.5], config=name,
                source="DeepseekV3Attention.scaling / qk_head_dim ** -0.5")  # fmt: skip

    # ------------------------------------------------------------ mrope_position_ids
    def tiny_vl(module, config_cls):
        config = config_cls(
            text_config={"hidden_size": 32, "num_attention_heads": 2, "num_key_value_heads": 1,
                         "intermediate_size": 32, "num_hidden_layers": 1, "vocab_size": 152064},
            vision_config={"depth": 1, "hidden_size": 32, "num_heads": 2, "embed_dim": 32,
                           "intermediate_size": 32, "out_hidden_size": 32,
                           "spatial_merge_size": 2, "tokens_per_second": 2},
            image_token_id=IMAGE_PAD, video_token_id=VIDEO_PAD,
            vision_start_token_id=VISION_START, vision_end_token_id=VISION_END,
        )  # fmt: skip
        return module(config)

    models = {"q2": tiny_vl(q2.Qwen2VLModel, transformers.Qwen2VLConfig),
              "q25": tiny_vl(q25.Qwen2_5_VLModel, transformers.Qwen2_5_VLConfig)}  # fmt: skip
    processor = types.SimpleNamespace(image_token_ids=[IMAGE_PAD], video_token_ids=[VIDEO_PAD],
                                      audio_token_ids=[None])  # fmt: skip
    for seq_name, segments in SEQUENCES.items():
        ids, images, videos, seconds = [], [], [], []
        text_id = 1000
        for seg in segments:
            if seg[0] == "text":
                ids += list(range(text_id, text_id + seg[1]))
                text_id += seg[1]
                continue
            t, h, w = seg[1]
            pad = IMAGE_PAD if seg[0] == "image" else VIDEO_PAD
            ids += [VISION_START] + [pad] * (t * h * w // 4) + [VISION_END]
            (images if seg[0] == "image" else videos).append([t, h, w])
            if seg[0] == "video":
                seconds.append(seg[2] / 2 if len(seg) == 3 else 0.5)  # tokens_per_second = 2
        input_ids = torch.tensor([ids])
        types_ = torch.tensor(ProcessorMixin.create_mm_token_type_ids(processor, [ids]))
        kwargs = {"image_grid_thw": torch.tensor(images) if images else None,
                  "video_grid_thw": torch.tensor(videos) if videos else None}  # fmt: skip
        which = "q25" if seq_name.endswith("_q25") or "_q25_" in seq_name else "q2"
        if which == "q25":
            kwargs["second_per_grid_ts"] = torch.tensor(seconds)
        with torch.no_grad():
            positions, _ = models[which].get_rope_index(input_ids, types_, **kwargs)
        put(f"hf_mrope_ids_{seq_name}", positions[:, 0].to(torch.int64), sequence=seq_name,
            model="Qwen2_5_VLModel" if which == "q25" else "Qwen2VLModel",
            source="get_rope_index")  # fmt: skip

    # ------------------------------------------------------------ mrope_cos_sin
    base_ids = arrays["hf_mrope_ids_image_video_image"]
    position_sets = {"small": base_ids, "at10000": base_ids + 10000}
    vl_models = {
        "qwen2_vl": (q2.Qwen2VLRotaryEmbedding, transformers.Qwen2VLTextConfig,
                     [16, 24, 24], False),
        "qwen25_vl": (q25.Qwen2_5_VLRotaryEmbedding, transformers.Qwen2_5_VLTextConfig,
                      [16, 24, 24], False),
        "qwen3_vl": (q3.Qwen3VLTextRotaryEmbedding, transformers.Qwen3VLTextConfig,
                     [24, 20, 20], True),
    }  # fmt: skip
    for tag, positions in position_sets.items():
        put(f"mrope_positions_{tag}", positions.astype(np.int64), tag=tag)
    for model, (cls, config_cls, section, interleaved) in vl_models.items():
        theta = 1000000.0 if model != "qwen3_vl" else 5000000.0
        scaling = {"rope_type": "default", "mrope_section": section}
        if interleaved:
            scaling["mrope_interleaved"] = True
        config = config_cls(hidden_size=4096, num_attention_heads=32, head_dim=128,
                            rope_theta=theta, rope_scaling=scaling)  # fmt: skip
        module = cls(config)
        assert list(module.mrope_section) == section
        dim = 128
        inv64 = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
        for tag, positions in position_sets.items():
            pos = torch.from_numpy(positions)[:, None, :]  # (3, 1, L)
            freqs = pos[..., None].double() * inv64
            cos64 = module.recomposition_frequencies(freqs.cos())[0]
            sin64 = module.recomposition_frequencies(freqs.sin())[0]
            common = {
                "model": model,
                "positions": f"mrope_positions_{tag}",
                "theta": theta,
                "head_dim": dim,
                "mrope_section": section,
                "interleaved": interleaved,
            }
            put(
                f"hf_mrope_cos_{model}_{tag}",
                cos64,
                **common,
                source=f"{cls.__name__}.recomposition_frequencies on float64 cos",
            )
            put(
                f"hf_mrope_sin_{model}_{tag}",
                sin64,
                **common,
                source=f"{cls.__name__}.recomposition_frequencies on float64 sin",
            )
            x = torch.zeros(1, dtype=torch.float32)
            cos32, sin32 = module(x, pos)
            put(
                f"hf_mrope_cos_{model}_{tag}_f32",
                cos32[0],
                **common,
                source=f"{cls.__name__}.forward (float32)",
            )
            put(
                f"hf_mrope_sin_{model}_{tag}_f32",
                sin32[0],
                **common,
                source=f"{cls.__name__}.forward (float32)",
            )

    # ------------------------------------------------------------ rope_base_sums
    def base_sums(base, dim, offsets):
        theta = base ** (-torch.arange(0, dim, 2, dtype=torch.float64) / dim)
        return torch.cos(offsets[:, None].double() * theta).sum(dim=1)

    for base, dim, length in BASE_SUMS:
        put(f"torch_base_sums_b{base:g}_d{dim}_L{length}",
            base_sums(base, dim, torch.arange(length + 1)), base=base, head_dim=dim,
            context=length, source="torch float64 cos sum")  # fmt: skip
    for base, dim, length, step in BASE_SAMPLED:
        tag = f"b{base:g}_d{dim}_L{length}"
        offsets = torch.arange(0, length + 1, step)
        put(f"torch_base_offsets_sampled_{tag}", offsets.numpy().astype(np.int64), base=base)
        put(
            f"torch_base_sums_sampled_{tag}",
            base_sums(base, dim, offsets),
            base=base,
            head_dim=dim,
            context=length,
            offsets=f"torch_base_offsets_sampled_{tag}",
        )

    versions = {
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "transformers_dist": md.version("transformers"),
    }
    configs = {n: {"modelled_on": m, "config": c, "contexts": ctx}
               for n, (m, c, ctx) in CONFIGS.items()}  # fmt: skip
    np.savez_compressed(
        OUT,
        settings_json=np.array(json.dumps(settings)),
        configs_json=np.array(json.dumps(configs)),
        sequences_json=np.array(
            json.dumps(
                {n: {"segments": s, "posenc_segments": expand(s)} for n, s in SEQUENCES.items()}
            )
        ),
        versions_json=np.array(json.dumps(versions)),
        **arrays,
    )
    print(f"wrote {len(arrays)} arrays to {OUT} with {versions}")


if __name__ == "__main__":
    main()
