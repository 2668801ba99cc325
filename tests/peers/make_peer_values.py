"""Reference values computed by the REAL peer implementations of positional encodings.

The values in ``peer_values.npz`` (next to this file) were produced by this script with

    python 3.11.7, numpy 2.4.6,
    torch 2.13.0+cpu, transformers 5.23.0, rotary-embedding-torch 0.9.1 (einops 0.8.2)

so that the numpy package ``posenc`` can be tested against them without any of
these peers installed at test time.  Nothing is downloaded from a model hub:
only library *functions* are used, never pretrained weights.

To regenerate (CPU-only torch; from the repo root):

    pip install torch==2.13.0 transformers==5.23.0 rotary-embedding-torch==0.9.1
    python tests/peers/make_peer_values.py

Every array key is described in the JSON string stored under ``settings_json``
(a 0-d str array): ``json.loads(str(npz["settings_json"]))`` maps
key -> dict of settings (source, dtype, layout, L, d, head_dim, base, factor,
original_context, context, scaling, ...), so tests can loop over them.

``versions_json`` (0-d str) records the package versions and the cross-check
numbers printed by the script.

Dtype convention: arrays are float64 unless the peer natively computes in
float32; then the array is stored exactly as the peer produced it, as float32,
and the key name says ``f32`` (``torch_pe_f32_...``, ``..._f32`` suffix).

Keys
----
Sinusoidal absolute encodings (rows = positions 0..L-1, columns = d channels):

* ``torch_pe_f32_L{L}_d{d}`` for (L, d) in (50, 128), (100, 512), (4, 4), base 10000:
  the PyTorch-tutorial / "The Annotated Transformer" ``PositionalEncoding``
  buffer, code verbatim (float32 as torch does; interleaved sin/cos layout).
* ``torch_pe_f64_L{L}_d{d}``: the same code with dtype=torch.float64 on the
  zeros/aranges.
* ``torch_pe_f32_at8192_d512``: row [8191] of the float32 buffer with
  max_len=8192, d_model=512.  ``torch_pe_f32_at100000_d64``: row [99999] of the
  float32 buffer with max_len=100000, d_model=64.  They document the float32
  drift of that torch code at large positions (compare with the exact formula).
* ``tutorial_pe_L4_d4_n100``: the numpy loop ``getPositionEncoding(seq_len=4,
  d=4, n=100)`` of the classic tutorial (interleaved, base n=100), float64.
* ``tf_pe_L50_d128``: TensorFlow transformer tutorial ``positional_encoding(
  length=50, depth=128)`` (numpy part, before its final tf.cast to float32):
  SPLIT layout [sin | cos], exponent i/(depth/2) for i in 0..depth/2-1.
* ``tf_old_pe_L50_d128``: older TF tutorial ``get_angles`` version
  (interleaved, exponent 2*(i//2)/d_model), float64 as numpy computes it.
* ``t2t_pe_L50_d128``: tensor2tensor ``get_timing_signal_1d(50, 128,
  min_timescale=1, max_timescale=1e4)`` formula in numpy float64: SPLIT layout,
  exponent i/(d/2 - 1)  (NOT i/(d/2): the last channel pair has timescale 1e4).
* ``fairseq_pe_f32_L50_d128``: fairseq ``SinusoidalPositionalEmbedding.
  get_embedding(50, 128, padding_idx=None)`` as shipped (verbatim port) in
  transformers' FSMT model (fairseq itself is not pip-installable quickly:
  sdist with C extensions); float32.  Same formula as t2t.  Note: get_embedding
  starts at position 0; the fairseq *module* uses positions padding_idx+1, ...
* ``fairseq_pe_L50_d128``: fairseq's get_embedding code verbatim in torch but
  with dtype=torch.float64.

Hugging Face transformers RoPE inverse frequencies (length head_dim/2, split
layout, angle = position * inv_freq); transformers computes them in float32:

* ``hf_inv_freq_default_hd{hd}_b{base}_f32`` (LlamaRotaryEmbedding.
  compute_default_rope_parameters; in transformers 5.x "default" is no longer in
  ROPE_INIT_FUNCTIONS).
* ``hf_inv_freq_linear_hd{hd}_b{base}_x{factor}_f32`` (ROPE_INIT_FUNCTIONS["linear"]).
* ``hf_inv_freq_dynamic_hd{hd}_b{base}_x{factor}_ctx2048_seq{S}_f32``
  (ROPE_INIT_FUNCTIONS["dynamic"](config, seq_len=S), max_position_embeddings=2048).
* ``hf_inv_freq_yarn_hd{hd}_b{base}_x{factor}_orig{O}_f32`` and
  ``hf_attn_yarn_hd{hd}_b{base}_x{factor}_orig{O}`` (1-element float64: the
  attention factor = 0.1*ln(factor)+1), ROPE_INIT_FUNCTIONS["yarn"] default case:
  beta_fast=32, beta_slow=1, truncate=True, no mscale/mscale_all_dim/
  attention_factor; max_position_embeddings = factor*O.
  for hd in (64, 128), base in (10000, 500000), factor in (4, 8), O in (2048, 4096).
* ``hf_inv_freq_yarn_hd64_b{2,5}_x4_orig4096_f32``: YaRN at a tiny base, where the
  clamped ramp turns over (base 2: every pair theta/4) or not (base 5: every pair kept).
* ``hf_inv_freq_llama3_hd{hd}_b{base}_x{factor}_orig{O}_lo{low}_hi{high}_f32``
  (ROPE_INIT_FUNCTIONS["llama3"], attention factor 1), for hd in (64, 128), base in
  (10000, 500000), factor in (4, 8), O in (2048, 8192), (low, high) in ((1, 4), (2, 8)).

Rotary application (n=16 positions 0..15, head_dim 64, base 10000):

* ``rope_q``, ``rope_k``: inputs, shape (16, 64), float64,
  ``np.random.default_rng(0)``: q = rng.standard_normal((16, 64)), then k likewise.
* ``hf_rope_q_split``, ``hf_rope_k_split``: transformers'
  ``models.llama.modeling_llama.apply_rotary_pos_emb`` (rotate_half, split /
  GPT-NeoX layout) with cos/sin built as LlamaRotaryEmbedding.forward does
  (emb = cat(freqs, freqs)) but everything in float64 (inv_freq computed in
  float64 with HF's formula).
* ``hf_rope_q_split_f32``, ``hf_rope_k_split_f32``: transformers' own
  LlamaRotaryEmbedding module (float32) + apply_rotary_pos_emb on float32 q, k.
* ``ret_rope_q_interleaved``, ``ret_rope_k_interleaved``: rotary-embedding-torch
  ``RotaryEmbedding(dim=64, custom_freqs=<float64 inv_freq>).double()
  .rotate_queries_or_keys`` on float64 (1, 16, 64) inputs (interleaved layout).
  Its own default frequency computation is float32, hence custom_freqs with the
  float64 values of the same formula 1/10000**(arange(0,64,2)/64).
* ``ret_rope_q_interleaved_f32``, ``ret_rope_k_interleaved_f32``: plain
  ``RotaryEmbedding(dim=64).rotate_queries_or_keys`` on float32 inputs (its
  native float32 path).
* ``meta_rope_q_interleaved``, ``meta_rope_k_interleaved``: Meta LLaMA's
  ``precompute_freqs_cis`` + ``apply_rotary_emb`` (complex multiplication via
  torch.view_as_complex on pairs) reproduced with float64/complex128.

Checked when run: meta == rotary-embedding-torch (float64), and HF split applied
to de-interleaved inputs (q[..., 0::2] ++ q[..., 1::2]) then re-interleaved
equals the interleaved result.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

# never touch a hub (kernels, weights, configs)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("USE_HUB_KERNELS", "0")

import importlib.metadata as md

import numpy as np
import torch

OUT = Path(__file__).with_name("peer_values.npz")

values: dict[str, np.ndarray] = {}
settings: dict[str, dict] = {}


def put(key: str, arr, **s) -> None:
    if isinstance(arr, torch.Tensor):
        arr = arr.detach().cpu().numpy()
    arr = np.asarray(arr)
    assert arr.dtype in (np.float32, np.float64), (key, arr.dtype)
    assert key not in values, key
    if arr.dtype == np.float32:
        assert "f32" in key, key
    values[key] = arr
    s.setdefault("dtype", str(arr.dtype))
    settings[key] = s


# --------------------------------------------------------------------------
# 1. Sinusoidal absolute encodings
# --------------------------------------------------------------------------
def annotated_transformer_pe(max_len: int, d_model: int, dtype=None) -> torch.Tensor:
    """Code of the PyTorch tutorial / The Annotated Transformer ``PositionalEncoding``.

    dtype=None reproduces it verbatim (float32); dtype=torch.float64 sets the
    dtype on the zeros/aranges."""
    if dtype is None:
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    else:
        pe = torch.zeros(max_len, d_model, dtype=dtype)
        position = torch.arange(0, max_len, dtype=dtype).unsqueeze(1)
        div_term = torch.exp(
            torch.arange(0, d_model, 2, dtype=dtype) * -(math.log(10000.0) / d_model)
        )
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


for L, d in [(50, 128), (100, 512), (4, 4)]:
    common = dict(
        source="torch: Annotated Transformer PositionalEncoding",
        layout="interleaved",
        L=L,
        d=d,
        base=10000.0,
        positions="0..L-1",
    )
    pe32 = annotated_transformer_pe(L, d)
    assert pe32.dtype == torch.float32
    put(f"torch_pe_f32_L{L}_d{d}", pe32, **common)
    pe64 = annotated_transformer_pe(L, d, dtype=torch.float64)
    put(f"torch_pe_f64_L{L}_d{d}", pe64, **common)


def exact_interleaved_row(pos: int, d: int, base: float = 10000.0) -> np.ndarray:
    i = np.arange(d // 2, dtype=np.float64)
    ang = pos / base ** (2 * i / d)
    row = np.empty(d)
    row[0::2] = np.sin(ang)
    row[1::2] = np.cos(ang)
    return row


drift = {}
for max_len, d in [(8192, 512), (100000, 64)]:
    row = annotated_transformer_pe(max_len, d)[max_len - 1].clone()
    key = f"torch_pe_f32_at{max_len}_d{d}"
    err = float(
        np.abs(row.numpy().astype(np.float64) - exact_interleaved_row(max_len - 1, d)).max()
    )
    drift[key] = err
    put(
        key,
        row,
        source="torch: Annotated Transformer PositionalEncoding, one row of the float32 buffer",
        layout="interleaved",
        d=d,
        base=10000.0,
        max_len=max_len,
        position=max_len - 1,
        max_abs_err_vs_float64_formula=err,
    )


def getPositionEncoding(seq_len, d, n=10000):
    P = np.zeros((seq_len, d))
    for k in range(seq_len):
        for i in np.arange(int(d / 2)):
            denominator = np.power(n, 2 * i / d)
            P[k, 2 * i] = np.sin(k / denominator)
            P[k, 2 * i + 1] = np.cos(k / denominator)
    return P


put(
    "tutorial_pe_L4_d4_n100",
    getPositionEncoding(seq_len=4, d=4, n=100),
    source="numpy tutorial getPositionEncoding loop",
    layout="interleaved",
    L=4,
    d=4,
    base=100.0,
)


def tf_positional_encoding(length, depth):
    """TensorFlow 'Transformer' tutorial (numpy part; it ends with tf.cast(..., tf.float32))."""
    depth = depth / 2
    positions = np.arange(length)[:, np.newaxis]  # (seq, 1)
    depths = np.arange(depth)[np.newaxis, :] / depth  # (1, depth)
    angle_rates = 1 / (10000**depths)  # (1, depth)
    angle_rads = positions * angle_rates  # (pos, depth)
    pos_encoding = np.concatenate([np.sin(angle_rads), np.cos(angle_rads)], axis=-1)
    return pos_encoding


put(
    "tf_pe_L50_d128",
    tf_positional_encoding(50, 128),
    source="TF transformer tutorial positional_encoding (numpy, before tf.cast to float32)",
    layout="split",
    L=50,
    d=128,
    base=10000.0,
    exponent="i/(d/2)",
)


def get_angles(pos, i, d_model):
    angle_rates = 1 / np.power(10000, (2 * (i // 2)) / np.float32(d_model))
    return pos * angle_rates


def tf_old_positional_encoding(position, d_model):
    angle_rads = get_angles(
        np.arange(position)[:, np.newaxis], np.arange(d_model)[np.newaxis, :], d_model
    )
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])
    return angle_rads


put(
    "tf_old_pe_L50_d128",
    tf_old_positional_encoding(50, 128),
    source="older TF tutorial get_angles/positional_encoding (numpy, before tf.cast)",
    layout="interleaved",
    L=50,
    d=128,
    base=10000.0,
    exponent="2*(i//2)/d",
)


def t2t_get_timing_signal_1d(
    length, channels, min_timescale=1.0, max_timescale=1.0e4, start_index=0
):
    """tensor2tensor common_attention.get_timing_signal_1d, numpy float64 transcription."""
    position = np.arange(length, dtype=np.float64) + start_index
    num_timescales = channels // 2
    log_timescale_increment = math.log(float(max_timescale) / float(min_timescale)) / max(
        num_timescales - 1, 1
    )
    inv_timescales = min_timescale * np.exp(
        np.arange(num_timescales, dtype=np.float64) * -log_timescale_increment
    )
    scaled_time = position[:, None] * inv_timescales[None, :]
    signal = np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
    signal = np.pad(signal, [[0, 0], [0, channels % 2]])
    return signal


put(
    "t2t_pe_L50_d128",
    t2t_get_timing_signal_1d(50, 128),
    source="tensor2tensor get_timing_signal_1d (numpy float64)",
    layout="split",
    L=50,
    d=128,
    base=10000.0,
    exponent="i/(d/2-1)",
    min_timescale=1.0,
    max_timescale=1.0e4,
)

from transformers.models.fsmt.modeling_fsmt import SinusoidalPositionalEmbedding as FSMTSinusoidal

fs32 = FSMTSinusoidal.get_embedding(50, 128, None)
assert fs32.dtype == torch.float32
put(
    "fairseq_pe_f32_L50_d128",
    fs32,
    source="fairseq SinusoidalPositionalEmbedding.get_embedding (verbatim port in transformers FSMT)",
    layout="split",
    L=50,
    d=128,
    base=10000.0,
    exponent="i/(d/2-1)",
    padding_idx=None,
)


def fairseq_get_embedding_f64(num_embeddings, embedding_dim, padding_idx=None):
    """fairseq get_embedding verbatim, dtype=torch.float -> torch.float64."""
    half_dim = embedding_dim // 2
    emb = math.log(10000) / (half_dim - 1)
    emb = torch.exp(torch.arange(half_dim, dtype=torch.float64) * -emb)
    emb = torch.arange(num_embeddings, dtype=torch.float64).unsqueeze(1) * emb.unsqueeze(0)
    emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1).view(num_embeddings, -1)
    if embedding_dim % 2 == 1:
        emb = torch.cat([emb, torch.zeros(num_embeddings, 1, dtype=torch.float64)], dim=1)
    if padding_idx is not None:
        emb[padding_idx, :] = 0
    return emb


put(
    "fairseq_pe_L50_d128",
    fairseq_get_embedding_f64(50, 128),
    source="fairseq get_embedding code in torch float64",
    layout="split",
    L=50,
    d=128,
    base=10000.0,
    exponent="i/(d/2-1)",
    padding_idx=None,
)

# --------------------------------------------------------------------------
# 2. Hugging Face RoPE inverse frequencies
# --------------------------------------------------------------------------
import transformers
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.llama.modeling_llama import (
    LlamaRotaryEmbedding,
    apply_rotary_pos_emb,
)

N_HEADS = 4


def llama_config(head_dim, base, max_pos, rope_parameters):
    rp = {"rope_theta": float(base), **rope_parameters}
    return LlamaConfig(
        hidden_size=head_dim * N_HEADS,
        num_attention_heads=N_HEADS,
        head_dim=head_dim,
        num_hidden_layers=1,
        intermediate_size=8,
        vocab_size=8,
        max_position_embeddings=max_pos,
        rope_parameters=rp,
    )


def base_tag(b):
    return str(int(b))


hf_src = "transformers.modeling_rope_utils"
for hd in (64, 128):
    for base in (10000, 500000):
        bt = base_tag(base)
        cfg = llama_config(hd, base, 2048, {"rope_type": "default"})
        inv, att = LlamaRotaryEmbedding.compute_default_rope_parameters(cfg)
        assert att == 1.0
        put(
            f"hf_inv_freq_default_hd{hd}_b{bt}_f32",
            inv,
            source="LlamaRotaryEmbedding.compute_default_rope_parameters",
            scaling="default",
            head_dim=hd,
            base=float(base),
            factor=1.0,
            original_context=None,
            context=2048,
        )
        # sanity: the module uses the same
        assert torch.equal(LlamaRotaryEmbedding(cfg).inv_freq, inv)

        for factor in (4, 8):
            cfg = llama_config(
                hd, base, 2048 * factor, {"rope_type": "linear", "factor": float(factor)}
            )
            inv, att = ROPE_INIT_FUNCTIONS["linear"](cfg, "cpu")
            assert att == 1.0
            put(
                f"hf_inv_freq_linear_hd{hd}_b{bt}_x{factor}_f32",
                inv,
                source=hf_src + ' ROPE_INIT_FUNCTIONS["linear"]',
                scaling="linear",
                head_dim=hd,
                base=float(base),
                factor=float(factor),
                original_context=2048,
                context=2048 * factor,
                attention_factor=att,
            )

            for S in (8192, 16384):
                cfg = llama_config(
                    hd, base, 2048, {"rope_type": "dynamic", "factor": float(factor)}
                )
                inv, att = ROPE_INIT_FUNCTIONS["dynamic"](cfg, "cpu", seq_len=S)
                assert att == 1.0
                put(
                    f"hf_inv_freq_dynamic_hd{hd}_b{bt}_x{factor}_ctx2048_seq{S}_f32",
                    inv,
                    source=hf_src + ' ROPE_INIT_FUNCTIONS["dynamic"](config, seq_len=S)',
                    scaling="dynamic",
                    head_dim=hd,
                    base=float(base),
                    factor=float(factor),
                    original_context=2048,
                    context=S,
                    seq_len=S,
                    max_position_embeddings=2048,
                    formula="base' = base*((factor*S/2048)-(factor-1))**(hd/(hd-2))",
                )

            for orig in (2048, 4096):
                cfg = llama_config(
                    hd,
                    base,
                    orig * factor,
                    {
                        "rope_type": "yarn",
                        "factor": float(factor),
                        "original_max_position_embeddings": orig,
                    },
                )
                inv, att = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
                ys = dict(
                    source=hf_src + ' ROPE_INIT_FUNCTIONS["yarn"]',
                    scaling="yarn",
                    head_dim=hd,
                    base=float(base),
                    factor=float(factor),
                    original_context=orig,
                    context=orig * factor,
                    beta_fast=32,
                    beta_slow=1,
                    truncate=True,
                    mscale=None,
                    mscale_all_dim=None,
                )
                put(f"hf_inv_freq_yarn_hd{hd}_b{bt}_x{factor}_orig{orig}_f32", inv, **ys)
                put(
                    f"hf_attn_yarn_hd{hd}_b{bt}_x{factor}_orig{orig}",
                    np.array([att], dtype=np.float64),
                    **{**ys, "what": "attention_factor (cos/sin multiplier) = 0.1*ln(factor)+1"},
                )

# YaRN at a tiny base: every pair turns > 32 times in L0, and transformers' ramp
# (clamped to 0 .. head_dim - 1) turns over at base 2 but not at base 5.
for base in (2, 5):
    cfg = llama_config(
        64,
        base,
        4096 * 4,
        {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096},
    )
    inv, att = ROPE_INIT_FUNCTIONS["yarn"](cfg, "cpu")
    put(
        f"hf_inv_freq_yarn_hd64_b{base}_x4_orig4096_f32",
        inv,
        source=hf_src + ' ROPE_INIT_FUNCTIONS["yarn"]',
        scaling="yarn",
        head_dim=64,
        base=float(base),
        factor=4.0,
        original_context=4096,
        context=4096 * 4,
        beta_fast=32,
        beta_slow=1,
        truncate=True,
        mscale=None,
        mscale_all_dim=None,
    )

# Llama 3.1's frequency-dependent scaling. Default low/high frequency factors 1 and 4
# (Meta's config.json); also 2 and 8 so that a hard-coded 1 and 4 would fail.
for hd in (64, 128):
    for base in (10000, 500000):
        bt = base_tag(base)
        for factor in (4, 8):
            for orig in (2048, 8192):
                for low, high in ((1, 4), (2, 8)):
                    cfg = llama_config(
                        hd,
                        base,
                        orig * factor,
                        {
                            "rope_type": "llama3",
                            "factor": float(factor),
                            "low_freq_factor": float(low),
                            "high_freq_factor": float(high),
                            "original_max_position_embeddings": orig,
                        },
                    )
                    inv, att = ROPE_INIT_FUNCTIONS["llama3"](cfg, "cpu")
                    assert att == 1.0
                    put(
                        f"hf_inv_freq_llama3_hd{hd}_b{bt}_x{factor}_orig{orig}_lo{low}_hi{high}_f32",
                        inv,
                        source=hf_src + ' ROPE_INIT_FUNCTIONS["llama3"]',
                        scaling="llama3",
                        head_dim=hd,
                        base=float(base),
                        factor=float(factor),
                        original_context=orig,
                        context=orig * factor,
                        low_freq_factor=float(low),
                        high_freq_factor=float(high),
                    )

# --------------------------------------------------------------------------
# 3. Rotary application
# --------------------------------------------------------------------------
N, D, BASE = 16, 64, 10000.0
rng = np.random.default_rng(0)
q_np = rng.standard_normal((N, D))
k_np = rng.standard_normal((N, D))
rope_common = dict(n=N, head_dim=D, base=BASE, positions="0..15")
put(
    "rope_q",
    q_np,
    what="input q, np.random.default_rng(0).standard_normal((16, 64)) (drawn first)",
    **rope_common,
)
put("rope_k", k_np, what="input k, same rng, drawn second", **rope_common)

q64 = torch.from_numpy(q_np)
k64 = torch.from_numpy(k_np)
pos64 = torch.arange(N, dtype=torch.float64)

# HF split layout, float64: cos/sin as in LlamaRotaryEmbedding.forward
inv64 = 1.0 / (BASE ** (torch.arange(0, D, 2, dtype=torch.float64) / D))
freqs = pos64[:, None] * inv64[None, :]
emb = torch.cat((freqs, freqs), dim=-1)
cos, sin = emb.cos()[None], emb.sin()[None]  # (batch=1, seq, hd)
qh, kh = apply_rotary_pos_emb(q64[None, None], k64[None, None], cos, sin, unsqueeze_dim=1)
hf_q, hf_k = qh[0, 0], kh[0, 0]
put(
    "hf_rope_q_split",
    hf_q,
    source="transformers llama apply_rotary_pos_emb/rotate_half, float64 cos/sin",
    layout="split",
    **rope_common,
)
put(
    "hf_rope_k_split",
    hf_k,
    source="transformers llama apply_rotary_pos_emb/rotate_half, float64 cos/sin",
    layout="split",
    **rope_common,
)

# HF native float32 path: its own rotary module
cfg = llama_config(D, BASE, 2048, {"rope_type": "default"})
rot = LlamaRotaryEmbedding(cfg)
q32, k32 = q64.float(), k64.float()
cos32, sin32 = rot(q32[None, None], torch.arange(N)[None])
qh32, kh32 = apply_rotary_pos_emb(q32[None, None], k32[None, None], cos32, sin32, unsqueeze_dim=1)
put(
    "hf_rope_q_split_f32",
    qh32[0, 0],
    source="transformers LlamaRotaryEmbedding + apply_rotary_pos_emb, float32",
    layout="split",
    **rope_common,
)
put(
    "hf_rope_k_split_f32",
    kh32[0, 0],
    source="transformers LlamaRotaryEmbedding + apply_rotary_pos_emb, float32",
    layout="split",
    **rope_common,
)

# rotary-embedding-torch, interleaved layout
from rotary_embedding_torch import RotaryEmbedding

ret64 = RotaryEmbedding(dim=D, custom_freqs=inv64.clone()).double()
ret_q = ret64.rotate_queries_or_keys(q64[None])[0]
ret_k = ret64.rotate_queries_or_keys(k64[None])[0]
assert ret_q.dtype == torch.float64
ret_s = dict(
    source="rotary_embedding_torch.RotaryEmbedding(dim=64, custom_freqs=float64 inv_freq).double()"
    ".rotate_queries_or_keys on (1,16,64)",
    layout="interleaved",
    **rope_common,
)
put("ret_rope_q_interleaved", ret_q, **ret_s)
put("ret_rope_k_interleaved", ret_k, **ret_s)

ret32 = RotaryEmbedding(dim=D)
ret_q32 = ret32.rotate_queries_or_keys(q32[None])[0]
ret_k32 = ret32.rotate_queries_or_keys(k32[None])[0]
assert ret_q32.dtype == torch.float32
ret_s32 = dict(
    source="rotary_embedding_torch.RotaryEmbedding(dim=64).rotate_queries_or_keys, native float32",
    layout="interleaved",
    **rope_common,
)
put("ret_rope_q_interleaved_f32", ret_q32, **ret_s32)
put("ret_rope_k_interleaved_f32", ret_k32, **ret_s32)

# same module, default (float32-computed) freqs, but .double(): for the report only
ret_mixed = RotaryEmbedding(dim=D).double()
ret_mixed_q = ret_mixed.rotate_queries_or_keys(q64[None])[0]


# Meta LLaMA complex-number RoPE, float64 / complex128
def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].double() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).double()
    freqs_cis = torch.polar(torch.ones_like(freqs), freqs)  # complex128
    return freqs_cis


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def meta_apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.double().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.double().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


# Meta layout: (batch, seqlen, n_heads, head_dim)
fc = precompute_freqs_cis(D, N, BASE)
mq, mk = meta_apply_rotary_emb(q64[None, :, None, :], k64[None, :, None, :], fc)
meta_q, meta_k = mq[0, :, 0, :], mk[0, :, 0, :]
meta_s = dict(
    source="Meta LLaMA precompute_freqs_cis + apply_rotary_emb (view_as_complex), float64",
    layout="interleaved",
    **rope_common,
)
put("meta_rope_q_interleaved", meta_q, **meta_s)
put("meta_rope_k_interleaved", meta_k, **meta_s)


# --------------------------------------------------------------------------
# 4. Cross-checks (printed)
# --------------------------------------------------------------------------
def mx(a, b):
    a = a.detach().numpy() if isinstance(a, torch.Tensor) else a
    b = b.detach().numpy() if isinstance(b, torch.Tensor) else b
    return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def deinterleave(x):
    return torch.cat([x[..., 0::2], x[..., 1::2]], dim=-1)


def reinterleave(x):
    h = x.shape[-1] // 2
    out = torch.empty_like(x)
    out[..., 0::2] = x[..., :h]
    out[..., 1::2] = x[..., h:]
    return out


qs, ks = apply_rotary_pos_emb(
    deinterleave(q64)[None, None], deinterleave(k64)[None, None], cos, sin, unsqueeze_dim=1
)
hf_perm_q, hf_perm_k = reinterleave(qs[0, 0]), reinterleave(ks[0, 0])

checks = {
    "meta vs rotary-embedding-torch q (f64)": mx(meta_q, ret_q),
    "meta vs rotary-embedding-torch k (f64)": mx(meta_k, ret_k),
    "HF split on de-interleaved inputs vs interleaved (meta) q": mx(hf_perm_q, meta_q),
    "HF split on de-interleaved inputs vs interleaved (meta) k": mx(hf_perm_k, meta_k),
    "HF split f32 module vs HF split f64": mx(qh32[0, 0], hf_q),
    "rotary-embedding-torch f32 vs f64": mx(ret_q32, ret_q),
    "rotary-embedding-torch .double() with its float32 freqs vs f64": mx(ret_mixed_q, ret_q),
    "norms preserved (HF f64)": mx(hf_q.norm(dim=-1), q64.norm(dim=-1)),
    "torch_pe f32 vs f64 L100 d512": mx(
        values["torch_pe_f32_L100_d512"], values["torch_pe_f64_L100_d512"]
    ),
    "fairseq f32 vs f64": mx(values["fairseq_pe_f32_L50_d128"], values["fairseq_pe_L50_d128"]),
    "fairseq f64 vs t2t": mx(values["fairseq_pe_L50_d128"], values["t2t_pe_L50_d128"]),
    "t2t vs tf (exponent i/(d/2-1) vs i/(d/2))": mx(
        values["t2t_pe_L50_d128"], values["tf_pe_L50_d128"]
    ),
    "tf_old vs torch_pe_f64 L50 d128": mx(
        values["tf_old_pe_L50_d128"], values["torch_pe_f64_L50_d128"]
    ),
}
for key, err in drift.items():
    checks[f"{key} vs exact float64 formula"] = err

for hd in (64, 128):
    for base in (10000, 500000):
        bt = base_tag(base)
        exact = 1.0 / base ** (np.arange(0, hd, 2) / hd)
        got = values[f"hf_inv_freq_default_hd{hd}_b{bt}_f32"]
        checks[f"hf default hd{hd} b{bt} rel err vs float64"] = float(np.abs(got / exact - 1).max())

print(
    f"torch {torch.__version__}, transformers {transformers.__version__}, "
    f"rotary-embedding-torch {md.version('rotary-embedding-torch')}, numpy {np.__version__}"
)
for name, err in checks.items():
    print(f"  {name:70s} max abs diff {err:.3e}")

assert checks["meta vs rotary-embedding-torch q (f64)"] < 1e-12
assert checks["meta vs rotary-embedding-torch k (f64)"] < 1e-12
assert checks["HF split on de-interleaved inputs vs interleaved (meta) q"] < 1e-12
assert checks["HF split on de-interleaved inputs vs interleaved (meta) k"] < 1e-12

assert set(settings) == set(values)
values["settings_json"] = np.array(json.dumps(settings, sort_keys=True))
values["versions_json"] = np.array(
    json.dumps(
        {
            "versions": {
                "python": sys.version.split()[0],
                "numpy": np.__version__,
                "torch": torch.__version__,
                "transformers": transformers.__version__,
                "rotary-embedding-torch": md.version("rotary-embedding-torch"),
                "einops": md.version("einops"),
            },
            "checks_max_abs_diff": checks,
        },
        sort_keys=True,
    )
)
np.savez_compressed(OUT, **values)
print(f"wrote {OUT} ({OUT.stat().st_size / 1e6:.3f} MB, {len(values)} keys)")
