"""The Heatmap page's display helpers: button callbacks, the posenc call shown, the
translated comparison table and the numeric table (``ui.features.heatmap.data`` only computes)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from posenc.frameworks import FRAMEWORKS, NATIVE_LAYOUT
from ui.features.heatmap import specs as spec
from ui.plain.columns import pair_kind
from ui.plain.tables import markdown_table
from ui.shared import controls
from ui.shared.i18n import t


def apply_preset(values: dict, *, show_table: bool = False) -> None:
    """Button callback: set the widgets' values before they are drawn (``controls.assign``);
    ``show_table`` opens the Table tab, where a seed's figure is drawn."""
    controls.assign(values)
    if show_table:
        controls.open_tab(spec.TAB, "heatmap", "table")


def python_call(framework: str, length: int, d_model: int, base: float, layout: str) -> str:
    """The posenc call that computes the table on screen."""
    if framework == "paper":
        return f"posenc.sinusoidal({length}, {d_model}, {base:g}, layout={layout!r})"
    return (
        f"posenc.framework_table({framework!r}, {length}, {d_model}, {base:g}, layout={layout!r})"
    )


# How each implementation writes omega_i (formulas: the same in both languages).
OMEGA = {
    "paper": r"$b^{-2i/d}$",
    "torch32": r"$b^{-2i/d}$, float32",
    "tf": r"$b^{-i/(d/2)}$",
    "tf_old": r"$b^{-2\lfloor c/2 \rfloor/d}$",
    "t2t": r"$b^{-i/(d/2-1)}$",
    "fairseq": r"$b^{-i/(d/2-1)}$",
}


def framework_table_markdown(differences: dict) -> str:
    """The comparison of the implementations as one Markdown table (its cells wrap, and
    the formulas of ωᵢ are drawn): display names and layouts in the reader's language."""
    omega, diff = t("heatmap.fw_col_omega"), t("heatmap.fw_col_diff")
    rows = [
        {
            t("heatmap.fw_col_name"): t(f"heatmap.fw_name_{name}"),
            t("heatmap.fw_col_layout"): t(f"common.layout_{NATIVE_LAYOUT[name]}"),
            omega: OMEGA[name],
            diff: "–" if differences[name] is None else f"{differences[name]:.3e}",
            t("heatmap.fw_col_what"): t(f"heatmap.fw_what_{name}")
            + (f" ({t('heatmap.fw_na')})" if differences[name] is None else ""),
        }
        for name in FRAMEWORKS
    ]
    frame = pd.DataFrame(rows)
    return markdown_table(frame, [omega], left=[c for c in frame.columns if c != diff])


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def numeric_frame(matrix: np.ndarray, layout: str, row_names: list[str]) -> pd.DataFrame:
    """The table as a DataFrame: rows named by position (and token), columns ``j: sin ωᵢ``."""
    pair, is_sin = pair_kind(matrix.shape[1], layout)
    columns = [
        f"{j}: {'sin' if s else 'cos'} ω{str(i).translate(_SUB)}"
        for j, (i, s) in enumerate(zip(pair, is_sin, strict=True))
    ]
    return pd.DataFrame(matrix, index=row_names, columns=columns)
