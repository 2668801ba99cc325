"""Applying ``T(k)`` without the dense matrix, and what the shift does to dot products.

``T(k)`` (:func:`posenc.rotation_matrix`) is block diagonal: pair ``i`` of a row,
``(s, c) = (sin omega_i p, cos omega_i p)``, is multiplied by its own 2 x 2 block

.. math::

    [s, c] \\, \\Phi_i(k) = [s \\cos \\omega_i k + c \\sin \\omega_i k,\\;
                           -s \\sin \\omega_i k + c \\cos \\omega_i k]
                         = [\\sin \\omega_i (p + k),\\; \\cos \\omega_i (p + k)].

So ``rows @ T(k)`` costs ``O(L d)`` here instead of ``O(L d^2)``. Seed 003 writes the
same map for column vectors with the transposed block,
``\\Phi_i(k)^T = [[cos, sin], [-sin, cos]]``.

Because every block is a rotation, ``PE[p] . PE[p + k] = sum_i cos(omega_i k)``
depends on ``k`` only, and is even in ``k``.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from posenc._validate import check_array, check_int, check_layout, check_real
from posenc.sinusoidal import _MAX_THREADS, frequencies, sinusoidal

__all__ = [
    "apply_rotation",
    "apply_rotation_columns",
    "block_rotation",
    "column_rotation_matrix",
    "encode_positions",
    "offset_distance",
    "offset_dot",
    "pair_columns",
    "rotation_entries",
    "shift_residuals",
]

# Work in slabs of about this many float64 entries (16 MB) to bound peak memory.
_SLAB = 1 << 21


def _halves(x: np.ndarray, layout: str, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """The sine and cosine parts of every pair along ``axis`` (views, no copies)."""
    n = x.shape[axis]
    index = [slice(None)] * x.ndim
    if layout == "interleaved":
        sine, cosine = slice(0, n, 2), slice(1, n, 2)
    else:
        sine, cosine = slice(0, n // 2), slice(n // 2, n)
    index[axis] = sine
    s = x[tuple(index)]
    index[axis] = cosine
    return s, x[tuple(index)]


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str, axis: int):
    """Every pair (s, c) along ``axis`` -> (s cos + c sin, c cos - s sin).

    Interleaved rows viewed as complex are ``s + i c``, and the map is one complex
    product ``(s + i c)(cos - i sin)``: a single pass, about 4x faster than the real
    form on strided halves. Otherwise the real form with one temporary.
    """
    if layout == "interleaved" and axis in (-1, x.ndim - 1):
        z = np.ascontiguousarray(x, dtype=np.float64).view(np.complex128)
        return np.multiply(z, cos - 1j * sin).view(np.float64)
    out = np.empty(x.shape, dtype=np.result_type(x, cos))
    s, c = _halves(x, layout, axis)
    out_s, out_c = _halves(out, layout, axis)
    scratch = np.multiply(c, sin)
    np.multiply(s, cos, out=out_s)
    out_s += scratch
    np.multiply(s, sin, out=scratch)
    np.multiply(c, cos, out=out_c)
    out_c -= scratch
    return out


def _join(s: np.ndarray, c: np.ndarray, layout: str, axis: int) -> np.ndarray:
    if layout == "split":
        return np.concatenate([s, c], axis=axis)
    stacked = np.stack([s, c], axis=axis + 1 if axis >= 0 else axis)
    shape = list(s.shape)
    shape[axis] *= 2
    return stacked.reshape(shape)


def _width(name: str, x: np.ndarray, axis: int) -> int:
    n = x.shape[axis]
    if n < 2 or n % 2:
        raise ValueError(f"{name} must have an even size >= 2 along the pair axis, got {n}")
    return n


def apply_rotation(
    rows, k: float, base: float = 10000.0, *, layout: str = "interleaved"
) -> np.ndarray:
    """``rows @ T(k)`` for row vectors (seed 000), one 2 x 2 block at a time.

    .. math::

        (x T(k))_{2i} = x_{2i} \\cos \\omega_i k + x_{2i+1} \\sin \\omega_i k, \\quad
        (x T(k))_{2i+1} = -x_{2i} \\sin \\omega_i k + x_{2i+1} \\cos \\omega_i k

    Parameters
    ----------
    rows : array_like, shape (..., d_model)
        Row vectors; ``d_model`` even (the last axis).
    k : float
        Offset; may be negative or fractional.
    base : float
        Finite, > 1.
    layout : {"interleaved", "split"}
        Where each pair's sine and cosine sit (see :mod:`posenc.sinusoidal`).

    Returns
    -------
    ndarray, same shape as ``rows``
        Equal to ``rows @ rotation_matrix(k, d_model, base, layout=layout)`` up to
        rounding, in ``O(rows.size)`` operations.

    Examples
    --------
    >>> from posenc import sinusoidal
    >>> pe = sinusoidal(20, 8)
    >>> bool(np.allclose(apply_rotation(pe[:15], 5, layout="interleaved"), pe[5:]))
    True
    >>> apply_rotation([[0.0, 1.0]], -np.pi / 2).round(12)  # (sin 0, cos 0) -> angle -pi/2
    array([[-1.,  0.]])
    """
    rows = check_array("rows", rows)
    k = check_real("k", k)
    layout = check_layout(layout)
    d_model = _width("rows", rows, -1)
    angles = k * frequencies(d_model, base)
    cos, sin = np.cos(angles), np.sin(angles)
    return _rotate(rows, cos, sin, layout, -1)


def apply_rotation_columns(
    columns, k: float, base: float = 10000.0, *, layout: str = "interleaved"
) -> np.ndarray:
    """``T(k)^T @ columns`` for column vectors, in the form of seed 003.

    Each pair ``(s, c)^T`` is multiplied by the block of seed 003,

    .. math::

        \\Phi_i(k)^T \\begin{bmatrix} s \\\\ c \\end{bmatrix} =
        \\begin{bmatrix} \\cos \\omega_i k & \\sin \\omega_i k \\\\
                         -\\sin \\omega_i k & \\cos \\omega_i k \\end{bmatrix}
        \\begin{bmatrix} s \\\\ c \\end{bmatrix}

    Parameters
    ----------
    columns : array_like, shape (d_model, ...)
        Column vectors along the first axis; ``d_model`` even.
    k, base, layout
        As in :func:`apply_rotation`.

    Returns
    -------
    ndarray, same shape as ``columns``
        ``apply_rotation(columns.T, k, ...).T`` up to rounding.

    Examples
    --------
    >>> from posenc import sinusoidal
    >>> pe = sinusoidal(12, 6)
    >>> bool(np.allclose(apply_rotation_columns(pe[:9].T, 3).T, pe[3:]))
    True
    """
    columns = check_array("columns", columns)
    k = check_real("k", k)
    layout = check_layout(layout)
    d_model = _width("columns", columns, 0)
    angles = k * frequencies(d_model, base)
    shape = (-1,) + (1,) * (columns.ndim - 1)
    cos, sin = np.cos(angles).reshape(shape), np.sin(angles).reshape(shape)
    # Phi_i(k)^T (s, c)^T = (cos s + sin c, -sin s + cos c): the same numbers as the rows.
    return _rotate(columns, cos, sin, layout, 0)


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


def encode_positions(
    positions,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    pairs: int | None = None,
) -> np.ndarray:
    """Sinusoidal rows for arbitrary (scattered, fractional, negative) positions.

    .. math:: PE_{(p, 2i)} = \\sin \\omega_i p, \\quad PE_{(p, 2i+1)} = \\cos \\omega_i p

    With ``pairs``, only pairs ``0 .. pairs - 1`` (the columns :func:`pair_columns`, in
    that order), without computing the others.

    Examples
    --------
    >>> from posenc import sinusoidal
    >>> bool(np.allclose(encode_positions([3.0, 1.0], 6), sinusoidal(4, 6)[[3, 1]]))
    True
    >>> encode_positions([0.0], 4096, pairs=1)
    array([[0., 1.]])
    """
    positions = check_array("positions", positions)
    if positions.ndim != 1:
        raise ValueError(f"positions must be one-dimensional, got shape {positions.shape}")
    layout = check_layout(layout)
    omega = frequencies(d_model, base)
    if pairs is not None:
        omega = omega[: check_int("pairs", pairs, minimum=1, maximum=omega.size)]
    angles = np.multiply.outer(positions.astype(np.float64), omega)
    return _join(np.sin(angles), np.cos(angles), layout, -1)


def shift_residuals(
    length: int,
    d_model: int,
    k: float,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    coefficients=None,
) -> np.ndarray:
    """``max_j |(PE[p] T(k))_j - PE[p + k]_j|`` for every ``p = 0 .. length - 1``.

    ``PE[p + k]`` is evaluated from the formula at position ``p + k`` (any real ``k``),
    ``PE[p] T(k)`` with :func:`apply_rotation`. Works in slabs of rows, so memory stays
    about 100 MB even at 8192 x 4096.

    ``coefficients``, if given, are seed 000's ``r_n``: block ``n = i + 1`` turns pair
    ``i`` by ``k r_n`` instead of ``k omega_i`` (its proof finds ``r_n = omega_{n-1}``;
    any other choice leaves residuals far above rounding, though not necessarily near
    1: ``omega_{i+1}`` at d = 128, k = 1 leaves 0.13).

    Returns
    -------
    ndarray, shape (length,)
        Rounding only: at most about ``eps * (|p| + |k|)``, the float64 rounding of the
        angle ``omega_0 (p + k)``.

    Examples
    --------
    >>> r = shift_residuals(100, 64, -2.5)
    >>> r.shape, bool(r.max() < 1e-13)
    ((100,), True)
    >>> bool(shift_residuals(100, 64, -2.5, coefficients=np.ones(32)).min() > 0.1)
    True
    """
    length = check_int("length", length, minimum=1)
    k = check_real("k", k)
    layout = check_layout(layout)
    omega = frequencies(d_model, base)
    d_model = 2 * omega.size
    if coefficients is not None:
        coefficients = check_array("coefficients", coefficients)
        if coefficients.shape != omega.shape:
            raise ValueError(
                f"coefficients must have d_model / 2 = {omega.size} entries, "
                f"got shape {coefficients.shape}"
            )
        angles = k * coefficients
    else:
        angles = k * omega
    cos, sin = np.cos(angles), np.sin(angles)
    step = max(1, (_SLAB // 2) // d_model)
    out = np.empty(length)

    def slab(start: int) -> None:
        n = min(step, length - start)
        rows = sinusoidal(n, d_model, base, layout=layout, offset=start)
        later = sinusoidal(n, d_model, base, layout=layout, offset=start + k)
        moved = _rotate(rows, cos, sin, layout, -1)
        moved -= later
        np.abs(moved, out=moved)
        out[start : start + n] = moved.max(axis=1)

    # Slabs of ~1 M entries on every core for long tables (numpy releases the GIL).
    starts = range(0, length, step)
    workers = min(os.cpu_count() or 1, _MAX_THREADS) if len(starts) > 1 else 1
    if workers > 1:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(slab, starts))
    else:
        for start in starts:
            slab(start)
    return out


def _over_offsets(k, d_model: int, base: float, term) -> tuple[np.ndarray, np.ndarray]:
    k = check_array("k", k, min_ndim=0)
    omega = frequencies(d_model, base)
    flat = k.reshape(-1).astype(np.float64)
    total = np.empty(flat.shape)
    step = max(1, _SLAB // omega.size)
    for start in range(0, flat.size, step):
        part = np.multiply.outer(flat[start : start + step], omega)
        total[start : start + step] = term(part).sum(axis=1)
    return k, total


def offset_dot(k, d_model: int, base: float = 10000.0) -> np.ndarray:
    """``PE[p] . PE[p + k] = sum_i cos(omega_i k)``: the same for every ``p``.

    .. math::

        PE_{(p)} \\cdot PE_{(p+k)} = \\sum_i \\sin \\omega_i p \\, \\sin \\omega_i (p+k)
        + \\cos \\omega_i p \\, \\cos \\omega_i (p+k) = \\sum_{i=0}^{d/2-1} \\cos \\omega_i k

    Even in ``k``: ``offset_dot(-k) == offset_dot(k)``, so it cannot tell before from
    after. Equals ``d_model / 2`` at ``k = 0``.

    Parameters
    ----------
    k : float or array_like
        Offsets.

    Returns
    -------
    ndarray, shape of ``k``

    Examples
    --------
    >>> offset_dot([0.0, 2.0, -2.0], 4, base=100.0).round(6)
    array([2.     , 0.56392, 0.56392])
    """
    k, total = _over_offsets(k, d_model, base, np.cos)
    return total.reshape(k.shape)


def offset_distance(k, d_model: int, base: float = 10000.0) -> np.ndarray:
    """``||PE[p] - PE[p + k]||``, the same for every ``p``, even in ``k``.

    .. math::

        \\lVert PE_{(p)} - PE_{(p+k)} \\rVert^2 = \\sum_i (2 - 2 \\cos \\omega_i k)
        = d - 2 \\, PE_{(p)} \\cdot PE_{(p+k)} = 4 \\sum_i \\sin^2 \\frac{\\omega_i k}{2}

    The last form is used: no cancellation for small ``k``.

    Examples
    --------
    >>> offset_distance([0.0, np.pi], 2, base=100.0)
    array([0., 2.])
    """
    k, total = _over_offsets(k, d_model, base, lambda a: np.sin(a / 2) ** 2)
    return (2.0 * np.sqrt(total)).reshape(k.shape)
