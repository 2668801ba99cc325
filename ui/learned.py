"""Bring your own embeddings: an uploaded learned position-embedding matrix (issue #8).

The file is parsed by ``ui.npy_upload`` (header checked before any data, never
unpickled); a bad file gets a short message and changes nothing else on the page.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.figures.common import Grid, downsample
from ui.heatmap_data import gram_grid
from ui.i18n import say, t
from ui.npy_upload import load_position_embedding

# M M^T costs L^2 d multiply-adds: the similarity view uses at most this many rows.
SIMILARITY_ROWS = 1024


@st.cache_data(max_entries=2, show_spinner=False)
def _parse(data: bytes) -> np.ndarray:
    return load_position_embedding(data)


# Learned absolute position embeddings of two well-known models, saved for the upload
# (each is a (positions, d) matrix: BERT-base 512 x 768, GPT-2 1024 x 768).
LEARNED_SOURCES = """\
import numpy as np
from transformers import BertModel, GPT2Model
bert = BertModel.from_pretrained("bert-base-uncased")
np.save("bert.npy", bert.embeddings.position_embeddings.weight.detach().numpy())
gpt2 = GPT2Model.from_pretrained("gpt2")
np.save("gpt2.npy", gpt2.wpe.weight.detach().numpy())"""


def uploaded_embedding() -> np.ndarray | None:
    """Sidebar uploader; the parsed (L, d) float64 matrix, or None (with a notice if bad)."""
    # In a popover: drawn only when opened (a visible uploader slowed the first chart).
    opener = st.sidebar.popover(
        t("heatmap.upload_open"), icon=":material/upload_file:", help=t("heatmap.upload_help"),
        width="stretch",
    )  # fmt: skip
    opener.caption(t("heatmap.upload_learned"))
    opener.code(LEARNED_SOURCES, language="python")
    upload = opener.file_uploader(
        t("heatmap.upload"), type=["npy"], key="hm_upload", help=t("heatmap.upload_help")
    )
    if upload is None:
        return None
    try:
        return _parse(upload.getvalue())
    except ValueError as error:
        st.sidebar.error(t("heatmap.upload_error", error=say(error)), icon=":material/error:")
        return None


def learned_grid(matrix: np.ndarray) -> tuple[Grid, float]:
    """Display grid of the matrix and the largest |entry| (its colour range)."""
    return downsample(matrix), float(np.abs(matrix).max()) or 1.0


@st.cache_data(max_entries=2, show_spinner=False)
def learned_similarity(matrix: np.ndarray) -> Grid:
    """``M M^T`` of the first ``SIMILARITY_ROWS`` positions, as block means."""
    return gram_grid(matrix[:SIMILARITY_ROWS])
