"""What makes a position code good, measured (seeds 000, 001, 003).

The four criteria of seed 000, each as a number computed from the encoding itself:

===============  =================================================================
unique           ``min_{p<q} ||e(p) - e(q)||`` over the L positions, > 0
bounded          ``max |e(p)_j|`` over the L positions, <= 1
consistent       the spread ``max_p - min_p`` of ``||e(p+k) - e(p)||`` is 0, and the
                 first L rows of the table for 2L equal the table for L
extrapolates     at 2L positions: values still within [-1, 1], rows still distinct
===============  =================================================================

and the link between the binary counter and the sinusoid (seed 001): bit ``i`` of
``p`` is a square wave of period ``2**(i + 1)`` whose fundamental is a fixed mix of the
sin/cos pair with the same wavelength.

Memory: no function builds an ``L x L x d`` tensor. Pairwise distances use the Gram
identity ``||a - b||^2 = |a|^2 + |b|^2 - 2 a.b`` in float64 row blocks, and
``scheme_criteria`` reads the table in row blocks of ``scheme_table``, in shares of the
rows on posenc's thread pool (numpy releases the GIL), in a single pass.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from posenc import _threads
from posenc._validate import check_array, check_base, check_int
from posenc.schemes import SCHEMES, scheme_table
from posenc.sinusoidal import frequencies

__all__ = [
    "CONSISTENT_TOL",
    "SHIFT_INVARIANT",
    "UNIQUE_TOL",
    "Criteria",
    "Pair",
    "bit_fundamental",
    "bit_wave",
    "counter_base",
    "counter_frequencies",
    "distance_blocks",
    "max_abs",
    "min_distance",
    "pairwise_distances",
    "scheme_criteria",
    "sine_table",
    "step_distances",
]

# Two rows closer than this count as the same code (float64 rounding is ~1e-15).
UNIQUE_TOL = 1e-6
# Relative spread of ||e(p+k) - e(p)|| over p that still counts as "independent of p".
CONSISTENT_TOL = 1e-9
# Encodings whose ||e(p) - e(q)|| depends on p - q only: index and normalised are affine
# in p, the sinusoid rotates each pair by omega_i (q - p) (seed 000, T(k)).
SHIFT_INVARIANT = ("index", "normalised", "sinusoidal")
# Float64 entries per working block (8 MB: faster than 32 MB, fewer cache misses), and
# the side of a Gram tile (cache-sized).
_BLOCK_ENTRIES = 2**20
_TILE = 256
# Entries of the table for 2L per extra thread (below, threads cost more than they save).
_THREAD_MIN = 2**21


class Pair(NamedTuple):
    """Two positions ``i < j`` and their distance (``nan, -1, -1`` when there is no pair)."""

    distance: float
    i: int
    j: int


def _rows_per_block(width: int) -> int:
    return max(1, _BLOCK_ENTRIES // max(1, width))


def pairwise_distances(a, b=None) -> np.ndarray:
    """Euclidean distances between the rows of ``a`` and of ``b`` (default ``a``).

    .. math:: \\|a_i - b_j\\|^2 = \\|a_i\\|^2 + \\|b_j\\|^2 - 2\\, a_i \\cdot b_j

    Computed in float64 on columns centred by the mean of ``b`` (distances do not change,
    rounding shrinks with the norms); tiny negative squares are clipped to 0.

    Parameters
    ----------
    a : array_like, shape (m, d)
    b : array_like, shape (n, d), optional

    Returns
    -------
    ndarray, shape (m, n)

    Examples
    --------
    >>> pairwise_distances([[0.0, 0.0], [3.0, 4.0]])
    array([[0., 5.],
           [5., 0.]])
    """
    a = check_array("a", a, min_ndim=2).astype(np.float64, copy=False)
    b = a if b is None else check_array("b", b, min_ndim=2).astype(np.float64, copy=False)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
        raise ValueError(f"a and b must be 2-D with the same columns, got {a.shape}, {b.shape}")
    centre = b.mean(axis=0) if b.shape[0] else 0.0
    a, b = a - centre, b - centre
    sq = np.einsum("ij,ij->i", a, a)[:, None] + np.einsum("ij,ij->i", b, b)[None, :]
    sq -= 2.0 * (a @ b.T)
    return np.sqrt(np.maximum(sq, 0.0, out=sq), out=sq)


def min_distance(table, *, min_gap: int = 1) -> Pair:
    """The closest two rows ``i < j`` with ``j - i >= min_gap``.

    The pair is found with the Gram identity of ``pairwise_distances`` on tiles of rows
    (memory ``O(tile^2)``, never ``L x L x d``) of the column-centred table, and its
    distance is then measured directly as ``||e(i) - e(j)||``. Exact pruning: two tiles
    whose bounding boxes are farther apart than the closest pair exactly ``min_gap``
    apart cannot hold the answer and are skipped (for codes of consecutive positions,
    most tile pairs: 79 % for the binary counter, 87 % for sin(p / 2^i) at 8192 rows).

    Parameters
    ----------
    table : array_like, shape (L, d)
    min_gap : int
        Smallest ``j - i`` considered, >= 1 (1: every pair; larger: far-apart pairs).

    Returns
    -------
    Pair
        ``(nan, -1, -1)`` when no pair is ``min_gap`` apart (``L <= min_gap``).

    Examples
    --------
    >>> min_distance([[0.0], [5.0], [1.0], [9.0]])
    Pair(distance=1.0, i=0, j=2)
    >>> min_distance([[0.0], [5.0], [1.0], [9.0]], min_gap=3)
    Pair(distance=9.0, i=0, j=3)
    """
    table = check_array("table", table, min_ndim=2).astype(np.float64, copy=False)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D, got shape {table.shape}")
    min_gap = check_int("min_gap", min_gap, minimum=1)
    n = table.shape[0]
    if n <= min_gap:
        return Pair(math.nan, -1, -1)
    centred = table - table.mean(axis=0)
    sq = np.einsum("ij,ij->i", centred, centred)
    # Tiles of _TILE rows. Two tiles' bounding boxes are at least this far apart squared:
    # tile pairs farther apart than the closest pair min_gap apart cannot hold the answer.
    starts = np.arange(0, n, _TILE)
    low = np.minimum.reduceat(centred, starts, axis=0)
    high = np.maximum.reduceat(centred, starts, axis=0)
    bound = float(step_distances(centred, min_gap).min()) ** 2 * (1.0 + 1e-9)
    best = (math.inf, -1, -1)
    for a, row_start in enumerate(starts):
        rows = centred[row_start : row_start + _TILE]
        gaps = np.maximum(np.maximum(low[a:] - high[a], low[a] - high[a:]), 0.0)
        apart = np.einsum("bj,bj->b", gaps, gaps)  # from tile a to tiles b = a, a + 1, ..
        for b in range(a, len(starts)):
            col_start = int(starts[b])
            cols = centred[col_start : col_start + _TILE]
            lag = min_gap - (col_start - row_start)  # pair (r, c) counts when c - r >= lag
            if lag > cols.shape[0] - 1 or apart[b - a] > bound:
                continue
            d2 = rows @ cols.T
            d2 *= -2.0
            d2 += sq[row_start : row_start + _TILE, None]
            d2 += sq[None, col_start : col_start + _TILE]
            if lag > 1 - rows.shape[0]:
                d2[np.tri(*d2.shape, lag - 1, dtype=bool)] = np.inf
            r, c = divmod(int(np.argmin(d2)), d2.shape[1])
            best = min(best, (float(d2[r, c]), int(row_start) + r, col_start + c))
    _, best_i, best_j = best  # ties: the smallest (i, j)
    distance = float(np.linalg.norm(table[best_i] - table[best_j]))
    return Pair(distance, best_i, best_j)


def step_distances(table, k: int = 1) -> np.ndarray:
    """``||e(p + k) - e(p)||`` for ``p = 0 .. L - k - 1`` (empty when ``k >= L``).

    Parameters
    ----------
    table : array_like, shape (L, d)
    k : int
        Offset, >= 1.

    Examples
    --------
    The binary counter: 7 -> 8 flips four bits, so that step is 2 = sqrt(4).

    >>> from posenc.schemes import scheme_table
    >>> step_distances(scheme_table("binary", 10, 4))
    array([1.        , 1.41421356, 1.        , 1.73205081, 1.        ,
           1.41421356, 1.        , 2.        , 1.        ])
    """
    table = check_array("table", table, min_ndim=2)
    k = check_int("k", k, minimum=1)
    n = table.shape[0]
    out = np.empty(max(0, n - k))
    step = _rows_per_block(table.shape[1])
    for start in range(0, out.size, step):
        stop = min(start + step, out.size)
        diff = np.subtract(table[start + k : stop + k], table[start:stop], dtype=np.float64)
        out[start:stop] = np.sqrt(np.einsum("ij,ij->i", diff, diff))
    return out


def max_abs(table) -> float:
    """Largest ``|value|`` of a table (the *bounded* criterion).

    Examples
    --------
    >>> max_abs([[0.5, -2.0], [1.0, 0.0]])
    2.0
    """
    return float(np.abs(check_array("table", table)).max())


def sine_table(positions, omegas) -> np.ndarray:
    """Sine-only codes ``e(p)_j = sin(omega_j p)`` (seed 003).

    With three frequencies this is the d_model = 3 example: high frequencies close a
    loop within the sequence, so far-apart positions come close.

    Parameters
    ----------
    positions : int or array_like of float
        An int L >= 1 means ``p = 0 .. L - 1``; an array gives the positions (they may be
        fractional, to draw the continuous path).
    omegas : array_like, shape (m,)
        Angular frequencies, finite.

    Returns
    -------
    ndarray, shape (number of positions, m)

    Examples
    --------
    >>> sine_table(3, [1.0, 0.5]).round(4)
    array([[0.    , 0.    ],
           [0.8415, 0.4794],
           [0.9093, 0.8415]])
    >>> sine_table([0.5], [np.pi]).tolist()
    [[1.0]]
    """
    if isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        positions = np.arange(check_int("positions", positions, minimum=1), dtype=np.float64)
    else:
        positions = check_array("positions", positions).astype(np.float64)
        if positions.ndim != 1:
            raise ValueError(f"positions must be an int or 1-D, got shape {positions.shape}")
    omegas = check_array("omegas", omegas).astype(np.float64)
    if omegas.ndim != 1:
        raise ValueError(f"omegas must be 1-D, got shape {omegas.shape}")
    return np.sin(np.multiply.outer(positions, omegas))


# ---------------------------------------------------------------------------------
# The criteria of one scheme, read in row blocks.


class Criteria(NamedTuple):
    """The measured criteria of one scheme at length L (and 2L). ``nan``: no pair."""

    name: str
    length: int
    d_model: int
    k: int
    min_distance: float  # unique: over positions 0 .. L-1
    closest: tuple[int, int]
    max_abs: float  # bounded: over positions 0 .. L-1
    step_spread: float  # consistent: max - min of ||e(p+k) - e(p)|| over p
    step_mean: float
    length_change: float  # consistent: max |table(L) - table(2L)[:L]|
    low_2l: float  # extrapolates: value range at 2L
    high_2l: float
    min_distance_2l: float  # extrapolates: uniqueness at 2L
    pairs_checked: int  # rows searched for the closest pair at 2L (< 2L when capped)
    steps: np.ndarray  # ||e(p+k) - e(p)|| for p = 0 .. L-k-1

    @property
    def unique(self) -> bool | None:
        return None if math.isnan(self.min_distance) else self.min_distance > UNIQUE_TOL

    @property
    def bounded(self) -> bool:
        return self.max_abs <= 1.0 + 1e-12

    @property
    def consistent_offset(self) -> bool | None:
        if math.isnan(self.step_spread):
            return None
        return self.step_spread <= CONSISTENT_TOL * max(1.0, self.step_mean)

    @property
    def consistent_length(self) -> bool:
        return self.length_change <= 1e-12

    @property
    def extrapolates(self) -> bool:
        bounded = max(abs(self.low_2l), abs(self.high_2l)) <= 1.0 + 1e-12
        return bounded and not self.min_distance_2l <= UNIQUE_TOL

    @property
    def passes(self) -> bool:
        """All four criteria hold (a criterion that cannot be measured does not)."""
        checks = (self.unique, self.bounded, self.consistent_offset, self.consistent_length)
        return all(checks) and self.extrapolates


class _Source:
    """Rows of ``scheme_table(name, length, d_model, base, total_length=total)``, in blocks.

    Where the table has structure, a few columns ``v`` with weights ``w`` stand for it:
    ``||e(p) - e(q)||^2 = sum_c w_c (v_c(p) - v_c(q))^2``, and the values of ``v`` span
    the same range as the full table.

    - index / normalised: all d columns are equal: one column, ``w = d``.
    - binary: columns above the highest bit of ``length - 1`` are 0, like row 0.
    - sin_pow2: once ``p / 2**i < 2**-26`` for every p, ``sin`` returns its argument
      exactly, so those columns are ``2**-(i - f) v_f``: column ``f`` with
      ``w_f = sum 4**-(i - f)`` (their values lie in ``[0, max v_f]``).
    - sinusoidal: no shortcut; blocks of the table itself.
    """

    def __init__(self, name, length, d_model, base, total, *, layout_length=None):
        self.name, self.length, self.d_model, self.base, self.total = (
            name,
            length,
            d_model,
            base,
            total,
        )
        self.values: np.ndarray | None = None
        self.root = np.ones(1)
        # The columns kept are chosen for layout_length >= length: two sources with the
        # same layout_length have the same columns and weights, so they can be compared.
        bits = max(1, ((layout_length or length) - 1).bit_length())
        if name in ("index", "normalised"):
            self.values = scheme_table(name, length, 1, base, total_length=total)
            self.root = np.array([math.sqrt(d_model)])
        elif name == "binary":
            self.values = scheme_table(name, length, min(d_model, bits), base)
        elif name == "sin_pow2":
            first_linear = bits + 26
            self.values = scheme_table(name, length, min(d_model, first_linear + 1), base)
            if d_model > first_linear + 1:
                tail = np.exp2(-2.0 * np.arange(min(d_model - first_linear, 600)))
                self.root = np.ones(first_linear + 1)
                self.root[-1] = math.sqrt(float(tail.sum()))
        self.width = d_model if self.values is None else self.values.shape[1]

    def rows(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """``(values, scaled)`` of positions ``start .. stop - 1``; ``scaled = v sqrt(w)``."""
        if self.values is None:
            table = scheme_table(
                self.name,
                stop - start,
                self.d_model,
                self.base,
                total_length=self.total,
                offset=start,
            )
            return table, table
        values = self.values[start:stop]
        return values, values * self.root

    def scaled(self, stop: int) -> np.ndarray:
        """The equal-distance table of the first ``stop`` positions (few columns)."""
        return self.rows(0, stop)[1]


def distance_blocks(
    name: str,
    length: int,
    d_model: int,
    base: float = 10000.0,
    *,
    block_rows: int = 256,
    total_length: int | None = None,
) -> Iterator[tuple[int, np.ndarray]]:
    """The ``L x L`` matrix ``||e(i) - e(j)||`` of scheme ``name``, in row blocks.

    Yields ``(start, block)`` with ``block`` of shape ``(rows, length)`` for positions
    ``start .. start + rows - 1``, so the full matrix never has to exist. Shift-invariant
    schemes (``SHIFT_INVARIANT``) read ``D(|i - j|)`` from ``D(k) = ||e(k) - e(0)||``;
    the others use the Gram identity on a table with few columns of equal distances.

    Parameters
    ----------
    name : one of ``SCHEMES``
    length : int
        L >= 1.
    d_model : int
        >= 1 (even for ``"sinusoidal"``).
    base : float
        For ``"sinusoidal"``.
    block_rows : int
        Rows per block, >= 1.
    total_length : int, optional
        The L that ``"normalised"`` divides by (default ``length``): the first ``length``
        positions of a longer sequence.

    Examples
    --------
    >>> np.vstack([b for _, b in distance_blocks("binary", 4, 2, block_rows=3)]).round(3)
    array([[0.   , 1.   , 1.   , 1.414],
           [1.   , 0.   , 1.414, 1.   ],
           [1.   , 1.414, 0.   , 1.   ],
           [1.414, 1.   , 1.   , 0.   ]])
    """
    if name not in SCHEMES:
        raise ValueError(f"name must be one of {SCHEMES}, got {name!r}")
    length = check_int("length", length, minimum=1)
    d_model = check_int("d_model", d_model, minimum=1)
    block_rows = check_int("block_rows", block_rows, minimum=1)
    total = length if total_length is None else total_length
    total = check_int("total_length", total, minimum=length)
    source = _Source(name, length, d_model, base, total)
    if name in SHIFT_INVARIANT:
        offsets = _offsets(source, length)
        cols = np.arange(length)
        for start in range(0, length, block_rows):
            rows = np.arange(start, min(start + block_rows, length))[:, None]
            yield start, offsets[np.abs(cols[None, :] - rows)]
        return
    table = source.scaled(length)
    for start in range(0, length, block_rows):
        block = pairwise_distances(table[start : start + block_rows], table)
        rows = np.arange(block.shape[0])
        block[rows, start + rows] = 0.0  # exactly: a position is at distance 0 from itself
        yield start, block


def _offsets(source: _Source, stop: int) -> np.ndarray:
    """``D(k) = ||e(k) - e(0)||`` for ``k = 0 .. stop - 1``."""
    out = np.empty(stop)
    first = source.rows(0, 1)[1]
    step = _rows_per_block(source.width)
    for start in range(0, stop, step):
        diff = source.rows(start, min(start + step, stop))[1] - first
        out[start : start + diff.shape[0]] = np.sqrt(np.einsum("ij,ij->i", diff, diff))
    return out


def _measured(source: _Source, pair: Pair) -> Pair:
    """``pair`` with its distance measured as ``||e(j) - e(i)||`` on the rows themselves."""
    if pair.i < 0:
        return pair
    diff = source.rows(pair.j, pair.j + 1)[1] - source.rows(pair.i, pair.i + 1)[1]
    return pair._replace(distance=float(np.linalg.norm(diff)))


def _shift_invariant_min(offsets: np.ndarray, upto: int) -> Pair:
    if upto < 2:
        return Pair(math.nan, -1, -1)
    k = 1 + int(np.argmin(offsets[1:upto]))
    return Pair(float(offsets[k]), 0, k)


def _apart(a, a_norms, b, b_norms) -> np.ndarray:
    """``||a_i - b_i||`` from ``|a|^2 + |b|^2 - 2 a.b``: one read of the rows, no
    difference written (used for the sinusoid, whose rows all have ``|a|^2 = d / 2``,
    so the identity loses at most ~1e-13 to rounding)."""
    dots = np.einsum("ij,ij->i", a, b)
    return np.sqrt(np.maximum(a_norms + b_norms - 2.0 * dots, 0.0))


def _scan(long, short, length, k, offsets, offsets_short, steps, begin, end):
    """Rows ``begin .. end - 1`` of the table for 2L (and of the table for L below L):
    fills their slices of ``offsets``, ``offsets_short`` and ``steps``, returns
    ``(low, high, top, change)``. Steps whose ``p + k`` lies past this share are left."""
    low, high, top, change = math.inf, -math.inf, 0.0, 0.0
    first, first_short = long.rows(0, 1)[1], short.rows(0, 1)[1]
    block = _rows_per_block(long.width)
    work = np.empty((min(block, end - begin), long.width))
    tail = np.empty((0, short.width))  # the last (up to) k scaled rows before this block
    tail_norms = np.empty(0)
    # The sinusoid's rows come from scheme_table blocks that ignore the total length:
    # where both tables' blocks are the same call (offset, length), they are the same rows.
    same_call = long.name == "sinusoidal"
    first_norm = float(np.einsum("ij,ij->", first, first))

    def distances_to(rows: np.ndarray, row: np.ndarray) -> np.ndarray:
        diff = np.subtract(rows, row, out=work[: rows.shape[0]])
        return np.sqrt(np.einsum("ij,ij->i", diff, diff))

    for start in range(begin, end, block):
        stop = min(start + block, end)
        values, scaled = long.rows(start, stop)
        block_low, block_high = float(values.min()), float(values.max())
        low, high = min(low, block_low), max(high, block_high)
        if same_call:
            norms = np.einsum("ij,ij->i", scaled, scaled)
            to_first = np.einsum("ij,j->i", scaled, first[0])
            offsets[start:stop] = np.sqrt(np.maximum(norms + first_norm - 2.0 * to_first, 0.0))
        else:
            offsets[start:stop] = distances_to(scaled, first)
        if start >= length:
            continue
        n = min(stop, length) - start
        if same_call and n == stop - start:  # identical arguments: identical rows, gap 0
            scaled_short, short_norms = scaled, norms
            top = max(top, -block_low, block_high)
            offsets_short[start:stop] = offsets[start:stop]
            if n > k:  # p and p + k both in this block
                steps[start : stop - k] = _apart(scaled[k:], norms[k:], scaled[:-k], norms[:-k])
        else:
            values_short, scaled_short = short.rows(start, start + n)
            short_norms = np.einsum("ij,ij->i", scaled_short, scaled_short)
            gap = np.abs(np.subtract(values_short, values[:n], out=work[:n]), out=work[:n])
            change = max(change, float(gap.max()))
            top = max(top, float(np.abs(values_short, out=work[:n]).max()))
            offsets_short[start : start + n] = distances_to(scaled_short, first_short)
            inner = step_distances(scaled_short, k)
            steps[start : start + inner.size] = inner
        if tail.shape[0]:  # p before this block (tail row i), p + k in it (row i + k - t)
            t = tail.shape[0]
            m = min(t, n + t - k)
            if m > 0:
                j = slice(k - t, k - t + m)
                if same_call:
                    edge = _apart(scaled_short[j], short_norms[j], tail[:m], tail_norms[:m])
                else:
                    edge = step_distances(np.vstack([tail, scaled_short[: k - t + m]]), k)
                steps[start - t : start - t + m] = edge
        if n >= k:
            tail, tail_norms = scaled_short[-k:], short_norms[-k:]
        else:
            tail = np.vstack([tail, scaled_short])[-k:]
            tail_norms = np.concatenate([tail_norms, short_norms])[-k:]
    return low, high, top, change


def scheme_criteria(
    name: str,
    length: int,
    d_model: int,
    base: float = 10000.0,
    *,
    k: int = 1,
    max_pair_rows: int = 16384,
) -> Criteria:
    """Measure the four criteria for scheme ``name`` at length ``L`` and at ``2L``.

    Rows are generated in blocks with ``scheme_table`` (memory ``O(block * d)``).
    For ``SHIFT_INVARIANT`` schemes the closest pair is ``min_k ||e(k) - e(0)||``; for the
    others ``min_distance`` runs on an equal-distance table with few columns, over the
    first ``min(2L, max_pair_rows)`` positions (``pairs_checked``).

    Parameters
    ----------
    name : one of ``SCHEMES``
    length : int
        L >= 1.
    d_model : int
        >= 1 (even for ``"sinusoidal"``).
    base : float
        For ``"sinusoidal"``, > 1.
    k : int
        Offset of the consistency check, >= 1.
    max_pair_rows : int
        Cap of the closest-pair search of binary and sin_pow2, >= 2.

    Returns
    -------
    Criteria

    Examples
    --------
    >>> c = scheme_criteria("normalised", 3, 2)
    >>> round(c.min_distance, 4), c.bounded, c.consistent_offset, c.consistent_length
    (0.7071, True, True, False)
    >>> scheme_criteria("index", 3, 2).max_abs
    2.0
    """
    if name not in SCHEMES:
        raise ValueError(f"name must be one of {SCHEMES}, got {name!r}")
    length = check_int("length", length, minimum=1)
    d_model = check_int("d_model", d_model, minimum=1)
    base = check_base(base)
    k = check_int("k", k, minimum=1)
    max_pair_rows = check_int("max_pair_rows", max_pair_rows, minimum=2)
    double = 2 * length
    long = _Source(name, double, d_model, base, double)
    short = _Source(name, length, d_model, base, length, layout_length=double)

    # One pass over the table for 2L (range, D(k) = ||e(k) - e(0)||) and, on its first
    # L rows, the table for L (change of codes, max |value|, steps p -> p + k), in row
    # blocks, contiguous shares of the rows on posenc's thread pool (numpy releases the GIL).
    # NaN until written: a slot the blocks missed would show in every result.
    offsets, offsets_short = np.full(double, np.nan), np.full(length, np.nan)
    steps = np.full(max(0, length - k), np.nan)
    block = _rows_per_block(long.width)
    n_blocks = -(-double // block)
    workers = _threads.shares(long.width * double // _THREAD_MIN)
    bounds = np.linspace(0, n_blocks, workers + 1).round().astype(int) * block
    args = (long, short, length, k, offsets, offsets_short, steps)
    shares = [(int(a), int(min(b, double))) for a, b in pairwise(bounds) if a < b]
    found = _threads.run(lambda share: _scan(*args, *share), shares)
    low, high = min(f[0] for f in found), max(f[1] for f in found)
    top, change = max(f[2] for f in found), max(f[3] for f in found)
    for begin, _ in shares[1:]:  # steps p -> p + k with p and p + k in different shares
        if begin < length:
            first_p = max(0, begin - k)
            edge = step_distances(short.rows(first_p, min(begin + k, length))[1], k)
            steps[first_p:begin] = edge[: begin - first_p]

    if name in SHIFT_INVARIANT:
        near = _shift_invariant_min(offsets_short, length)
        far = _shift_invariant_min(offsets, double)
        if name == "sinusoidal":  # D(k) came from |a|^2 + |b|^2 - 2 a.b: measure the pair
            near, far = (_measured(long, pair) for pair in (near, far))
        checked = double
    else:
        checked = min(double, max_pair_rows)
        table = long.scaled(checked)
        near = min_distance(table[: min(length, checked)])
        far = near if length >= checked else min_distance(table)  # the same rows: one search
        del table
    spread = float(steps.max() - steps.min()) if steps.size else math.nan
    mean = float(steps.mean()) if steps.size else math.nan
    return Criteria(
        name=name,
        length=length,
        d_model=d_model,
        k=k,
        min_distance=near.distance,
        closest=(near.i, near.j),
        max_abs=top,
        step_spread=spread,
        step_mean=mean,
        length_change=change,
        low_2l=low,
        high_2l=high,
        min_distance_2l=far.distance,
        pairs_checked=checked,
        steps=steps,
    )


# ---------------------------------------------------------------------------------
# The counter and its smooth version (seed 001).


def counter_base(bits: int) -> float:
    """The base whose sin/cos pairs double their wavelength from one pair to the next.

    With ``d = 2 * bits`` (one pair per bit) the paper's wavelengths are
    ``lambda_i = 2 pi base^(2i/d)``; ``lambda_{i+1} / lambda_i = base^(2/d) = 2`` gives

    .. math:: base = 2^{d/2} = 2^{bits}

    Examples
    --------
    >>> counter_base(4)
    16.0
    """
    bits = check_int("bits", bits, minimum=1, maximum=62)
    return float(2**bits)


def counter_frequencies(bits: int) -> np.ndarray:
    """``omega_i = 2 pi / 2^(i+1) = pi * base^(-2i/d)`` for bits ``i = 0 .. bits - 1``.

    The wavelength of pair i is then ``2^(i+1)`` positions, the period of bit i. The
    factor ``pi`` changes the frequencies, not a phase: the paper fixes ``omega_0 = 1``
    (wavelength ``2 pi``); the counter's lowest bit needs wavelength 2, so positions
    advance the angle by ``pi`` per step. (The phase is the half-step shift ``p + 1/2``
    of :func:`bit_fundamental`.)

    Examples
    --------
    >>> (2 * np.pi / counter_frequencies(4)).tolist()
    [2.0, 4.0, 8.0, 16.0]
    """
    bits = check_int("bits", bits, minimum=1, maximum=62)
    return np.pi * frequencies(2 * bits, counter_base(bits))


def bit_wave(t, bit: int) -> np.ndarray:
    """Bit ``bit`` (0 = lowest) of ``floor(t)``: a 0/1 square wave of period ``2**(bit+1)``.

    Examples
    --------
    >>> bit_wave([0, 1, 2, 3, 4, 7.5, 8], 2).tolist()
    [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    """
    bit = check_int("bit", bit, minimum=0, maximum=62)
    t = check_array("t", t, min_ndim=0).astype(np.float64)
    return np.mod(np.floor(t / 2.0**bit), 2.0)


def bit_fundamental(t, bit: int) -> np.ndarray:
    """The smooth bit: first Fourier term of the square wave ``bit_wave(t + 1/2, bit)``.

    That wave equals bit ``bit`` of p at every integer ``t = p`` and jumps half-way
    between positions, at ``t = m 2^bit - 1/2``, where the fundamental crosses 1/2:

    .. math::

        b_i(t) = \\tfrac12 - \\tfrac{2}{\\pi} \\sum_{m\\ \\mathrm{odd}}
                 \\tfrac1m \\sin\\!\\big(m\\,\\omega_i (t + \\tfrac12)\\big)
        \\approx \\tfrac12 - \\tfrac{2}{\\pi}\\Big(\\cos\\tfrac{\\omega_i}{2}\\,\\sin\\omega_i t
        + \\sin\\tfrac{\\omega_i}{2}\\,\\cos\\omega_i t\\Big),
        \\quad \\omega_i = \\frac{\\pi}{2^i}

    It is a fixed linear mix of the pair ``sin(omega_i t), cos(omega_i t)``.

    Examples
    --------
    >>> bit_fundamental([0, 1], 0).round(4)  # lowest bit: 0.5 -/+ 2/pi
    array([-0.1366,  1.1366])
    """
    bit = check_int("bit", bit, minimum=0, maximum=62)
    t = check_array("t", t, min_ndim=0).astype(np.float64)
    omega = np.pi / 2.0**bit
    return 0.5 - (2.0 / np.pi) * np.sin(omega * (t + 0.5))
