"""The Wavelengths page's translated tables: the bases compared and the two frequency
forms measured (``ui.features.wavelengths.data`` only computes)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

import posenc
from posenc import spectrum
from ui.plain.tables import markdown_table
from ui.plain.texts import text


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


def bases_markdown(
    series: Sequence[tuple[float, np.ndarray]], d_model: int, context: int, tr: Callable[..., str]
) -> str:
    """:func:`bases_table` as one Markdown table; the formula headers are the app's own."""
    formulas = [tr(f"wavelengths.col_{name}") for name in ("ratio", "first", "last")]
    return markdown_table(bases_table(series, d_model, context, tr), formulas)


@functools.lru_cache(maxsize=64)
def bases_markdown_in(language: str, d_model: int, bases: tuple[float, ...], context: int) -> str:
    """:func:`bases_markdown` of ``bases`` (the shared base first) in ``language``, made
    once per process for each (a pandas table on every rerun of a room: ~1 ms, #32)."""
    series = [(b, posenc.wavelengths(d_model, b)) for b in bases]
    return bases_markdown(series, d_model, context, functools.partial(text, language))
