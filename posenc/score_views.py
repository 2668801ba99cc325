"""Score matrices too large to hold, reduced row block by row block on the shared pool.

Symbols as in the package glossary (:mod:`posenc`: m, n, d = head_dim, L), and:

=============  ==============================================================
``S[m, n]``    ``left[m] . right[n]``: the raw score of query m and key n
``P``          a period: content that repeats every P positions
``R``          a block of ``row_step`` query rows, averaged into one display row
=============  ==============================================================

An ``L x L`` float64 matrix at L = 4096 is 134 MB, so neither function here holds one:
rows of S are computed in blocks, each block reduced at once to what is shown (block
means, maxima), the blocks spread over :mod:`posenc`'s one thread pool
(:func:`posenc.set_max_threads`). Results do not depend on the number of threads.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from posenc import _threads
from posenc._validate import check_array, check_int
from posenc.attention import causal_softmax
from posenc.rope import rope
from posenc.rotation import split_permutation

__all__ = [
    "SOFTMAXES",
    "LayoutDifferences",
    "ScoreBlockMeans",
    "layout_differences",
    "score_block_means",
]

# Accepted ``softmax`` of :func:`score_block_means`: none, causal, over every key.
SOFTMAXES = (None, "causal", "all")
# Score rows per block (a 128 x 4096 float64 block is 4 MB: faster than 256 or 512
# rows, it stays in cache).
_BLOCK_ROWS = 128
# Rows per block of the layout check, which reuses two buffers per thread: there 256
# rows measured fastest (0.308 s at 4096 x 256 vs 0.333 s with 128 and 0.345 s with 1024).
_LAYOUT_ROWS = 256


class ScoreBlockMeans(NamedTuple):
    means: np.ndarray  # (ceil(L / row_step), L): mean over each block R of query rows
    residual: float | None  # max |S[m + P, n + P] - S[m, n]| of the raw scores (P given)
    max_abs: float  # max |S| of the raw scores


def _factors(names: tuple[str, str], left, right) -> tuple[np.ndarray, np.ndarray]:
    left, right = check_array(names[0], left), check_array(names[1], right)
    if left.ndim != 2 or left.shape != right.shape or left.shape[0] < 1:
        raise ValueError(
            f"{names[0]} and {names[1]} must be 2-D of the same shape (L, d), L >= 1,"
            f" got shapes {left.shape} and {right.shape}"
        )
    return left, right


def score_block_means(
    left, right, row_step: int = 1, *, period=None, head_dim=None, softmax=None
) -> ScoreBlockMeans:
    """Row-block means of ``S = left @ right.T`` (scaled, softmaxed), never the whole S.

    .. math::

        \\bar S[R, n] = \\frac{1}{|R|} \\sum_{m \\in R} f(S)[m, n], \\qquad
        \\text{residual} = \\max_{m, n} |S[m + P, n + P] - S[m, n]|

    where ``f`` divides by ``sqrt(head_dim)`` (when given), then applies the softmax of
    each row (``"causal"``: keys ``n <= m`` only; ``"all"``: every key). The residual and
    ``max |S|`` are of the raw scores. When ``left`` and ``right`` repeat exactly with
    period P and there is no softmax, ``S[m, n] = s[m mod P, n mod P]`` with
    ``s = left[:P] @ right[:P].T``: the means come from the P x P matrix ``s`` and the
    residual is exactly 0.

    Parameters
    ----------
    left, right : array_like, shape (L, d)
        Queries and keys at positions ``0 .. L - 1`` (rotated already, for RoPE).
    row_step : int
        Query rows per block R, ``1 .. L``; the last block may be shorter.
    period : int, optional
        ``P`` in ``1 .. L``: also measure the residual at that shift.
    head_dim : int, optional
        >= 1: divide the scores by ``sqrt(head_dim)`` (scaled dot-product attention).
    softmax : {None, "causal", "all"}
        Row-wise softmax after the scaling.

    Returns
    -------
    ScoreBlockMeans
        ``means`` of shape ``(ceil(L / row_step), L)``, ``residual`` (None without
        ``period``) and ``max_abs``.

    Examples
    --------
    >>> x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> view = score_block_means(x, x, 2, period=2)
    >>> view.means
    array([[0.5, 0.5, 0.5, 0.5],
           [0.5, 0.5, 0.5, 0.5]])
    >>> view.residual, view.max_abs
    (0.0, 1.0)
    >>> zero = np.zeros((2, 3))  # equal scores: equal weights on the keys n <= m
    >>> score_block_means(zero, zero, softmax="causal").means
    array([[1. , 0. ],
           [0.5, 0.5]])
    """
    left, right = _factors(("left", "right"), left, right)
    n = left.shape[0]
    row_step = check_int("row_step", row_step, minimum=1, maximum=n)
    shift = None if period is None else check_int("period", period, minimum=1, maximum=n)
    if head_dim is not None:
        head_dim = check_int("head_dim", head_dim, minimum=1)
    if softmax not in SOFTMAXES:
        raise ValueError(f"softmax must be one of {SOFTMAXES}, got {softmax!r}")
    if shift and softmax is None and _periodic(left, shift) and _periodic(right, shift):
        return _periodic_means(left, right, shift, head_dim, row_step)
    rows_per_block = row_step * max(1, _BLOCK_ROWS // row_step)
    means = np.empty((-(-n // row_step), n))

    def block(a: int) -> tuple[float, float]:
        b = min(a + rows_per_block, n)
        s = left[a : min(b + (shift or 0), n)] @ right.T  # + the rows m + shift
        residual = 0.0
        if shift and (m := min(b, n - shift) - a) > 0:
            diff = np.subtract(s[shift : shift + m, shift:], s[:m, : n - shift])
            residual = float(np.abs(diff, out=diff).max())
        s = s[: b - a]
        top = float(max(s.max(), -s.min()))
        factor = 1 / math.sqrt(head_dim) if head_dim else 1.0
        if softmax:
            s *= factor
            causal_softmax(s, causal=softmax == "causal", out=s, first_row=a)
            factor = 1.0
        local = np.arange(0, b - a, row_step)
        sizes = np.diff(np.append(local, b - a))
        means[a // row_step : a // row_step + local.size] = np.add.reduceat(s, local, axis=0) * (
            factor / sizes[:, None]
        )  # scores: the mean of S / sqrt(d) is mean(S) / sqrt(d), one pass less
        return residual, top

    found = _threads.run(block, range(0, n, rows_per_block))
    residual = max(r for r, _ in found) if shift else None
    return ScoreBlockMeans(means, residual, max(top for _, top in found))


def _periodic(x: np.ndarray, period: int) -> bool:
    """Row m + period of ``x`` equals row m, exactly, for every m."""
    return bool(np.array_equal(x[period:], x[:-period]))


def _periodic_means(left, right, period: int, head_dim, row_step: int) -> ScoreBlockMeans:
    """:func:`score_block_means` of factors that repeat with period P in rows (checked
    exactly): each block mean is ``counts_R s / |R|`` with ``s`` P x P (no L x L)."""
    n = left.shape[0]
    small = left[:period] @ right[:period].T
    top = float(np.abs(small).max())
    if head_dim:
        small /= math.sqrt(head_dim)
    starts = np.arange(0, n, row_step)
    residues = np.arange(n) % period
    counts = np.add.reduceat(np.eye(period)[residues], starts, axis=0)
    counts /= np.diff(np.append(starts, n))[:, None]
    return ScoreBlockMeans((counts @ small)[:, residues], 0.0, top)


class LayoutDifferences(NamedTuple):
    permuted: float  # max |S_split(q P, k P) - S_interleaved(q, k)| over the checked rows
    unpermuted: float  # max |S_split(q, k) - S_interleaved(q, k)| over the checked rows
    vectors: float  # max |rope_interleaved(q)[:, P] - rope_split(q[:, P])|, every row
    rows: int  # query rows checked: 0, step, 2 step, ... < L


def layout_differences(q, k, base: float = 10000.0, *, step: int = 1) -> LayoutDifferences:
    """How far RoPE's two layouts are apart: as they are, and with the dimensions permuted.

    With ``P = split_permutation(d)`` (columns ``2j, 2j + 1`` to ``j, d/2 + j``):

    .. math::

        \\text{permuted} = \\max_{m \\in \\{0, s, 2s, ..\\}, n}
        |S_{split}(q P, k P)[m, n] - S_{interleaved}(q, k)[m, n]|

    (zero up to rounding: the layouts are one model with its columns reordered), and
    ``unpermuted`` the same without ``P`` (not zero: other pairs rotate together).
    ``vectors`` compares the rotated queries at every position. Query rows are
    ``0, step, 2 step, ...`` against every key, in row blocks on the shared pool.

    Parameters
    ----------
    q, k : array_like, shape (L, d)
        Queries and keys at positions ``0 .. L - 1``; d even.
    base : float
        As in :func:`posenc.rope`.
    step : int
        Check every step-th query row, ``1 .. L`` (the product costs ``L^2 d / step``).

    Returns
    -------
    LayoutDifferences

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal((6, 4))
    >>> found = layout_differences(x, x)
    >>> found.permuted < 1e-12, found.unpermuted > 0.1, found.rows
    (True, True, 6)
    """
    q, k = _factors(("q", "k"), q, k)
    length, head_dim = q.shape
    if head_dim % 2:
        raise ValueError(f"q and k must have an even number of columns d >= 2, got {head_dim}")
    step = check_int("step", step, minimum=1, maximum=length)
    perm = split_permutation(head_dim)

    def shares(rows: int) -> list[list[tuple[int, int]]]:
        """Blocks of `_LAYOUT_ROWS` of `rows` rows, one contiguous share per thread."""
        bounds = [*range(0, rows, _LAYOUT_ROWS), rows]
        workers = _threads.shares(len(bounds) - 1)
        cuts = np.linspace(0, len(bounds) - 1, workers + 1).round().astype(int)
        return [list(pairwise(bounds[a : b + 1])) for a, b in pairwise(cuts)]

    # (interleaved, split on permuted dimensions, split) x (q, k), rotated first, each
    # thread a share of the rows. q and k of one row share its angles, so one `rope`
    # call per layout serves both (one cos / sin table instead of two).
    rotated = np.empty((3, 2, length, head_dim))

    def rotate(blocks: list[tuple[int, int]]) -> float:
        worst = 0.0
        for start, stop in blocks:
            q_, k_, at = q[start:stop], k[start:stop], np.arange(start, stop)
            both = rope(np.stack([q_, k_]), at, base, layout="interleaved")
            split = rope(np.stack([q_[:, perm], k_[:, perm], q_, k_]), at, base, layout="split")
            rotated[0, :, start:stop] = both
            rotated[1:, :, start:stop] = split.reshape(2, 2, stop - start, head_dim)
            worst = max(worst, float(np.abs(both[0][:, perm] - split[0]).max()))
        return worst

    (rq_i, rk_i), (rq_s, rk_s), (rq_u, rk_u) = rotated
    rq_i, rq_s, rq_u = rq_i[::step], rq_s[::step], rq_u[::step]

    def scores(blocks: list[tuple[int, int]]) -> list[float]:
        # One pair of score buffers per thread, reused by its blocks (fresh 8 MB
        # arrays cost page faults each time: about 10 % of the check).
        s_i = np.empty((_LAYOUT_ROWS, length))
        other = np.empty_like(s_i)
        worst = [0.0, 0.0]
        for start, stop in blocks:
            rows = slice(start, stop)
            np.matmul(rq_i[rows], rk_i.T, out=s_i[: stop - start])
            for i, (rq, rk) in enumerate(((rq_s, rk_s), (rq_u, rk_u))):
                out = other[: stop - start]
                np.matmul(rq[rows], rk.T, out=out)
                np.subtract(out, s_i[: stop - start], out=out)
                worst[i] = max(worst[i], float(out.max()), -float(out.min()))
        return worst

    vectors = max(_threads.run(rotate, shares(length)))
    permuted, unpermuted = np.max(_threads.run(scores, shares(rq_i.shape[0])), axis=0)
    return LayoutDifferences(float(permuted), float(unpermuted), vectors, rq_i.shape[0])
