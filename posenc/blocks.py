"""Means of position codes over blocks of consecutive positions, in closed form.

A heatmap of an ``L x d`` table with ``L`` in the thousands shows block means: one row
of the chart stands for ``step`` consecutive positions. Every code of this package has
a closed-form block sum, so the means cost ``O(L / step * d)`` instead of ``O(L * d)``:

- a sinusoid (the Dirichlet kernel):

  .. math::

      \\sum_{t=0}^{r-1} \\sin(\\omega (a + t))
      = \\sin\\!\\Big(\\omega \\big(a + \\tfrac{r-1}{2}\\big)\\Big)\\,
        \\frac{\\sin(\\omega r / 2)}{\\sin(\\omega / 2)}

  and the same with cos;
- a position ``p`` (index, normalised): the mean of ``a .. a + r - 1`` is
  ``a + (r - 1) / 2``;
- bit ``b`` of ``p``: the number of ``p < n`` with the bit set is
  ``(n >> (b + 1)) * 2**b + max(0, n mod 2**(b + 1) - 2**b)``.

The last block may be shorter than ``step`` (``length`` need not be a multiple).
"""

from __future__ import annotations

import numpy as np

from posenc._validate import check_array, check_base, check_int, check_layout
from posenc.schemes import SCHEMES
from posenc.sinusoidal import frequencies

__all__ = ["block_starts", "scheme_block_means", "sinusoid_block_means"]


def block_starts(length: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """First position and size of each block of ``step`` positions in ``0 .. length - 1``.

    Examples
    --------
    >>> block_starts(7, 3)
    (array([0, 3, 6]), array([3, 3, 1]))
    """
    length = check_int("length", length, minimum=1)
    step = check_int("step", step, minimum=1)
    starts = np.arange(0, length, step)
    return starts, np.diff(np.append(starts, length))


def sinusoid_block_means(length: int, omega, step: int, *, cosine=False) -> np.ndarray:
    """Mean of ``sin(omega_j p)`` (``cos`` where ``cosine``) over blocks of ``step`` positions.

    Parameters
    ----------
    length : int
        Positions ``p = 0 .. length - 1``, >= 1.
    omega : array_like, shape (m,)
        Angular frequencies, finite, ``0 <= omega < 2 pi`` (at ``0`` the mean is the
        value itself).
    step : int
        Positions per block, >= 1; the last block may be shorter.
    cosine : bool or array_like of bool, shape (m,)
        Which columns are cosines.

    Returns
    -------
    ndarray, shape (ceil(length / step), m), float64

    Examples
    --------
    >>> sinusoid_block_means(4, [np.pi / 2], 2).round(12)  # sin: 0, 1, 0, -1
    array([[ 0.5],
           [-0.5]])
    >>> sinusoid_block_means(3, [0.0, 0.0], 2, cosine=[False, True])
    array([[0., 1.],
           [0., 1.]])
    """
    omega = check_array("omega", omega).astype(np.float64).ravel()
    cosine = np.broadcast_to(np.asarray(cosine, dtype=bool), omega.shape)
    centre, kernel = _dirichlet(length, omega, step)
    out = np.empty_like(centre)
    out[:, ~cosine] = np.sin(centre[:, ~cosine])
    out[:, cosine] = np.cos(centre[:, cosine])
    out *= kernel
    return out


def _dirichlet(length: int, omega: np.ndarray, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Per block and frequency: the centre angle ``omega (a + (r - 1) / 2)`` and the factor
    ``sin(omega r / 2) / (r sin(omega / 2))`` that turns its sin/cos into the block mean."""
    if np.any(omega < 0) or np.any(omega >= 2 * np.pi):
        raise ValueError("omega must lie in [0, 2 pi)")
    starts, sizes = block_starts(length, step)
    r = sizes[:, None].astype(np.float64)
    centre = np.multiply.outer(starts + (sizes - 1) / 2.0, omega)
    half = np.sin(omega / 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        kernel = np.sin(r * (omega / 2.0)) / (r * half)
    return centre, np.where(half == 0.0, 1.0, kernel)


def _bit_counts(n: np.ndarray, bit: np.ndarray) -> np.ndarray:
    """How many ``p < n`` have bit ``bit`` set (broadcast over ``n`` and ``bit``)."""
    period = np.left_shift(1, bit + 1, dtype=np.int64)
    half = period >> 1
    return (n // period) * half + np.maximum(0, n % period - half)


def scheme_block_means(
    name: str,
    length: int,
    d_model: int,
    base: float = 10000.0,
    step: int = 1,
    *,
    total_length: int | None = None,
    layout: str = "interleaved",
) -> np.ndarray:
    """Block means of ``scheme_table(name, length, d_model, ...)`` over ``step`` rows.

    Exactly the means of the table's rows, without building the table: the cost is
    ``O(ceil(length / step) * d_model)``.

    Parameters
    ----------
    name : one of ``posenc.schemes.SCHEMES``
    length, d_model, base, total_length
        As for :func:`posenc.schemes.scheme_table`.
    step : int
        Rows per block, >= 1.
    layout : {"interleaved", "split"}
        Column order of ``"sinusoidal"`` (as :func:`posenc.sinusoidal`).

    Returns
    -------
    ndarray, shape (ceil(length / step), d_model), float64

    Examples
    --------
    >>> from posenc.schemes import scheme_table
    >>> table = scheme_table("binary", 10, 4)
    >>> scheme_block_means("binary", 10, 4, step=4).tolist()
    [[0.0, 0.0, 0.5, 0.5], [0.0, 1.0, 0.5, 0.5], [1.0, 0.0, 0.0, 0.5]]
    >>> bool(np.allclose(scheme_block_means("sinusoidal", 10, 4, step=4)[1],
    ...                  scheme_table("sinusoidal", 10, 4)[4:8].mean(axis=0)))
    True
    """
    if name not in SCHEMES:
        raise ValueError(f"name must be one of {SCHEMES}, got {name!r}")
    length = check_int("length", length, minimum=1)
    d_model = check_int("d_model", d_model, minimum=1)
    step = check_int("step", step, minimum=1)
    layout = check_layout(layout)
    starts, sizes = block_starts(length, step)
    if name in ("index", "normalised"):
        means = starts + (sizes - 1) / 2.0
        if name == "normalised":
            total = length if total_length is None else total_length
            total = check_int("total_length", total, minimum=length)
            means = means * (1.0 / (total - 1) if total > 1 else 0.0)
        return np.repeat(means[:, None], d_model, axis=1)
    if name == "binary":
        bits = np.arange(d_model - 1, -1, -1)  # column j holds bit d - 1 - j
        live = bits <= 62  # higher bits of an int64 position are 0
        ends = (starts + sizes)[:, None]
        b = np.minimum(bits, 62)[None, :]
        ones = _bit_counts(ends, b) - _bit_counts(starts[:, None], b)
        return np.where(live[None, :], ones / sizes[:, None], 0.0)
    if name == "sin_pow2":
        # omega_j = 2**-j; below 2**-1074 it is 0 (sin p 2**-j is then 0 as well).
        omega = np.ldexp(1.0, -np.arange(d_model))
        return sinusoid_block_means(length, omega, step)
    centre, kernel = _dirichlet(length, frequencies(d_model, check_base(base)), step)
    means = np.empty((centre.shape[0], d_model))
    sin, cos = (means[:, 0::2], means[:, 1::2]) if layout == "interleaved" else np.hsplit(means, 2)
    np.multiply(np.sin(centre), kernel, out=sin)
    np.multiply(np.cos(centre), kernel, out=cos)
    return means
