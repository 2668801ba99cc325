"""Computations of the rotation page (``pages/4_Rotation.py``): windows, checks, fit.

Nothing here holds a d x d matrix at d = 4096: ``T(k)`` is shown through a window of
at most ``WINDOW`` rows and columns (:func:`posenc.rotation.rotation_entries`), the live
check applies ``T(k)`` blockwise in slabs, and the dense work (the two conventions, the
fit) runs on the first ``FIT_PAIRS`` pairs only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import posenc
from posenc.fit import ShiftFit, fit_shift, sine_only_fit_error, spread_positions
from posenc.rotation import block_rotation, column_rotation_matrix, rotation_entries
from posenc.shift import apply_rotation, apply_rotation_columns, shift_residuals
from posenc.similarity import offset_dot
from posenc.sinusoidal import encode_positions
from ui.shared import data_cache

# Rows and columns of T(k) drawn at most (32 pairs): every 2 x 2 block stays visible.
WINDOW = 64
# Dense work (fit, conventions) on at most this many dimensions (pairs 0 .. 127): an
# SVD-based least squares on 1024 x 512 costs ~13x more than on 1024 x 256.
FIT_DIMS = 256
# The fit uses at most this many positions (evenly chosen): twice the columns.
FIT_ROWS = 512
# Points of a drawn line or scatter, at most.
MAX_POINTS = 4000
# T(k) is offered in full up to this width (8 MB .npy); wider: its blocks.
EXPORT_DIMS = 1024


def pair_count(d_model: int) -> int:
    return d_model // 2


def window_indices(d_model: int, pair: int, layout: str) -> np.ndarray:
    """Rows/columns of T(k) shown: all when d <= WINDOW, else a window holding ``pair``."""
    if d_model <= WINDOW:
        return np.arange(d_model)
    half = d_model // 2
    if layout == "interleaved":
        start = min(max(2 * pair - WINDOW // 2, 0), d_model - WINDOW)
        return np.arange(start, start + WINDOW)
    span = WINDOW // 2
    start = min(max(pair - span // 2, 0), half - span)
    return np.concatenate([np.arange(start, start + span), half + np.arange(start, start + span)])


def pair_indices(d_model: int, pair: int, layout: str) -> tuple[int, int]:
    """The sine and cosine dimension of ``pair`` in the layout."""
    return (2 * pair, 2 * pair + 1) if layout == "interleaved" else (pair, d_model // 2 + pair)


def runs(idx: np.ndarray) -> str:
    """``0–63, 2048–2111``: the index runs of a window, for the caption."""
    breaks = np.flatnonzero(np.diff(idx) != 1) + 1
    parts = np.split(idx, breaks)
    return ", ".join(f"{part[0]}–{part[-1]}" for part in parts)


def t_window(k: float, d_model: int, base: float, layout: str, pair: int):
    idx = window_indices(d_model, pair, layout)
    return idx, rotation_entries(k, d_model, base, rows=idx, cols=idx, layout=layout)


def t_export_shape(d_model: int) -> tuple[int, int]:
    """The shape of :func:`t_export`."""
    return (d_model, d_model) if d_model <= EXPORT_DIMS else (d_model // 2, 4)


def t_export(k: float, d_model: int, base: float, layout: str) -> np.ndarray:
    """T(k) itself up to EXPORT_DIMS; wider, one row per block: cos, -sin, sin, cos."""
    if d_model <= EXPORT_DIMS:
        return posenc.rotation_matrix(k, d_model, base, layout=layout)
    angles = k * posenc.frequencies(d_model, base)
    cos, sin = np.cos(angles), np.sin(angles)
    return np.column_stack([cos, -sin, sin, cos])


class Check(NamedTuple):
    positions: np.ndarray  # drawn positions (first of each pooled group)
    residuals: np.ndarray  # max over each group: the curve never hides a peak
    pool: int  # positions per drawn point
    worst: float  # max over every position
    worst_at: int
    full: np.ndarray  # every position's residual (for the download)


def coefficients(d_model: int, base: float, choice: str) -> np.ndarray:
    """Seed 000's ``r_n`` of every block ``Phi_n(k)``, ``n = i + 1`` for pair ``i``:
    ``omega_i`` (its proof: ``r_n = omega_{n-1}``), ``omega_{i+1} = omega_i n^(-2/d)``
    (the index one pair off) or 1 for every pair."""
    omega = posenc.frequencies(d_model, base)
    if choice == "omega_next":
        return omega * float(base) ** (-2.0 / d_model)
    if choice == "one":
        return np.ones_like(omega)
    return omega


def _pooled(r: np.ndarray) -> Check:
    pool = max(1, -(-r.size // MAX_POINTS))
    starts = np.arange(0, r.size, pool)
    return Check(starts, np.maximum.reduceat(r, starts), pool, float(r.max()), int(r.argmax()), r)


@data_cache.cache_data(max_entries=16)
def coefficient_check(
    seq_len: int, d_model: int, base: float, k: float, layout: str, choice: str
) -> Check:
    """:func:`live_check` with seed 000's blocks built on ``coefficients(choice)``."""
    if choice == "omega":
        return live_check(seq_len, d_model, base, k, layout)
    r = coefficients(d_model, base, choice)
    return _pooled(shift_residuals(seq_len, d_model, k, base, layout=layout, coefficients=r))


