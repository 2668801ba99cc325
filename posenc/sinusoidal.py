"""The sinusoidal positional encoding of "Attention Is All You Need".

Symbols as in the package glossary (:mod:`posenc`): row r of a table ``PE`` of shape
``(length, d_model)`` encodes position ``p = offset + r``; pair ``i`` turns at
``omega_i = base ** (-2 i / d_model)``, wavelength ``lambda_i = 2 pi / omega_i``.

Layouts of a row:

- ``"interleaved"`` (the paper, PyTorch tutorial):
  ``[sin(omega_0 p), cos(omega_0 p), sin(omega_1 p), cos(omega_1 p), ...]``
- ``"split"`` (tensor2tensor, TensorFlow tutorial, Hugging Face):
  ``[sin(omega_0 p), ..., sin(omega_{d/2-1} p), cos(omega_0 p), ..., cos(omega_{d/2-1} p)]``
"""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np

from posenc import _threads
from posenc._validate import (
    check_array,
    check_base,
    check_dtype,
    check_even,
    check_int,
    check_layout,
    check_real,
)

__all__ = [
    "encode_positions",
    "frequencies",
    "sinusoidal",
    "table_from_frequencies",
    "wavelengths",
]


def frequencies(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Angular frequencies ``omega_i = base ** (-2 i / d_model)``.

    Parameters
    ----------
    d_model : int
        Even model width, >= 2.
    base : float
        Finite geometric base, > 1 (10000 in the paper).

    Returns
    -------
    omega : ndarray, shape (d_model // 2,)
        Decreasing from 1 to ``base ** (-(d_model - 2) / d_model)``.

    Examples
    --------
    >>> frequencies(4, base=100.0)
    array([1. , 0.1])
    """
    d_model = check_even("d_model", d_model)
    base = check_base(base)
    return base ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)


def wavelengths(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Wavelengths ``lambda_i = 2 pi / omega_i = 2 pi base ** (2 i / d_model)``.

    A geometric progression from ``2 pi`` towards ``2 pi base``.

    Examples
    --------
    >>> wavelengths(4, base=100.0) / (2 * np.pi)
    array([ 1., 10.])
    """
    return 2.0 * np.pi / frequencies(d_model, base)


def sinusoidal(
    length: int,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    offset: float = 0,
    dtype=np.float64,
) -> np.ndarray:
    """The sinusoidal table ``PE[r] = encoding of position p = offset + r``.

    .. math::

        PE_{(p, 2i)} = \\sin(\\omega_i p), \\quad PE_{(p, 2i+1)} = \\cos(\\omega_i p),
        \\quad \\omega_i = base^{-2i/d_{model}}

    Parameters
    ----------
    length : int
        Number of rows, >= 1.
    d_model : int
        Even number of columns, >= 2.
    base : float
        Finite, > 1.
    layout : {"interleaved", "split"}
        Column order (module docstring).
    offset : float
        Position of the first row; may be negative or fractional.
    dtype : float32 or float64
        Output type. Angles are always formed in float64; float32 output errs by < 1.5e-7 at
        any position (the seeds' float32 torch code: 7e-3 near position 100 000).

    Returns
    -------
    PE : ndarray, shape (length, d_model)

    Notes
    -----
    Uses the rotation identity of seed 000, ``PE[p + k] = PE[p] T(k)``, in complex
    form: with ``p = P + r`` (block start ``P``, in-block step ``r``),
    ``sin(w p) + i cos(w p) = [i e^{-i w P}] * e^{-i w r}``. Only
    ``(length / B + B) * d_model / 2`` sines and cosines are evaluated (``B`` about
    ``sqrt(length)``); every other entry is one complex multiplication. Each factor is
    correctly rounded, so the product errs by a few ulp, not by the accumulated drift
    of a recurrence; products are clipped to [-1, 1], where the exact values lie. Tables
    of 2 M pairs or more are filled in shares on posenc's one thread pool (numpy
    releases the GIL in its loops; :func:`posenc.set_max_threads` bounds it).

    Examples
    --------
    The 4 x 4 table of the tutorial in seed 004 ("I am a robot", n = 100, d = 4):

    >>> sinusoidal(4, 4, base=100.0).round(8)
    array([[ 0.        ,  1.        ,  0.        ,  1.        ],
           [ 0.84147098,  0.54030231,  0.09983342,  0.99500417],
           [ 0.90929743, -0.41614684,  0.19866933,  0.98006658],
           [ 0.14112001, -0.9899925 ,  0.29552021,  0.95533649]])
    >>> sinusoidal(2, 4, base=100.0, layout="split", offset=1).round(4)
    array([[ 0.8415,  0.0998,  0.5403,  0.995 ],
           [ 0.9093,  0.1987, -0.4161,  0.9801]])
    """
    length = check_int("length", length, minimum=1)
    omega = frequencies(d_model, base)
    layout = check_layout(layout)
    offset = check_real("offset", offset)
    dtype = check_dtype(dtype)
    return _table(omega, length, offset, layout, dtype)


def table_from_frequencies(
    omega, length: int, *, offset: float = 0, layout: str = "interleaved", dtype=np.float64
) -> np.ndarray:
    """:func:`sinusoidal` with any angular frequencies ``omega`` in place of the paper's.

    The frameworks whose frequencies differ from the paper's (tensor2tensor, fairseq:
    :mod:`posenc.frameworks`) build their tables with it, by the same fast method.

    Parameters
    ----------
    omega : array_like, shape (m,)
        Finite angular frequencies; the table has ``2 m`` columns.
    length, offset, layout, dtype
        As in :func:`sinusoidal`.

    Examples
    --------
    >>> bool(np.allclose(table_from_frequencies(frequencies(8), 5), sinusoidal(5, 8)))
    True
    >>> table_from_frequencies([np.pi / 2], 3).round(12)
    array([[ 0.,  1.],
           [ 1.,  0.],
           [ 0., -1.]])
    """
    omega = check_array("omega", omega).astype(np.float64, copy=False)
    if omega.ndim != 1:
        raise ValueError(f"omega must be one-dimensional, got shape {omega.shape}")
    length = check_int("length", length, minimum=1)
    return _table(
        omega, length, check_real("offset", offset), check_layout(layout), check_dtype(dtype)
    )


def encode_positions(
    positions,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    pairs: int | None = None,
    dims=None,
) -> np.ndarray:
    """Sinusoidal rows, or chosen entries of them, for any (scattered, fractional,
    negative) positions: only what is asked is evaluated.

    .. math:: PE_{(p, 2i)} = \\sin \\omega_i p, \\quad PE_{(p, 2i+1)} = \\cos \\omega_i p

    Parameters
    ----------
    positions : float or array_like, shape (n,)
        Finite reals (need not be integers or sorted).
    d_model : int
        Even, >= 2.
    base : float
        Finite, > 1.
    layout : {"interleaved", "split"}
        Column order (module docstring).
    pairs : int, optional
        Only pairs ``0 .. pairs - 1`` (the columns :func:`posenc.rotation.pair_columns`,
        in that order), without computing the others.
    dims : array_like of int, shape (m,), optional
        Only these columns ``0 <= j < d_model`` of the table in ``layout`` (a few
        columns of an 8192 x 4096 table cost nothing). Not with ``pairs``.

    Returns
    -------
    ndarray, shape (n, d_model), (n, 2 pairs) or (n, m), float64
        Equal to :func:`sinusoidal` at integer positions to a few ulps.

    Examples
    --------
    >>> bool(np.allclose(encode_positions([3.0, 1.0], 6), sinusoidal(4, 6)[[3, 1]]))
    True
    >>> encode_positions([0.0], 4096, pairs=1)
    array([[0., 1.]])
    >>> encode_positions([0, 1], 4, base=100.0, dims=[0, 1, 3]).round(4)
    array([[0.    , 1.    , 1.    ],
           [0.8415, 0.5403, 0.995 ]])
    """
    positions = np.atleast_1d(check_array("positions", np.atleast_1d(positions)))
    if positions.ndim != 1:
        raise ValueError(f"positions must be one-dimensional, got shape {positions.shape}")
    layout = check_layout(layout)
    omega = frequencies(d_model, base)
    positions = positions.astype(np.float64)
    if dims is None:
        if pairs is not None:
            omega = omega[: check_int("pairs", pairs, minimum=1, maximum=omega.size)]
        angles = np.multiply.outer(positions, omega)
        sin, cos = np.sin(angles), np.cos(angles)
        if layout == "split":
            return np.concatenate([sin, cos], axis=-1)
        return np.stack([sin, cos], axis=-1).reshape(positions.size, 2 * omega.size)
    d_model = 2 * omega.size
    if pairs is not None:
        raise ValueError("pairs and dims cannot both be given: choose the columns once")
    dims = np.atleast_1d(np.asarray(dims))
    if dims.ndim != 1 or (dims.size and dims.dtype.kind not in "iu"):
        raise ValueError(f"dims must be a 1-D array of integers in 0..{d_model - 1}")
    if dims.size and (dims.min() < 0 or dims.max() >= d_model):
        raise ValueError(f"dims must be integers in 0..{d_model - 1}, got {dims.tolist()}")
    if layout == "interleaved":  # column j = 2 i + role, role 0 = sine, 1 = cosine
        pair, role = np.divmod(dims, 2)
    else:
        role, pair = np.divmod(dims, omega.size)
    angle = np.multiply.outer(positions, omega[pair])
    return np.where(role == 0, np.sin(angle), np.cos(angle))


def _table(omega: np.ndarray, length: int, offset: float, layout: str, dtype) -> np.ndarray:
    """:func:`sinusoidal` for any frequencies ``omega`` (checked arguments)."""
    ctype = np.complex64 if dtype == np.float32 else np.complex128
    half = omega.size
    d_model = 2 * half

    block = max(1, math.isqrt(length))
    n_full, tail = divmod(length, block)
    starts = offset + block * np.arange(n_full + (tail > 0), dtype=np.float64)
    # e^{-i omega P} for block starts P, e^{-i omega r} for in-block steps r.
    coarse = np.exp(-1j * np.multiply.outer(starts, omega))
    fine = np.exp(-1j * np.multiply.outer(np.arange(block, dtype=np.float64), omega))

    # Viewed as complex, an interleaved row is sin + i cos = i e^{-i omega p}.
    coarse *= 1j
    coarse, fine = coarse.astype(ctype), fine.astype(ctype)
    out = np.empty((length, d_model), dtype=dtype)
    z = out.view(ctype) if layout == "interleaved" else np.empty((length, half), dtype=ctype)
    _block_products(coarse, fine, z, block)
    if layout == "split":
        out[:, :half] = z.real
        out[:, half:] = z.imag
    return out


def _block_products(coarse, fine, z, block: int) -> None:
    """``z[P + r] = coarse[P / block] * fine[r]``, in shares on posenc's thread pool.

    numpy releases the GIL inside ufunc loops, so threads share the work (tables of
    ``_threads.THREADED_SIZE`` pairs or more; :mod:`posenc._threads`). Each share is
    clipped to [-1, 1]: rounded unit factors can multiply to one ulp past +-1 (24
    float32 entries of the 8192 x 4096 table did), and the exact values never do.
    """
    length, half = z.shape
    n_blocks = coarse.shape[0]
    workers = _threads.shares(n_blocks) if z.size >= _threads.THREADED_SIZE else 1
    bounds = np.linspace(0, n_blocks, workers + 1).round().astype(int)

    def work(first: int, last: int) -> None:
        rows = z[first * block : min(last * block, length)]
        full = min(last * block, length) // block - first
        body = rows[: full * block].reshape(full, block, half)
        np.multiply(coarse[first : first + full, None, :], fine[None, :, :], out=body)
        if full * block < len(rows):
            np.multiply(
                coarse[first + full], fine[: len(rows) - full * block], out=rows[full * block :]
            )
        values = rows.view(rows.real.dtype)
        np.clip(values, -1.0, 1.0, out=values)

    _threads.run(lambda share: work(*share), pairwise(bounds))
