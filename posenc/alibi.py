"""ALiBi, attention with linear biases (Press, Smith and Lewis 2022; BLOOM, MPT).

No position vectors at all: head h adds ``-s_h |m - n|`` to the score of query m and
key n, a straight line in the distance whose slope ``s_h`` is fixed per head (not
learned). For ``H`` heads, a power of two, the slopes are the geometric sequence

.. math:: s_h = 2^{-8h/H}, \\qquad h = 1, \\dots, H .

Otherwise, with ``H_0`` the largest power of two below ``H``, the first ``H_0`` heads
take the sequence for ``H_0`` and the remaining ``H - H_0`` heads take every other
slope of the sequence for ``2 H_0`` (the odd powers ``2^{-4(2t-1)/H_0}``), as in the
paper's code and in BLOOM. (The paper writes ``n`` heads and query i, key j; here the
package glossary's m, n are positions.)
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

        s_h = 2^{-8h/H_0} \\; (1 \\le h \\le H_0), \\qquad
        s_{H_0 + t} = 2^{-4(2t - 1)/H_0} \\; (1 \\le t \\le H - H_0),

    with ``H_0 = 2 ** floor(log2(H))`` (``H_0 = H`` for a power of two).

    Parameters
    ----------
    n_heads : int
        Number of heads ``H``, >= 1.

    Returns
    -------
    slopes : ndarray, shape (n_heads,), float64
        Exact powers of two; BLOOM forms the same numbers in float32.

    Examples
    --------
    >>> alibi_slopes(8)
    array([0.5       , 0.25      , 0.125     , 0.0625    , 0.03125   ,
           0.015625  , 0.0078125 , 0.00390625])
    >>> alibi_slopes(3).round(4)  # H_0 = 2: 2^-4, 2^-8, then 2^-2 from the sequence for 4
    array([0.0625, 0.0039, 0.25  ])
    """
    n = check_int("n_heads", n_heads, minimum=1)
    n0 = 1 << (n.bit_length() - 1)
    slopes = np.exp2(-8.0 * np.arange(1, n0 + 1) / n0)
    odd = 2 * np.arange(1, n - n0 + 1) - 1
    return np.concatenate([slopes, np.exp2(-4.0 * odd / n0)])


def alibi_bias(length: int, n_heads: int) -> np.ndarray:
    """ALiBi's bias of every head, added to the raw scores before the softmax.

    .. math:: B_h[m, n] = -s_h \\, |m - n|

    A causal model masks ``n > m`` anyway; BLOOM adds ``s_h n`` instead, which differs
    from ``-s_h (m - n)`` by ``s_h m``, the same for every key of row m, so the softmax
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
