"""What a position table ``P`` (rows = positions) is like, whatever made it.

The same five measurements for the sinusoid, a real model's learned table
(:func:`posenc.learned_position_embeddings`) or any uploaded one:

- :func:`row_pca`: the curve the rows trace in their first principal components;
- :func:`toeplitz_deviation`: how much of the Gram matrix ``P P^T`` is not a function
  of ``i - j`` (0 for the sinusoid);
- :func:`shift_residual`: how well one linear map sends every row p to row p + k
  (exactly, ``T(k)``, for the sinusoid);
- :func:`dominant_frequencies`: each column's strongest DFT frequency (the sinusoid's
  column pair i oscillates at ``omega_i``);
- :func:`cosine_by_distance`: the mean cosine similarity of rows ``r`` apart.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from posenc._validate import check_array, check_int
from posenc.fit import fit_linear_map

__all__ = [
    "ShiftResidual",
    "cosine_by_distance",
    "dominant_frequencies",
    "row_pca",
    "shift_residual",
    "toeplitz_deviation",
]


def _table(table, min_rows: int = 2) -> np.ndarray:
    p = check_array("table", table, min_ndim=2).astype(np.float64)
    if p.ndim != 2 or p.shape[0] < min_rows or p.shape[1] < 1:
        raise ValueError(
            f"table must be 2-D with at least {min_rows} rows and 1 column, got shape {p.shape}"
        )
    return p


def row_pca(table, n_components: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates of the centred rows in their first principal components.

    .. math:: P - \\bar P = U \\Sigma V^\\top, \\qquad \\text{coords} = U_{:, :k} \\Sigma_{:k}

    Parameters
    ----------
    table : array_like, shape (L, d)
        At least 2 rows.
    n_components : int
        ``k``, 1 .. min(L, d).

    Returns
    -------
    coords : ndarray, shape (L, k)
        Each component's sign is fixed so that its largest-magnitude coordinate is > 0.
    explained : ndarray, shape (k,)
        Share of the total variance on each component.

    Examples
    --------
    >>> coords, explained = row_pca([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], 1)
    >>> coords.round(4).ravel(), explained
    (array([-1.4142,  0.    ,  1.4142]), array([1.]))
    """
    p = _table(table)
    k = check_int("n_components", n_components, minimum=1, maximum=min(p.shape))
    centred = p - p.mean(axis=0)
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    coords = u[:, :k] * s[:k]
    peak = coords[np.argmax(np.abs(coords), axis=0), np.arange(k)]
    coords *= np.where(peak < 0, -1.0, 1.0)
    total = float(np.sum(s**2))
    explained = s[:k] ** 2 / total if total > 0 else np.zeros(k)
    return coords, explained


def toeplitz_deviation(matrix) -> float:
    """How far a square matrix is from depending on ``i - j`` only.

    .. math:: \\frac{\\lVert G - \\mathcal{T}(G) \\rVert_F}{\\lVert G \\rVert_F}

    with ``T(G)`` the nearest Toeplitz matrix (each diagonal replaced by its mean).
    0: a function of ``i - j`` alone (the sinusoid's ``P P^T``); 1 at most.

    Examples
    --------
    >>> toeplitz_deviation([[2.0, 1.0], [1.0, 2.0]])
    0.0
    >>> round(toeplitz_deviation([[1.0, 0.0], [0.0, 3.0]]), 4)
    0.4472
    """
    g = check_array("matrix", matrix, min_ndim=2).astype(np.float64)
    if g.ndim != 2 or g.shape[0] != g.shape[1] or g.shape[0] < 1:
        raise ValueError(f"matrix must be square and 2-D, got shape {g.shape}")
    n = g.shape[0]
    norm = float(np.linalg.norm(g))
    if norm == 0:
        return 0.0
    offsets = np.subtract.outer(np.arange(n), np.arange(n)) + n - 1
    means = np.bincount(offsets.ravel(), weights=g.ravel()) / np.bincount(offsets.ravel())
    return float(np.linalg.norm(g - means[offsets]) / norm)