# Positions the wrong-index example of the check's help is measured on, at most.
WRONG_INDEX_POSITIONS = 512


def wrong_index_residual(seq_len: int, d_model: int, base: float, k: float, layout: str) -> float:
    """The live check's largest residual with the index one pair off (``omega_{i+1}``),
    over the first ``WRONG_INDEX_POSITIONS`` positions: how far a wrong T(k) lands."""
    shown = min(seq_len, WRONG_INDEX_POSITIONS)
    return coefficient_check(shown, d_model, base, k, layout, "omega_next").worst


def signed(x: float, reference: float | None = None) -> str:
    """``+ 3`` or ``− 2.5``: an offset added to p. With a ``reference``, as many digits
    as it takes to tell them apart (``+ 2.99999`` next to ``+ 3``)."""
    digits = 6
    while reference is not None and digits < 15 and f"{x:.{digits}g}" == f"{reference:.{digits}g}":
        digits += 1
    return f"{'−' if x < 0 else '+'} {abs(x):.{digits}g}"


def coefficient_note(choice: str, d_model: int, base: float, k: float):
    """``(text key, fields)`` to show under the check for seed 000's coefficient
    ``choice``, or None for the proof's own ``omega``. When the chosen blocks turn every
    pair by the same angle as ``omega_i k`` (k = 0, or d = 2 where r = 1 is omega_0), the
    identity holds and the note says so instead of the failure."""
    if choice == "omega":
        return None
    omega = posenc.frequencies(d_model, base)
    if np.abs(k * (coefficients(d_model, base, choice) - omega)).max() <= 1e-15 * abs(k):
        return "rotation.coef_same", {}
    fields = {"k": signed(k)}
    if choice == "omega_next":  # the blocks are T(k n^(-2/d))
        fields["shift"] = signed(k * float(base) ** (-2.0 / d_model), reference=k)
    return f"rotation.coef_{choice}_notice", fields


@data_cache.cache_data(max_entries=16)
def live_check(seq_len: int, d_model: int, base: float, k: float, layout: str) -> Check:
    r = shift_residuals(seq_len, d_model, k, base, layout=layout)
    return _pooled(r)


class Circle(NamedTuple):
    positions: np.ndarray  # drawn positions 0 .. L-1 (subsampled when many)
    angles: np.ndarray  # omega_i p
    step: int


