"""Wavelengths and frequencies of the sinusoidal encoding, looked at closely (seeds 003, 004).

Symbols as in the package glossary (:mod:`posenc`: ``omega_i``, ``lambda_i``, ``b``,
``d``, ``L``); consecutive wavelengths grow by the constant ratio ``b ** (2 / d)``, and
pair i makes less than one turn in the context when ``lambda_i > L``. Terms:

=================  ===========================================================
power form         ``1 / b ** (2 i / d)`` (the formula of seed 003)
log-space form     ``exp(2 i * (-ln(b) / d))``: the ``div_term`` of the PyTorch
                   tutorial (seeds 000, 003)
aliased            ``lambda_i < 2``: sampled at integer positions, the pair turns by
                   more than half a turn per step (Nyquist) and looks slower than it is
clock hand         pair i at position p as a hand on a dial: the tip is
                   ``(x, y) = (sin(omega_i p), cos(omega_i p)) = (PE[p, 2i], PE[p, 2i+1])``,
                   turned clockwise from 12 o'clock by ``omega_i p``
=================  ===========================================================

The two forms of the frequencies are in :mod:`posenc.frequency_forms`, the float32
table of the PyTorch tutorial in :mod:`posenc.float32`; both are re-exported here,
where the Wavelengths page reads them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from posenc._validate import check_array, check_int

# Read with the wavelengths, and imported from here by the pages: re-exported.
from posenc.float32 import (
    FLOAT32_EXACT_POSITIONS,
    Drift,
    float32_drift,
    sin_cos_f32,
    torch_angles_f32,
    torch_rows_f32,
)
from posenc.frequency_forms import (
    FormComparison,
    compare_forms,
    frequencies_logspace,
    frequencies_power,
    frequencies_reference,
    ulps,
    wavelength_ratio,
)
from posenc.sinusoidal import encode_positions, frequencies

__all__ = [
    "FLOAT32_EXACT_POSITIONS",
    "Drift",
    "FormComparison",
    "WavelengthClasses",
    "classify_wavelengths",
    "clock_hands",
    "compare_forms",
    "float32_drift",
    "frequencies_logspace",
    "frequencies_power",
    "frequencies_reference",
    "sin_cos_f32",
    "sine_turns_back",
    "torch_angles_f32",
    "torch_rows_f32",
    "ulps",
    "wavelength_ratio",
]


class WavelengthClasses(NamedTuple):
    """Boolean masks over pairs: aliased at integer positions, longer than the context."""

    aliased: np.ndarray  # lambda < 2
    beyond_context: np.ndarray  # lambda > context: less than one turn in 0..L-1


def classify_wavelengths(wavelengths, context: int) -> WavelengthClasses:
    """Which pairs alias (``lambda < 2``) and which turn less than once in ``context``.

    Parameters
    ----------
    wavelengths : array_like, shape (m,)
        Positive wavelengths, in positions.
    context : int
        Context length ``L`` >= 1.

    Returns
    -------
    WavelengthClasses
        ``aliased``: ``lambda < 2`` (more than half a turn per position: Nyquist).
        ``beyond_context``: ``lambda > context``.

    Notes
    -----
    For the sinusoidal encoding ``lambda_0 = 2 pi > 2``, so no pair is ever aliased;
    the class matters for any other frequency choice.

    Examples
    --------
    >>> c = classify_wavelengths([1.5, 2 * np.pi, 60.0, 600.0], context=50)
    >>> c.aliased.tolist(), c.beyond_context.tolist()
    ([True, False, False, False], [False, False, True, True])
    """
    wavelengths = check_array("wavelengths", wavelengths)
    if wavelengths.ndim != 1 or not np.all(wavelengths > 0):
        raise ValueError("wavelengths must be a 1-D array of positive numbers")
    context = check_int("context", context, minimum=1)
    return WavelengthClasses(wavelengths < 2.0, wavelengths > context)


def sine_turns_back(wavelengths, context: int) -> np.ndarray:
    """Which pairs' sine rises and falls over the positions ``0 .. L-1`` (not monotone).

    For ``lambda >= 2`` the sine ``sin(omega p)`` first steps down from p to p + 1 when
    ``omega (p + 1/2) > pi/2``; within ``p <= L - 2`` that happens exactly when

    .. math:: \\lambda < 4L - 6

    A pair with ``lambda > L`` turns less than once, yet its sine is monotone only up
    to about a quarter turn.

    Parameters
    ----------
    wavelengths : array_like, shape (m,)
        Wavelengths >= 2, in positions.
    context : int
        ``L`` >= 1.

    Examples
    --------
    >>> sine_turns_back([60.0, 193.9, 194.1, 600.0], context=50).tolist()
    [True, True, False, False]
    """
    wavelengths = check_array("wavelengths", wavelengths)
    if wavelengths.ndim != 1 or not np.all(wavelengths >= 2):
        raise ValueError("wavelengths must be a 1-D array of numbers >= 2")
    context = check_int("context", context, minimum=1)
    return wavelengths < 4 * context - 6


def clock_hands(positions, pairs, d_model: int, base: float = 10000.0):
    """Hand tips of the 'volume knobs' (seed 003): pair i at position p on its own dial.

    .. math:: (x, y) = (\\sin \\omega_i p, \\cos \\omega_i p) = (PE_{(p,2i)}, PE_{(p,2i+1)})

    The hand starts at 12 o'clock (p = 0) and turns clockwise by ``omega_i`` per
    position: the first pairs spin, the last barely move.

    Parameters
    ----------
    positions : array_like, shape (n,)
    pairs : array_like of int, shape (m,)
        Pair indices, ``0 <= i < d_model / 2``.
    d_model : int
    base : float

    Returns
    -------
    x, y : ndarray, shape (n, m)
        Tip coordinates on a unit dial.
    turns : ndarray, shape (n, m)
        Full turns made since p = 0, ``omega_i p / (2 pi)``.

    Examples
    --------
    >>> x, y, turns = clock_hands([np.pi / 2], [0], 4)
    >>> float(x[0, 0]), round(float(y[0, 0]), 12), float(turns[0, 0])
    (1.0, 0.0, 0.25)
    """
    omega = frequencies(d_model, base)
    half = omega.size
    pairs = np.atleast_1d(np.asarray(pairs))
    if pairs.ndim != 1 or (pairs.size and pairs.dtype.kind not in "iu"):
        raise ValueError(f"pairs must be a 1-D array of integers in 0..{half - 1}")
    if pairs.size and (pairs.min() < 0 or pairs.max() >= half):
        raise ValueError(f"pairs must be integers in 0..{half - 1}, got {pairs.tolist()}")
    dims = np.stack([2 * pairs, 2 * pairs + 1], axis=1).ravel()
    block = encode_positions(positions, d_model, base, dims=dims)
    turns = np.multiply.outer(np.atleast_1d(np.asarray(positions, dtype=np.float64)), omega[pairs])
    return block[:, 0::2], block[:, 1::2], turns / (2.0 * np.pi)
