"""Rotary position embedding (RoPE, RoFormer; seed 002) and its context extensions.

Symbols as in the package glossary (:mod:`posenc`: m, n, d = head_dim, j, theta_j),
and:

=============  ==============================================================
``x``          queries or keys, shape ``(..., positions, d)``
``R(m theta)`` block-diagonal rotation by ``m theta_j`` of every pair j
=============  ==============================================================

Pairs:

- ``"interleaved"``: dimensions ``(2j, 2j + 1)`` (RoFormer, GPT-J, Meta LLaMA,
  rotary-embedding-torch).
- ``"split"``: dimensions ``(j, j + d/2)`` (GPT-NeoX, Hugging Face ``rotate_half``).

Each pair ``(x1, x2)`` at position m becomes
``(x1 cos(m theta_j) - x2 sin(m theta_j), x2 cos(m theta_j) + x1 sin(m theta_j))``,
the complex product ``(x1 + i x2) e^{i m theta_j}``. Hence
``<rope(q)_m, rope(k)_n> = Re sum_j q_j conj(k_j) e^{i (m - n) theta_j}``:
a function of the contents and of ``m - n`` only.
"""

from __future__ import annotations

import math

import numpy as np

from posenc._layout import pair_halves
from posenc._validate import (
    check_array,
    check_base,
    check_even,
    check_int,
    check_layout,
    check_real,
)

__all__ = ["SCALINGS", "rope", "rope_frequencies", "rope_scores"]

SCALINGS = (None, "linear", "ntk", "yarn", "llama3")

# YaRN defaults of the paper and of Hugging Face transformers.
YARN_BETA_FAST = 32.0
YARN_BETA_SLOW = 1.0
# Llama 3.1's defaults (Meta's reference code and its config.json).
LLAMA3_LOW_FREQ_FACTOR = 1.0
LLAMA3_HIGH_FREQ_FACTOR = 4.0


def _theta(head_dim: int, base: float) -> np.ndarray:
    return base ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)


