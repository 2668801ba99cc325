"""Two ways to write the frequencies, and how far each is from the exact value.

``omega_i = b ** (-2 i / d)`` (``d = d_model``, ``b = base``; seed 003 writes ``n``)
in two forms:

=================  ===========================================================
power form         ``1 / b ** (2 i / d)`` (the formula of seed 003)
log-space form     ``exp(2 i * (-ln(b) / d))``: the ``div_term`` of the PyTorch
                   tutorial (seeds 000, 003)
=================  ===========================================================

each computed in float32 or float64 and judged in ulps against the value correctly
rounded to float64 (:func:`frequencies_reference`).
"""

from __future__ import annotations

import decimal
import math
from typing import NamedTuple

import numpy as np

from posenc._validate import check_array, check_base, check_dtype
from posenc.sinusoidal import frequencies

__all__ = [
    "FormComparison",
    "compare_forms",
    "frequencies_logspace",
    "frequencies_power",
    "frequencies_reference",
    "ulps",
    "wavelength_ratio",
]


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

    .. math:: \\omega_i = \\frac{1}{b^{2i/d}}

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

    .. math:: \\omega_i = \\exp\\!\\left(2i \\cdot \\left(-\\frac{\\ln b}{d}\\right)\\right)

    The PyTorch tutorial's ``torch.exp(torch.arange(0, d_model, 2) *
    -(math.log(10000.0) / d_model))``: the scalar ``-ln(b)/d`` is formed in float64
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
