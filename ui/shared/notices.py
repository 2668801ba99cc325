"""Short notices under a chart, one definition each (a display helper: Streamlit, no posenc)."""

from __future__ import annotations

import streamlit as st

from ui.plain.grids import Grid
from ui.shared.i18n import t


def downsampled_notice(grid: Grid, n_rows: int, n_cols: int) -> None:
    """Say on screen when a chart of an ``n_rows x n_cols`` matrix shows block means."""
    if grid.downsampled:
        rows, cols = grid.z.shape
        st.caption(
            t("common.downsampled", rows=rows, cols=cols, n_rows=n_rows, n_cols=n_cols,
              row_step=grid.row_step, col_step=grid.col_step)
        )  # fmt: skip


def shown_notice(grid: Grid, shown: int, total: int, n_cols: int, capped: str) -> None:
    """Say when a view draws ``shown`` of ``total`` positions (text ``capped``), and when
    it shows block means (:func:`downsampled_notice`)."""
    if shown < total:
        st.info(t(capped, shown=shown, total=total))
    downsampled_notice(grid, shown, n_cols)
