"""ALiBi, attention with linear biases (Press, Smith and Lewis 2022; BLOOM, MPT).

No position vectors at all: head h adds ``-s_h |i - j|`` to the score of query i and
key j, a straight line in the distance whose slope ``s_h`` is fixed per head (not
learned). For ``n`` heads, a power of two, the slopes are the geometric sequence

.. math:: s_h = 2^{-8h/n}, \\qquad h = 1, \\dots, n .

Otherwise, with ``n_0`` the largest power of two below ``n``, the first ``n_0`` heads
take the sequence for ``n_0`` and the remaining ``n - n_0`` heads take every other
slope of the sequence for ``2 n_0`` (the odd powers ``2^{-4(2j-1)/n_0}``), as in the
paper's code and in BLOOM.
"""

from __future__ import annotations

import numpy as np

from posenc._validate import check_int

__all__ = ["alibi_bias", "alibi_slopes"]

# A bias tensor of n_heads * length**2 float64 entries; this caps it at 512 MiB.
MAX_BIAS_ENTRIES = 2**26


def alibi_slopes(n_heads: int) -> np.ndarray:
    """The ALiBi slope of every head.

    .. math::

        s_h = 2^{-8h/n_0} \\; (1 \\le h \\le n_0), \\qquad
        s_{n_0 + j} = 2^{-4(2j - 1)/n_0} \\; (1 \\le j \\le n - n_0),

    with ``n_0 = 2 ** floor(log2(n))`` (``n_0 = n`` for a power of two).

    Parameters
    ----------
    n_heads : int
        Number of heads ``n``, >= 1.

    Returns
    -------
    slopes : ndarray, shape (n_heads,), float64
        Exact powers of two; BLOOM forms the same numbers in float32.

    Examples
    --------
    >>> alibi_slopes(8)
    array([0.5       , 0.25      , 0.125     , 0.0625    , 0.03125   ,
           0.015625  , 0.0078125 , 0.00390625])
    >>> alibi_slopes(3).round(4)  # n0 = 2: 2^-4, 2^-8, then 2^-2 from the sequence for 4
    array([0.0625, 0.0039, 0.25  ])
    """
    n = check_int("n_heads", n_heads, minimum=1)
    n0 = 1 << (n.bit_length() - 1)
    slopes = np.exp2(-8.0 * np.arange(1, n0 + 1) / n0)
    odd = 2 * np.arange(1, n - n0 + 1) - 1
    return np.concatenate([slopes, np.exp2(-4.0 * odd / n0)])


def alibi_bias(length: int, n_heads: int) -> np.ndarray:
    """ALiBi's bias of every head, added to the raw scores before the softmax.

    .. math:: B_h[i, j] = -s_h \\, |i - j|

    A causal model masks ``j > i`` anyway; BLOOM adds ``s_h j`` instead, which differs
    from ``-s_h (i - j)`` by ``s_h i``, the same for every key of row i, so the softmax
    is the same.

    Parameters
    ----------
    length : int
        Sequence length ``L``, >= 1.
    n_heads : int
        >= 1, with ``n_heads * length**2 <= 2**26``.

    Returns
    -------
    bias : ndarray, shape (n_heads, length, length), float64
        Symmetric and Toeplitz in the last two axes.

    Examples
    --------
    >>> alibi_bias(3, 2)[0]  # slopes 2^-4 and 2^-8
    array([[ 0.    , -0.0625, -0.125 ],
           [-0.0625,  0.    , -0.0625],
           [-0.125 , -0.0625,  0.    ]])
    """
    length = check_int("length", length, minimum=1)
    n = check_int("n_heads", n_heads, minimum=1)
    if n * length * length > MAX_BIAS_ENTRIES:
        raise ValueError(
            f"n_heads * length**2 must be <= {MAX_BIAS_ENTRIES}, got {n} * {length}**2"
        )
    positions = np.arange(length)
    distance = np.abs(positions[:, None] - positions[None, :]).astype(np.float64)
    return 0.0 - alibi_slopes(n)[:, None, None] * distance  # 0.0 -: no -0.0 on the diagonal
