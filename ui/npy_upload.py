"""Safe loading of an uploaded learned position-embedding matrix (``.npy``, issue #8).

The bytes come from anyone on the internet, so nothing is trusted: the size is
checked first, then the ``.npy`` magic and header are parsed here (numpy's header
reader evaluates literals only), the dtype, shape and exact data length are checked
*before* any data is read, and the data is read with ``np.frombuffer``: nothing is
ever unpickled. No Streamlit import here, so every rule is tested as a plain function.
"""

from __future__ import annotations

import io
import math
import struct
import warnings

import numpy as np
from numpy.lib import format as npy_format

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
        raise ValueError(f"file too large: {len(data):,} bytes; the limit is {max_bytes:,} bytes")
    if not data.startswith(npy_format.MAGIC_PREFIX):
        raise ValueError("not a .npy file: it does not start with the .npy magic bytes")

    shape, fortran_order, dtype, offset = _read_header(data)

    if dtype.kind not in "fiu" or dtype.names is not None or dtype.subdtype is not None:
        raise ValueError(
            f"unsupported dtype {dtype!s}: only real float or integer arrays are accepted"
            " (no object, complex, structured, bool, text or date arrays)"
        )
    if len(shape) != 2:
        raise ValueError(
            f"expected a 2-D matrix (positions, dimensions), got {len(shape)}-D shape {shape}"
        )
    rows, cols = shape
    if not 1 <= rows <= max_rows:
        raise ValueError(f"number of positions (rows) is {rows}; it must be 1 .. {max_rows}")
    if not 1 <= cols <= max_cols:
        raise ValueError(f"number of dimensions (columns) is {cols}; it must be 1 .. {max_cols}")

    expected = math.prod(shape) * dtype.itemsize
    actual = len(data) - offset
    if actual != expected:
        problem = "truncated" if actual < expected else "has trailing bytes"
        raise ValueError(
            f"file {problem}: shape {shape} of {dtype!s} needs {expected:,} data bytes,"
            f" found {actual:,}"
        )

    flat = np.frombuffer(data, dtype=dtype, count=rows * cols, offset=offset)
    matrix = flat.reshape((cols, rows)).T if fortran_order else flat.reshape((rows, cols))
    if dtype.kind == "f" and not np.isfinite(matrix).all():
        n_nan = int(np.isnan(matrix).sum())
        n_inf = int(np.isinf(matrix).sum())
        raise ValueError(
            f"matrix has non-finite entries ({n_nan} NaN, {n_inf} infinite); all must be finite"
        )
    return np.array(matrix, dtype=np.float64, order="C")


def _read_header(data: bytes) -> tuple[tuple[int, ...], bool, np.dtype, int]:
    """Magic, version and header dict of a ``.npy`` file; where the data starts."""
    fp = io.BytesIO(data)
    try:
        version = npy_format.read_magic(fp)
    except ValueError as error:
        raise ValueError(f"not a .npy file: {error}") from None
    reader = _HEADER_READERS.get(version)
    if reader is None:
        raise ValueError(
            f".npy format version {version[0]}.{version[1]} is not supported (use 1.0 or 2.0)"
        )
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
        raise ValueError(f"invalid .npy header: {_short(str(error))}") from None
    return tuple(shape), bool(fortran_order), dtype, fp.tell()


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
