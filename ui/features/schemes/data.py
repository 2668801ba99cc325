"""Cached computations of the "Schemes compared" page: every scheme's position part of
the score by distance, their score or bias matrices, and the learned-table analysis.

The rotary family (RoPE, xPos, partial RoPE, p-RoPE) depends on the content; as on the
RoPE page it is drawn for the same content at both positions, as the expectation over
random content with independent standard normal entries, relative to distance 0:

    E <f(x, m), f(x, n)> / E |x|^2 = (1/(d/2)) sum_j w_j(r) cos(r theta_j),  r = m - n,

with w_j = 1 (RoPE), zeta_j^(r/B) (xPos), and theta_j = 0 for pairs that do not turn
(partial RoPE's unrotated dimensions, p-RoPE's slow pairs).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import streamlit as st

import posenc
import posenc.xpos
from posenc.tables import (
    cosine_by_distance,
    dominant_frequencies,
    row_pca,
    shift_residual,
    toeplitz_deviation,
)
from ui.plain.grids import Grid, downsample
from ui.shared import data_cache

BASE = 10000.0
PARTIAL = 0.25  # GPT-NeoX 20B / Pythia rotary_pct
PROPORTIONAL = 0.25  # Gemma 4 full-attention layers: proportional rope, factor 0.25
XPOS_SCALE = 512.0  # rotary-embedding-torch's default xpos_scale_base
ALIBI_HEADS = 8
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128  # T5's defaults
LEARNED = "all-MiniLM-L6-v2"
# Scheme codes in drawing order (their names are texts "schemes.name_<code>").
CURVES = ("nope", "sinusoidal", "learned", "alibi", "rope", "xpos", "partial", "prope")
MATRICES = ("t5", "alibi", "rope", "xpos", "learned")
TABLES = ("sinusoidal", "learned")
GRAM_SIDE = 128  # the Gram matrices are drawn as block means on at most this many cells
UPLOAD_ROWS = 1024  # an uploaded table is measured on its first rows (Gram: 1024^2)
UPLOAD_STATE = "sc_upload_analysis"  # session_state: (file id, analysis) of the upload


def padded(inv_freq: np.ndarray, head_dim: int) -> np.ndarray:
    """Frequencies of all d/2 pairs: pairs beyond the rotated ones do not turn (0)."""
    out = np.zeros(head_dim // 2)
    out[: inv_freq.size] = inv_freq
    return out


def rotary_frequencies(head_dim: int) -> dict[str, np.ndarray]:
    """theta_j of every pair of the head, per rotary scheme (0: the pair never turns)."""
    rope, _ = posenc.rope_frequencies(head_dim, BASE)
    partial, _ = posenc.rope_frequencies(head_dim, BASE, partial_rotary_factor=PARTIAL)
    prope, _ = posenc.rope_frequencies(
        head_dim, BASE, scaling="proportional", partial_rotary_factor=PROPORTIONAL
    )
    return {"rope": rope, "partial": padded(partial, head_dim), "prope": prope}


def xpos_same_content(distances: np.ndarray, head_dim: int) -> np.ndarray:
    """(1/(d/2)) sum_j zeta_j^(r/B) cos(r theta_j): xPos for the same random content."""
    return posenc.xpos.xpos_same_content(distances, head_dim, BASE, scale_base=XPOS_SCALE)


def learned_table(name: str) -> np.ndarray:
    """The sinusoid of MiniLM's shape (512 x 384) or MiniLM's learned table, float64."""
    table = posenc.learned_position_embeddings(LEARNED).astype(np.float64)
    if name == "sinusoidal":
        return posenc.sinusoidal(*table.shape, BASE)
    return table


@data_cache.cache_data(max_entries=16)
def distance_curves(head_dim: int, train: int) -> tuple[np.ndarray, dict, np.ndarray]:
    """``(r, curves, t5)`` for r = 0 .. 2 * train: each scheme's position part of the
    score of a query at m and a key at n = m - r, relative to r = 0 (ALiBi: its bias);
    ``t5``: T5's bucket of the key r positions back."""
    r = np.arange(2 * train + 1, dtype=np.float64)
    freqs = rotary_frequencies(head_dim)
    cosine = cosine_by_distance(learned_table("learned"))
    learned = np.full(r.size, np.nan)  # no rows beyond the table: nothing to draw
    learned[: min(r.size, cosine.size)] = cosine[: r.size]
    curves = {
        "nope": np.zeros(r.size),
        "sinusoidal": posenc.dot_products(r, head_dim, BASE) / (head_dim / 2),
        "learned": learned,
        "alibi": 0.0 - posenc.alibi_slopes(ALIBI_HEADS)[-1] * r,  # the gentlest head
        "rope": posenc.same_content_decay(r, freqs["rope"]),
        "xpos": xpos_same_content(r, head_dim),
        "partial": posenc.same_content_decay(r, freqs["partial"]),
        "prope": posenc.same_content_decay(r, freqs["prope"]),
    }
    t5 = posenc.t5_bucket(-r.astype(np.int64), num_buckets=T5_BUCKETS, max_distance=T5_MAX_DISTANCE)
    return r, curves, t5


