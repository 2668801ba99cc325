"""Wavelengths and frequencies of the sinusoidal encoding, looked at closely (seeds 003, 004).

Glossary (symbols as on screen, ``d = d_model``, ``n = base``):

=================  ===========================================================
``omega_i``        angular frequency of pair i, ``n ** (-2 i / d)``
``lambda_i``       wavelength of pair i, ``2 pi n ** (2 i / d)``; consecutive
                   wavelengths grow by the constant ratio ``n ** (2 / d)``
power form         ``1 / n ** (2 i / d)`` (the formula of seed 003)
log-space form     ``exp(2 i * (-ln(n) / d))``: the ``div_term`` of the PyTorch
                   tutorial (seeds 000, 003)
context ``L``      positions ``0 .. L - 1``; pair i makes less than one turn in it
                   when ``lambda_i > L``
aliased            ``lambda_i < 2``: sampled at integer positions, the pair turns by
                   more than half a turn per step (Nyquist) and looks slower than it is
clock hand         pair i at position p as a hand on a dial: the tip is
                   ``(x, y) = (sin(omega_i p), cos(omega_i p)) = (PE[p, 2i], PE[p, 2i+1])``,
                   turned clockwise from 12 o'clock by ``omega_i p``
=================  ===========================================================

The float32 functions mimic the PyTorch tutorial's ``PositionalEncoding`` buffer
(everything in float32): ``div_term = exp(float32(2 i) * float32(-ln(n) / d))``,
``angle = float32(p) * div_term``, then ``sin`` / ``cos``. Each float32 operation is
rounded correctly here (``exp``, ``sin``, ``cos`` are evaluated in float64 and rounded
once); torch's own float32 ``exp`` is within one ulp of that, so a few ``div_term``
entries may differ from torch's by one ulp.
"""

from __future__ import annotations

import decimal
import math
from typing import NamedTuple

import numpy as np

from posenc._validate import check_array, check_base, check_dtype, check_int
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

# Integers up to 2**24 are exact in float32; beyond that torch's float32 position
# itself is rounded.
FLOAT32_EXACT_POSITIONS = 2**24


def _pair_exponents(d_model: int, dtype: np.dtype) -> np.ndarray:
    return np.arange(0, d_model, 2, dtype=dtype)


def wavelength_ratio(d_model: int, base: float = 10000.0) -> float:
    """The constant ratio ``lambda_{i+1} / lambda_i = base ** (2 / d_model)``.

    Examples
    --------
    >>> wavelength_ratio(4, base=100.0)
    10.0
    """
    d_model = frequencies(d_model, base).size * 2  # validates both
    return float(check_base(base) ** (2.0 / d_model))


def frequencies_power(d_model: int, base: float = 10000.0, *, dtype=np.float64) -> np.ndarray:
    """The power form ``omega_i = 1 / base ** (2 i / d_model)``, every step in ``dtype``.

    .. math:: \\omega_i = \\frac{1}{n^{2i/d}}

    Parameters
    ----------
    d_model : int
        Even, >= 2.
    base : float
        Finite, > 1.
    dtype : float32 or float64
        ``2 i / d``, the power and the reciprocal are each rounded to ``dtype``.

    Returns
    -------
    omega : ndarray, shape (d_model // 2,), of ``dtype``

    Examples
    --------
    >>> frequencies_power(4, base=100.0)
    array([1. , 0.1])
    >>> frequencies_power(4, base=100.0, dtype=np.float32).dtype
    dtype('float32')
    """
    d_model = frequencies(d_model, base).size * 2
    base = check_base(base)
    dtype = check_dtype(dtype)
    exponent = _pair_exponents(d_model, dtype) / dtype.type(d_model)
    return dtype.type(1) / np.power(dtype.type(base), exponent)


