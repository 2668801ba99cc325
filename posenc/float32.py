"""The PyTorch tutorial's float32 table, entry by entry, and its drift at large positions.

The float32 functions mimic the PyTorch tutorial's ``PositionalEncoding`` buffer
(everything in float32): ``div_term = exp(float32(2 i) * float32(-ln(b) / d))``,
``angle = float32(p) * div_term``, then ``sin`` / ``cos``. Each float32 operation is
rounded correctly here (``exp``, ``sin``, ``cos`` are evaluated in float64 and rounded
once); torch's own float32 ``exp`` is within one ulp of that, so a few ``div_term``
entries may differ from torch's by one ulp.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from posenc._validate import check_array
from posenc.frequency_forms import frequencies_logspace
from posenc.sinusoidal import encode_positions

__all__ = [
    "FLOAT32_EXACT_POSITIONS",
    "Drift",
    "float32_drift",
    "sin_cos_f32",
    "torch_angles_f32",
    "torch_rows_f32",
]

# Integers up to 2**24 are exact in float32; beyond that torch's float32 position
# itself is rounded.
FLOAT32_EXACT_POSITIONS = 2**24


def _check_positions_f32(positions) -> np.ndarray:
    positions = np.atleast_1d(check_array("positions", np.atleast_1d(positions)))
    if (
        positions.ndim != 1
        or np.any(positions != np.round(positions))
        or np.any(positions < 0)
        or np.any(positions > FLOAT32_EXACT_POSITIONS)
    ):
        raise ValueError(
            f"positions must be a 1-D array of integers in 0..{FLOAT32_EXACT_POSITIONS} "
            "(exact in float32)"
        )
    return positions.astype(np.float64)


def torch_angles_f32(positions, d_model: int, base: float = 10000.0) -> np.ndarray:
    """Angles of the PyTorch tutorial's float32 buffer: ``float32(p) * div_term_f32``.

    .. math:: \\theta^{f32}_{p,i} = \\mathrm{fl}(p \\cdot \\mathrm{div}_i), \\quad
        \\mathrm{div}_i = \\mathrm{fl}(\\exp(\\mathrm{fl}(2i \\cdot \\mathrm{fl}(-\\ln b / d))))

    with ``fl`` rounding to float32.

    Parameters
    ----------
    positions : array_like of int, shape (n,)
        Integers in ``0 .. 2**24`` (exact in float32).
    d_model : int
    base : float

    Returns
    -------
    ndarray, shape (n, d_model // 2), float32

    Examples
    --------
    >>> torch_angles_f32([8191], 4, base=100.0)
    array([[8191. ,  819.1]], dtype=float32)
    """
    div_term = frequencies_logspace(d_model, base, dtype=np.float32)
    positions = _check_positions_f32(positions).astype(np.float32)
    return np.multiply.outer(positions, div_term)


def torch_rows_f32(positions, d_model: int, base: float = 10000.0) -> np.ndarray:
    """Rows of the PyTorch tutorial's float32 buffer (interleaved sin, cos).

    ``sin`` and ``cos`` of the float32 angles of :func:`torch_angles_f32`, rounded
    once to float32.

    Examples
    --------
    >>> torch_rows_f32([0, 1], 4, base=100.0)
    array([[0.        , 1.        , 0.        , 1.        ],
           [0.84147096, 0.5403023 , 0.09983341, 0.9950042 ]], dtype=float32)
    """
    sin, cos = sin_cos_f32(torch_angles_f32(positions, d_model, base))
    out = np.empty((sin.shape[0], 2 * sin.shape[1]), dtype=np.float32)
    out[:, 0::2] = sin
    out[:, 1::2] = cos
    return out


def sin_cos_f32(angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sin``, ``cos`` of float32 angles, each rounded once to float32 (as exact as float32
    allows; numpy's own float32 ``sin`` is not): the trig step of the torch float32 tables.

    Examples
    --------
    >>> sin_cos_f32(np.float32([0.0, 1.0]))
    (array([0.        , 0.84147096], dtype=float32), array([1.       , 0.5403023], dtype=float32))
    """
    wide = np.asarray(angles, dtype=np.float32).astype(np.float64)
    return np.sin(wide).astype(np.float32), np.cos(wide).astype(np.float32)


class Drift(NamedTuple):
    """Per position, the largest error over a row against the exact float64 row."""

    torch_f32: np.ndarray  # the torch-style float32 buffer
    div_term_only: np.ndarray  # exact sin/cos of p * div_term_f32 (only div_term rounded)
    rounded_f32: np.ndarray  # exact row rounded once to float32: the best float32 can do


def float32_drift(positions, d_model: int, base: float = 10000.0) -> Drift:
    """How far float32 rows drift from the exact encoding at large positions.

    .. math:: \\varepsilon(p) = \\max_j \\left| PE^{f32}_{(p,j)} - PE_{(p,j)} \\right|

    The float32 angle of position p is off by up to half an ulp of ``p`` (about
    ``p * 2**-24`` for pair 0), so the error grows linearly with p; rounding the exact
    row instead stays below ``2**-25`` everywhere.

    Parameters
    ----------
    positions : array_like of int, shape (n,)
        Integers in ``0 .. 2**24``.
    d_model : int
    base : float

    Returns
    -------
    Drift
        Three arrays of shape (n,).

    Examples
    --------
    >>> drift = float32_drift([0, 8191], 512)
    >>> float(drift.torch_f32[0]), bool(drift.torch_f32[1] > 1e-4)
    (0.0, True)
    >>> bool(drift.rounded_f32.max() <= 2**-25)
    True
    """
    positions = _check_positions_f32(positions)
    exact = encode_positions(positions, d_model, base)
    div_term = frequencies_logspace(d_model, base, dtype=np.float32).astype(np.float64)
    angle = np.multiply.outer(positions, div_term)
    div_only = np.empty_like(exact)
    div_only[:, 0::2] = np.sin(angle)
    div_only[:, 1::2] = np.cos(angle)
    torch = torch_rows_f32(positions, d_model, base).astype(np.float64)
    rounded = exact.astype(np.float32).astype(np.float64)
    return Drift(
        np.abs(torch - exact).max(axis=1),
        np.abs(div_only - exact).max(axis=1),
        np.abs(rounded - exact).max(axis=1),
    )
