"""Downloads: figures as standalone offline HTML, matrices as CSV and .npy.

The payload builders are plain functions (tested directly: AppTest exposes no download
bytes). ``offer`` draws the buttons with deferred data, so nothing is built until the
user clicks.
"""

from __future__ import annotations

import io
import re

import numpy as np
import plotly.graph_objects as go


def figure_html(fig: go.Figure) -> bytes:
    """A standalone interactive HTML page with plotly.js inlined (works offline)."""
    return fig.to_html(
        include_plotlyjs=True, full_html=True, config={"displaylogo": False}
    ).encode()


def matrix_csv(matrix: np.ndarray, *, row_label: str = "row", col_prefix: str = "c") -> bytes:
    """CSV with a header row and the row index first; full float64 precision (repr)."""
    matrix = np.atleast_2d(np.asarray(matrix, dtype=np.float64))
    out = io.StringIO()
    out.write(",".join([row_label, *(f"{col_prefix}{j}" for j in range(matrix.shape[1]))]) + "\n")
    np.savetxt(
        out, np.column_stack([np.arange(matrix.shape[0]), matrix]), delimiter=",", fmt="%.17g"
    )
    return out.getvalue().encode()


def matrix_npy(matrix: np.ndarray) -> bytes:
    """The matrix in NumPy's .npy format (no pickle)."""
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(matrix), allow_pickle=False)
    return buffer.getvalue()


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "figure"


def offer(name: str, fig: go.Figure | None = None, matrix=None, *, key: str | None = None) -> None:
    """Download buttons for one figure and/or matrix, in one "Download" popover.

    A popover's content is drawn only when it is opened: three buttons under every
    chart slowed the first view (issue #7, time to first chart).

    ``matrix`` may be an array or a zero-argument callable returning one (so a large
    matrix is only computed when a download is asked for).
    """
    import streamlit as st

    from ui.i18n import t

    base = safe_name(name)
    key = key or base
    popover = st.popover(
        t("common.download"), icon=":material/download:", help=t("common.download_help")
    )
    if fig is not None:
        popover.download_button(
            t("common.download_html"),
            data=lambda: figure_html(fig),
            file_name=f"{base}.html",
            mime="text/html",
            key=f"dl_html_{key}",
            help=t("common.download_html_help"),
            on_click="ignore",
            width="stretch",
            icon=":material/download:",
        )
    if matrix is not None:
        get = matrix if callable(matrix) else (lambda: matrix)
        popover.download_button(
            "CSV",
            data=lambda: matrix_csv(get()),
            file_name=f"{base}.csv",
            mime="text/csv",
            key=f"dl_csv_{key}",
            help=t("common.download_csv_help"),
            on_click="ignore",
            width="stretch",
            icon=":material/table:",
        )
        popover.download_button(
            ".npy",
            data=lambda: matrix_npy(get()),
            file_name=f"{base}.npy",
            mime="application/octet-stream",
            key=f"dl_npy_{key}",
            help=t("common.download_npy_help"),
            on_click="ignore",
            width="stretch",
            icon=":material/data_array:",
        )
