"""The evolution of position codes (seeds 000, 001, 003), as tables of the same shape.

=================  ===========================================================
``"index"``        ``e(p) = p`` in every column (unbounded)
``"normalised"``   ``e(p) = p / (L - 1)`` in every column (depends on L)
``"binary"``       bits of p, most significant first, padded/truncated to d columns
``"sin_pow2"``     ``sin(p / 2**i)`` per column i (sine only, frequencies 1/2^i)
``"sinusoidal"``   the paper's sin/cos pairs, ``omega_i = base ** (-2i/d)``
=================  ===========================================================
"""

from __future__ import annotations

import numpy as np

from posenc._validate import check_array, check_base, check_int
from posenc.sinusoidal import sinusoidal

__all__ = ["SCHEMES", "informative_columns", "scheme_table", "sine_table"]

SCHEMES = ("index", "normalised", "binary", "sin_pow2", "sinusoidal")


def scheme_table(
    name: str,
    length: int,
    d_model: int,
    base: float = 10000.0,
    *,
    total_length: int | None = None,
    offset: int = 0,
) -> np.ndarray:
    """Encode positions ``offset .. offset + length - 1`` with scheme ``name``.

    Parameters
    ----------
    name : one of ``SCHEMES``
    length : int
        Rows, >= 1.
    d_model : int
        Columns, >= 1 (even for ``"sinusoidal"``).
    base : float
        Only for ``"sinusoidal"``.
    total_length : int, optional
        The sequence length L that ``"normalised"`` divides by (default
        ``offset + length``): the same position gets another code in a longer sequence.
    offset : int
        First position, >= 0.

    Returns
    -------
    ndarray, shape (length, d_model), float64

    Examples
    --------
    >>> scheme_table("normalised", 3, 2)
    array([[0. , 0. ],
           [0.5, 0.5],
           [1. , 1. ]])
    >>> scheme_table("binary", 4, 3)[3]
    array([0., 1., 1.])
    >>> scheme_table("sin_pow2", 2, 2).round(4)
    array([[0.    , 0.    ],
           [0.8415, 0.4794]])
    """
    if name not in SCHEMES:
        raise ValueError(f"name must be one of {SCHEMES}, got {name!r}")
    length = check_int("length", length, minimum=1)
    d_model = check_int("d_model", d_model, minimum=1)
    offset = check_int("offset", offset, minimum=0)
    positions = np.arange(offset, offset + length, dtype=np.float64)
    if name == "index":
        return np.repeat(positions[:, None], d_model, axis=1)
    if name == "normalised":
        total = offset + length if total_length is None else total_length
        total = check_int("total_length", total, minimum=offset + length)
        scale = 1.0 / (total - 1) if total > 1 else 0.0
        return np.repeat(positions[:, None] * scale, d_model, axis=1)
    if name == "binary":
        shifts = np.arange(d_model - 1, -1, -1)
        ints = positions.astype(np.int64)[:, None]
        bits = (ints >> np.minimum(shifts, 62)[None, :]) & 1
        return np.where(shifts[None, :] > 62, 0, bits).astype(np.float64)
    if name == "sin_pow2":
        # p * 2**-i, exact, without overflowing 2**i for i >= 1024 (d_model up to 4096).
        return np.sin(np.ldexp(positions[:, None], -np.arange(d_model)[None, :]))
    return sinusoidal(length, d_model, check_base(base), offset=offset)


def informative_columns(name: str, length: int, d_model: int, level: float = 0.05) -> range:
    """The columns of ``scheme_table(name, length, d_model)`` whose values over positions
    ``0 .. length - 1`` spread by at least ``level`` (at least one column).

    Binary holds ``length - 1`` in its last ``b = bit_length(length - 1)`` columns; the
    others are 0. ``sin(p / 2**j)`` spreads by ``sin(min(pi/2, (length - 1) / 2**j))``,
    which falls below ``level`` once ``2**j > (length - 1) / arcsin(level)``: at d = 128
    and L = 50 both schemes use fewer than 10 of the 128 columns. The other schemes use
    every column.

    Examples
    --------
    >>> informative_columns("binary", 50, 128)
    range(122, 128)
    >>> informative_columns("sin_pow2", 50, 128)
    range(0, 10)
    >>> informative_columns("sinusoidal", 50, 128)
    range(0, 128)
    """
    if name not in SCHEMES:
        raise ValueError(f"name must be one of {SCHEMES}, got {name!r}")
    length = check_int("length", length, minimum=1)
    d_model = check_int("d_model", d_model, minimum=1)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    if name == "binary":
        return range(d_model - min(d_model, max(1, (length - 1).bit_length())), d_model)
    if name == "sin_pow2":
        reach = np.ldexp(float(length - 1), -np.arange(d_model))  # (L - 1) / 2**j
        return range(max(1, int(np.count_nonzero(reach >= np.arcsin(level)))))
    return range(d_model)


def sine_table(positions, omegas) -> np.ndarray:
    """Sine-only codes ``e(p)_j = sin(omega_j p)`` (seed 003).

    With three frequencies this is the d_model = 3 example: high frequencies close a
    loop within the sequence, so far-apart positions come close.

    Parameters
    ----------
    positions : int or array_like of float
        An int L >= 1 means ``p = 0 .. L - 1``; an array gives the positions (they may be
        fractional, to draw the continuous path).
    omegas : array_like, shape (m,)
        Angular frequencies, finite.

    Returns
    -------
    ndarray, shape (number of positions, m)

    Examples
    --------
    >>> sine_table(3, [1.0, 0.5]).round(4)
    array([[0.    , 0.    ],
           [0.8415, 0.4794],
           [0.9093, 0.8415]])
    >>> sine_table([0.5], [np.pi]).tolist()
    [[1.0]]
    """
    if isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        positions = np.arange(check_int("positions", positions, minimum=1), dtype=np.float64)
    else:
        positions = check_array("positions", positions).astype(np.float64)
        if positions.ndim != 1:
            raise ValueError(f"positions must be an int or 1-D, got shape {positions.shape}")
    omegas = check_array("omegas", omegas).astype(np.float64)
    if omegas.ndim != 1:
        raise ValueError(f"omegas must be 1-D, got shape {omegas.shape}")
    return np.sin(np.multiply.outer(positions, omegas))
