"""What makes a position code good, measured (seeds 000, 001, 003).

The four criteria of seed 000, each as a number computed from the encoding itself:

===============  =================================================================
unique           ``min_{p<q} ||e(p) - e(q)||`` over the L positions, > 0
bounded          ``max |e(p)_j|`` over the L positions, <= 1
consistent       the spread ``max_p - min_p`` of ``||e(p+k) - e(p)||`` is 0, and the
                 first L rows of the table for 2L equal the table for L
extrapolates     at 2L positions: values still within [-1, 1], rows still distinct
===============  =================================================================

Memory: no function builds an ``L x L x d`` tensor. Pairwise distances
(:mod:`posenc.distances`) use the Gram identity ``||a - b||^2 = |a|^2 + |b|^2 - 2 a.b``
in float64 row blocks, and ``scheme_criteria`` reads the table in row blocks of
``scheme_table``, in shares of the rows on posenc's thread pool (numpy releases the
GIL), in a single pass.

The distance helpers (:mod:`posenc.distances`), the counter (:mod:`posenc.counter`)
and ``sine_table`` (:mod:`posenc.schemes`) are re-exported here, where the pages read
them with the criteria.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from posenc import _threads
from posenc._validate import check_base, check_int

# Read with the criteria, and imported from here by the pages: re-exported.
from posenc.counter import bit_fundamental, bit_wave, counter_base, counter_frequencies
from posenc.distances import (
    Pair,
    max_abs,
    min_distance,
    pairwise_distances,
    rows_per_block,
    step_distances,
)
from posenc.schemes import SCHEMES, scheme_table, sine_table

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
# Entries of the table for 2L per extra thread (below, threads cost more than they save).
_THREAD_MIN = 2**21


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
    schemes (``SHIFT_INVARIANT``) read ``D(|p - q|)`` from ``D(k) = ||e(k) - e(0)||``;
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
    step = rows_per_block(source.width)
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
    block = rows_per_block(long.width)
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
    block = rows_per_block(long.width)
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
