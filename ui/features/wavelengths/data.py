"""Cached computations of the Wavelength explorer (numbers from posenc), and which
positions and pairs its charts draw (point budgets). The translated tables are in
``ui.features.wavelengths.view``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import posenc
from posenc import spectrum
from ui.plain.grids import MAX_LINE_POINTS
from ui.plain.tables import positions  # noqa: F401  (the page reads data.positions)
from ui.shared import data_cache

DTYPES = ("float64", "float32")
CURVE_SAMPLES_PER_STEP = 16  # points per unit position of a continuous curve


@data_cache.cache_data(max_entries=16)
def form_errors(d_model: int, base: float) -> dict:
    """Both frequency forms in both dtypes against the 40-digit reference.

    Returns ``{"ulps": {dtype: (power ulps, log ulps)}, "compare": {dtype: FormComparison},
    "div_term_rel": max relative error of the float32 log form (torch's div_term)}``.
    """
    truth = spectrum.frequencies_reference(d_model, base)
    ulps, compare = {}, {}
    for dtype in DTYPES:
        power = spectrum.frequencies_power(d_model, base, dtype=dtype)
        log = spectrum.frequencies_logspace(d_model, base, dtype=dtype)
        ulps[dtype] = (spectrum.ulps(power, truth), spectrum.ulps(log, truth))
        compare[dtype] = spectrum.compare_forms(d_model, base, dtype=dtype)
    div_term = spectrum.frequencies_logspace(d_model, base, dtype=np.float32).astype(np.float64)
    div_term_rel = float((np.abs(div_term - truth) / truth).max())
    return {"ulps": ulps, "compare": compare, "div_term_rel": div_term_rel}


def drift_positions(context: int, largest: int = 2**17, count: int = 160) -> np.ndarray:
    """Log-spaced integer positions 0 .. ``largest`` plus the context's last position."""
    grid = np.unique(np.round(np.geomspace(1, largest, count)).astype(np.int64))
    extra = np.array([0, context - 1, 8191, 99999], dtype=np.int64)
    return np.unique(np.concatenate([grid, extra]))


@data_cache.cache_data(max_entries=16)
def drift(d_model: int, base: float, context: int) -> tuple[np.ndarray, spectrum.Drift]:
    """Float32 drift at log-spaced positions up to 2**17 (and at L - 1, 8191, 99999)."""
    at = drift_positions(context)
    return at, spectrum.float32_drift(at, d_model, base)


def drift_at(at: np.ndarray, values: np.ndarray, position: int) -> float:
    return float(values[np.searchsorted(at, position)])


def wavelength_series(d_model: int, base: float, extra: Sequence[float]) -> list:
    """``(base, lambda)`` for the shared base first, then each other extra base."""
    bases = [base, *(b for b in extra if b != base)]
    return [(b, posenc.wavelengths(d_model, b)) for b in bases]


def line_stride(n: int, max_points: int = MAX_LINE_POINTS) -> int:
    """Every how many points a line of ``n`` points is drawn so that <= ``max_points`` remain."""
    return max(1, -(-n // max_points))


def dial_pairs(n_pairs: int, n_dials: int) -> np.ndarray:
    """Pairs shown as dials: all of them, or ``n_dials`` spread evenly from first to last."""
    if n_pairs <= n_dials:
        return np.arange(n_pairs)
    return np.unique(np.round(np.linspace(0, n_pairs - 1, n_dials)).astype(int))


def curve_samples(seq_len: int, per_step: int = CURVE_SAMPLES_PER_STEP) -> np.ndarray | None:
    """Real positions ``0 .. L-1``, ``per_step`` per unit step (fewer when that would pass
    ``MAX_LINE_POINTS``, but always a whole number, so the integers are samples), for a
    continuous curve; None when even one point per integer position is over the budget
    (the integers are then subsampled: :func:`line_stride`)."""
    if seq_len > MAX_LINE_POINTS:
        return None
    per_step = max(1, min(per_step, (MAX_LINE_POINTS - 1) // max(seq_len - 1, 1)))
    return np.arange(per_step * (seq_len - 1) + 1) / per_step
