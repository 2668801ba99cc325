"""Which sinusoid each column of a position-encoding table holds, in either layout.

Shared by the figure builders (hover labels) and the data side (column order, the
table's download): numpy only, so ``ui.figures`` may import it.
"""

from __future__ import annotations

import numpy as np


def pair_kind(d_model: int, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """Pair index ``i`` and ``True`` for sin, per column of the layout.

    >>> pair, is_sin = pair_kind(4, "interleaved")
    >>> pair.tolist(), is_sin.tolist()
    ([0, 0, 1, 1], [True, False, True, False])
    >>> pair, is_sin = pair_kind(4, "split")
    >>> pair.tolist(), is_sin.tolist()
    ([0, 1, 0, 1], [True, True, False, False])
    """
    j = np.arange(d_model)
    if layout == "interleaved":
        return j // 2, j % 2 == 0
    half = d_model // 2
    return j % half, j < half