def circle(seq_len: int, omega: float) -> Circle:
    step = max(1, -(-seq_len // MAX_POINTS))
    positions = np.arange(0, seq_len, step)
    return Circle(positions, omega * positions, step)


def pair_rows(p: int, k: float, d_model: int, base: float, layout: str, pair: int):
    """Pair ``pair`` of PE[p], of PE[p] T(k) (rows, seed 000), of T(k)^T PE[p]^T (seed 003)."""
    s_idx, c_idx = pair_indices(d_model, pair, layout)
    row = encode_positions([float(p)], d_model, base, layout=layout)
    moved_row = apply_rotation(row, k, base, layout=layout)[0, [s_idx, c_idx]]
    moved_col = apply_rotation_columns(row.T, k, base, layout=layout)[[s_idx, c_idx], 0]
    block = rotation_entries(
        k, d_model, base, rows=[s_idx, c_idx], cols=[s_idx, c_idx], layout=layout
    )
    return row[0, [s_idx, c_idx]], moved_row, moved_col, block


@data_cache.cache_data(max_entries=16)
def convention_gap(seq_len: int, d_model: int, base: float, k: float, layout: str):
    """max |PE[p] T(k) - (T(k)^T PE[p]^T)^T| over all p, with the dense matrices of both
    seeds on the first FIT_DIMS dimensions; returns (gap, dims used)."""
    pairs = min(pair_count(d_model), FIT_DIMS // 2)
    omega = posenc.frequencies(d_model, base)[:pairs]
    t_row = block_rotation(k * omega, layout=layout)  # seed 000
    t_col = column_rotation_matrix(k, d_model, base, layout=layout, pairs=pairs)  # seed 003
    gap = 0.0
    step = max(1, (1 << 20) // (2 * pairs))
    for start in range(0, seq_len, step):
        p = np.arange(start, min(start + step, seq_len), dtype=np.float64)
        x = encode_positions(p, d_model, base, layout=layout, pairs=pairs)
        gap = max(gap, float(np.abs(x @ t_row - (t_col @ x.T).T).max()))
    return gap, 2 * pairs


class DotCurve(NamedTuple):
    k: np.ndarray
    dot: np.ndarray
    distance: np.ndarray
    step: float


@data_cache.cache_data(max_entries=16)
def dot_curve(seq_len: int, d_model: int, base: float, k: float) -> DotCurve:
    """Both curves over k in [-K, K], K = max(L - 1, |k|, 1), at MAX_POINTS + 1 values."""
    reach = max(float(seq_len - 1), abs(k), 1.0)
    ks = np.linspace(-reach, reach, MAX_POINTS + 1)
    dot = offset_dot(ks, d_model, base)
    # ||PE[p] - PE[p+k]||^2 = d - 2 PE[p].PE[p+k]: one pass of cosines for both curves.
    # Near k = 0 the difference cancels to ~1e-16 absolute, invisible on a chart; the
    # marked value at the chosen k uses offset_distance (no cancellation).
    distance = np.sqrt(np.maximum(d_model - 2.0 * dot, 0.0))
    return DotCurve(ks, dot, distance, float(ks[1] - ks[0]))


PICK_POINTS = 201  # whole offsets a click can pick on the dot-product chart, at most


@data_cache.cache_data(max_entries=8)
def dot_picks(seq_len: int, d_model: int, base: float, k: float) -> DotCurve:
    """Whole offsets k of :func:`dot_curve`'s range (every one, or PICK_POINTS spread
    out), with both curves there: the points a click on the chart picks."""
    reach = int(max(float(seq_len - 1), abs(k), 1.0))
    ks = np.unique(np.linspace(-reach, reach, min(2 * reach + 1, PICK_POINTS)).round())
    dot = offset_dot(ks, d_model, base)
    distance = np.asarray(posenc.offset_distance(ks, d_model, base), dtype=np.float64)
    return DotCurve(ks, dot, distance, float(ks[1] - ks[0]) if ks.size > 1 else 1.0)


def dot_at(p: int, k: float, d_model: int, base: float) -> tuple[float, float]:
    """PE[p] . PE[p + k] from the two rows, and sum_i cos(omega_i k) from the formula."""
    a, b = encode_positions([float(p), p + k], d_model, base)
    return float(a @ b), float(offset_dot(k, d_model, base))


class FitView(NamedTuple):
    fit: ShiftFit
    pairs: int  # pairs used (capped)
    slow_from: int | None  # first pair turning less than once across the sample
    capped_dims: bool
    capped_rows: bool
    n_available: int  # positions offered (L)
    sine_only: float  # max |XW - Y| of the same fit with the sine columns only


@data_cache.cache_data(max_entries=8)
def fit(
    seq_len: int, d_model: int, base: float, k: float, layout: str, kind: str, samples: str = "L"
) -> FitView:
    """The fit on ``samples``: ``"L"`` positions (at most FIT_ROWS), or ``"2m"``, twice
    the columns m fitted, whatever L (then the run is 0 .. 2m - 1)."""
    pairs = min(pair_count(d_model), FIT_DIMS // 2)
    n = 4 * pairs if samples == "2m" else min(seq_len, FIT_ROWS)
    length = n if samples == "2m" else seq_len
    if kind == "spread":
        positions = spread_positions(n, d_model, base, pairs=pairs)
    else:
        positions = np.unique(np.round(np.linspace(0, length - 1, n)))
    result = fit_shift(positions, k, d_model, base, layout=layout, pairs=pairs)
    turns = posenc.frequencies(d_model, base)[:pairs] * np.ptp(positions) / (2 * np.pi)
    slow = np.flatnonzero(turns < 1)
    slow_from = int(slow[0]) if slow.size else None
    sine_only = sine_only_fit_error(positions, k, d_model, base, pairs=pairs)
    capped_rows = samples != "2m" and n < seq_len
    return FitView(
        result, pairs, slow_from, pairs < pair_count(d_model), capped_rows, seq_len, sine_only
    )
