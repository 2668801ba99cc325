"""Reference values for the positional schemes beyond sinusoids and RoPE (issue 22),
computed by the REAL peer implementations.

``scheme_peer_values.npz`` (next to this file) was produced by this script with the
versions recorded under ``versions_json``:

    torch 2.13.0+cpu, transformers 5.23.0, rotary-embedding-torch 0.9.1

Only library functions and classes built from configs are used, never pretrained
weights, so nothing is downloaded. To regenerate (CPU-only torch; from the repo root):

    pip install torch==2.13.0 transformers==5.23.0 rotary-embedding-torch==0.9.1
    python tests/peers/make_scheme_peer_values.py

``settings_json`` (0-d str) maps every array key to a dict of its settings.

Keys
----
* ``bloom_alibi_n{n}_L{L}_f32``: transformers' BLOOM ``build_alibi_tensor(ones(1, L), n,
  float32)``, shape (n, 1, L): ``slope_h * j`` for key position j (float32, as BLOOM
  forms the slopes). Head counts include non-powers of two.
* ``t5_relative_position``: int64 relative positions (key - query) fed to
  ``T5Attention._relative_position_bucket``; ``t5_bucket_bi{0|1}_nb{nb}_md{md}``: its
  int64 buckets for bidirectional False/True, num_buckets nb, max_distance md.
* ``xpos_q_{tag}``, ``xpos_k_{tag}`` (float32 inputs, shape (L, d)) and
  ``xpos_scores_{tag}``: rotary-embedding-torch ``RotaryEmbedding(dim=d, theta=base,
  use_xpos=True, xpos_scale_base=B)``; ``rotate_queries_and_keys`` (same length) or
  ``rotate_queries_with_cached_keys`` (fewer queries, at the last positions), then the
  float32 rotated rows multiplied in float64: ``S = rq @ rk.T``. Note: the cached-keys
  path centres the query scales on q_len // 2 and the key scales on L // 2, so its decay
  is off by a constant (tests/posenc/test_xpos.py pins it).
* ``hf_inv_freq_{rope_type}_{tag}_f32``: transformers' inverse frequencies with a
  ``partial_rotary_factor`` (GPT-NeoX ``rotary_pct``, Phi) and the ``"proportional"``
  rope type (p-RoPE, Gemma 4 configs), float32 as transformers forms them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import rotary_embedding_torch
import torch
import transformers
from rotary_embedding_torch import RotaryEmbedding
from transformers import GPTNeoXConfig, LlamaConfig, PhiConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.bloom.modeling_bloom import build_alibi_tensor
from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding
from transformers.models.phi.modeling_phi import PhiRotaryEmbedding
from transformers.models.t5.modeling_t5 import T5Attention

OUT = Path(__file__).resolve().parent / "scheme_peer_values.npz"
arrays: dict[str, np.ndarray] = {}
settings: dict[str, dict] = {}
notes: dict[str, object] = {}


def put(key: str, value: np.ndarray, **setting) -> None:
    arrays[key] = value
    settings[key] = setting


# ALiBi: BLOOM's alibi tensor (slopes in float32).
for n in (1, 2, 3, 4, 5, 6, 8, 12, 16, 20, 24, 30, 32, 40, 64, 80, 112, 128):
    L = 16
    alibi = build_alibi_tensor(torch.ones(1, L, dtype=torch.long), n, torch.float32)
    put(
        f"bloom_alibi_n{n}_L{L}_f32",
        alibi.numpy().astype(np.float32),
        source="transformers.models.bloom.modeling_bloom.build_alibi_tensor",
        n_heads=n,
        L=L,
        dtype="float32",
    )

# T5 relative position buckets.
rel = np.concatenate(
    [np.arange(-3000, 3001), [-(10**6), -100_000, -10_000, 10_000, 100_000, 10**6]]
).astype(np.int64)
arrays["t5_relative_position"] = rel
settings["t5_relative_position"] = {"source": "inputs (key position - query position)"}
float64_mismatch = {}
for nb, md in ((32, 128), (16, 64), (64, 256), (32, 64), (8, 20), (128, 1024), (4, 8), (6, 50)):
    for bidirectional in (True, False):
        buckets = T5Attention._relative_position_bucket(
            torch.from_numpy(rel), bidirectional=bidirectional, num_buckets=nb, max_distance=md
        ).numpy()
        key = f"t5_bucket_bi{int(bidirectional)}_nb{nb}_md{md}"
        put(
            key,
            buckets.astype(np.int64),
            source="transformers T5Attention._relative_position_bucket",
            bidirectional=bidirectional,
            num_buckets=nb,
            max_distance=md,
        )
        # The same formula in float64: where does float32 change a bucket?
        half = nb // 2 if bidirectional else nb
        exact = half // 2
        r = np.abs(rel) if bidirectional else -np.minimum(rel, 0)
        with np.errstate(divide="ignore"):
            large = exact + (np.log(r / exact) / math.log(md / exact) * (half - exact)).astype(
                np.int64
            )
        b64 = np.where(r < exact, r, np.minimum(large, half - 1))
        if bidirectional:
            b64 = b64 + (rel > 0) * half
        float64_mismatch[key] = int(np.count_nonzero(b64 != buckets))
notes["t5_float64_formula_mismatches"] = float64_mismatch

# xPos (rotary-embedding-torch).
rng = np.random.default_rng(22)
for d, L, B, base, q_len in (
    (16, 32, 512, 10000.0, None),
    (64, 100, 512, 10000.0, None),
    (32, 200, 64, 10000.0, None),
    (8, 50, 16, 100.0, None),
    (32, 40, 32, 10000.0, 10),
):
    tag = f"d{d}_L{L}_B{B}_b{int(base)}" + (f"_q{q_len}" if q_len else "")
    q = rng.standard_normal((q_len or L, d)).astype(np.float32)
    k = rng.standard_normal((L, d)).astype(np.float32)
    emb = RotaryEmbedding(dim=d, theta=base, use_xpos=True, xpos_scale_base=B)
    if q_len is None:
        rq, rk = emb.rotate_queries_and_keys(torch.from_numpy(q)[None], torch.from_numpy(k)[None])
        method = "rotate_queries_and_keys"
    else:
        rq, rk = emb.rotate_queries_with_cached_keys(
            torch.from_numpy(q)[None], torch.from_numpy(k)[None]
        )
        method = "rotate_queries_with_cached_keys"
    scores = rq[0].double().numpy() @ rk[0].double().numpy().T
    common = dict(d=d, L=L, scale_base=B, base=base, q_len=q_len or L, layout="interleaved")
    put(f"xpos_q_{tag}", q, source="input", **common)
    put(f"xpos_k_{tag}", k, source="input", **common)
    put(
        f"xpos_scores_{tag}",
        scores,
        source=f"rotary_embedding_torch.RotaryEmbedding(use_xpos=True).{method}",
        q_positions=f"{L - (q_len or L)}..{L - 1}",
        **common,
    )


def hf(config, rope_type: str, **kwargs) -> np.ndarray:
    inv, attention = ROPE_INIT_FUNCTIONS[rope_type](config, **kwargs)
    assert attention == 1.0 or rope_type == "yarn"
    return inv.numpy().astype(np.float32)


# Partial rotary: GPT-NeoX (rotary_pct) and Phi (partial_rotary_factor), default rope.
for hidden, heads, pct, base in ((6144, 64, 0.25, 10000.0), (2048, 8, 0.25, 10000.0)):
    config = GPTNeoXConfig(
        hidden_size=hidden, num_attention_heads=heads, rotary_pct=pct, rotary_emb_base=base
    )
    inv = GPTNeoXRotaryEmbedding(config).inv_freq.numpy().astype(np.float32)
    put(
        f"hf_inv_freq_default_gptneox_hd{hidden // heads}_p{pct}_b{int(base)}_f32",
        inv,
        source="transformers GPTNeoXRotaryEmbedding (rotary_pct)",
        head_dim=hidden // heads,
        partial_rotary_factor=pct,
        base=base,
        scaling=None,
    )
for hidden, heads, pct, base in ((2560, 32, 0.4, 10000.0), (2048, 32, 0.5, 10000.0)):
    config = PhiConfig(
        hidden_size=hidden,
        num_attention_heads=heads,
        partial_rotary_factor=pct,
        rope_parameters={"rope_type": "default", "rope_theta": base},
    )
    inv = PhiRotaryEmbedding(config).inv_freq.numpy().astype(np.float32)
    put(
        f"hf_inv_freq_default_phi_hd{hidden // heads}_p{pct}_b{int(base)}_f32",
        inv,
        source="transformers PhiRotaryEmbedding (partial_rotary_factor)",
        head_dim=hidden // heads,
        partial_rotary_factor=pct,
        base=base,
        scaling=None,
    )
# Partial rotary with a context extension (ROPE_INIT_FUNCTIONS), head_dim 128.
HF_NAME = {"linear": "linear", "dynamic": "ntk", "yarn": "yarn", "llama3": "llama3"}
for rope_type in ("linear", "dynamic", "yarn", "llama3"):
    for pct in (0.25, 0.5):
        params = {"rope_type": rope_type, "rope_theta": 10000.0, "factor": 4.0}
        params["partial_rotary_factor"] = pct
        if rope_type in ("yarn", "llama3"):
            params["original_max_position_embeddings"] = 2048
        if rope_type == "llama3":
            params.update(low_freq_factor=1.0, high_freq_factor=4.0)
        config = LlamaConfig(
            hidden_size=4096,
            num_attention_heads=32,
            max_position_embeddings=2048 if rope_type == "dynamic" else 8192,
            rope_parameters=params,
        )
        # dynamic: the NTK base for a sequence of 8192 tokens (L0 = 2048).
        extra = {"seq_len": 8192} if rope_type == "dynamic" else {}
        inv = hf(config, rope_type, **extra)
        put(
            f"hf_inv_freq_{rope_type}_hd128_p{pct}_b10000_x4_f32",
            inv,
            source=f'transformers ROPE_INIT_FUNCTIONS["{rope_type}"] with partial_rotary_factor',
            head_dim=128,
            partial_rotary_factor=pct,
            base=10000.0,
            scaling=HF_NAME[rope_type],
            factor=4.0,
            original_context=2048,
            context=8192 if rope_type == "dynamic" else None,
        )
# p-RoPE: the "proportional" rope type.
for head_dim, pct, base, factor in (
    (256, 0.25, 1_000_000.0, 1.0),
    (128, 0.5, 10000.0, 1.0),
    (64, 0.75, 10000.0, 2.0),
    (80, 0.4, 10000.0, 1.0),
    (128, 1.0, 500000.0, 8.0),
    (96, 0.3, 10000.0, 1.0),
):
    config = LlamaConfig(
        hidden_size=head_dim * 4,
        num_attention_heads=4,
        head_dim=head_dim,
        rope_parameters={
            "rope_type": "proportional",
            "rope_theta": base,
            "partial_rotary_factor": pct,
            "factor": factor,
        },
    )
    put(
        f"hf_inv_freq_proportional_hd{head_dim}_p{pct}_b{int(base)}_x{factor:g}_f32",
        hf(config, "proportional"),
        source='transformers ROPE_INIT_FUNCTIONS["proportional"]',
        head_dim=head_dim,
        partial_rotary_factor=pct,
        base=base,
        scaling="proportional",
        factor=factor,
    )

versions = {
    "numpy": np.__version__,
    "torch": torch.__version__,
    "transformers": transformers.__version__,
    "rotary-embedding-torch": "0.9.1",
    "rotary_embedding_torch_module": rotary_embedding_torch.__name__,
    **notes,
}
np.savez_compressed(
    OUT,
    settings_json=np.array(json.dumps(settings, sort_keys=True)),
    versions_json=np.array(json.dumps(versions, sort_keys=True)),
    **arrays,
)
print(f"wrote {len(arrays)} arrays to {OUT}")
print(json.dumps(versions, indent=1))
