"""The criteria table of the page "Binary counter vs sinusoid": a display helper.

Each cell holds a pass/fail mark beside the measured number; the page passes the translated
column titles and scheme names in ``labels``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from posenc.criteria import Criteria

PASS, FAIL, NONE = "✓", "✗", "–"


def _mark(ok: bool | None, text: str) -> str:
    return f"{NONE} {text}" if ok is None else f"{PASS if ok else FAIL} {text}"


def _num(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:.4g}"


def criteria_frame(rows: Sequence[Criteria], labels: dict[str, str]) -> pd.DataFrame:
    """The criteria table: a pass/fail mark and the measured number in every cell.

    ``labels`` holds the column titles (keys ``scheme, unique, bounded, offset, length,
    extrapolates``) and the scheme names (keys ``scheme_<name>``).
    """
    records = []
    for c in rows:
        records.append(
            {
                labels["scheme"]: labels[f"scheme_{c.name}"],
                labels["unique"]: _mark(c.unique, _num(c.min_distance)),
                labels["bounded"]: _mark(c.bounded, _num(c.max_abs)),
                labels["offset"]: _mark(c.consistent_offset, _num(c.step_spread)),
                labels["length"]: _mark(c.consistent_length, _num(c.length_change)),
                labels["extrapolates"]: _mark(
                    c.extrapolates,
                    f"[{_num(c.low_2l)}, {_num(c.high_2l)}] · {_num(c.min_distance_2l)}",
                ),
            }
        )
    return pd.DataFrame.from_records(records)