def rope(
    x,
    positions=None,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    inv_freq=None,
) -> np.ndarray:
    """Rotate every pair of ``x`` at position m by ``m theta_j``.

    .. math::

        f(x_m, m) = R(m\\theta) x_m, \\qquad
        \\begin{pmatrix} x_1' \\\\ x_2' \\end{pmatrix} =
        \\begin{pmatrix} \\cos m\\theta_j & -\\sin m\\theta_j \\\\
                         \\sin m\\theta_j & \\cos m\\theta_j \\end{pmatrix}
        \\begin{pmatrix} x_1 \\\\ x_2 \\end{pmatrix}

    Parameters
    ----------
    x : array_like, shape (..., n, d)
        Real and finite; ``d`` even.
    positions : array_like, shape (n,), optional
        Position of each row (may be fractional); default ``0 .. n-1``.
    base : float
        Finite, > 1; gives ``theta_j = base ** (-2 j / d)``. Ignored when ``inv_freq``
        is given.
    layout : {"interleaved", "split"}
        Which dimensions form a pair (module docstring).
    inv_freq : array_like, shape (d // 2,), optional
        Overrides ``theta`` (for example from :func:`rope_frequencies`).

    Returns
    -------
    ndarray, same shape as ``x``; float32 if ``x`` is float32, else float64.
    Angles are formed in float64 whatever the dtype.

    Examples
    --------
    >>> rope([[1.0, 0.0], [1.0, 0.0]], base=100.0).round(4)
    array([[1.    , 0.    ],
           [0.5403, 0.8415]])
    """
    x = check_array("x", x, min_ndim=2)
    d = x.shape[-1]
    if d < 2 or d % 2:
        raise ValueError(f"x must have an even last axis >= 2 (head_dim), got {d}")
    layout = check_layout(layout)
    n = x.shape[-2]
    if positions is None:
        positions = np.arange(n, dtype=np.float64)
    else:
        positions = check_array("positions", positions).astype(np.float64, copy=False)
        if positions.shape != (n,):
            raise ValueError(
                f"positions must have shape ({n},) to match x's position axis, "
                f"got {positions.shape}"
            )
    if inv_freq is None:
        theta = _theta(d, check_base(base))
    else:
        theta = check_array("inv_freq", inv_freq).astype(np.float64, copy=False)
        if theta.shape != (d // 2,):
            raise ValueError(f"inv_freq must have shape ({d // 2},), got {theta.shape}")
    angles = np.multiply.outer(positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = pair_halves(x.astype(np.float64, copy=False), layout)
    out = np.empty(x.shape, dtype=np.float64)
    o1, o2 = pair_halves(out, layout)
    # o1 = x1 cos - x2 sin, o2 = x2 cos + x1 sin: the same roundings as the plain
    # expressions, with one temporary instead of four (fresh arrays cost page faults).
    product = np.multiply(x2, sin)
    np.multiply(x1, cos, out=o1)
    o1 -= product
    np.multiply(x1, sin, out=product)
    np.multiply(x2, cos, out=o2)
    o2 += product
    return out.astype(np.float32) if x.dtype == np.float32 else out


def rope_scores(
    q,
    k,
    q_positions=None,
    k_positions=None,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    inv_freq=None,
) -> np.ndarray:
    """Raw attention scores ``S[m, n] = <rope(q)_m, rope(k)_n>`` (no 1/sqrt(d), no softmax).

    Parameters
    ----------
    q : array_like, shape (M, d)
    k : array_like, shape (N, d)
    q_positions, k_positions : array_like, optional
        Default ``0 .. M-1`` and ``0 .. N-1``.
    base, layout, inv_freq
        As in :func:`rope`.

    Returns
    -------
    S : ndarray, shape (M, N)

    Examples
    --------
    The same content at every position gives a Toeplitz matrix (depends on m - n only):

    >>> q = np.tile([1.0, 2.0, 0.5, -1.0], (5, 1))
    >>> s = rope_scores(q, q)
    >>> bool(np.allclose(s[1:, 1:], s[:-1, :-1]))
    True
    """
    q = check_array("q", q, min_ndim=2)
    k = check_array("k", k, min_ndim=2)
    if q.ndim != 2 or k.ndim != 2 or q.shape[1] != k.shape[1]:
        raise ValueError(
            f"q and k must be 2-D with the same head_dim, got shapes {q.shape} and {k.shape}"
        )
    rq = rope(q, q_positions, base, layout=layout, inv_freq=inv_freq)
    rk = rope(k, k_positions, base, layout=layout, inv_freq=inv_freq)
    return rq.astype(np.float64) @ rk.astype(np.float64).T


def _yarn_ramp(head_dim: int, base: float, original_context: int) -> np.ndarray:
    """Weight of the interpolated frequency per pair: 0 keeps theta_j, 1 divides it by factor."""

    def correction_dim(rotations: float) -> float:
        # The pair index j whose wavelength fits `rotations` turns into the original context.
        return (
            head_dim * math.log(original_context / (rotations * 2 * math.pi)) / (2 * math.log(base))
        )

    low = max(math.floor(correction_dim(YARN_BETA_FAST)), 0)
    high = min(math.ceil(correction_dim(YARN_BETA_SLOW)), head_dim - 1)
    if low == high:
        high += 0.001  # as in the reference implementation: avoid 0/0
    j = np.arange(head_dim // 2, dtype=np.float64)
    return np.clip((j - low) / (high - low), 0.0, 1.0)


def _llama3(theta: np.ndarray, factor: float, original_context: int, low, high) -> np.ndarray:
    """Llama 3.1's frequency-dependent interpolation (:func:`rope_frequencies`)."""
    low = check_real("low_freq_factor", low, greater=0.0)
    high = check_real("high_freq_factor", high)
    if not high > low:
        raise ValueError(
            f"high_freq_factor must be finite and > low_freq_factor ({low:g}), got {high!r}"
        )
    turns = original_context * theta / (2 * math.pi)  # L0 / wavelength
    g = (turns - low) / (high - low)
    smoothed = (1.0 - g) * theta / factor + g * theta
    return np.where(turns > high, theta, np.where(turns < low, theta / factor, smoothed))


def rope_frequencies(
    head_dim: int,
    base: float = 10000.0,
    *,
    scaling: str | None = None,
    factor: float = 1.0,
    original_context: int | None = None,
    context: int | None = None,
    low_freq_factor: float = LLAMA3_LOW_FREQ_FACTOR,
    high_freq_factor: float = LLAMA3_HIGH_FREQ_FACTOR,
    partial_rotary_factor: float = 1.0,
) -> tuple[np.ndarray, float]:
    """RoPE rotation speeds ``theta_j`` after a context-extension method.

    Parameters
    ----------
    head_dim : int
        Even, >= 2 (>= 4 for ``"ntk"``).
    base : float
        Finite, > 1.
    scaling : {None, "linear", "ntk", "yarn", "llama3", "proportional"}
        - ``None``: ``theta_j = base ** (-2j / d)``.
        - ``"linear"`` (position interpolation): ``theta_j / factor``.
        - ``"ntk"`` (Hugging Face ``dynamic``): the base becomes
          ``base * (factor * L / L0 - (factor - 1)) ** (d / (d - 2))`` with
          ``L = max(context, L0)``, ``L0 = original_context``.
        - ``"yarn"``: per pair, a linear ramp between ``theta_j`` (pairs that turn more
          than beta_fast = 32 times inside ``L0``) and ``theta_j / factor`` (pairs that
          turn less than beta_slow = 1 time), ramp ends floored/ceiled (truncated) and
          clamped to ``0 .. head_dim - 1`` as in transformers: when the (fractional)
          pair index that turns 32 times is at least ``head_dim`` (a tiny base), the ramp
          turns over and every pair gets ``theta_j / factor``.
        - ``"llama3"`` (Llama 3.1, Hugging Face ``llama3``): with ``t_j = L0 theta_j / 2pi``
          the turns of pair j inside ``L0``, pairs with ``t_j > high_freq_factor`` keep
          ``theta_j``, pairs with ``t_j < low_freq_factor`` get ``theta_j / factor``, and
          in between ``(1 - g) theta_j / factor + g theta_j`` with
          ``g = (t_j - low) / (high - low)``.
        - ``"proportional"`` (p-RoPE, Hugging Face ``proportional``, Gemma 4): over the
          whole head, the ``int(p * head_dim // 2)`` fastest pairs keep
          ``base ** (-2j / head_dim)``, the others get frequency 0 (not rotated), all
          divided by ``factor``; ``p = partial_rotary_factor``.
    factor : float
        Finite, >= 1.
    original_context : int, optional
        ``L0``, the pretraining context; required for ``"ntk"``, ``"yarn"`` and
        ``"llama3"``.
    context : int, optional
        ``L`` for ``"ntk"``; default ``original_context``.
    low_freq_factor, high_freq_factor : float
        For ``"llama3"`` only: finite, ``0 < low_freq_factor < high_freq_factor``;
        default 1 and 4 (Llama 3.1).
    partial_rotary_factor : float
        ``p``, ``0 < p <= 1`` (GPT-NeoX's ``rotary_pct``, Phi's ``partial_rotary_factor``).
        Except for ``"proportional"``, only the first ``r = int(head_dim * p)`` dimensions
        rotate (``r`` even, >= 2): every method above runs with ``r`` in place of
        ``head_dim``, so ``theta_j = base ** (-2j / r)``, as transformers computes them;
        the other ``head_dim - r`` dimensions pass unrotated.

    Returns
    -------
    inv_freq : ndarray, shape (r // 2,); (head_dim // 2,) for ``"proportional"``
    attention_factor : float
        Multiplies cos and sin (hence scores by its square): ``0.1 ln(factor) + 1`` for
        YaRN with factor > 1, otherwise 1.

    Examples
    --------
    >>> inv, a = rope_frequencies(8, 10000.0, scaling="linear", factor=4.0)
    >>> inv * 4
    array([1.   , 0.1  , 0.01 , 0.001])
    >>> round(rope_frequencies(64, scaling="yarn", factor=4.0, original_context=2048)[1], 6)
    1.138629

    Llama 3.1 (factor 8, L0 = 8192, d = 128, base 500000) keeps the fastest pair and
    slows the slowest one 8 times:

    >>> inv, _ = rope_frequencies(128, 500000.0, scaling="llama3", factor=8.0,
    ...                           original_context=8192)
    >>> theta, _ = rope_frequencies(128, 500000.0)
    >>> float(inv[0] / theta[0]), float(theta[-1] / inv[-1])
    (1.0, 8.0)

    GPT-NeoX 20B rotates 24 of its 96 head dimensions; p-RoPE keeps the fastest pairs:

    >>> rope_frequencies(96, partial_rotary_factor=0.25)[0].shape
    (12,)
    >>> rope_frequencies(8, scaling="proportional", partial_rotary_factor=0.5)[0]
    array([1. , 0.1, 0. , 0. ])
    """
    head_dim = check_even("head_dim", head_dim)
    base = check_base(base)
    if scaling not in (*SCALINGS, "proportional"):
        raise ValueError(f"scaling must be one of {(*SCALINGS, 'proportional')}, got {scaling!r}")
    factor = check_real("factor", factor, at_least=1.0)
    p = check_real("partial_rotary_factor", partial_rotary_factor, greater=0.0)
    if p > 1.0:
        raise ValueError(f"partial_rotary_factor must be in (0, 1], got {partial_rotary_factor!r}")
    if scaling == "proportional":
        # transformers: rope_angles = int(rope_proportion * head_dim // 2), in floats.
        theta = _theta(head_dim, base)
        theta[int(p * head_dim // 2) :] = 0.0
        return theta / factor, 1.0
    rotary_dim = int(head_dim * p)
    if rotary_dim < 2 or rotary_dim % 2:
        raise ValueError(
            f"partial_rotary_factor must give an even rotary dimension int(head_dim * p) >= 2"
            f" (head_dim {head_dim}), got {partial_rotary_factor!r} -> {rotary_dim}"
        )
    head_dim = rotary_dim
    theta = _theta(head_dim, base)
    if scaling is None:
        return theta, 1.0
    if scaling == "linear":
        return theta / factor, 1.0
    if original_context is None:
        raise ValueError(f"original_context must be an integer >= 1 for scaling={scaling!r}")
    original_context = check_int("original_context", original_context, minimum=1)
    if scaling == "ntk":
        if head_dim < 4:
            raise ValueError(f"head_dim must be >= 4 for scaling='ntk', got {head_dim}")
        context = original_context if context is None else check_int("context", context, minimum=1)
        length = max(context, original_context)
        ntk_base = base * (factor * length / original_context - (factor - 1)) ** (
            head_dim / (head_dim - 2)
        )
        return _theta(head_dim, ntk_base), 1.0
    if scaling == "llama3":
        return _llama3(theta, factor, original_context, low_freq_factor, high_freq_factor), 1.0
    ramp = _yarn_ramp(head_dim, base, original_context)
    inv_freq = theta / factor * ramp + theta * (1.0 - ramp)
    attention_factor = 0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0
    return inv_freq, attention_factor
