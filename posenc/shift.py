"""Applying ``T(k)`` without the dense matrix, and checking that it moves rows by ``k``.

``T(k)`` (:func:`posenc.rotation_matrix`) is block diagonal: pair ``i`` of a row,
``(s, c) = (sin omega_i p, cos omega_i p)``, is multiplied by its own 2 x 2 block

.. math::

    [s, c] \\, \\Phi_i(k) = [s \\cos \\omega_i k + c \\sin \\omega_i k,\\;
                           -s \\sin \\omega_i k + c \\cos \\omega_i k]
                         = [\\sin \\omega_i (p + k),\\; \\cos \\omega_i (p + k)].

So ``rows @ T(k)`` costs ``O(L d)`` here instead of ``O(L d^2)``. Seed 003 writes the
same map for column vectors with the transposed block,
``\\Phi_i(k)^T = [[cos, sin], [-sin, cos]]``.

The dense matrices (``T(k)``, seed 003's ``M(k)``, single entries) are built in
:mod:`posenc.rotation`; what the shift does to dot products and distances is in
:mod:`posenc.similarity`.
"""

from __future__ import annotations

import numpy as np

from posenc import _threads
from posenc._layout import pair_halves
from posenc._validate import check_array, check_int, check_layout, check_real
from posenc.sinusoidal import frequencies, sinusoidal

__all__ = ["apply_rotation", "apply_rotation_columns", "shift_residuals"]

# Work in slabs of about this many float64 entries (16 MB) to bound peak memory.
_SLAB = 1 << 21


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
    s, c = pair_halves(x, layout, axis)
    out_s, out_c = pair_halves(out, layout, axis)
    scratch = np.multiply(c, sin)
    np.multiply(s, cos, out=out_s)
    out_s += scratch
    np.multiply(s, sin, out=scratch)
    np.multiply(c, cos, out=out_c)
    out_c -= scratch
    return out


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

    # Slabs of ~1 M entries on posenc's thread pool for long tables (numpy releases
    # the GIL); each slab writes its own slice of ``out``.
    _threads.run(slab, range(0, length, step))
    return out
