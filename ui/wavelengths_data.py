"""Cached computations and small tables of the Wavelength explorer (numbers from posenc)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

import numpy as np
import pandas as pd
import streamlit as st

import posenc
from posenc import spectrum
from ui.figures.wavelengths import drift_positions

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


@st.cache_data(max_entries=16, show_spinner=False)
def drift(d_model: int, base: float, context: int) -> tuple[np.ndarray, spectrum.Drift]:
    """Float32 drift at log-spaced positions up to 2**17 (and at L - 1, 8191, 99999)."""
    positions = drift_positions(context)
    return positions, spectrum.float32_drift(positions, d_model, base)


def drift_at(positions: np.ndarray, values: np.ndarray, position: int) -> float:
    return float(values[np.searchsorted(positions, position)])


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


def markdown_table(
    frame: pd.DataFrame, written: Collection[str] = (), left: Collection[str] = ()
) -> str:
    """``frame`` as one Markdown table, numbers right-aligned: a single element to draw
    (``st.table`` renders each cell as its own Markdown block, ~0.04x of the time to
    first chart, issue #7). Markdown's special characters in cells are escaped (``|``
    would end a cell, ``$`` start a formula), except in the columns named in
    ``written``: the app's own Markdown (a formula such as ``$b^{2/d}$``), header and
    cells, never a visitor's text. The columns named in ``left`` (prose) are left-aligned.

    >>> print(markdown_table(pd.DataFrame({"n": ["1e4"], "a|b": [3]})))
    | n | a\\|b |
    |---:|---:|
    | 1e4 | 3 |
    >>> print(markdown_table(pd.DataFrame({"$x_0$": ["$b$"], "$y$": ["$"]}), ["$x_0$"]))
    | $x_0$ | \\$y\\$ |
    |---:|---:|
    | $b$ | \\$ |
    """

    def escape(value) -> str:
        return re.sub(r"([\\|$*_~`<])", r"\\\1", str(value))

    columns = list(frame.columns)
    kept = [c in set(written) for c in columns]
    header = (
        "| "
        + " | ".join(str(c) if k else escape(c) for c, k in zip(columns, kept, strict=True))
        + " |"
    )
    rule = "|" + "".join(":---|" if c in set(left) else "---:|" for c in columns)
    rows = [
        "| " + " | ".join(str(v) if k else escape(v) for v, k in zip(row, kept, strict=True)) + " |"
        for row in frame.itertuples(index=False)
    ]
    return "\n".join([header, rule, *rows])


def positions(x: float) -> str:
    """A number of positions: ``60,611`` from 1000 up, ``6.283`` below (2 pi is not 6)."""
    return f"{x:,.0f}" if x >= 1000 else f"{x:.4g}"


def wavelength_series(d_model: int, base: float, extra: Sequence[float]) -> list:
    """``(base, lambda)`` for the shared base first, then each other extra base."""
    bases = [base, *(b for b in extra if b != base)]
    return [(b, posenc.wavelengths(d_model, b)) for b in bases]
