"""Safe loading of an uploaded learned position-embedding matrix (``.npy``, issue #8).

The bytes come from anyone on the internet, so nothing is trusted: the size is
checked first, then the ``.npy`` magic and header are parsed here (numpy's header
reader evaluates literals only), the dtype, shape and exact data length are checked
*before* any data is read, and the data is read with ``np.frombuffer``: nothing is
ever unpickled. No Streamlit import here, so every rule is tested as a plain function.
Errors are ``TextError`` (texts ``heatmap.npy_*``): the page says them in its language.
"""

from __future__ import annotations

import io
import math
import struct
import warnings

import numpy as np
from numpy.lib import format as npy_format

from ui.texts import TextError

__all__ = ["load_position_embedding"]

MAX_BYTES = 20 * 1024 * 1024
MAX_ROWS = 8192
MAX_COLS = 4096
# A 2-D numeric array's header is about 120 characters; anything far longer is hostile.
MAX_HEADER_CHARS = 1024
_HEADER_READERS = {
    (1, 0): npy_format.read_array_header_1_0,
    (2, 0): npy_format.read_array_header_2_0,
}


def load_position_embedding(
    data: bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    max_cols: int = MAX_COLS,
) -> np.ndarray:
    """Parse an uploaded ``.npy`` file holding a position-embedding matrix.

    Parameters
    ----------
    data : bytes
        The whole uploaded file (e.g. ``UploadedFile.getvalue()``).
    max_bytes, max_rows, max_cols : int
        Limits on the file size and on the shape ``(L, d)``.

    Returns
    -------
    E : ndarray of float64, shape (L, d)
        A fresh, writable, C-ordered copy with ``1 <= L <= max_rows``,
        ``1 <= d <= max_cols``. Big-endian and Fortran-ordered files are accepted.

    Raises
    ------
    ValueError
        With a message saying what is wrong: not a ``.npy`` file, bad header, not a
        real float or integer dtype (object, complex, structured, bool, text, dates),
        not 2-D, a shape outside the limits, too many bytes, a data length that does
        not match the header, or NaN / infinite entries.

    Examples
    --------
    >>> buffer = io.BytesIO()
    >>> np.save(buffer, np.eye(2, 3, dtype=np.float32))
    >>> load_position_embedding(buffer.getvalue())
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ValueError(f"expected the file's bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) > max_bytes:
        raise TextError("heatmap.npy_too_large", size=f"{len(data):,}", limit=f"{max_bytes:,}")
    if not data.startswith(npy_format.MAGIC_PREFIX):
        raise TextError("heatmap.npy_not_npy")

    shape, fortran_order, dtype, offset = _read_header(data)

    if dtype.kind not in "fiu" or dtype.names is not None or dtype.subdtype is not None:
        raise TextError("heatmap.npy_dtype", dtype=str(dtype))
    if len(shape) != 2:
        raise TextError("heatmap.npy_ndim", ndim=len(shape), shape=shape)
    rows, cols = shape
    if not 1 <= rows <= max_rows:
        raise TextError("heatmap.npy_rows", rows=rows, limit=max_rows)
    if not 1 <= cols <= max_cols:
        raise TextError("heatmap.npy_cols", cols=cols, limit=max_cols)

    expected = math.prod(shape) * dtype.itemsize
    actual = len(data) - offset
    if actual != expected:
        raise TextError(
            "heatmap.npy_truncated" if actual < expected else "heatmap.npy_trailing",
            shape=shape,
            dtype=str(dtype),
            expected=f"{expected:,}",
            actual=f"{actual:,}",
        )

    flat = np.frombuffer(data, dtype=dtype, count=rows * cols, offset=offset)
    matrix = flat.reshape((cols, rows)).T if fortran_order else flat.reshape((rows, cols))
    if dtype.kind == "f" and not np.isfinite(matrix).all():
        n_nan = int(np.isnan(matrix).sum())
        n_inf = int(np.isinf(matrix).sum())
        raise TextError("heatmap.npy_nonfinite", n_nan=n_nan, n_inf=n_inf)
    return np.array(matrix, dtype=np.float64, order="C")


def _read_header(data: bytes) -> tuple[tuple[int, ...], bool, np.dtype, int]:
    """Magic, version and header dict of a ``.npy`` file; where the data starts."""
    fp = io.BytesIO(data)
    try:
        version = npy_format.read_magic(fp)
    except ValueError as error:
        raise TextError("heatmap.npy_magic", detail=_short(str(error))) from None
    reader = _HEADER_READERS.get(version)
    if reader is None:
        raise TextError("heatmap.npy_version", version=f"{version[0]}.{version[1]}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Python 2 era headers warn on filtering
            shape, fortran_order, dtype = reader(fp, max_header_size=MAX_HEADER_CHARS)
    except (
        ValueError,
        TypeError,
        SyntaxError,
        RecursionError,
        MemoryError,
        UnicodeDecodeError,
        struct.error,
    ) as error:
        raise TextError("heatmap.npy_header", detail=_short(str(error))) from None
    return tuple(shape), bool(fortran_order), dtype, fp.tell()


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
