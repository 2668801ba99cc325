"""One RoPE pair at a time: its rotation between two positions, and how a context
extension changed its speed.

Symbols as in the package glossary (:mod:`posenc`: m, n, j, theta_j), and:

=============  ==============================================================
``q``, ``k``   the 2-vectors of one pair j of a query and a key
``s``          the extension factor (``factor=`` of :func:`posenc.rope_frequencies`)
``theta'_j``   pair j's speed after the extension (``inv_freq`` of a scaling)
=============  ==============================================================
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from posenc._validate import check_array, check_int, check_real
from posenc.rope import rope

__all__ = ["PairCounts", "PairRotation", "pair_counts", "pair_rotation"]

# Positions are exact in float64 up to this magnitude.
_MAX_POSITION = 2**53
# Ratios this close to 1 (or to 1 / s) count as equal: a few roundings of the scaling.
_TOLERANCE = 8 * np.finfo(np.float64).eps


class PairCounts(NamedTuple):
    kept: int  # theta'_j = theta_j
    blended: int  # strictly between theta_j / s and theta_j
    slowed: int  # theta'_j = theta_j / s
    beyond: int  # slower than theta_j / s (NTK's slowest pairs)


def pair_counts(theta, inv_freq, factor: float) -> PairCounts:
    """How many pairs an extension by ``factor`` kept, blended, slowed or slowed further.

    With the ratio ``rho_j = theta'_j / theta_j``: kept when ``rho_j = 1``, slowed when
    ``rho_j = 1 / s``, beyond when ``rho_j < 1 / s``, blended otherwise; "=" within
    8 float64 epsilons (a pair 1e-13 from a threshold is blended).

    Parameters
    ----------
    theta : array_like, shape (d/2,)
        The pairs' speeds before the extension, > 0.
    inv_freq : array_like, shape (d/2,)
        After it (``rope_frequencies(..., scaling=...)[0]``).
    factor : float
        ``s`` >= 1.

    Returns
    -------
    PairCounts
        Four counts that add up to ``d / 2``.

    Examples
    --------
    >>> theta = np.array([1.0, 0.1, 0.01, 0.001])
    >>> pair_counts(theta, theta * [1.0, 0.5, 0.25, 0.1], 4.0)
    PairCounts(kept=1, blended=1, slowed=1, beyond=1)
    """
    theta = check_array("theta", theta).astype(np.float64, copy=False)
    inv = check_array("inv_freq", inv_freq).astype(np.float64, copy=False)
    if theta.ndim != 1 or theta.shape != inv.shape or not np.all(theta > 0):
        raise ValueError(
            "theta and inv_freq must be 1-D of the same shape, theta > 0,"
            f" got shapes {theta.shape} and {inv.shape}"
        )
    factor = check_real("factor", factor, at_least=1.0)
    ratio = inv / theta
    kept = np.abs(ratio - 1.0) <= _TOLERANCE
    slowed = ~kept & (np.abs(ratio * factor - 1.0) <= _TOLERANCE)
    beyond = ~kept & ~slowed & (ratio < 1.0 / factor)
    blended = ~kept & ~slowed & ~beyond
    return PairCounts(*(int(mask.sum()) for mask in (kept, blended, slowed, beyond)))


class PairRotation(NamedTuple):
    q_m: np.ndarray  # q rotated by m theta
    k_n: np.ndarray  # k rotated by n theta
    measured: float  # angle from k_n to q_m, in (-pi, pi]
    predicted: float  # start + (m - n) theta, in (-pi, pi]
    start: float  # angle from k to q before the rotation, in (-pi, pi]
    score: float  # q_m . k_n
    dot: float  # q . k
    cross: float  # q_2 k_1 - q_1 k_2
    g: float  # dot cos((m - n) theta) - cross sin((m - n) theta)


def _wrap(angle: float) -> float:
    """Angle in (-pi, pi]: a hair above pi, ``(pi - angle) % 2 pi`` rounds to 2 pi and
    the angle would come out as -pi."""
    wrapped = float(math.pi - (math.pi - angle) % (2 * math.pi))
    return wrapped if wrapped > -math.pi else math.pi


def pair_rotation(q, k, theta: float, m: int, n: int) -> PairRotation:
    """One pair of a query at m and a key at n, rotated by :func:`posenc.rope`, and the
    same score from q and k alone (seed 002's ``g``, expanded).

    .. math::

        q_m \\cdot k_n = g = (q \\cdot k) \\cos((m - n)\\theta)
        - (q_2 k_1 - q_1 k_2) \\sin((m - n)\\theta)

    and the angle from ``k_n`` to ``q_m`` is the angle from k to q plus ``(m - n) theta``.

    Parameters
    ----------
    q, k : array_like, shape (2,)
    theta : float
        The pair's speed ``theta_j``, finite.
    m, n : int
        Positions of the query and of the key, ``|m|, |n| <= 2**53`` (exact in float64;
        only ``m - n`` matters, so a negative position is as good as any).

    Returns
    -------
    PairRotation

    Examples
    --------
    >>> r = pair_rotation([1.0, 0.0], [1.0, 0.0], math.pi / 2, 1, 0)
    >>> r.predicted, r.start, round(r.score, 12), round(r.g, 12)
    (1.5707963267948966, 0.0, 0.0, 0.0)
    """
    q = check_array("q", q).astype(np.float64, copy=False)
    k = check_array("k", k).astype(np.float64, copy=False)
    if q.shape != (2,) or k.shape != (2,):
        raise ValueError(f"q and k must have shape (2,), got {q.shape} and {k.shape}")
    theta = np.float64(check_real("theta", theta))
    m = check_int("m", m, minimum=-_MAX_POSITION, maximum=_MAX_POSITION)
    n = check_int("n", n, minimum=-_MAX_POSITION, maximum=_MAX_POSITION)
    q_m = rope(q[None], [m], inv_freq=[theta])[0]
    k_n = rope(k[None], [n], inv_freq=[theta])[0]
    measured = math.atan2(q_m[1], q_m[0]) - math.atan2(k_n[1], k_n[0])
    dot, cross = q[0] * k[0] + q[1] * k[1], q[1] * k[0] - q[0] * k[1]
    g = dot * math.cos((m - n) * theta) - cross * math.sin((m - n) * theta)
    start = math.atan2(q[1], q[0]) - math.atan2(k[1], k[0])
    return PairRotation(
        q_m,
        k_n,
        _wrap(measured),
        _wrap(start + (m - n) * theta),
        _wrap(start),
        float(q_m @ k_n),
        float(dot),
        float(cross),
        float(g),
    )
