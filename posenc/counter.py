"""The binary counter and its smooth version (seed 001).

Bit ``i`` of ``p`` is a square wave of period ``2**(i + 1)`` whose fundamental is a
fixed mix of the sin/cos pair with the same wavelength: with one pair per bit
(``d = 2 * bits``) and base ``2**bits``, pair ``i`` turns once per ``2**(i + 1)``
positions, the period of bit ``i``.
"""

from __future__ import annotations

import numpy as np

from posenc._validate import check_array, check_int
from posenc.sinusoidal import frequencies

__all__ = ["bit_fundamental", "bit_wave", "counter_base", "counter_frequencies"]


def counter_base(bits: int) -> float:
    """The base whose sin/cos pairs double their wavelength from one pair to the next.

    With ``d = 2 * bits`` (one pair per bit) the paper's wavelengths are
    ``lambda_i = 2 pi base^(2i/d)``; ``lambda_{i+1} / lambda_i = base^(2/d) = 2`` gives

    .. math:: base = 2^{d/2} = 2^{bits}

    Examples
    --------
    >>> counter_base(4)
    16.0
    """
    bits = check_int("bits", bits, minimum=1, maximum=62)
    return float(2**bits)


def counter_frequencies(bits: int) -> np.ndarray:
    """``omega_i = 2 pi / 2^(i+1) = pi * base^(-2i/d)`` for bits ``i = 0 .. bits - 1``.

    The wavelength of pair i is then ``2^(i+1)`` positions, the period of bit i. The
    factor ``pi`` changes the frequencies, not a phase: the paper fixes ``omega_0 = 1``
    (wavelength ``2 pi``); the counter's lowest bit needs wavelength 2, so positions
    advance the angle by ``pi`` per step. (The phase is the half-step shift ``p + 1/2``
    of :func:`bit_fundamental`.)

    Examples
    --------
    >>> (2 * np.pi / counter_frequencies(4)).tolist()
    [2.0, 4.0, 8.0, 16.0]
    """
    bits = check_int("bits", bits, minimum=1, maximum=62)
    return np.pi * frequencies(2 * bits, counter_base(bits))


def bit_wave(t, bit: int) -> np.ndarray:
    """Bit ``bit`` (0 = lowest) of ``floor(t)``: a 0/1 square wave of period ``2**(bit+1)``.

    Examples
    --------
    >>> bit_wave([0, 1, 2, 3, 4, 7.5, 8], 2).tolist()
    [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    """
    bit = check_int("bit", bit, minimum=0, maximum=62)
    t = check_array("t", t, min_ndim=0).astype(np.float64)
    return np.mod(np.floor(t / 2.0**bit), 2.0)


def bit_fundamental(t, bit: int) -> np.ndarray:
    """The smooth bit: first Fourier term of the square wave ``bit_wave(t + 1/2, bit)``.

    That wave equals bit ``bit`` of p at every integer ``t = p`` and jumps half-way
    between positions, at ``t = m 2^bit - 1/2``, where the fundamental crosses 1/2:

    .. math::

        b_i(t) = \\tfrac12 - \\tfrac{2}{\\pi} \\sum_{m\\ \\mathrm{odd}}
                 \\tfrac1m \\sin\\!\\big(m\\,\\omega_i (t + \\tfrac12)\\big)
        \\approx \\tfrac12 - \\tfrac{2}{\\pi}\\Big(\\cos\\tfrac{\\omega_i}{2}\\,\\sin\\omega_i t
        + \\sin\\tfrac{\\omega_i}{2}\\,\\cos\\omega_i t\\Big),
        \\quad \\omega_i = \\frac{\\pi}{2^i}

    It is a fixed linear mix of the pair ``sin(omega_i t), cos(omega_i t)``.

    Examples
    --------
    >>> bit_fundamental([0, 1], 0).round(4)  # lowest bit: 0.5 -/+ 2/pi
    array([-0.1366,  1.1366])
    """
    bit = check_int("bit", bit, minimum=0, maximum=62)
    t = check_array("t", t, min_ndim=0).astype(np.float64)
    omega = np.pi / 2.0**bit
    return 0.5 - (2.0 / np.pi) * np.sin(omega * (t + 0.5))