def toeplitz(curve: np.ndarray, n: int) -> np.ndarray:
    i, j = np.indices((n, n))
    return curve[np.abs(i - j)]


@data_cache.cache_data(max_entries=16)
def matrices(head_dim: int, length: int) -> dict[str, np.ndarray]:
    """Each scheme's score or bias matrix over positions 0 .. length - 1 (rows: query m,
    columns: key n). Causal schemes (ALiBi, xPos) leave keys after the query empty."""
    i, j = np.indices((length, length))
    causal = j > i
    r = np.arange(length, dtype=np.float64)
    rope = toeplitz(posenc.same_content_decay(r, rotary_frequencies(head_dim)["rope"]), length)
    xpos = np.where(causal, np.nan, toeplitz(xpos_same_content(r, head_dim), length))
    alibi = np.where(causal, np.nan, posenc.alibi_bias(length, ALIBI_HEADS)[-1])  # gentlest
    table = learned_table("learned")[:length]
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    buckets = posenc.t5_bucket(j - i, num_buckets=T5_BUCKETS, max_distance=T5_MAX_DISTANCE)
    return {
        "t5": buckets.astype(np.float64),
        "alibi": alibi,
        "rope": rope,
        "xpos": xpos,
        "learned": unit @ unit.T,
    }


class TableAnalysis(NamedTuple):
    pca: np.ndarray  # (L, 3) row coordinates
    explained: np.ndarray  # variance share of the 3 components
    gram: Grid  # P P^T / mean |P_p|^2, block means
    toeplitz: float  # toeplitz_deviation of P P^T
    shift: float  # shift_residual(P, 1).residual
    frequencies: np.ndarray  # dominant angular frequency of each column
    cosine: np.ndarray  # mean cosine similarity by distance


@data_cache.cache_data(max_entries=4)
def analysis(name: str) -> TableAnalysis:
    """The five measurements of ``posenc.tables`` for the sinusoid or MiniLM's table."""
    return analyse(learned_table(name))


def upload_analysis(matrix: np.ndarray) -> TableAnalysis:
    """:func:`analyse` of this session's uploaded table (its first ``UPLOAD_ROWS`` rows),
    computed once per file and kept with the session, never in a process-wide cache."""
    from ui.shared.learned import STATE_KEY

    parsed = st.session_state.get(STATE_KEY)
    file_id = parsed.file_id if parsed is not None and parsed.matrix is matrix else None
    kept = st.session_state.get(UPLOAD_STATE)
    if file_id is not None and kept is not None and kept[0] == file_id:
        return kept[1]
    result = analyse(np.asarray(matrix[:UPLOAD_ROWS], dtype=np.float64))
    if file_id is not None:
        st.session_state[UPLOAD_STATE] = (file_id, result)
    return result


def usable(matrix: np.ndarray) -> bool:
    """An uploaded table the analysis can measure: >= 4 rows, >= 3 columns, rows not 0."""
    rows = matrix[:UPLOAD_ROWS]
    return rows.shape[0] >= 4 and rows.shape[1] >= 3 and bool(np.all(np.any(rows != 0, axis=1)))


def analyse(table: np.ndarray) -> TableAnalysis:
    """The five measurements of ``posenc.tables`` for a table of rows = positions."""
    coords, explained = row_pca(table, 3)
    gram = table @ table.T
    scaled = gram / np.mean(np.diag(gram))
    grid = downsample(scaled, GRAM_SIDE, GRAM_SIDE)
    grid = grid._replace(z=np.asarray(grid.z, dtype=np.float32))
    return TableAnalysis(
        pca=coords,
        explained=explained,
        gram=grid,
        toeplitz=toeplitz_deviation(gram),
        shift=shift_residual(table, 1).residual,
        frequencies=dominant_frequencies(table),
        cosine=cosine_by_distance(table),
    )


def sinusoid_omega() -> np.ndarray:
    """omega_i of the sinusoid of MiniLM's width, one per column (pairs share it)."""
    width = learned_table("learned").shape[1]
    return np.repeat(posenc.frequencies(width, BASE), 2)
