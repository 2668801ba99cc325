"""Safe loading of an uploaded learned position-embedding matrix (``.npy``, issue #8).

The bytes come from anyone on the internet, so nothing is trusted: the size is
checked first, then the ``.npy`` magic and header are parsed here (numpy's header
reader evaluates literals only), the dtype, shape, cell count and exact data length are
checked *before* any data is read, and the data is read with ``np.frombuffer``: nothing
is ever unpickled. The matrix is kept in float32, at most ``MAX_CELLS`` entries (32 MiB),
so a public server's memory per upload is bounded (issue #24). No Streamlit import here,
so every rule is tested as a plain function. Errors are ``TextError`` (texts
``heatmap.npy_*``): the page says them in its language; text taken from the file (dtype,
numpy's header complaint) is cut short and escaped for Markdown first.
"""

from __future__ import annotations

import io
import math
import re
import struct
import tomllib
import warnings
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format

from ui.plain.safe_text import markdown_text
from ui.plain.texts import TextError

__all__ = ["load_position_embedding"]

# The one upload cap is Streamlit's ``server.maxUploadSize`` in .streamlit/config.toml
# (MiB): the uploader stops there, the page passes the running server's value as
# ``max_bytes``, and this default is read from the same file.
CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"


def upload_cap_bytes(config: Path = CONFIG) -> int:
    """``server.maxUploadSize`` of a Streamlit config file, in bytes (it is in MiB)."""
    return tomllib.loads(config.read_text())["server"]["maxUploadSize"] * 1024 * 1024


MAX_BYTES = upload_cap_bytes()
MAX_ROWS = 8192
MAX_COLS = 4096
# float32 entries kept per upload: 32 MiB (a 20 MB float16 or 8-bit file can hold more).
MAX_CELLS = 8 * 1024 * 1024
FLOAT32_MAX = float(np.finfo(np.float32).max)
# File-derived text in a message is cut to this many characters (then escaped).
MAX_ECHO_CHARS = 80
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
    max_cells: int = MAX_CELLS,
) -> np.ndarray:
    """Parse an uploaded ``.npy`` file holding a position-embedding matrix.

    Parameters
    ----------
    data : bytes
        The whole uploaded file (e.g. ``UploadedFile.getvalue()``).
    max_bytes : int
        Limit on the file size: Streamlit's ``server.maxUploadSize``.
    max_rows, max_cols, max_cells : int
        Limits on the shape ``(L, d)`` and on ``L * d``.

    Returns
    -------
    E : ndarray of float32, shape (L, d)
        A fresh, writable, C-ordered copy with ``1 <= L <= max_rows``,
        ``1 <= d <= max_cols``, ``L * d <= max_cells``. Big-endian and Fortran-ordered
        files are accepted.

    Raises
    ------
    ValueError
        With a message saying what is wrong: not a ``.npy`` file, bad header, not a
        real float or integer dtype (object, complex, structured, bool, text, dates),
        not 2-D, a shape outside the limits, too many bytes, a data length that does
        not match the header, NaN / infinite entries, or values beyond float32's range.

    Examples
    --------
    >>> buffer = io.BytesIO()
    >>> np.save(buffer, np.eye(2, 3, dtype=np.float32))
    >>> load_position_embedding(buffer.getvalue())
    array([[1., 0., 0.],
           [0., 1., 0.]], dtype=float32)
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
        raise TextError("heatmap.npy_dtype", dtype=file_text(str(dtype)))
    if len(shape) != 2:
        raise TextError("heatmap.npy_ndim", ndim=len(shape), shape=shape)
    rows, cols = shape
    if not 1 <= rows <= max_rows:
        raise TextError("heatmap.npy_rows", rows=rows, limit=max_rows)
    if not 1 <= cols <= max_cols:
        raise TextError("heatmap.npy_cols", cols=cols, limit=max_cols)
    if rows * cols > max_cells:
        raise TextError(
            "heatmap.npy_cells", cells=f"{rows * cols:,}", rows=rows, cols=cols,
            limit=f"{max_cells:,}",
        )  # fmt: skip

    expected = math.prod(shape) * dtype.itemsize
    actual = len(data) - offset
    if actual != expected:
        raise TextError(
            "heatmap.npy_truncated" if actual < expected else "heatmap.npy_trailing",
            shape=shape,
            dtype=file_text(str(dtype)),
            expected=f"{expected:,}",
            actual=f"{actual:,}",
        )

    flat = np.frombuffer(data, dtype=dtype, count=rows * cols, offset=offset)
    matrix = flat.reshape((cols, rows)).T if fortran_order else flat.reshape((rows, cols))
    if dtype.kind == "f" and not np.isfinite(matrix).all():
        n_nan = int(np.isnan(matrix).sum())
        n_inf = int(np.isinf(matrix).sum())
        raise TextError("heatmap.npy_nonfinite", n_nan=n_nan, n_inf=n_inf)
    if dtype.kind == "f" and dtype.itemsize > 4:
        largest = max(float(matrix.max()), -float(matrix.min()))
        if largest > FLOAT32_MAX:  # would be inf in float32: two blank charts
            raise TextError("heatmap.npy_float32_range", largest=f"{largest:.3g}")
    return np.array(matrix, dtype=np.float32, order="C")


def _read_header(data: bytes) -> tuple[tuple[int, ...], bool, np.dtype, int]:
    """Magic, version and header dict of a ``.npy`` file; where the data starts."""
    fp = io.BytesIO(data)
    try:
        version = npy_format.read_magic(fp)
    except ValueError as error:
        raise TextError("heatmap.npy_magic", detail=file_text(str(error))) from None
    reader = _HEADER_READERS.get(version)
    if reader is None:
        raise TextError("heatmap.npy_version", version=f"{version[0]}.{version[1]}")
    # Checked here, not by numpy: its refusal advises trusting the file with allow_pickle.
    length_format = "<H" if version == (1, 0) else "<I"
    length_bytes = data[fp.tell() : fp.tell() + struct.calcsize(length_format)]
    if len(length_bytes) == struct.calcsize(length_format):
        (length,) = struct.unpack(length_format, length_bytes)
        if length > MAX_HEADER_CHARS:
            raise TextError("heatmap.npy_header_long", length=f"{length:,}", limit=MAX_HEADER_CHARS)
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
        raise TextError("heatmap.npy_header", detail=file_text(str(error))) from None
    return tuple(shape), bool(fortran_order), dtype, fp.tell()


# numpy's advice to load the file with allow_pickle must never reach the user.
_UNSAFE_ADVICE = re.compile(r"allow_pickle|max_header_size|trust", re.IGNORECASE)


def file_text(text: str, limit: int = MAX_ECHO_CHARS) -> str:
    """Text derived from an uploaded file, fit to quote in a Markdown message.

    Sentences of numpy's that advise ``allow_pickle`` are dropped; the rest is put on
    one line, cut to ``limit`` characters and escaped (``ui.plain.safe_text.markdown_text``:
    no link, image, emphasis, code, icon or formula can come from the file).

    >>> print(file_text("[x](y) *b*"))
    \\[x\\]\\(y\\) \\*b\\*
    """
    sentences = re.split(r"(?<=[.!?])\s+|\n+", text)
    kept = " ".join(s for s in sentences if s and not _UNSAFE_ADVICE.search(s))
    return markdown_text(kept, limit)
