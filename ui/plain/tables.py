"""Tables and numbers as text, shared by every page (a display helper: no Streamlit, no posenc)."""

from __future__ import annotations

import re
from collections.abc import Collection

import pandas as pd


def markdown_table(
    frame: pd.DataFrame, written: Collection[str] = (), left: Collection[str] = ()
) -> str:
    """``frame`` as one Markdown table, numbers right-aligned: a single element to draw
    (``st.table`` renders each cell as its own Markdown block, ~0.04x of the time to
    first chart, issue #7). Markdown's special characters in cells are escaped (``|``
    would end a cell, ``$`` start a formula), except in the columns named in
    ``written``: the app's own Markdown (a formula such as ``$b^{2/d}$``), header and
    cells, never a visitor's text. The columns named in ``left`` (prose) are left-aligned.

    >>> print(markdown_table(pd.DataFrame({"n": ["1e4"], "a|b": [3]})))
    | n | a\\|b |
    |---:|---:|
    | 1e4 | 3 |
    >>> print(markdown_table(pd.DataFrame({"$x_0$": ["$b$"], "$y$": ["$"]}), ["$x_0$"]))
    | $x_0$ | \\$y\\$ |
    |---:|---:|
    | $b$ | \\$ |
    """

    def escape(value) -> str:
        return re.sub(r"([\\|$*_~`<])", r"\\\1", str(value))

    columns = list(frame.columns)
    kept = [c in set(written) for c in columns]
    header = (
        "| "
        + " | ".join(str(c) if k else escape(c) for c, k in zip(columns, kept, strict=True))
        + " |"
    )
    rule = "|" + "".join(":---|" if c in set(left) else "---:|" for c in columns)
    # Rows as Python values, as itertuples gives them: pandas 3's itertuples took 5-7 ms
    # for a 2 x 6 frame, on every rerun of a page with a table (issue #32).
    rows = [
        "| " + " | ".join(str(v) if k else escape(v) for v, k in zip(row, kept, strict=True)) + " |"
        for row in frame.to_numpy(dtype=object)
    ]
    return "\n".join([header, rule, *rows])


def positions(x: float) -> str:
    """A number of positions: ``60,611`` from 1000 up, ``6.283`` below (2 pi is not 6)."""
    return f"{x:,.0f}" if x >= 1000 else f"{x:.4g}"
