"""The two halves of every (sin, cos) or (x1, x2) pair, in either layout (a shared helper).

``"interleaved"`` stores pair ``i`` in columns ``2i, 2i + 1``; ``"split"`` in columns
``i, d/2 + i``. The sine (first) parts and the cosine (second) parts are strided or
contiguous views: writing into them writes into the array.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pair_halves"]


def pair_halves(x: np.ndarray, layout: str, axis: int = -1) -> tuple[np.ndarray, np.ndarray]:
    """Views of the first and second entries of every pair along ``axis`` (no copies).

    Examples
    --------
    >>> first, second = pair_halves(np.arange(6), "interleaved")
    >>> first.tolist(), second.tolist()
    ([0, 2, 4], [1, 3, 5])
    >>> [h.tolist() for h in pair_halves(np.arange(6), "split")]
    [[0, 1, 2], [3, 4, 5]]
    """
    n = x.shape[axis]
    index = [slice(None)] * x.ndim
    if layout == "interleaved":
        first, second = slice(0, n, 2), slice(1, n, 2)
    else:
        first, second = slice(0, n // 2), slice(n // 2, n)
    index[axis] = first
    head = x[tuple(index)]
    index[axis] = second
    return head, x[tuple(index)]
