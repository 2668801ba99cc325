"""A reader of a pasted ``config.json``: the RoPE settings transformers reads from it
(``RopeModel``), checked field by field with notices in the reader's language (the RoPE
page's "Real models" tab; ``data_models`` holds the presets and the per-pair numbers).

Pure Python (no Streamlit). The frequencies themselves are ``posenc.rope_from_config``'s:
the reader runs it once, so a block only transformers' rules refuse gives a notice too.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import NamedTuple

import posenc
from ui.plain.safe_text import markdown_code
from ui.plain.texts import TextError

# A config.json of a released model is 0.5 .. 2 KB; the box takes at most this much.
MAX_CONFIG_CHARS = 4000
MAX_HEAD_DIM = 1024
MAX_CONTEXT = 100_000_000

# Hugging Face's rope_type (or the older "type") -> the method's code on this page
# (posenc's scaling name where posenc.rope_frequencies has one). "mrope" (Qwen2-VL) is
# default RoPE on three position axes, "su" Phi-3's first name for longrope.
SCALING_TYPES = {
    "default": None,
    "mrope": None,
    "linear": "linear",
    "dynamic": "ntk",
    "yarn": "yarn",
    "longrope": "longrope",
    "su": "longrope",
    "llama3": "llama3",
    "proportional": "proportional",
}
# Types whose speeds depend on the current length L (posenc.rope_from_config's context).
CONTEXT_TYPES = ("ntk", "longrope")


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
    mrope_section: tuple[int, ...] = ()  # M-RoPE: pairs for time, height, width
    mrope_interleaved: bool = False  # Qwen3-VL's layout (else Qwen2-VL's chunks)
    sources: tuple[tuple[str, dict], ...] = ()  # (address, fields read there)
    assumed: tuple[str, ...] = field(default=(), compare=False)  # defaults filled in
    # The config as posenc.rope_from_config reads it (JSON: the model stays hashable).
    config_json: str = field(default="{}", compare=False, repr=False)

    @property
    def config(self) -> dict:
        """The fields ``posenc.rope_from_config`` reads, with those this reader found
        under other names (``rotary_emb_base``, ``rotary_dim``, ``n_positions``) filled in."""
        return json.loads(self.config_json)

    @property
    def rotated(self) -> int:
        """Rotated dimensions of a head: ``int(head_dim * p)`` (all for p-RoPE, whose
        unrotated pairs are the slow ones with frequency 0)."""
        if self.scaling == "proportional":
            return self.head_dim
        return int(self.head_dim * self.partial_rotary_factor)


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


def _config_object(text: str) -> tuple[dict, dict]:
    """``text`` as one JSON object: ``(raw, merged)``. ``raw`` is the part holding the
    language model's settings (a multimodal file's ``text_config`` when the top level
    names no head size), as ``posenc.rope_from_config`` reads it; ``merged`` is ``raw``
    with transformers 5's ``rope_parameters`` block merged in (its ``rope_type``, when not
    ``default``, makes the block the scaling; per-layer blocks: the full-attention one)."""
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
    inner = config.get("text_config")
    heads = ("head_dim", "qk_rope_head_dim", "hidden_size")
    if isinstance(inner, dict) and not any(config.get(k) is not None for k in heads):
        config = inner
    params = config.get("rope_parameters")
    if isinstance(params, dict) and isinstance(params.get("full_attention"), dict):
        params = params["full_attention"]  # transformers 5, one block per layer type
    merged = config
    if isinstance(params, dict):  # transformers 5 keeps the RoPE fields in one block
        merged = {**config, **{k: v for k, v in params.items() if k != "rope_type"}}
        if params.get("rope_type") not in (None, "default"):
            merged["rope_scaling"] = params
        elif params.get("mrope_section") is not None:
            merged["rope_scaling"] = params
    return config, merged


def _head_dim(config: dict) -> int:
    """``qk_rope_head_dim`` (DeepSeek), ``head_dim``, else ``hidden_size /
    num_attention_heads`` (a whole number)."""
    for key in ("qk_rope_head_dim", "head_dim"):
        if config.get(key) is not None:
            return _number(config, key, 2, MAX_HEAD_DIM, integer=True)
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
    scaling: str | None  # the method's code (SCALING_TYPES)
    factor: float
    low: float  # Llama 3.1's low_freq_factor
    high: float  # and high_freq_factor
    original: int | None  # L0 when the config gives it (original_max_position_embeddings)
    section: tuple[int, ...]  # M-RoPE's mrope_section
    interleaved: bool


# Types whose factor transformers requires; YaRN and LongRoPE default to
# max_position_embeddings / original_max_position_embeddings.
NEEDS_FACTOR = ("linear", "ntk", "llama3")


def _rope_scaling(block, max_pos: int, original: int | None) -> _Scaling:
    """A ``rope_scaling`` block (None: no scaling). ``original``: a top-level
    ``original_max_position_embeddings`` (Phi-3), which wins over the block's."""
    if block is None:
        return _Scaling(None, 1.0, 1.0, 4.0, original, (), False)
    if not isinstance(block, dict):
        raise TextError("rope.cfg_number", field=markdown_code("rope_scaling"),
                        value=markdown_code(json.dumps(block)), low="{", high="}")  # fmt: skip
    kind = block.get("rope_type", block.get("type"))
    if kind is None and block.get("mrope_section") is not None:
        kind = "default"
    if kind not in SCALING_TYPES:
        raise TextError("rope.cfg_scaling", kind=markdown_code(json.dumps(kind)))
    scaling, factor = SCALING_TYPES[kind], 1.0
    if original is None and block.get("original_max_position_embeddings") is not None:
        original = _number(block, "original_max_position_embeddings", 1, MAX_CONTEXT,
                           integer=True)  # fmt: skip
    if scaling in NEEDS_FACTOR and block.get("factor") is None:
        raise _missing("rope_scaling.factor")
    if scaling is not None and block.get("factor") is not None:
        factor = _number(block, "factor", 1.0, 1e4)
    elif scaling in ("yarn", "longrope"):
        factor = max_pos / (original or max_pos)
    low, high = _llama3_factors(block) if scaling == "llama3" else (1.0, 4.0)
    section = block.get("mrope_section")
    ok = isinstance(section, list) and all(
        isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_HEAD_DIM for n in section
    )
    section = tuple(section) if ok and section else ()
    interleaved = bool(block.get("mrope_interleaved")) and bool(section)
    return _Scaling(scaling, factor, low, high, original, section, interleaved)


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


