"""RoPE settings of real released models, a reader of a pasted ``config.json``, and what
a model's settings do to each rotary pair (the RoPE page's "Real models" tab).

Pure Python and numpy (no Streamlit): the parser and the per-pair numbers are tested
without the app. Every frequency comes from ``posenc.rope_frequencies``.

Each preset holds the values of the model's ``config.json`` on the Hugging Face Hub and
where they were read (``sources``); the tab's notes cite them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

import posenc
from ui.plain.safe_text import markdown_code
from ui.plain.texts import TextError

# A config.json of a released model is 0.5 .. 2 KB; the box takes at most this much.
MAX_CONFIG_CHARS = 4000
MAX_HEAD_DIM = 1024
MAX_CONTEXT = 100_000_000

# Hugging Face's rope_type (or the older "type") -> posenc's scaling.
SCALING_TYPES = {
    "default": None,
    "linear": "linear",
    "dynamic": "ntk",
    "yarn": "yarn",
    "llama3": "llama3",
    "proportional": "proportional",
}


@dataclass(frozen=True)
class RopeModel:
    """A model's RoPE settings as transformers reads them from its ``config.json``.

    ``original_context`` is L0, the context the model was pretrained with
    (``rope_scaling.original_max_position_embeddings``, else
    ``max_position_embeddings``); ``context`` is L, the context after its scaling
    (``max(max_position_embeddings, factor * L0)``; L0 without scaling).
    """

    name: str
    head_dim: int
    base: float
    original_context: int
    context: int
    partial_rotary_factor: float = 1.0
    scaling: str | None = None
    factor: float = 1.0
    low_freq_factor: float = 1.0
    high_freq_factor: float = 4.0
    sources: tuple[tuple[str, dict], ...] = ()  # (address, fields read there)
    assumed: tuple[str, ...] = field(default=(), compare=False)  # defaults filled in

    @property
    def rotated(self) -> int:
        """Rotated dimensions of a head: ``int(head_dim * p)`` (all for p-RoPE, whose
        unrotated pairs are the slow ones with frequency 0)."""
        if self.scaling == "proportional":
            return self.head_dim
        return int(self.head_dim * self.partial_rotary_factor)


HF = "https://huggingface.co"
CONVERT_LLAMA = (
    "https://github.com/huggingface/transformers/blob/01cc9cd9d804d368d553c093c4eb0646320545bb/"
    "src/transformers/models/llama/convert_llama_weights_to_hf.py"
)
LLAMA3_SCALING = {
    "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192, "rope_type": "llama3",
}  # fmt: skip

# A source: (address, the fields read there). The config.json fields of a model, read by
# parse_config, give the preset (tests/test_rope_models.py checks it).
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
}  # fmt: skip


def config_of(model: RopeModel) -> dict:
    """The config.json fields a preset cites (its sources on the Hub, merged)."""
    fields: dict = {}
    for address, values in model.sources:
        if address.startswith(HF):
            fields.update(values)
    return fields


# --- reading a pasted config.json -------------------------------------------------------


def _number(config: dict, key: str, low: float, high: float, *, integer: bool = False):
    """``config[key]`` checked: a JSON number (not a bool) in ``[low, high]``."""
    value = config[key]
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    ok = ok and math.isfinite(value) and low <= value <= high
    if ok and integer:
        ok = float(value).is_integer()
    if not ok:
        raise TextError(
            "rope.cfg_number", field=markdown_code(key), value=markdown_code(json.dumps(value)),
            low=f"{low:g}", high=f"{high:g}",
        )  # fmt: skip
    return int(value) if integer else float(value)


def _missing(*names: str) -> TextError:
    return TextError("rope.cfg_missing", field=" / ".join(markdown_code(n) for n in names))


def _first(config: dict, *keys: str) -> str | None:
    return next((k for k in keys if config.get(k) is not None), None)


def _config_object(text: str) -> dict:
    """``text`` as one JSON object, with transformers 5's ``rope_parameters`` block
    merged in (its ``rope_type``, when not ``default``, makes the block the scaling)."""
    if len(text) > MAX_CONFIG_CHARS:
        raise TextError("rope.cfg_too_long", max_chars=f"{MAX_CONFIG_CHARS:,}")
    if not text.strip():
        raise TextError("rope.cfg_empty")
    try:
        config = json.loads(text)
    except json.JSONDecodeError as error:
        raise TextError("rope.cfg_json", line=error.lineno, column=error.colno) from None
    except RecursionError:  # deeply nested brackets
        raise TextError("rope.cfg_not_object") from None
    if not isinstance(config, dict):
        raise TextError("rope.cfg_not_object")
    params = config.get("rope_parameters")
    if isinstance(params, dict):  # transformers 5 keeps the RoPE fields in one block
        config = {**config, **{k: v for k, v in params.items() if k != "rope_type"}}
        if params.get("rope_type") not in (None, "default"):
            config["rope_scaling"] = params
    return config


def _head_dim(config: dict) -> int:
    """``head_dim``, else ``hidden_size / num_attention_heads`` (a whole number)."""
    if config.get("head_dim") is not None:
        return _number(config, "head_dim", 2, MAX_HEAD_DIM, integer=True)
    if config.get("hidden_size") is not None and config.get("num_attention_heads") is not None:
        hidden = _number(config, "hidden_size", 2, 1e6, integer=True)
        heads = _number(config, "num_attention_heads", 1, 1e4, integer=True)
        head_dim = hidden // heads
        if hidden % heads or not 2 <= head_dim <= MAX_HEAD_DIM:
            raise TextError("rope.cfg_heads", hidden=hidden, heads=heads, top=MAX_HEAD_DIM)
        return head_dim
    raise _missing("head_dim", "hidden_size + num_attention_heads")


def _rotary_fraction(config: dict, head_dim: int) -> tuple[float, str]:
    """p, the rotated fraction of a head, and the field it was read from (default 1)."""
    key = _first(config, "partial_rotary_factor", "rotary_pct")
    if key is not None:
        return _number(config, key, 1e-6, 1.0), key
    if config.get("rotary_dim") is not None:
        return _number(config, "rotary_dim", 2, head_dim, integer=True) / head_dim, "rotary_dim"
    return 1.0, "partial_rotary_factor"


class _Scaling(NamedTuple):
    scaling: str | None  # posenc's name (SCALING_TYPES)
    factor: float
    low: float  # Llama 3.1's low_freq_factor
    high: float  # and high_freq_factor
    original: int  # L0


def _rope_scaling(block, max_pos: int) -> _Scaling:
    """A ``rope_scaling`` block (None: no scaling); L0 is ``max_pos`` unless it says."""
    if block is None:
        return _Scaling(None, 1.0, 1.0, 4.0, max_pos)
    if not isinstance(block, dict):
        raise TextError("rope.cfg_number", field=markdown_code("rope_scaling"),
                        value=markdown_code(json.dumps(block)), low="{", high="}")  # fmt: skip
    kind = block.get("rope_type", block.get("type"))
    if kind not in SCALING_TYPES:
        raise TextError("rope.cfg_scaling", kind=markdown_code(json.dumps(kind)))
    scaling, factor, original = SCALING_TYPES[kind], 1.0, max_pos
    if scaling is not None:
        if block.get("factor") is None:
            raise _missing("rope_scaling.factor")
        factor = _number(block, "factor", 1.0, 1e4)
    if block.get("original_max_position_embeddings") is not None:
        original = _number(block, "original_max_position_embeddings", 1, MAX_CONTEXT,
                           integer=True)  # fmt: skip
    low, high = _llama3_factors(block) if scaling == "llama3" else (1.0, 4.0)
    if scaling == "yarn":
        _check_yarn_betas(block)
    return _Scaling(scaling, factor, low, high, original)


def _llama3_factors(block: dict) -> tuple[float, float]:
    """Llama 3.1's ``low_freq_factor`` < ``high_freq_factor``, both required."""
    for name in ("low_freq_factor", "high_freq_factor"):
        if block.get(name) is None:
            raise _missing(f"rope_scaling.{name}")
    low = _number(block, "low_freq_factor", 1e-6, 1e6)
    high = _number(block, "high_freq_factor", 1e-6, 1e6)
    if not low < high:
        raise TextError("rope.cfg_llama3", low=f"{low:g}", high=f"{high:g}")
    return low, high