def frequencies_logspace(d_model: int, base: float = 10000.0, *, dtype=np.float64) -> np.ndarray:
    """The log-space form ``omega_i = exp(2 i * (-ln(base) / d_model))`` (torch's div_term).

    .. math:: \\omega_i = \\exp\\!\\left(2i \\cdot \\left(-\\frac{\\ln n}{d}\\right)\\right)

    The PyTorch tutorial's ``torch.exp(torch.arange(0, d_model, 2) *
    -(math.log(10000.0) / d_model))``: the scalar ``-ln(n)/d`` is formed in float64
    (Python), rounded to ``dtype``, multiplied by ``2 i`` in ``dtype``; ``exp`` is
    rounded once to ``dtype``.

    Parameters
    ----------
    d_model : int
        Even, >= 2.
    base : float
        Finite, > 1.
    dtype : float32 or float64

    Returns
    -------
    omega : ndarray, shape (d_model // 2,), of ``dtype``

    Examples
    --------
    >>> frequencies_logspace(4, base=100.0).round(12)
    array([1. , 0.1])

    In float32 the second entry lands one ulp below ``float32(0.1)``:

    >>> frequencies_logspace(4, base=100.0, dtype=np.float32)
    array([1.        , 0.09999999], dtype=float32)
    """
    d_model = frequencies(d_model, base).size * 2
    base = check_base(base)
    dtype = check_dtype(dtype)
    scale = dtype.type(-(math.log(base) / d_model))
    argument = _pair_exponents(d_model, dtype) * scale
    return np.exp(argument.astype(np.float64)).astype(dtype)


def frequencies_reference(d_model: int, base: float = 10000.0) -> np.ndarray:
    """``omega_i = base ** (-2 i / d_model)`` correctly rounded to float64.

    Evaluated with 40 significant decimal digits (``decimal``), from the exact value
    of the float ``base``; the judge for :func:`compare_forms`.

    Examples
    --------
    >>> frequencies_reference(4, base=100.0)
    array([1. , 0.1])
    >>> bool(frequencies_reference(512)[1] == 10000.0 ** (-2 / 512))
    True
    """
    d_model = frequencies(d_model, base).size * 2
    base = check_base(base)
    context = decimal.Context(prec=40)
    log_base = context.ln(decimal.Decimal(base))
    width = decimal.Decimal(d_model)
    return np.array(
        [
            float(context.exp(context.minus(log_base * context.divide(2 * i, width))))
            for i in range(d_model // 2)
        ],
        dtype=np.float64,
    )


def ulps(values, reference) -> np.ndarray:
    """Distance ``|values - reference|`` in units of the last place of ``values``' dtype.

    The unit is the spacing of ``reference`` rounded to the dtype of ``values``.

    Examples
    --------
    >>> ulps(np.float32([1.0 + 2**-23]), [1.0])
    array([1.])
    """
    values = check_array("values", values)
    reference = check_array("reference", reference).astype(np.float64)
    if values.shape != reference.shape:
        raise ValueError(
            f"values and reference must have the same shape, got {values.shape} "
            f"and {reference.shape}"
        )
    spacing = np.spacing(np.abs(reference).astype(values.dtype)).astype(np.float64)
    return np.abs(values.astype(np.float64) - reference) / spacing


class FormComparison(NamedTuple):
    """Power form against log-space form in one dtype, and each against the truth."""

    max_abs: float  # max |power - log|
    max_rel: float  # max |power - log| / |power|
    power_ulps: float  # max error of the power form, in ulps of the dtype
    log_ulps: float  # max error of the log-space form, in ulps of the dtype


def compare_forms(d_model: int, base: float = 10000.0, *, dtype=np.float64) -> FormComparison:
    """Measure the two forms of the frequencies against each other and the exact value.

    Examples
    --------
    >>> c = compare_forms(512)
    >>> bool(c.max_rel < 1e-14), c.power_ulps <= 1, c.log_ulps > 1
    (True, True, True)
    """
    power = frequencies_power(d_model, base, dtype=dtype)
    log = frequencies_logspace(d_model, base, dtype=dtype)
    truth = frequencies_reference(d_model, base)
    gap = np.abs(power.astype(np.float64) - log.astype(np.float64))
    return FormComparison(
        max_abs=float(gap.max()),
        max_rel=float((gap / np.abs(power.astype(np.float64))).max()),
        power_ulps=float(ulps(power, truth).max()),
        log_ulps=float(ulps(log, truth).max()),
    )


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
        \\mathrm{div}_i = \\mathrm{fl}(\\exp(\\mathrm{fl}(2i \\cdot \\mathrm{fl}(-\\ln n / d))))

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
