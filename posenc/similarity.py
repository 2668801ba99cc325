"""How alike two positions are: the dot product of their sinusoidal codes.

By ``sin a sin b + cos a cos b = cos(a - b)``, for either layout,

.. math::

    PE_{(p)} \\cdot PE_{(q)} = \\sum_{i=0}^{d/2-1} \\cos\\big(\\omega_i (p - q)\\big),

a function of the offset ``k = p - q`` alone: the ``L x L`` matrix ``PE PE^T`` is symmetric
and Toeplitz (constant along each diagonal), with ``d/2`` on the diagonal. So one
vector of ``L`` offsets describes it: never form ``PE @ PE.T`` for long sequences.
"""

from __future__ import annotations

import numpy as np

from posenc._validate import check_array, check_int
from posenc.sinusoidal import frequencies

__all__ = [
    "MAX_SIMILARITY_LENGTH",
    "dot_products",
    "offset_distance",
    "offset_dot",
    "similarity_matrix",
]

# similarity_matrix materialises L x L float64: 4096 -> 128 MB at most.
MAX_SIMILARITY_LENGTH = 4096
_BLOCK_ENTRIES = 1 << 22


def dot_products(offsets, d_model: int, base: float = 10000.0) -> np.ndarray:
    """``PE[p] . PE[p + k]`` for offsets ``k``: ``sum_i cos(omega_i k)``, the same for every p.

    Parameters
    ----------
    offsets : array_like of real
        Any shape; may be negative or fractional (the value is even in the offset).
    d_model : int
        Even, >= 2.
    base : float
        Finite, > 1.

    Returns
    -------
    ndarray, same shape as ``offsets``, float64
        Between ``-d_model / 2`` and ``d_model / 2``, which it reaches at offset 0.

    Notes
    -----
    Evaluated in blocks of about 4 M cosines, so 8192 offsets at ``d_model = 4096``
    need about 32 MB, not the 512 MB of ``PE @ PE.T``.

    Examples
    --------
    >>> dot_products([0, 1, -1], 4, base=100.0).round(6)
    array([2.      , 1.535306, 1.535306])
    >>> from posenc import sinusoidal
    >>> pe = sinusoidal(8, 4, base=100.0)
    >>> bool(np.isclose(pe[5] @ pe[2], dot_products(3, 4, base=100.0)))
    True
    """
    offsets = check_array("offsets", offsets, min_ndim=0)
    omega = frequencies(d_model, base)
    flat = np.abs(offsets.astype(np.float64).ravel())
    out = np.empty(flat.shape)
    step = max(1, _BLOCK_ENTRIES // omega.size)
    for start in range(0, flat.size, step):
        block = flat[start : start + step]
        out[start : start + block.size] = np.cos(np.multiply.outer(block, omega)).sum(axis=1)
    return out.reshape(offsets.shape)


# ``PE[p] . PE[p + k]`` under the name the Rotation page's proof uses: the same function.
offset_dot = dot_products


def offset_distance(offsets, d_model: int, base: float = 10000.0) -> np.ndarray:
    """``||PE[p] - PE[p + k]||`` for offsets ``k``: the same for every ``p``, even in ``k``.

    .. math::

        \\lVert PE_{(p)} - PE_{(p+k)} \\rVert^2 = \\sum_i (2 - 2 \\cos \\omega_i k)
        = d - 2 \\, PE_{(p)} \\cdot PE_{(p+k)} = 4 \\sum_i \\sin^2 \\frac{\\omega_i k}{2}

    (each sin/cos pair is a unit vector turned by ``omega_i k``). The last form is
    evaluated: no cancellation for small ``k``.

    Parameters
    ----------
    offsets : array_like of real
        Any shape; may be negative or fractional.
    d_model : int
        Even, >= 2.
    base : float
        Finite, > 1.

    Returns
    -------
    ndarray, same shape as ``offsets``, float64

    Examples
    --------
    >>> offset_distance([0.0, np.pi], 2, base=100.0)
    array([0., 2.])
    >>> offset_distance([0, 1], 2).round(6)  # one pair turning 1 rad per step
    array([0.      , 0.958851])
    """
    offsets = check_array("offsets", offsets, min_ndim=0)
    omega = frequencies(d_model, base)
    flat = offsets.astype(np.float64).ravel()
    out = np.empty(flat.shape)
    step = max(1, _BLOCK_ENTRIES // omega.size)
    for start in range(0, flat.size, step):
        half = np.sin(0.5 * np.multiply.outer(flat[start : start + step], omega))
        out[start : start + half.shape[0]] = np.einsum("ij,ij->i", half, half)
    return (2.0 * np.sqrt(out)).reshape(offsets.shape)


def similarity_matrix(length: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The ``length x length`` matrix ``S[p, q] = PE[p] . PE[q]``, built from its offsets.

    Parameters
    ----------
    length : int
        Positions ``0 .. length - 1``; 1 to ``MAX_SIMILARITY_LENGTH`` (4096). For longer
        sequences use :func:`dot_products` on the offsets you need.
    d_model : int
        Even, >= 2.
    base : float
        Finite, > 1.

    Returns
    -------
    S : ndarray, shape (length, length), float64
        Symmetric, Toeplitz, ``d_model / 2`` on the diagonal; the same for the
        interleaved and the split layout.

    Examples
    --------
    >>> similarity_matrix(3, 4, base=100.0).round(3)
    array([[2.   , 1.535, 0.564],
           [1.535, 2.   , 1.535],
           [0.564, 1.535, 2.   ]])
    """
    length = check_int("length", length, minimum=1, maximum=MAX_SIMILARITY_LENGTH)
    values = dot_products(np.arange(length), d_model, base)
    index = np.arange(length)
    return values[np.abs(index[:, None] - index[None, :])]