def _check_yarn_betas(block: dict) -> None:
    """posenc's YaRN ramp has transformers' default ends (beta_fast 32, beta_slow 1) only."""
    for name, default in (("beta_fast", 32.0), ("beta_slow", 1.0)):
        if block.get(name) is not None and block[name] != default:
            raise TextError("rope.cfg_yarn", field=markdown_code(name),
                            value=markdown_code(json.dumps(block[name])))  # fmt: skip


def parse_config(text: str) -> RopeModel:
    """The RoPE settings in a pasted ``config.json``, read as transformers reads them.

    Fields: ``head_dim`` (else ``hidden_size / num_attention_heads``), ``rope_theta``
    (``rotary_emb_base``; 10000 when absent, transformers' default, listed in
    ``assumed``), ``partial_rotary_factor`` (``rotary_pct``, or ``rotary_dim / head_dim``;
    default 1), ``rope_scaling`` with ``rope_type`` or ``type`` and its parameters, and
    ``max_position_embeddings``. transformers 5's ``rope_parameters`` block counts too.

    Raises ``TextError`` (``rope.cfg_*``, a notice in the reader's language) for text
    that is not one JSON object, a missing or out-of-range field, an unknown scaling
    type, or a rotated part of the head that is odd or under 2 dimensions.

    >>> m = parse_config('{"hidden_size": 2560, "num_attention_heads": 32,'
    ...                  ' "partial_rotary_factor": 0.4, "max_position_embeddings": 2048}')
    >>> m.head_dim, m.rotated, m.base, m.assumed
    (80, 32, 10000.0, ('rope_theta',))
    """
    config = _config_object(text)
    head_dim = _head_dim(config)
    key = _first(config, "rope_theta", "rotary_emb_base")
    assumed = () if key is not None else ("rope_theta",)
    base = 10000.0 if key is None else _number(config, key, 1.0 + 1e-9, 1e12)
    p, key = _rotary_fraction(config, head_dim)
    key_ctx = _first(config, "max_position_embeddings", "n_positions")
    if key_ctx is None:
        raise _missing("max_position_embeddings")
    max_pos = _number(config, key_ctx, 1, MAX_CONTEXT, integer=True)
    found = _rope_scaling(config.get("rope_scaling"), max_pos)
    scaling, factor, original = found.scaling, found.factor, found.original

    rotated = head_dim if scaling == "proportional" else int(head_dim * p)
    if rotated < 2 or rotated % 2 or head_dim % 2:
        raise TextError("rope.cfg_rotated", field=markdown_code(key), d=head_dim, r=rotated)
    if scaling in ("ntk", "yarn", "llama3", "linear"):
        context = max(max_pos, round(original * factor))
    else:
        context = original
    return RopeModel(
        name="config.json", head_dim=head_dim, base=base, original_context=original,
        context=min(context, MAX_CONTEXT), partial_rotary_factor=p, scaling=scaling,
        factor=factor, low_freq_factor=found.low, high_freq_factor=found.high, assumed=assumed,
    )  # fmt: skip


