"""The paper's sentence checked the other way round: learn ``T(k)`` from data.

"For any fixed offset k, PE_{pos+k} can be represented as a linear function of
PE_{pos}" (seed 000). Given pairs ``(PE[p], PE[p + k])`` for many positions ``p``, the
least-squares matrix

.. math::

    W^\\star = \\arg\\min_W \\lVert X W - Y \\rVert_F = X^{+} Y, \\qquad
    X = [PE_{(p)}]_p, \\quad Y = [PE_{(p+k)}]_p

(minimum-norm when the positions do not determine ``W``) should be ``T(k)``. It is when
the positions are at least as many as the columns and spread over several turns of the
slowest pair used; with fewer, or with a short run ``0 .. L - 1`` in which the slow pairs
barely move, ``X W = Y`` still holds to rounding but ``W`` is not ``T(k)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from posenc._validate import check_array, check_int, check_layout, check_real
from posenc.rotation import block_rotation, pair_columns
from posenc.sinusoidal import encode_positions, frequencies

__all__ = ["ShiftFit", "fit_linear_map", "fit_shift", "sine_only_fit_error", "spread_positions"]


class ShiftFit(NamedTuple):
    """Result of :func:`fit_shift`."""

    matrix: np.ndarray  # fitted W, (m, m): PE[p, cols] @ W ~ PE[p + k, cols]
    target: np.ndarray  # T(k) on the same rows and columns
    columns: np.ndarray  # the m columns of PE used (pairs 0 .. m/2 - 1)
    positions: np.ndarray  # the positions p of the samples
    rank: int  # numerical rank of X
    fit_error: float  # max |X W - Y|
    matrix_error: float  # max |W - T(k)|
    pair_errors: np.ndarray  # (m/2,): max |W - T(k)| over the columns producing pair i

    @property
    def underdetermined(self) -> bool:
        """Fewer positions than unknowns per output column: W is not determined."""
        return self.positions.size < self.columns.size


def fit_linear_map(x, y) -> tuple[np.ndarray, int]:
    """Minimum-norm least-squares ``W`` with ``x @ W ~ y``, and the numerical rank of ``x``.

    Parameters
    ----------
    x : array_like, shape (n, m)
    y : array_like, shape (n, q)

    Returns
    -------
    W : ndarray, shape (m, q)
    rank : int
        Singular values below ``eps * max(n, m) * s_max`` count as zero (``numpy.linalg.lstsq``
        with ``rcond=None``).

    Examples
    --------
    >>> w, rank = fit_linear_map([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[2.0], [3.0], [5.0]])
    >>> w.round(12).ravel().tolist(), rank
    ([2.0, 3.0], 2)
    >>> w, rank = fit_linear_map([[1.0, 1.0]], [[2.0]])  # underdetermined: minimum norm
    >>> w.round(12).ravel().tolist(), rank
    ([1.0, 1.0], 1)
    """
    x = check_array("x", x, min_ndim=2)
    y = check_array("y", y, min_ndim=2)
    if x.ndim != 2 or y.ndim != 2 or x.shape[0] != y.shape[0]:
        raise ValueError(f"x and y must be 2-D with the same rows, got {x.shape} and {y.shape}")
    w, _, rank, _ = np.linalg.lstsq(x, y, rcond=None)
    return w, int(rank)


def spread_positions(
    n: int,
    d_model: int,
    base: float = 10000.0,
    *,
    pairs: int | None = None,
    turns: float = 4.0,
    seed: int = 0,
) -> np.ndarray:
    """``n`` positions drawn uniformly from ``[0, turns * 2 pi / delta)``, sorted.

    ``delta`` is the smallest of the frequencies used and of the gaps between them: over
    the span, the slowest pair turns ``turns`` times and any two pairs drift ``turns``
    turns apart, so the columns of ``X`` are far from collinear. Reproducible (``seed``).

    Examples
    --------
    >>> p = spread_positions(5, 4, base=100.0)  # omega = 1, 0.1: delta = 0.1
    >>> p.size, bool(0 <= p.min() and p.max() < 4 * 2 * np.pi * 10)
    (5, True)
    """
    n = check_int("n", n, minimum=1)
    omega = frequencies(d_model, base)
    pairs = (
        omega.size if pairs is None else check_int("pairs", pairs, minimum=1, maximum=omega.size)
    )
    turns = check_real("turns", turns, greater=0.0)
    used = omega[:pairs]
    delta = min(used[-1], float(np.min(-np.diff(used), initial=np.inf)))
    span = turns * 2.0 * np.pi / delta
    return np.sort(np.random.default_rng(seed).uniform(0.0, span, n))


def fit_shift(
    positions,
    k: float,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    pairs: int | None = None,
) -> ShiftFit:
    """Fit ``W`` from ``(PE[p], PE[p + k])`` over ``positions`` and compare it with ``T(k)``.

    Parameters
    ----------
    positions : array_like, shape (n,)
        Sample positions ``p`` (any reals).
    k : float
        Offset.
    d_model, base, layout
        The encoding.
    pairs : int, optional
        Use only pairs ``0 .. pairs - 1`` (their :func:`pair_columns`); each pair rotates on
        its own, so this sub-problem has the exact answer ``T(k)`` restricted to them.
        All pairs by default.

    Returns
    -------
    ShiftFit

    Examples
    --------
    >>> fit = fit_shift(spread_positions(64, 16, pairs=4), 2.5, 16, pairs=4)
    >>> fit.columns.size, fit.rank, bool(fit.matrix_error < 1e-9)
    (8, 8, True)
    >>> fit_shift([0.0, 1.0, 2.0], 2.5, 16, pairs=4).underdetermined
    True
    """
    positions = check_array("positions", positions)
    if positions.ndim != 1:
        raise ValueError(f"positions must be one-dimensional, got shape {positions.shape}")
    k = check_real("k", k)
    layout = check_layout(layout)
    omega = frequencies(d_model, base)
    columns = pair_columns(d_model, pairs, layout=layout)
    m = columns.size // 2
    x = encode_positions(positions, d_model, base, layout=layout, pairs=m)
    y = encode_positions(positions + k, d_model, base, layout=layout, pairs=m)
    w, rank = fit_linear_map(x, y)
    target = block_rotation(k * omega[:m], layout=layout)
    gap = np.abs(w - target)
    by_column = gap.max(axis=0)
    if layout == "interleaved":
        sine, cosine = by_column[0::2], by_column[1::2]
    else:
        sine, cosine = by_column[:m], by_column[m:]
    pair_errors = np.maximum(sine, cosine)
    return ShiftFit(
        matrix=w,
        target=target,
        columns=columns,
        positions=positions,
        rank=rank,
        fit_error=float(np.abs(x @ w - y).max()),
        matrix_error=float(gap.max()),
        pair_errors=pair_errors,
    )


def sine_only_fit_error(
    positions, k: float, d_model: int, base: float = 10000.0, *, pairs: int | None = None
) -> float:
    """``max |X W - Y|`` of the least-squares fit for a sine-only code: why PE needs cos.

    With only the columns ``sin(omega_i p)``, the shifted code is

    .. math:: \\sin \\omega_i (p + k) = \\cos(\\omega_i k)\\,\\sin \\omega_i p
              + \\sin(\\omega_i k)\\,\\cos \\omega_i p

    and ``cos(omega_i p)`` is no linear function of the sines over many positions: no
    matrix ``T(k)`` exists, and the best ``W`` leaves a residual of order
    ``|sin omega_i k|`` (unless the positions are fewer than the columns, when some ``W``
    fits any data). The sin/cos code's residual (:func:`fit_shift`) is rounding.

    Parameters
    ----------
    positions, k, d_model, base, pairs
        As for :func:`fit_shift`: the sines of pairs ``0 .. pairs - 1``.

    Examples
    --------
    >>> p = spread_positions(64, 16, pairs=4)
    >>> bool(sine_only_fit_error(p, 2.5, 16, pairs=4) > 0.1)
    True
    >>> bool(fit_shift(p, 2.5, 16, pairs=4).fit_error < 1e-12)
    True
    """
    positions = check_array("positions", positions)
    if positions.ndim != 1:
        raise ValueError(f"positions must be one-dimensional, got shape {positions.shape}")
    k = check_real("k", k)
    omega = frequencies(d_model, base)
    used = omega.size if pairs is None else check_int("pairs", pairs, minimum=1, maximum=omega.size)
    x = np.sin(np.multiply.outer(positions, omega[:used]))
    y = np.sin(np.multiply.outer(positions + k, omega[:used]))
    w, _ = fit_linear_map(x, y)
    return float(np.abs(x @ w - y).max())
