"""The rotation ``T(k)`` that moves a sinusoidal row ``k`` positions on (seed 000).

With row vectors and the interleaved layout,

.. math::

    PE_{(p)} \\, T(k) = PE_{(p+k)}, \\qquad
    T(k) = \\operatorname{diag}(\\Phi_0(k), \\ldots, \\Phi_{d/2-1}(k)), \\qquad
    \\Phi_i(k) = \\begin{bmatrix} \\cos \\omega_i k & -\\sin \\omega_i k \\\\
                                  \\sin \\omega_i k & \\cos \\omega_i k \\end{bmatrix}

``T(k)`` does not depend on ``p``. Seed 003 writes the same fact for column vectors:
``PE_{(p+k)}^T = T(k)^T PE_{(p)}^T``.
"""

from __future__ import annotations

import numpy as np

from posenc._validate import check_layout, check_real
from posenc.sinusoidal import frequencies

__all__ = ["rotation_matrix", "split_permutation"]


def split_permutation(d_model: int) -> np.ndarray:
    """Column order that turns an interleaved row into a split one.

    ``interleaved[..., split_permutation(d)]`` equals the split layout:
    sines (even columns) first, then cosines (odd columns).

    Examples
    --------
    >>> split_permutation(6)
    array([0, 2, 4, 1, 3, 5])
    """
    d_model = frequencies(d_model).size * 2  # validates d_model
    return np.concatenate([np.arange(0, d_model, 2), np.arange(1, d_model, 2)])


def rotation_matrix(
    k: float, d_model: int, base: float = 10000.0, *, layout: str = "interleaved"
) -> np.ndarray:
    """Block-diagonal ``T(k)`` with ``sinusoidal(...)[p] @ T(k) == sinusoidal(...)[p + k]``.

    Parameters
    ----------
    k : float
        Offset; may be negative or fractional. ``T(-k)`` is the inverse (and transpose)
        of ``T(k)``.
    d_model : int
        Even, >= 2.
    base : float
        Finite, > 1.
    layout : {"interleaved", "split"}
        The layout of the rows it acts on. For ``"split"`` the same rotation with rows
        and columns permuted by :func:`split_permutation`.

    Returns
    -------
    T : ndarray, shape (d_model, d_model)

    Examples
    --------
    >>> from posenc import sinusoidal
    >>> pe = sinusoidal(10, 6)
    >>> bool(np.allclose(pe[2] @ rotation_matrix(5, 6), pe[7]))
    True
    >>> rotation_matrix(np.pi / 2, 2, base=100.0).round(3)
    array([[ 0., -1.],
           [ 1.,  0.]])
    """
    k = check_real("k", k)
    layout = check_layout(layout)
    angles = k * frequencies(d_model, base)
    cos, sin = np.cos(angles), np.sin(angles)
    d_model = 2 * angles.size
    even = np.arange(0, d_model, 2)
    matrix = np.zeros((d_model, d_model))
    matrix[even, even] = cos
    matrix[even, even + 1] = -sin
    matrix[even + 1, even] = sin
    matrix[even + 1, even + 1] = cos
    if layout == "split":
        order = split_permutation(d_model)
        matrix = matrix[np.ix_(order, order)]
    return matrix
