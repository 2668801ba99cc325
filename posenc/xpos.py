"""xPos (Sun et al. 2023, "A Length-Extrapolatable Transformer"): RoPE with a decay.

Pair i of a query at position m is rotated as in RoPE and multiplied by
``zeta_i ** (m / B)``; pair i of a key at position n by ``zeta_i ** (-n / B)``, with

.. math:: \\zeta_i = \\frac{2i/d + 0.4}{1.4} \\in [0.29, 1), \\qquad B = \\text{scale\\_base}.

Their product leaves ``zeta_i ** ((m - n) / B)``: fast pairs (small i, small zeta_i)
fade quickly with the distance, slow pairs hardly at all. rotary-embedding-torch
(``RotaryEmbedding(use_xpos=True)``) centres the exponents on the middle of the
sequence, which cancels in the product.
"""

from __future__ import annotations

import numpy as np

from posenc._layout import pair_halves
from posenc._validate import check_array, check_base, check_even, check_layout, check_real
from posenc.rope import rope

__all__ = ["xpos_same_content", "xpos_scores", "xpos_zeta"]


def xpos_zeta(head_dim: int) -> np.ndarray:
    """``zeta_i = (2i/d + 0.4) / 1.4`` for every pair ``i = 0 .. d/2 - 1``.

    Examples
    --------
    >>> xpos_zeta(4).round(4)
    array([0.2857, 0.6429])
    """
    d = check_even("head_dim", head_dim)
    return (np.arange(0, d, 2, dtype=np.float64) / d + 0.4) / 1.4


def _positions(name: str, value, n: int) -> np.ndarray:
    if value is None:
        return np.arange(n, dtype=np.float64)
    positions = check_array(name, value).astype(np.float64, copy=False)
    if positions.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {positions.shape}")
    return positions


def xpos_scores(
    q,
    k,
    q_positions=None,
    k_positions=None,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    scale_base: float = 512.0,
) -> np.ndarray:
    """Raw xPos attention scores (no 1/sqrt(d), no softmax).

    .. math::

        S[m, n] = \\sum_i \\zeta_i^{(m - n)/B}\\,
        \\operatorname{Re}\\left[q_{m,i} \\overline{k_{n,i}} e^{i (m - n) \\theta_i}\\right]

    with ``q_{m,i}``, ``k_{n,i}`` pair i as a complex number and
    ``theta_i = base ** (-2i / d)``: RoPE's score with each pair's term multiplied by
    its decay. At ``m = n`` it is the plain dot product ``<q_m, k_n>``.

    Parameters
    ----------
    q : array_like, shape (M, d)
    k : array_like, shape (N, d)
        Real and finite, the same even ``d``.
    q_positions, k_positions : array_like, optional
        Default ``0 .. M-1`` and ``0 .. N-1``.
    base : float
        Finite, > 1.
    layout : {"interleaved", "split"}
        Which dimensions form pair i (:mod:`posenc.rope`); rotary-embedding-torch
        pairs interleaved dimensions.
    scale_base : float
        ``B``, finite and > 0 (rotary-embedding-torch's ``xpos_scale_base``, default 512).

    Returns
    -------
    S : ndarray, shape (M, N), float64

    Examples
    --------
    The same content everywhere: a query at 2 scores keys at 0, 1, 2 lower the further
    back they are (a causal model uses only keys up to the query):

    >>> q = np.tile([1.0, 0.0, 1.0, 0.0], (3, 1))
    >>> xpos_scores(q, q, scale_base=1.0)[2].round(4)
    array([0.3792, 0.7972, 2.    ])
    """
    q = check_array("q", q, min_ndim=2)
    k = check_array("k", k, min_ndim=2)
    if q.ndim != 2 or k.ndim != 2 or q.shape[1] != k.shape[1]:
        raise ValueError(
            f"q and k must be 2-D with the same head_dim, got shapes {q.shape} and {k.shape}"
        )
    d = q.shape[1]
    if d < 2 or d % 2:
        raise ValueError(f"q and k must have an even last axis >= 2 (head_dim), got {d}")
    layout = check_layout(layout)
    base = check_base(base)
    scale_base = check_real("scale_base", scale_base, greater=0.0)
    qp = _positions("q_positions", q_positions, q.shape[0])
    kp = _positions("k_positions", k_positions, k.shape[0])
    rq = rope(q.astype(np.float64), qp, base, layout=layout)
    rk = rope(k.astype(np.float64), kp, base, layout=layout)
    # zeta ** (m / B) on the query, zeta ** (-n / B) on the key, centred (cancels).
    centre = (min(qp.min(), kp.min()) + max(qp.max(), kp.max())) / 2.0
    log_zeta = np.log(xpos_zeta(d))
    with np.errstate(over="ignore"):
        q_scale = np.exp(np.multiply.outer((qp - centre) / scale_base, log_zeta))
        k_scale = np.exp(np.multiply.outer((centre - kp) / scale_base, log_zeta))
    if not (np.all(np.isfinite(q_scale)) and np.all(np.isfinite(k_scale))):
        raise ValueError(
            "q_positions and k_positions must span at most about 1000 * scale_base "
            "(the decay zeta ** (span / scale_base) overflows float64)"
        )
    for rotated, scale in ((rq, q_scale), (rk, k_scale)):
        first, second = pair_halves(rotated, layout)
        first *= scale
        second *= scale
    return rq @ rk.T


def xpos_same_content(
    distances, head_dim: int, base: float = 10000.0, *, scale_base: float = 512.0
) -> np.ndarray:
    """Expected xPos score of the same random content at distance r, relative to r = 0.

    For ``x`` with independent standard normal entries at both positions
    (``E x^T A x = tr A``):

    .. math:: \\frac{E\\, S(r)}{E\\, S(0)} = \\frac{2}{d} \\sum_i \\zeta_i^{r/B} \\cos(r \\theta_i),
        \\qquad r = m - n

    RoPE's :func:`posenc.same_content_decay` with each pair damped by its decay.

    Parameters
    ----------
    distances : array_like
        ``r = m - n`` (query minus key position), any reals.
    head_dim : int
        Even, >= 2.
    base, scale_base
        As in :func:`xpos_scores`.

    Examples
    --------
    >>> xpos_same_content([0.0, 512.0], 2).round(4)  # zeta_0 = 2/7, times cos(512)
    array([ 1.    , -0.2848])
    """
    d = check_even("head_dim", head_dim)
    base = check_base(base)
    scale_base = check_real("scale_base", scale_base, greater=0.0)
    r = check_array("distances", distances).astype(np.float64, copy=False)
    theta = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    decay = xpos_zeta(d) ** (r[..., None] / scale_base)
    return (decay * np.cos(r[..., None] * theta)).mean(axis=-1)
