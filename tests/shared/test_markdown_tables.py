"""ui.plain.tables.markdown_table: every cell as pandas holds it, one row per line."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ui.plain.tables import markdown_table


def test_cells_read_as_pandas_iterates_them():
    # Rows are read column by column as Python values (issue #32: pandas 3's itertuples
    # took ~7 ms a table): the text of each cell is what itertuples gave.
    frame = pd.DataFrame(
        {"s": ["1e4", "x"], "f": [1.25, np.nan], "i": [3, 40000], "b": [True, False]}
    )
    frame["o"] = pd.Series([None, 2], dtype=object)
    lines = markdown_table(frame).splitlines()
    expected = [" | ".join(str(v) for v in row) for row in frame.itertuples(index=False)]
    assert [line.strip("| ") for line in lines[2:]] == expected
    assert lines[2:] == ["| 1e4 | 1.25 | 3 | True | None |", "| x | nan | 40000 | False | 2 |"]


def test_columns_with_the_same_name_keep_their_own_cells():
    frame = pd.DataFrame([[1, "a|b"], [2, "c"]], columns=["n", "n"])
    assert markdown_table(frame).splitlines()[2:] == ["| 1 | a\\|b |", "| 2 | c |"]


def test_whole_numbers_stay_whole_beside_a_float_column():
    frame = pd.DataFrame({"i": [3, 12], "f": [1.5, 0.25]})
    assert markdown_table(frame).splitlines()[2:] == ["| 3 | 1.5 |", "| 12 | 0.25 |"]
