"""T5's relative position buckets (Raffel et al. 2020; Mesh TensorFlow, Hugging Face).

T5 adds a learned scalar per head and per bucket to every score; the bucket depends
only on the relative position ``r = key position - query position``. Small distances
get a bucket each, larger ones share logarithmically wider buckets, and every distance
from ``max_distance`` on falls into the last bucket: past it, T5 cannot tell distances
apart.
"""

from __future__ import annotations

import math

import numpy as np

from posenc._validate import check_int

__all__ = ["t5_bucket"]


def _integers(name: str, value) -> np.ndarray:
    try:
        array = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name} must be an array of integers: {exc}") from None
    if array.dtype.kind in "iu":
        return array.astype(np.int64)
    if array.dtype.kind == "f" and np.all(np.isfinite(array)) and np.all(array == np.round(array)):
        if np.all(np.abs(array) < 2**62):
            return array.astype(np.int64)
    raise ValueError(f"{name} must be an array of integers, got {array.dtype} {array!r:.60}")


def t5_bucket(
    relative_position,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> np.ndarray:
    """The bucket of every relative position, as T5 computes it.

    With ``N = num_buckets // 2`` if bidirectional (the upper half for ``r > 0``) else
    ``N = num_buckets``, ``a = |r|`` if bidirectional else ``max(-r, 0)``,
    ``E = N // 2`` exact buckets and ``D = max_distance``:

    .. math::

        b(a) = \\begin{cases} a & a < E \\\\
        \\min\\left(N - 1,\\; E + \\left\\lfloor \\dfrac{\\ln(a / E)}{\\ln(D / E)}
        (N - E) \\right\\rfloor\\right) & a \\ge E \\end{cases}

    plus ``N`` when bidirectional and ``r > 0``. The logarithm is taken in float32, as
    in transformers' ``T5Attention._relative_position_bucket`` (and Mesh TensorFlow).

    Parameters
    ----------
    relative_position : array_like of int
        ``key position - query position`` (negative: the key is before the query).
    bidirectional : bool
        Encoder (True) or decoder (False: every key after the query gets bucket 0).
    num_buckets : int
        >= 4 if bidirectional (even), else >= 2.
    max_distance : int
        > ``E``; distances from ``max_distance`` on share the last bucket.

    Returns
    -------
    buckets : ndarray of int64, same shape as ``relative_position``, in
        ``0 .. num_buckets - 1``.

    Examples
    --------
    >>> t5_bucket([-200, -128, -20, -3, 0, 3, 20, 128, 200])
    array([15, 15, 10,  3,  0, 19, 26, 31, 31])
    >>> t5_bucket([-3, 0, 3], bidirectional=False)
    array([3, 0, 0])
    """
    if not isinstance(bidirectional, bool | np.bool_):
        raise ValueError(f"bidirectional must be True or False, got {bidirectional!r}")
    r = _integers("relative_position", relative_position)
    if bidirectional:
        nb = check_int("num_buckets", num_buckets, minimum=4)
        if nb % 2:
            raise ValueError(
                f"num_buckets must be an even integer >= 4 when bidirectional, got {nb}"
            )
        half = nb // 2
        a = np.abs(r)
    else:
        half = check_int("num_buckets", num_buckets, minimum=2)
        a = -np.minimum(r, 0)
    exact = half // 2
    md = check_int("max_distance", max_distance, minimum=exact + 1)
    # float32, as torch computes it: log(a / E) / ln(D / E) * (N - E), truncated.
    ratio = np.maximum(a, exact).astype(np.float32) / np.float32(exact)
    spread = np.log(ratio) / np.float32(math.log(md / exact)) * np.float32(half - exact)
    large = exact + spread.astype(np.int64)
    buckets = np.where(a < exact, a, np.minimum(large, half - 1))
    if bidirectional:
        buckets = buckets + (r > 0) * half
    return buckets.astype(np.int64)
