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

from posenc._validate import check_array, check_int, check_layout, check_real
from posenc.sinusoidal import frequencies

__all__ = [
    "block_rotation",
    "column_rotation_matrix",
    "pair_columns",
    "rotation_entries",
    "rotation_matrix",
    "split_permutation",
]


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
    return block_rotation(k * frequencies(d_model, base), layout=check_layout(layout))


def block_rotation(angles, *, layout: str = "interleaved") -> np.ndarray:
    """Dense block-diagonal matrix with blocks ``[[cos a, -sin a], [sin a, cos a]]``.

    ``block_rotation(k * frequencies(d, base))`` is ``rotation_matrix(k, d, base)``;
    with a prefix of the angles it is ``T(k)`` restricted to :func:`pair_columns`.

    Examples
    --------
    >>> block_rotation([np.pi / 2, 0.0]).round(12)
    array([[ 0., -1.,  0.,  0.],
           [ 1.,  0.,  0.,  0.],
           [ 0.,  0.,  1., -0.],
           [ 0.,  0.,  0.,  1.]])
    """
    angles = check_array("angles", angles)
    if angles.ndim != 1:
        raise ValueError(f"angles must be one-dimensional, got shape {angles.shape}")
    layout = check_layout(layout)
    half = angles.size
    cos, sin = np.cos(angles), np.sin(angles)
    matrix = np.zeros((2 * half, 2 * half))
    if layout == "interleaved":
        s_idx, c_idx = np.arange(0, 2 * half, 2), np.arange(1, 2 * half, 2)
    else:
        s_idx, c_idx = np.arange(half), half + np.arange(half)
    matrix[s_idx, s_idx] = cos
    matrix[s_idx, c_idx] = -sin
    matrix[c_idx, s_idx] = sin
    matrix[c_idx, c_idx] = cos
    return matrix


def pair_columns(d_model: int, pairs: int | None = None, *, layout: str = "interleaved"):
    """Column indices of pairs ``0 .. pairs - 1``, in the order the layout stores them.

    Each pair rotates on its own, so these columns of ``PE`` and the same rows and
    columns of ``T(k)`` form a closed system: ``PE[:, cols] @ T[cols][:, cols]``
    equals ``(PE @ T)[:, cols]``.

    Examples
    --------
    >>> pair_columns(8, 2)
    array([0, 1, 2, 3])
    >>> pair_columns(8, 2, layout="split")
    array([0, 1, 4, 5])
    """
    half = frequencies(d_model).size
    layout = check_layout(layout)
    pairs = half if pairs is None else check_int("pairs", pairs, minimum=1, maximum=half)
    if layout == "interleaved":
        return np.arange(2 * pairs)
    return np.concatenate([np.arange(pairs), half + np.arange(pairs)])


def column_rotation_matrix(
    k: float,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    pairs: int | None = None,
) -> np.ndarray:
    """Seed 003's matrix: ``PE[p + k]^T = M(k) PE[p]^T``, blocks ``[[cos, sin], [-sin, cos]]``.

    Built from its own formula (not by transposing); equals ``rotation_matrix(k, ...).T``.
    With ``pairs``, only pairs ``0 .. pairs - 1`` (rows and columns :func:`pair_columns`).

    Examples
    --------
    >>> column_rotation_matrix(np.pi / 2, 2, base=100.0).round(12)
    array([[ 0.,  1.],
           [-1.,  0.]])
    >>> column_rotation_matrix(1.0, 4096, pairs=1).round(4)
    array([[ 0.5403,  0.8415],
           [-0.8415,  0.5403]])
    """
    k = check_real("k", k)
    omega = frequencies(d_model, base)
    pairs = (
        omega.size if pairs is None else check_int("pairs", pairs, minimum=1, maximum=omega.size)
    )
    # Phi_i(-k) = [[cos, sin], [-sin, cos]] of omega_i k: seed 003's block, as written.
    return block_rotation(-k * omega[:pairs], layout=check_layout(layout))


def rotation_entries(
    k: float,
    d_model: int,
    base: float = 10000.0,
    *,
    rows=None,
    cols=None,
    layout: str = "interleaved",
) -> np.ndarray:
    """``rotation_matrix(k, d_model, base)[np.ix_(rows, cols)]`` without the d x d matrix.

    Entry ``(r, c)`` is non-zero only when ``r`` and ``c`` hold the same pair ``i``;
    then it is the entry of ``Phi_i(k)`` for their roles (sine or cosine slot).

    Parameters
    ----------
    rows, cols : array_like of int, optional
        Indices in ``0 .. d_model - 1``; all by default.

    Examples
    --------
    >>> rotation_entries(0.5, 4096, rows=[0, 1, 4095], cols=[0, 1]).round(4)
    array([[ 0.8776, -0.4794],
           [ 0.4794,  0.8776],
           [ 0.    ,  0.    ]])
    """
    k = check_real("k", k)
    layout = check_layout(layout)
    omega = frequencies(d_model, base)
    d_model = 2 * omega.size
    index = []
    for name, value in (("rows", rows), ("cols", cols)):
        idx = np.arange(d_model) if value is None else np.asarray(value)
        if (
            idx.ndim != 1
            or idx.dtype.kind not in "iu"
            or (idx.size and not (0 <= idx.min() and idx.max() < d_model))
        ):
            raise ValueError(f"{name} must be integer indices in 0..{d_model - 1}")
        index.append(idx)
    half = omega.size
    if layout == "interleaved":  # (pair, role): role 0 = sine slot, 1 = cosine slot
        (pair_r, role_r), (pair_c, role_c) = (divmod(idx, 2) for idx in index)
    else:
        (role_r, pair_r), (role_c, pair_c) = (divmod(idx, half) for idx in index)
    angle = k * omega[pair_r]
    cos, sin = np.cos(angle)[:, None], np.sin(angle)[:, None]
    r, c = role_r[:, None], role_c[None, :]
    # Phi = [[cos, -sin], [sin, cos]]: equal roles cos, (0, 1) -sin, (1, 0) sin.
    value = np.where(r == c, cos, np.where(r < c, -sin, sin))
    return np.where(pair_r[:, None] == pair_c[None, :], value, 0.0)