# --- what the settings do to each pair ---------------------------------------------------


def frequencies(model: RopeModel) -> tuple[np.ndarray, np.ndarray]:
    """``(theta, scaled)``: each rotated pair's speed as pretrained (``base^(-2j/r)``)
    and after the model's scaling, both from ``posenc.rope_frequencies``. For p-RoPE
    the pretrained speeds are plain RoPE's over the whole head."""
    d, b, p = model.head_dim, model.base, model.partial_rotary_factor
    if model.scaling == "proportional":
        theta, _ = posenc.rope_frequencies(d, b)
    else:
        theta, _ = posenc.rope_frequencies(d, b, partial_rotary_factor=p)
    if model.scaling is None:
        return theta, theta.copy()
    scaled, _ = posenc.rope_frequencies(
        d, b, scaling=model.scaling, factor=model.factor,
        original_context=model.original_context, context=model.context,
        low_freq_factor=model.low_freq_factor, high_freq_factor=model.high_freq_factor,
        partial_rotary_factor=p,
    )  # fmt: skip
    return theta, scaled


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
    ``critical`` pair (first under one turn inside L0) and ``critical_scaled`` (inside L).
    """
    theta, scaled = frequencies(model)
    with np.errstate(divide="ignore"):  # a pair that does not turn: wavelength inf
        wavelength, wavelength_scaled = 2 * np.pi / theta, 2 * np.pi / scaled
    L0, L = model.original_context, model.context
    return dict(
        theta=theta, scaled=scaled, wavelength=wavelength, wavelength_scaled=wavelength_scaled,
        turns=L0 * theta / (2 * np.pi), turns_scaled=L * scaled / (2 * np.pi),
        ratio=scaled / theta, critical=first_under_one_turn(theta, L0),
        critical_scaled=first_under_one_turn(scaled, L),
    )  # fmt: skip


def table(view: dict) -> np.ndarray:
    """The per-pair numbers as columns (for a CSV / .npy download): j, theta, scaled,
    wavelength, scaled wavelength, turns in L0, turns in L, scaled / theta."""
    keys = ("theta", "scaled", "wavelength", "wavelength_scaled", "turns", "turns_scaled", "ratio")
    return np.column_stack([np.arange(view["theta"].size), *(view[k] for k in keys)])
