"""RoPE from a Hugging Face ``config.json``: every rope type transformers ships.

Symbols as in the package glossary (:mod:`posenc`: d = head_dim, j, theta_j, b, L, L_0),
and:

=======================  =========================================================
``r``                    the rotated dimensions ``int(d * partial_rotary_factor)``
``s``                    the scaling factor (``factor``)
``theta_j``              ``b ** (-2j / r)`` before any scaling
``attention_factor``     multiplies cos and sin (so the scores by its square)
=======================  =========================================================

The config is read as transformers 5 reads it: ``rope_parameters`` (transformers 5) or
``rope_scaling`` (older files) for the type and its settings, ``rope_theta`` there or at
the top level, ``head_dim`` (DeepSeek's ``qk_rope_head_dim`` first) or
``hidden_size // num_attention_heads``, ``partial_rotary_factor`` (GPT-NeoX's
``rotary_pct``), ``max_position_embeddings`` and ``original_max_position_embeddings``
(at the top level it wins, as transformers does for Phi-3). A multimodal config's
``text_config`` is read when the top level names no head size.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import numpy as np

from posenc._validate import check_int, check_real
from posenc.rope import rope_frequencies

__all__ = ["ROPE_TYPES", "rope_from_config", "yarn_mscale"]

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional")
# Older names transformers still reads: Qwen2-VL's "mrope" is default RoPE on three axes
# (posenc.mrope_cos_sin), Phi-3's first files said "su" for longrope.
ALIASES = {"mrope": "default", "su": "longrope"}
DEFAULT_THETA = 10000.0
YARN_BETA_FAST = 32.0
YARN_BETA_SLOW = 1.0


def _where(path: str, key: str) -> str:
    return f'{path}["{key}"]'


def _number(params: Mapping, key: str, path: str, default=None, *, greater=None, at_least=None):
    """``params[key]`` as a finite float (``default`` when absent or None)."""
    value = params.get(key)
    if value is None:
        return default
    name = _where(path, key)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    if greater is not None and not value > greater:
        raise ValueError(f"{name} must be > {greater:g}, got {value!r}")
    if at_least is not None and not value >= at_least:
        raise ValueError(f"{name} must be >= {at_least:g}, got {value!r}")
    return float(value)


def _integer(params: Mapping, key: str, path: str, default=None) -> int | None:
    value = params.get(key)
    if value is None:
        return default
    return check_int(_where(path, key), value, minimum=1)


def _text_config(config: Mapping) -> Mapping:
    """The part of ``config`` that holds the language model's attention settings."""
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a dict (a parsed config.json), got {type(config)}")
    keys = ("head_dim", "qk_rope_head_dim", "hidden_size")
    inner = config.get("text_config")
    if not any(config.get(k) is not None for k in keys) and isinstance(inner, Mapping):
        return inner
    return config


def _rope_parameters(config: Mapping, layer_type: str | None) -> tuple[dict, str]:
    """The rope settings dict (a copy) and the path naming it in messages."""
    for key in ("rope_parameters", "rope_scaling"):
        params = config.get(key)
        if params is not None:
            break
    else:
        key, params = "rope_parameters", {}
    path = f'config["{key}"]'
    if not isinstance(params, Mapping):
        raise ValueError(f"{path} must be a dict or null, got {params!r}")
    nested = [k for k, v in params.items() if isinstance(v, Mapping)]
    if nested:  # transformers 5, one dict per layer type (Gemma 3)
        name = layer_type or ("full_attention" if "full_attention" in nested else None)
        if name not in nested:
            raise ValueError(f"layer_type must be one of {sorted(nested)}, got {layer_type!r}")
        return dict(params[name]), f'{path}["{name}"]'
    if layer_type == "sliding_attention" and config.get("rope_local_base_freq") is not None:
        # Gemma 3's older files: local layers use default RoPE at rope_local_base_freq.
        return {"rope_type": "default", "rope_theta": config["rope_local_base_freq"]}, path
    if layer_type not in (None, "full_attention", "sliding_attention"):
        raise ValueError(f"layer_type must be None for this config, got {layer_type!r}")
    return dict(params), path


def _rope_type(params: Mapping, path: str, config: Mapping) -> str:
    name = params.get("rope_type", params.get("type", "default"))
    name = ALIASES.get(name, name)
    if name == "yarn" and "short_factor" in params and config.get("model_type") == "phi3":
        name = "longrope"  # transformers' Phi3Config reads Phi-3's old "yarn" as longrope
    if name not in ROPE_TYPES:
        raise ValueError(f"{_where(path, 'rope_type')} must be one of {ROPE_TYPES}, got {name!r}")
    return name


def _head_dim(config: Mapping) -> int:
    for key in ("qk_rope_head_dim", "head_dim"):
        if config.get(key) is not None:
            return check_int(f'config["{key}"]', config[key], minimum=2)
    hidden = config.get("hidden_size")
    heads = config.get("num_attention_heads")
    if hidden is None or heads is None:
        raise ValueError(
            'config must give "head_dim" or both "hidden_size" and "num_attention_heads"'
        )
    hidden = check_int('config["hidden_size"]', hidden, minimum=1)
    return hidden // check_int('config["num_attention_heads"]', heads, minimum=1)


