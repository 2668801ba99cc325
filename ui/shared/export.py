"""Downloads: figures as standalone offline HTML, matrices as CSV and .npy.

The payload builders are plain functions (tested directly: AppTest exposes no download
bytes). ``offer`` draws the buttons with deferred data, so nothing is built until the
user clicks.

Memory (issue #24): a download is at most ``MAX_DOWNLOAD_BYTES``. ``formats`` decides
from the matrix's shape, before anything is built, which files stay under it: CSV (an
upper bound of 25 bytes a number), else .npy in float64, else .npy in float32, else
none (the popover says why, with a Python call where the page has one). Streamlit keeps
a built download in its in-memory media storage, unreferenced by any session, until
two more script runs end anywhere on the server (mark, then delete): on a quiet server
that can be hours. So each built download schedules two such sweeps a minute apart.
"""

from __future__ import annotations

import io
import re
import threading

import numpy as np
import plotly.graph_objects as go


def figure_html(fig: go.Figure) -> bytes:
    """A standalone interactive HTML page with plotly.js inlined (works offline)."""
    return fig.to_html(
        include_plotlyjs=True, full_html=True, config={"displaylogo": False}
    ).encode()


MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024
# "%.17g" of a float64 is at most 24 characters ("-1.2345678901234567e-308"), plus a comma.
CSV_BYTES_PER_NUMBER = 25
NPY_HEADER_BYTES = 128
SWEEP_DELAY_S = 30.0


def csv_bytes_bound(rows: int, cols: int) -> int:
    """Largest possible size of :func:`matrix_csv` of a ``rows x cols`` matrix."""
    header = len("row") + sum(len(f",c{j}") for j in range(cols)) + 1
    return header + rows * (len(str(max(rows - 1, 0))) + cols * CSV_BYTES_PER_NUMBER + 1)


def npy_bytes(rows: int, cols: int, itemsize: int = 8) -> int:
    """Size of :func:`matrix_npy` of a ``rows x cols`` matrix (header of 128 bytes)."""
    return NPY_HEADER_BYTES + rows * cols * itemsize


def formats(shape: tuple[int, ...], limit: int = MAX_DOWNLOAD_BYTES) -> tuple[str, ...]:
    """Matrix downloads that stay within ``limit`` bytes: ``("csv", "npy")``, ``("npy",)``,
    ``("npy32",)`` (float32) or ``()``; decided from the shape alone."""
    rows, cols = _rows_cols(shape)
    if csv_bytes_bound(rows, cols) <= limit:
        return ("csv", "npy")
    if npy_bytes(rows, cols) <= limit:
        return ("npy",)
    if npy_bytes(rows, cols, 4) <= limit:
        return ("npy32",)
    return ()


def _rows_cols(shape: tuple[int, ...]) -> tuple[int, int]:
    """As :func:`matrix_csv` lays it out: ``np.atleast_2d``, then rows x the rest."""
    shape = tuple(int(n) for n in shape)
    if len(shape) < 2:
        return 1, (shape[0] if shape else 1)
    return shape[0], int(np.prod(shape[1:]))


def payload(matrix: np.ndarray, fmt: str) -> bytes:
    """The bytes of one download format of :func:`formats`."""
    if fmt == "csv":
        return matrix_csv(matrix)
    if fmt == "npy":
        return matrix_npy(np.asarray(matrix, dtype=np.float64))
    if fmt == "npy32":
        return matrix_npy(np.asarray(matrix, dtype=np.float32))
    raise ValueError(f"fmt must be csv, npy or npy32, got {fmt!r}")


def matrix_csv(matrix: np.ndarray, *, row_label: str = "row", col_prefix: str = "c") -> bytes:
    """CSV with a header row and the row index first; full float64 precision (repr)."""
    matrix = np.atleast_2d(np.asarray(matrix, dtype=np.float64))
    out = io.BytesIO()  # bytes as they are formatted: no str copy of the whole file
    header = ",".join([row_label, *(f"{col_prefix}{j}" for j in range(matrix.shape[1]))])
    out.write((header + "\n").encode())
    np.savetxt(
        out, np.column_stack([np.arange(matrix.shape[0]), matrix]), delimiter=",", fmt="%.17g"
    )
    return out.getvalue()


def matrix_npy(matrix: np.ndarray) -> bytes:
    """The matrix in NumPy's .npy format (no pickle)."""
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(matrix), allow_pickle=False)
    return buffer.getvalue()


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "figure"


