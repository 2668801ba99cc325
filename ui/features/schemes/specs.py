"""URL-bound controls of the "Schemes compared" page (``pages/6_Schemes_compared.py``)."""

from __future__ import annotations

from ui.plain.params import ChoiceParam, IntParam, tab_param

# Above the tabs: the model every scheme is drawn for.
HEAD_DIM = IntParam("sc_head_dim", 8, 256, 64, step=8, label="schemes.head_dim")
TRAIN = IntParam("sc_train", 16, 2048, 512, step=16, label="schemes.train")
# Tab "matrix": positions 0 .. LENGTH - 1.
LENGTH = IntParam("sc_len", 8, 128, 64, step=8, label="schemes.length")

# Tab "learned": the rows in 2 or 3 principal components.
PCA = ChoiceParam("sc_pca", ("2d", "3d"), "2d", label="schemes.pca")

# Tabs run lazily; the open tab is kept in the URL under its code.
TAB_NAMES = ("distance", "matrix", "properties", "learned")
TAB = tab_param("sc_tab", "schemes", TAB_NAMES)

SPECS = (HEAD_DIM, TRAIN, LENGTH, PCA, TAB)
