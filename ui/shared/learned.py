"""Bring your own embeddings: an uploaded learned position-embedding matrix (issue #8).

The file is parsed by ``ui.plain.npy_upload`` (header checked before any data, never
unpickled); a bad file gets a short message and changes nothing else on the page.

Memory (issue #24): the parsed matrix (float32, at most ``npy_upload.MAX_CELLS``
entries) and what is derived from it live in this session's ``st.session_state``, one
upload per session, parsed once per file: no process-wide cache keyed by upload bytes
(one session could fill it; every rerun hashed 16 MB and copied the matrix out of it),
and all of it goes with the session.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from ui.plain import npy_upload
from ui.plain.grids import Grid, block_means, downsample
from ui.plain.npy_upload import load_position_embedding
from ui.shared import folds, streamlit_internals
from ui.shared.i18n import say, t

# M M^T costs L^2 d multiply-adds: the similarity view uses at most this many rows.
SIMILARITY_ROWS = 1024
UPLOAD_KEY = "hm_upload"  # the uploader's widget key
STATE_KEY = "hm_upload_parsed"  # session_state: the one parsed upload of this session


@dataclass
class Parsed:
    """One session's upload: the file it came from, the matrix or the refusal."""

    file_id: str
    matrix: np.ndarray | None
    error: ValueError | None = None
    derived: dict = field(default_factory=dict)  # grid, similarity: computed once


def gram_grid(matrix: np.ndarray) -> Grid:
    """``M M^T`` of ANY (L, d) matrix (e.g. an uploaded learned embedding), as block means.

    Rows of the product are formed in pieces, so memory stays at a few blocks; the time
    is ``L^2 d`` multiply-adds (cap L before calling for very long matrices).
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    n = matrix.shape[0]
    return block_means(n, n, lambda a, b: matrix[a:b] @ matrix.T)


def upload_mb() -> int:
    """The upload cap in MiB: Streamlit's ``server.maxUploadSize``, the one cap."""
    return int(st.get_option("server.maxUploadSize"))


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
    """Sidebar uploader; the parsed (L, d) float32 matrix, or None (with a notice if bad)."""
    # In a popover whose content is drawn when it is open (ui.shared.folds), or while it
    # holds a file: an uploader not drawn in a run drops its file.
    holding = st.session_state.get(UPLOAD_KEY) is not None
    opener = folds.popover(
        t("heatmap.upload_open"), name="upload", where=st.sidebar, keep=holding,
        icon=":material/upload_file:", help=t("heatmap.upload_help"), width="stretch",
    )  # fmt: skip
    drop_uploads_of_ended_sessions()
    if not opener.open:
        st.session_state.pop(STATE_KEY, None)
        return None
    opener.caption(t("heatmap.upload_learned"))
    opener.code(LEARNED_SOURCES, language="python")
    upload = opener.file_uploader(
        t("heatmap.upload"), type=["npy"], key=UPLOAD_KEY, help=t("heatmap.upload_help")
    )
    opener.caption(
        t(
            "heatmap.upload_caps", mb=upload_mb(), rows=npy_upload.MAX_ROWS,
            cols=npy_upload.MAX_COLS, cells=npy_upload.MAX_CELLS,
        )
    )  # fmt: skip
    if upload is None:
        st.session_state.pop(STATE_KEY, None)
        return None
    parsed = parse_once(upload.file_id, upload.getvalue)
    if parsed.error is not None:
        error = t("heatmap.upload_error", error=say(parsed.error))
        st.sidebar.error(error, icon=":material/error:")
        return None
    return parsed.matrix


def drop_uploads_of_ended_sessions() -> int:
    """Drop the uploaded bytes Streamlit keeps for sessions that no longer exist; how many
    sessions' files were dropped.

    Streamlit 1.67 frees a session's uploads only when the session shuts down, but a
    closed tab's session is kept for a reconnect (``server.disconnectedSessionTTL``) and
    then expires from that store without shutting down: its uploads stayed for the
    server's lifetime (20 MB a session here). Uses the runtime's session list and the
    in-memory upload store (``ui.shared.streamlit_internals``); does nothing where those
    are not there.
    """
    stored = streamlit_internals.upload_sessions()
    alive = streamlit_internals.alive_sessions() if stored else None
    if alive is None:
        return 0
    ended = [session_id for session_id in stored if session_id not in alive]
    for session_id in ended:
        streamlit_internals.drop_session_uploads(session_id)
    return len(ended)


def parse_once(file_id: str, read) -> Parsed:
    """This session's parsed upload, parsing ``read()`` only when the file is new.

    The previous upload is dropped before the new one is parsed, so a session never
    holds two.
    """
    parsed = st.session_state.get(STATE_KEY)
    if parsed is not None and parsed.file_id == file_id:
        return parsed
    st.session_state.pop(STATE_KEY, None)
    try:
        parsed = Parsed(file_id, load_position_embedding(read(), max_bytes=upload_mb() * 2**20))
    except ValueError as error:
        parsed = Parsed(file_id, None, error)
    st.session_state[STATE_KEY] = parsed
    return parsed


def _once(name: str, compute, matrix: np.ndarray):
    """``compute(matrix)``, kept with this session's upload when ``matrix`` is it."""
    parsed = st.session_state.get(STATE_KEY) if streamlit_internals.in_script_run() else None
    if parsed is None or parsed.matrix is not matrix:
        return compute(matrix)
    if name not in parsed.derived:
        parsed.derived[name] = compute(matrix)
    return parsed.derived[name]


def learned_grid(matrix: np.ndarray) -> tuple[Grid, float]:
    """Display grid of the matrix and the largest |entry| (its colour range)."""
    return _once(
        "grid", lambda m: (downsample(m), max(float(m.max()), -float(m.min())) or 1.0), matrix
    )


def learned_similarity(matrix: np.ndarray) -> Grid:
    """``M M^T`` of the first ``SIMILARITY_ROWS`` positions, as block means."""
    return _once("similarity", lambda m: gram_grid(m[:SIMILARITY_ROWS]), matrix)