def offer(
    name: str,
    fig: go.Figure | None = None,
    matrix=None,
    *,
    key: str | None = None,
    shape: tuple[int, ...] | None = None,
    code: str | None = None,
) -> None:
    """Download buttons for one figure and/or matrix, in one "Download" popover.

    The buttons are drawn only while the popover is open (``ui.shared.folds``): three
    buttons under every chart slowed the first view (issue #7) and cost every rerun of a
    room (issue #32).

    ``matrix`` may be an array or a zero-argument callable returning one (so a large
    matrix is only computed when a download is asked for); a callable needs its
    ``shape``, which picks the formats that stay under ``MAX_DOWNLOAD_BYTES``
    (:func:`formats`). ``code``: a Python call that rebuilds the matrix, shown when a
    file would be too large.
    """
    from ui.shared import folds
    from ui.shared.i18n import t

    base = safe_name(name)
    key = key or base
    popover = folds.popover(
        t("common.download"), name=f"dl_{key}", icon=":material/download:",
        help=t("common.download_help"),
    )  # fmt: skip
    if not popover.open:
        return
    if fig is not None:
        _button(
            popover, t("common.download_html"), lambda: built(figure_html, lambda: fig),
            f"{base}.html", "text/html", f"dl_html_{key}", t("common.download_html_help"),
            ":material/download:",
        )  # fmt: skip
    if matrix is not None:
        get, shape = _check_shape(name, matrix, shape)
        _matrix_buttons(popover, base, key, get, shape, code)


def _button(where, label, data, file_name, mime, key, help_text, icon) -> None:
    """One download button: full width, built only on click (``data`` is a callable),
    no rerun when clicked."""
    where.download_button(
        label, data=data, file_name=file_name, mime=mime, key=key, help=help_text,
        on_click="ignore", width="stretch", icon=icon,
    )  # fmt: skip


def _check_shape(name: str, matrix, shape):
    """``(callable, shape)`` of an array or of a callable with its declared shape."""
    if callable(matrix):
        if shape is None:
            raise TypeError(f"offer({name!r}): a callable matrix needs its shape")
        return matrix, tuple(shape)
    array = np.asarray(matrix)
    return (lambda: array), array.shape


def _matrix_buttons(popover, base: str, key: str, get, shape, code: str | None) -> None:
    """CSV / .npy buttons for the formats that fit, and a note on what was left out."""
    from ui.shared.i18n import t

    offered = formats(shape)
    rows, cols = _rows_cols(shape)
    limit = MAX_DOWNLOAD_BYTES // 2**20
    if "csv" in offered:
        _button(
            popover, "CSV", lambda: built(matrix_csv, get), f"{base}.csv", "text/csv",
            f"dl_csv_{key}", t("common.download_csv_help"), ":material/table:",
        )  # fmt: skip
    for fmt in ("npy", "npy32"):
        if fmt in offered:
            _button(
                popover, ".npy" if fmt == "npy" else ".npy (float32)",
                lambda fmt=fmt: built(lambda m: payload(m, fmt), get), f"{base}.npy",
                "application/octet-stream", f"dl_npy_{key}", t("common.download_npy_help"),
                ":material/data_array:",
            )  # fmt: skip
    mb = lambda n: f"{n / 2**20:,.0f}"  # noqa: E731
    if offered and "csv" not in offered:
        size = mb(csv_bytes_bound(rows, cols))
        popover.caption(t("common.download_no_csv", rows=rows, cols=cols, size=size, limit=limit))
    if "npy32" in offered:
        popover.caption(t("common.download_float32", size=mb(npy_bytes(rows, cols)), limit=limit))
    if not offered:
        popover.caption(t("common.download_too_large", rows=rows, cols=cols, limit=limit))
    if code and "csv" not in offered:
        popover.caption(t("common.download_python", code=code))


def built(make, get) -> bytes:
    """``make(get())`` for a deferred download, then a sweep of Streamlit's stored files."""
    data = make(get())
    if len(data) > MAX_DOWNLOAD_BYTES:  # formats() keeps this from happening
        raise ValueError(f"download of {len(data):,} bytes over the {MAX_DOWNLOAD_BYTES:,} cap")
    sweep_soon()
    return data


_sweep_lock = threading.Lock()
_sweeps_left = 0
_sweeping = False


def sweep_soon(delay: float | None = None) -> None:
    """Run Streamlit's media-file sweep twice, ``delay`` s apart, starting in ``delay`` s.

    A built download is stored unreferenced; the first sweep marks it, the second
    deletes it. Without this it stays until two script runs end anywhere on the server.
    One timer at a time; a download built meanwhile restarts the count of two.
    """
    global _sweeps_left, _sweeping
    delay = SWEEP_DELAY_S if delay is None else delay
    with _sweep_lock:
        _sweeps_left = 2
        if _sweeping:
            return
        _sweeping = True
    _start_timer(delay)


def _start_timer(delay: float) -> None:
    timer = threading.Timer(delay, _sweep, args=(delay,))
    timer.daemon = True
    timer.start()


def _sweep(delay: float) -> None:
    global _sweeps_left, _sweeping
    try:
        from ui.shared import streamlit_internals

        streamlit_internals.sweep_media_files()
    finally:
        with _sweep_lock:
            _sweeps_left -= 1
            again = _sweeps_left > 0
            _sweeping = again
        if again:
            _start_timer(delay)
