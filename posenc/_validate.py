"""Input checks shared by every public function.

Each check raises ``ValueError`` whose message names the parameter and the accepted
range, so the UI can show the message as is.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

LAYOUTS = ("interleaved", "split")


def check_int(name: str, value, *, minimum: int, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise if it is not an integer in range."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    value = int(value)
    if value < minimum or (maximum is not None and value > maximum):
        upper = f" and <= {maximum}" if maximum is not None else ""
        raise ValueError(f"{name} must be an integer >= {minimum}{upper}, got {value}")
    return value


def check_even(name: str, value, *, minimum: int = 2, maximum: int | None = None) -> int:
    """Return ``value`` as an even int >= ``minimum``."""
    upper = f" and <= {maximum}" if maximum is not None else ""
    message = f"{name} must be an even integer >= {minimum}{upper}, got {value!r}"
    try:
        value = check_int(name, value, minimum=minimum, maximum=maximum)
    except ValueError:
        raise ValueError(message) from None
    if value % 2:
        raise ValueError(message)
    return value


def check_real(
    name: str,
    value,
    *,
    greater: float | None = None,
    at_least: float | None = None,
) -> float:
    """Return ``value`` as a finite float, optionally bounded below."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    if greater is not None and not value > greater:
        raise ValueError(f"{name} must be finite and > {greater:g}, got {value!r}")
    if at_least is not None and not value >= at_least:
        raise ValueError(f"{name} must be finite and >= {at_least:g}, got {value!r}")
    return value


def check_base(base) -> float:
    """The geometric base of the frequencies: finite and > 1."""
    return check_real("base", base, greater=1.0)


def check_layout(layout) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    return layout


def check_array(name: str, value, *, min_ndim: int = 1) -> np.ndarray:
    """Return ``value`` as a finite real float array with at least ``min_ndim`` axes."""
    try:
        array = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name} must be a real numeric array: {exc}") from None
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be a real numeric array, got dtype {array.dtype}")
    if array.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} axes, got shape {array.shape}")
    if array.dtype.kind != "f":
        array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must contain only finite numbers (no NaN or inf)")
    return array


def check_dtype(dtype) -> np.dtype:
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        raise ValueError(f"dtype must be float32 or float64, got {dtype!r}") from None
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64, got {dtype}")
    return dtype