def _contexts(found: _Scaling, max_pos: int) -> tuple[int, int]:
    """(L0, L): the pretraining context and the context after scaling. Linear scaling
    with no original context takes ``max_position_embeddings`` as L (Gemma 3), L0 = L/s."""
    if found.scaling == "linear" and found.original is None:
        return max(1, round(max_pos / found.factor)), max_pos
    original = found.original or max_pos
    if found.scaling is None or found.scaling == "proportional":
        return original, original
    return original, min(max(max_pos, round(original * found.factor)), MAX_CONTEXT)


def parse_config(text: str) -> RopeModel:
    """The RoPE settings in a pasted ``config.json``, read as transformers reads them.

    Fields: ``qk_rope_head_dim`` or ``head_dim`` (else ``hidden_size /
    num_attention_heads``), ``rope_theta`` (``rotary_emb_base``; 10000 when absent,
    transformers' default, listed in ``assumed``), ``partial_rotary_factor``
    (``rotary_pct``, or ``rotary_dim / head_dim``; default 1), ``rope_scaling`` with
    ``rope_type`` or ``type`` and its parameters (``mrope_section`` for M-RoPE),
    ``max_position_embeddings`` and ``original_max_position_embeddings``.
    transformers 5's ``rope_parameters`` block and a multimodal ``text_config`` count too.
    The frequencies themselves are ``posenc.rope_from_config``'s (:func:`frequencies`);
    it is run here once, so a block it refuses gives a notice.

    Raises ``TextError`` (``rope.cfg_*``, a notice in the reader's language) for text
    that is not one JSON object, a missing or out-of-range field, an unknown scaling
    type, or a rotated part of the head that is odd or under 2 dimensions.

    >>> m = parse_config('{"hidden_size": 2560, "num_attention_heads": 32,'
    ...                  ' "partial_rotary_factor": 0.4, "max_position_embeddings": 2048}')
    >>> m.head_dim, m.rotated, m.base, m.assumed
    (80, 32, 10000.0, ('rope_theta',))
    """
    raw, config = _config_object(text)
    head_dim = _head_dim(config)
    key = _first(config, "rope_theta", "rotary_emb_base")
    assumed = () if key is not None else ("rope_theta",)
    base = 10000.0 if key is None else _number(config, key, 1.0 + 1e-9, 1e12)
    p, key_p = _rotary_fraction(config, head_dim)
    key_ctx = _first(config, "max_position_embeddings", "n_positions")
    if key_ctx is None:
        raise _missing("max_position_embeddings")
    max_pos = _number(config, key_ctx, 1, MAX_CONTEXT, integer=True)
    original = None
    if raw.get("original_max_position_embeddings") is not None:
        original = _number(raw, "original_max_position_embeddings", 1, MAX_CONTEXT,
                           integer=True)  # fmt: skip
    found = _rope_scaling(config.get("rope_scaling"), max_pos, original)
    scaling = found.scaling

    rotated = head_dim if scaling == "proportional" else int(head_dim * p)
    if rotated < 2 or rotated % 2 or head_dim % 2:
        raise TextError("rope.cfg_rotated", field=markdown_code(key_p), d=head_dim, r=rotated)
    L0, L = _contexts(found, max_pos)
    # What posenc reads, with the values this reader found under other names.
    read = dict(raw, max_position_embeddings=max_pos)
    if key != "rope_theta":
        read["rope_theta"] = base
    if key_p == "rotary_dim":
        read["partial_rotary_factor"] = p
    for context in {L0, L, L0 + 1} if scaling in CONTEXT_TYPES else {L}:
        try:
            posenc.rope_from_config(read, context)
        except ValueError as error:  # a field only transformers' rules check
            raise TextError("rope.cfg_rope", detail=markdown_code(str(error))) from None
    return RopeModel(
        name="config.json", head_dim=head_dim, base=base, original_context=L0, context=L,
        partial_rotary_factor=p, scaling=scaling, factor=found.factor,
        low_freq_factor=found.low, high_freq_factor=found.high,
        mrope_section=found.section, mrope_interleaved=found.interleaved, assumed=assumed,
        config_json=json.dumps(read),
    )  # fmt: skip