class ShiftResidual(NamedTuple):
    """The best linear shift map of a table and what it leaves."""

    residual: float  # |P[p] W - P[p + k]|_F / |P[p + k]|_F over every row pair
    rank: int  # numerical rank of the rows P[0 .. L - 1 - k]


def shift_residual(table, k: int = 1) -> ShiftResidual:
    """The best linear map ``W`` with ``P[p] W ~ P[p + k]`` for every row, and its residual.

    .. math:: \\min_W \\frac{\\lVert P_{0..L-1-k} W - P_{k..L-1} \\rVert_F}
        {\\lVert P_{k..L-1} \\rVert_F}

    ``W`` is the minimum-norm least-squares fit (:func:`posenc.fit.fit_linear_map`, the
    one :func:`posenc.fit_shift` uses). For the sinusoid ``W = T(k)`` and the residual is
    ~0 (rounding); a learned table has no exact shift map.

    Parameters
    ----------
    table : array_like, shape (L, d)
        At least 3 rows.
    k : int
        1 .. L - 2.

    Examples
    --------
    >>> import posenc
    >>> fit = shift_residual(posenc.sinusoidal(64, 8), 3)
    >>> bool(fit.residual < 1e-9), fit.rank
    (True, 8)
    """
    p = _table(table, min_rows=3)
    k = check_int("k", k, minimum=1, maximum=p.shape[0] - 2)
    x, y = p[:-k], p[k:]
    w, rank = fit_linear_map(x, y)
    target = float(np.linalg.norm(y))
    gap = float(np.linalg.norm(x @ w - y))
    return ShiftResidual(gap / target if target > 0 else gap, rank)


def dominant_frequencies(table) -> np.ndarray:
    """Each column's strongest angular frequency over the rows (DFT, mean removed).

    .. math:: \\hat\\omega_c = \\frac{2\\pi f^*}{L}, \\qquad
        f^* = \\arg\\max_{1 \\le f \\le L/2}
        \\Big|\\sum_p (P_{pc} - \\bar P_c) e^{-2\\pi i f p / L}\\Big|

    The resolution is ``2 pi / L``: a column slower than one period over the L rows
    shows ``2 pi / L``. A constant column gives 0.

    Examples
    --------
    >>> p = np.arange(16)[:, None]
    >>> dominant_frequencies(np.cos(p * [2 * np.pi * 3 / 16, 0.0])).round(4)
    array([1.1781, 0.    ])
    """
    p = _table(table)
    n = p.shape[0]
    spectrum = np.abs(np.fft.rfft(p - p.mean(axis=0), axis=0))[1:]
    if spectrum.size == 0:
        return np.zeros(p.shape[1])
    best = np.argmax(spectrum, axis=0) + 1
    flat = spectrum.max(axis=0) <= 1e-12 * max(1.0, float(np.abs(p).max()))
    return np.where(flat, 0.0, 2 * np.pi * best / n)


def cosine_by_distance(table) -> np.ndarray:
    """Mean cosine similarity of rows ``r`` apart, for ``r = 0 .. L - 1``.

    .. math:: c(r) = \\frac{1}{L - r} \\sum_{p=0}^{L-1-r}
        \\frac{P_p \\cdot P_{p+r}}{\\lVert P_p \\rVert \\lVert P_{p+r} \\rVert}

    Rows of norm 0 count as similarity 0.

    Examples
    --------
    >>> cosine_by_distance([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    array([ 1.,  0., -1.])
    """
    p = _table(table, min_rows=1)
    norms = np.linalg.norm(p, axis=1, keepdims=True)
    unit = np.divide(p, norms, out=np.zeros_like(p), where=norms > 0)
    gram = unit @ unit.T
    n = p.shape[0]
    return np.array([np.diagonal(gram, r).mean() for r in range(n)])
