"""Binary position codes: the counter that the sinusoid smooths (seed 001).

Row ``p`` of ``binary(length, bits)`` is ``p`` written in base 2, most significant bit
first. Bit ``b`` counted from the right flips every ``2**b`` positions: a square wave
of period ``2**(b + 1)``, the discrete cousin of a sinusoid with wavelength
``lambda = 2**(b + 1)``.
"""

from __future__ import annotations

import numpy as np

from posenc._validate import check_int

__all__ = ["binary"]


def binary(length: int, bits: int | None = None) -> np.ndarray:
    """Positions ``0 .. length-1`` as rows of bits, most significant bit first.

    Parameters
    ----------
    length : int
        Number of positions, >= 1.
    bits : int or None
        Columns. ``None`` means the fewest bits that number every position (at least 1).
        A given value must be at least that many and at most 62.

    Returns
    -------
    codes : ndarray of int64, shape (length, bits), values 0 or 1

    Examples
    --------
    >>> binary(6, bits=4)[5]
    array([0, 1, 0, 1])
    >>> binary(16).shape
    (16, 4)
    >>> binary(1)
    array([[0]])
    """
    length = check_int("length", length, minimum=1, maximum=2**62)
    needed = max(1, (length - 1).bit_length())
    if bits is None:
        bits = needed
    else:
        bits = check_int("bits", bits, minimum=needed, maximum=62)
    positions = np.arange(length, dtype=np.int64)
    shifts = np.arange(bits - 1, -1, -1, dtype=np.int64)
    return (positions[:, None] >> shifts[None, :]) & 1