def _partial(params: Mapping, path: str, config: Mapping) -> float:
    for source, where in ((params, path), (config, "config")):
        for key in ("partial_rotary_factor", "rotary_pct"):
            p = _number(source, key, where, greater=0.0)
            if p is not None:
                if p > 1.0:
                    raise ValueError(f"{_where(where, key)} must be in (0, 1], got {p!r}")
                return p
    return 1.0


def _yarn(theta, params, path, max_position, original, rotary_dim, base):
    """transformers' ``_compute_yarn_parameters`` (see :func:`rope_from_config`)."""
    factor = _number(params, "factor", path, greater=0.0)
    if factor is None:
        factor = max_position / original
    mscale = _number(params, "mscale", path)
    mscale_all_dim = _number(params, "mscale_all_dim", path)
    attention = _number(params, "attention_factor", path, at_least=0.0)
    if attention is None:
        if mscale and mscale_all_dim:
            attention = yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all_dim)
        else:
            attention = yarn_mscale(factor)
    beta_fast = _number(params, "beta_fast", path) or YARN_BETA_FAST
    beta_slow = _number(params, "beta_slow", path) or YARN_BETA_SLOW
    truncate = params.get("truncate", True)
    if not isinstance(truncate, bool):
        raise ValueError(f"{_where(path, 'truncate')} must be true or false, got {truncate!r}")

    def correction_dim(rotations: float) -> float:
        # The pair index whose wavelength fits `rotations` turns into L_0.
        return rotary_dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, rotary_dim - 1)
    if low == high:
        high += 0.001  # transformers: avoid 0/0
    ramp = np.clip((np.arange(rotary_dim // 2) - low) / (high - low), 0.0, 1.0)
    return theta / factor * ramp + theta * (1.0 - ramp), float(attention)


def yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    """YaRN's attention factor ``mu(s, k)`` for a stretch ``s`` (transformers' ``get_mscale``).

    .. math::

        \\mu(s, k) = 0.1\\, k \\ln s + 1 \\quad (s > 1), \\qquad \\mu(s, k) = 1
        \\quad (s \\le 1)

    Plain YaRN multiplies q and k by ``mu(s, 1)`` (every score by ``mu ** 2``).
    DeepSeek-V2/V3 put ``mu(s, mscale) / mu(s, mscale_all_dim)`` into RoPE and multiply
    the softmax scale by ``mu(s, mscale_all_dim) ** 2`` in attention itself (see
    :func:`rope_from_config`).

    Parameters
    ----------
    scale : float
        ``s > 0``, the ``factor`` of ``rope_scaling``.
    mscale : float
        ``k``, finite (``mscale`` or ``mscale_all_dim`` of the config).

    Returns
    -------
    float

    Examples
    --------
    >>> round(yarn_mscale(40.0), 6), yarn_mscale(1.0), round(yarn_mscale(40.0, 0.707), 6)
    (1.368888, 1.0, 1.260804)
    """
    s = check_real("scale", scale, greater=0.0)
    k = check_real("mscale", mscale)
    return 1.0 if s <= 1 else 0.1 * k * math.log(s) + 1.0


def _longrope(theta, params, path, max_position, original, context, rotary_dim):
    """transformers' ``_compute_longrope_parameters``."""
    which = "long_factor" if context is not None and context > original else "short_factor"
    factors = params.get(which)
    name = _where(path, which)
    try:
        factors = np.asarray(factors, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a list of {rotary_dim // 2} numbers") from None
    if factors.shape != (rotary_dim // 2,) or not np.all(np.isfinite(factors) & (factors > 0)):
        raise ValueError(
            f"{name} must be a list of {rotary_dim // 2} finite numbers > 0, "
            f"got {params.get(which)!r}"
        )
    factor = _number(params, "factor", path, greater=0.0)
    if factor is None:
        factor = max_position / original
    attention = _number(params, "attention_factor", path, at_least=0.0)
    if attention is None:
        attention = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(original))
    return theta / factors, float(attention)


def rope_from_config(
    config: dict, context: int | None = None, *, layer_type: str | None = None
) -> tuple[np.ndarray, float]:
    """RoPE's ``inv_freq`` and attention factor for a Hugging Face model config.

    Equal to transformers' ``ROPE_INIT_FUNCTIONS[rope_type](config, seq_len=context)`` (and
    ``compute_default_rope_parameters`` for ``"default"``), computed in float64 where
    transformers uses float32. With ``theta_j = b ** (-2j / r)``, ``j < r / 2``:

    - ``default``: ``theta_j``. ``linear``: ``theta_j / s``.
    - ``dynamic`` (NTK): ``theta_j`` of the base ``b (s L / L_0 - (s - 1)) ** (r / (r - 2))``,
      ``L = max(context, L_0)``, ``L_0 = max_position_embeddings``.
    - ``yarn``: ``theta_j (g_j / s + 1 - g_j)``, ``g_j`` a ramp from 0 at the pair
      ``j_low = r ln(L_0 / (2 pi beta_fast)) / (2 ln b)`` to 1 at ``j_high`` (``beta_slow``),
      floored / ceiled unless ``truncate`` is false, clamped to ``0 .. r - 1``;
      attention factor ``attention_factor`` if given, else
      ``m(s, mscale) / m(s, mscale_all_dim)`` when both are set (DeepSeek), else
      ``m(s, 1)``, with ``m(s, k) = 0.1 k ln s + 1`` (1 for ``s <= 1``). DeepSeek-V2/V3
      also multiply the softmax scale by ``m(s, mscale_all_dim) ** 2`` in attention
      itself: not part of this factor.
    - ``longrope``: ``theta_j / long_factor[j]`` when ``context > L_0`` (the current length
      is beyond the original), else ``theta_j / short_factor[j]``; attention factor
      ``sqrt(1 + ln s / ln L_0)``, ``s = factor`` or ``max_position_embeddings / L_0``.
    - ``llama3``, ``proportional``: :func:`posenc.rope_frequencies` (Llama 3.1; p-RoPE).

    Parameters
    ----------
    config : dict
        A parsed ``config.json`` (module docstring for the keys read). ``rope_type`` one
        of ``ROPE_TYPES`` (``type`` in older files; ``"mrope"`` reads as ``"default"``,
        ``"su"`` as ``"longrope"``). Numbers finite; ``factor`` >= 1 for linear, dynamic,
        llama3 and proportional, > 0 for yarn and longrope.
    context : int, optional
        The current sequence length (>= 1): picks dynamic's base and longrope's factors;
        None as at model load (``L = L_0``, short factors).
    layer_type : str, optional
        Which layers' RoPE when ``rope_parameters`` holds one dict per layer type
        (Gemma 3): default ``"full_attention"``.

    Returns
    -------
    inv_freq : ndarray, shape (r // 2,) (``(d // 2,)`` for proportional), float64
    attention_factor : float

    Examples
    --------
    >>> llama31 = {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0,
    ...     "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3",
    ...     "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
    ...     "original_max_position_embeddings": 8192}}
    >>> inv, a = rope_from_config(llama31)
    >>> inv.shape, float(inv[0]), a
    ((64,), 1.0, 1.0)
    >>> deepseek_v3 = {"qk_rope_head_dim": 64, "rope_theta": 10000,
    ...     "max_position_embeddings": 163840, "rope_scaling": {"type": "yarn", "factor": 40,
    ...     "mscale": 1.0, "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
    ...     "beta_fast": 32, "beta_slow": 1}}
    >>> rope_from_config(deepseek_v3)[1]
    1.0
    """
    text = _text_config(config)
    params, path = _rope_parameters(text, layer_type)
    rope_type = _rope_type(params, path, text)
    if context is not None:
        context = check_int("context", context, minimum=1)
    base = _number(params, "rope_theta", path)
    if base is None:
        base = _number(text, "rope_theta", "config", DEFAULT_THETA)
    if not base > 1.0:
        raise ValueError(f"{_where(path, 'rope_theta')} must be > 1, got {base!r}")
    head_dim = _head_dim(text)
    p = _partial(params, path, text)
    max_position = _integer(text, "max_position_embeddings", "config")
    original = _integer(text, "original_max_position_embeddings", "config")
    if original is None:
        original = _integer(params, "original_max_position_embeddings", path, max_position)
    needs = {"dynamic": max_position, "yarn": original, "longrope": original, "llama3": original}
    if rope_type in needs and needs[rope_type] is None:
        raise ValueError(
            f'config must give "max_position_embeddings" (an integer >= 1) for {rope_type!r}'
        )
    if rope_type in ("default", "linear", "dynamic", "llama3", "proportional"):
        factor = _number(params, "factor", path, 1.0, at_least=1.0)
        if rope_type != "default" and rope_type != "proportional" and "factor" not in params:
            raise ValueError(f"{_where(path, 'factor')} must be given for {rope_type!r}")
        scaling = {"default": None, "dynamic": "ntk"}.get(rope_type, rope_type)
        extra = {}
        if rope_type == "llama3":
            for key in ("low_freq_factor", "high_freq_factor"):
                if params.get(key) is None:
                    raise ValueError(f'{_where(path, key)} must be given for "llama3"')
                extra[key] = _number(params, key, path)
        return rope_frequencies(
            head_dim,
            base,
            scaling=scaling,
            factor=factor,
            original_context=max_position if rope_type == "dynamic" else original,
            context=context,
            partial_rotary_factor=p,
            **extra,
        )
    theta, _ = rope_frequencies(head_dim, base, partial_rotary_factor=p)
    rotary_dim = 2 * theta.size
    if rope_type == "yarn":
        return _yarn(theta, params, path, max_position or original, original, rotary_dim, base)
    if max_position is None:
        max_position = original
    return _longrope(theta, params, path, max_position, original, context, rotary_dim)
