"""Cached computations and small tables of the Wavelength explorer (numbers from posenc)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import streamlit as st

import posenc
from posenc import spectrum
from ui.tables import markdown_table, positions  # noqa: F401  (the page reads data.*)

DTYPES = ("float64", "float32")


@st.cache_data(max_entries=16, show_spinner=False)
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


@st.cache_data(max_entries=16, show_spinner=False)
def drift(d_model: int, base: float, context: int) -> tuple[np.ndarray, spectrum.Drift]:
    """Float32 drift at log-spaced positions up to 2**17 (and at L - 1, 8191, 99999)."""
    at = drift_positions(context)
    return at, spectrum.float32_drift(at, d_model, base)


def drift_at(at: np.ndarray, values: np.ndarray, position: int) -> float:
    return float(values[np.searchsorted(at, position)])


def forms_table(compare: dict, tr: Callable[..., str]) -> pd.DataFrame:
    """One row per dtype: the two forms against each other and against the exact value."""
    rows = {
        dtype: {
            tr("wavelengths.col_max_abs"): f"{c.max_abs:.3g}",
            tr("wavelengths.col_max_rel"): f"{c.max_rel:.3g}",
            tr("wavelengths.col_power_ulps"): f"{c.power_ulps:.3g}",
            tr("wavelengths.col_log_ulps"): f"{c.log_ulps:.3g}",
        }
        for dtype, c in compare.items()
    }
    return pd.DataFrame.from_dict(rows, orient="index")


def bases_table(
    series: Sequence[tuple[float, np.ndarray]],
    d_model: int,
    context: int,
    tr: Callable[..., str],
) -> pd.DataFrame:
    """Per base: ratio, first and last wavelength, and the context counts."""
    rows = []
    for base, lam in series:
        classes = spectrum.classify_wavelengths(lam, context)
        rows.append(
            {
                tr("wavelengths.col_base"): f"{base:g}",
                tr("wavelengths.col_ratio"): f"{spectrum.wavelength_ratio(d_model, base):.6g}",
                tr("wavelengths.col_first"): f"{lam[0]:.6g}",
                tr("wavelengths.col_last"): f"{lam[-1]:.6g}",
                tr("wavelengths.col_beyond", context=context): int(classes.beyond_context.sum()),
                tr("wavelengths.col_aliased"): int(classes.aliased.sum()),
            }
        )
    return pd.DataFrame(rows)


def wavelength_series(d_model: int, base: float, extra: Sequence[float]) -> list:
    """``(base, lambda)`` for the shared base first, then each other extra base."""
    bases = [base, *(b for b in extra if b != base)]
    return [(b, posenc.wavelengths(d_model, b)) for b in bases]
