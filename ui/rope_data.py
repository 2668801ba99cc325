"""Computations of the RoPE page: content (q, k), cached score views, checks, curves.

Full score matrices (up to 4096 x 4096 float64, 134 MB) live only inside one call:
what is cached is the downsampled grid and a few numbers, so a rerun holds at most
one full matrix at a time.
"""

from __future__ import annotations

import math
import re
import zlib
from typing import NamedTuple

import numpy as np
import streamlit as st

import posenc
from posenc.attention import (
    additive_scores,
    causal_softmax,
    decay_bound,
    relative_scores,
    rotations,
    same_content_decay,
    toeplitz_residual,
)
from ui.figures.common import Grid, downsample

# Cells per axis of a displayed heatmap: 346^2 float32 cells fit the shared cell budget
# (ui.figures.common.MAX_TOTAL_CELLS, under 1 MB of JSON) with equal steps on both axes.
MAX_SIDE = 346
# Per panel of the three-panel comparison (one figure).
COMPARE_SIDE = 200
# Downloads hold at most this many positions (a 2048^2 CSV is 84 MB already).
EXPORT_MAX = 2048
# Longest evaluated context in the extension tab.
MAX_CONTEXT = 4096
# Method code in the URL -> ``scaling`` of posenc.rope_frequencies.
SCALINGS = {"none": None, "linear": "linear", "ntk": "ntk", "yarn": "yarn"}

_CJK = "\u3400-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")
EMPTY_TOKEN = "∅"


class Content(NamedTuple):
    q: np.ndarray  # (L, d) queries before rotation
    k: np.ndarray  # (L, d) keys before rotation
    w_q: np.ndarray | None  # projections (sentence only): q = W_q x
    w_k: np.ndarray | None
    tokens: tuple[str, ...]  # the sentence's tokens (one period), empty otherwise
    period: int | None  # content repeats every `period` positions (None: not within L)


class ScoreView(NamedTuple):
    grid: Grid
    residual: float | None  # max |S[m+P, n+P] - S[m, n]| of the raw scores
    max_abs: float  # max |S| of the raw scores
    period: int | None
    tokens: tuple[str, ...]


def tokenize(text: str) -> tuple[str, ...]:
    """Lower-cased words, single CJK characters and punctuation marks."""
    return tuple(_TOKEN.findall(text.lower()))


def token_vector(token: str, dim: int, seed: int) -> np.ndarray:
    """A seeded random embedding: the same token and seed give the same vector."""
    key = zlib.crc32(token.encode("utf-8", "surrogatepass"))
    return np.random.default_rng([seed, key]).standard_normal(dim)


def make_content(head_dim: int, length: int, kind: str, text: str, seed: int) -> Content:
    """q and k at every position: one random vector each repeated, or a tiled sentence."""
    rng = np.random.default_rng([seed, 0])
    if kind != "sentence":
        q = rng.standard_normal(head_dim)
        k = q if kind == "same" else rng.standard_normal(head_dim)
        return Content(np.tile(q, (length, 1)), np.tile(k, (length, 1)), None, None, (), 1)
    tokens = tokenize(text) or (EMPTY_TOKEN,)
    vectors = np.stack([token_vector(tok, head_dim, seed) for tok in tokens])
    x = vectors[np.arange(length) % len(tokens)]
    w_q, w_k = rng.standard_normal((2, head_dim, head_dim)) / math.sqrt(head_dim)
    period = len(tokens) if len(tokens) < length else None
    return Content(x @ w_q.T, x @ w_k.T, w_q, w_k, tokens, period)


def display_grid(z: np.ndarray, side: int = MAX_SIDE) -> Grid:
    """Block means down to ``side`` x ``side`` cells, always float32."""
    grid = downsample(z, side, side)
    return grid._replace(z=np.asarray(grid.z, dtype=np.float32))


def _finish(s: np.ndarray, content: Content, head_dim: int, scale: bool, view: str, side: int):
    """Residual and max on the raw scores, then scale / softmax in place and downsample."""
    residual = toeplitz_residual(s, content.period) if content.period else None
    max_abs = float(max(s.max(), -s.min()))  # no temporary copy of a 134 MB matrix
    if scale:
        s /= math.sqrt(head_dim)
    if view == "attention":
        causal_softmax(s, out=s)
    return ScoreView(display_grid(s, side), residual, max_abs, content.period, content.tokens)


def rope_matrix(head_dim, base, length, layout, kind, text, seed, scale, view) -> np.ndarray:
    """The full (scaled / softmaxed) RoPE score matrix; for downloads, capped positions."""
    length = min(length, EXPORT_MAX)
    c = make_content(head_dim, length, kind, text, seed)
    s = posenc.rope_scores(c.q, c.k, base=base, layout=layout)
    if scale:
        s /= math.sqrt(head_dim)
    return causal_softmax(s, out=s) if view == "attention" else s


@st.cache_data(max_entries=8, show_spinner=False)
def score_view(head_dim, base, length, layout, kind, text, seed, scale, view) -> ScoreView:
    c = make_content(head_dim, length, kind, text, seed)
    s = posenc.rope_scores(c.q, c.k, base=base, layout=layout)
    return _finish(s, c, head_dim, scale, view, MAX_SIDE)


@st.cache_data(max_entries=8, show_spinner=False)
def compare_views(head_dim, base, length, layout, kind, text, seed, scale) -> tuple:
    """No position code / additive sinusoidal PE / RoPE for the same q, k (one at a time)."""
    c = make_content(head_dim, length, kind, text, seed)
    pe = posenc.sinusoidal(length, head_dim, base)
    pe_q, pe_k = (pe, pe) if c.w_q is None else (pe @ c.w_q.T, pe @ c.w_k.T)
    views = []
    for scheme in ("none", "additive", "rope"):
        if scheme == "none":
            s = c.q @ c.k.T
        elif scheme == "additive":
            s = additive_scores(c.q, c.k, pe_q, pe_k)
        else:
            s = posenc.rope_scores(c.q, c.k, base=base, layout=layout)
        views.append(_finish(s, c, head_dim, scale, "scores", COMPARE_SIDE))
        del s
    return tuple(views)


@st.cache_data(max_entries=8, show_spinner=False)
def layout_check(head_dim, base, length, kind, text, seed) -> dict[str, float]:
    """Interleaved vs split on permuted dimensions (and without permuting), row chunks."""
    c = make_content(head_dim, length, kind, text, seed)
    perm = posenc.split_permutation(head_dim)
    rk_i = posenc.rope(c.k, base=base, layout="interleaved")
    rk_s = posenc.rope(c.k[:, perm], base=base, layout="split")
    rk_u = posenc.rope(c.k, base=base, layout="split")
    permuted = unpermuted = vectors = 0.0
    for start in range(0, length, 512):
        rows = np.arange(start, min(start + 512, length))
        rq_i = posenc.rope(c.q[rows], rows, base, layout="interleaved")
        rq_s = posenc.rope(c.q[rows][:, perm], rows, base, layout="split")
        rq_u = posenc.rope(c.q[rows], rows, base, layout="split")
        s_i = rq_i @ rk_i.T
        permuted = max(permuted, float(np.abs(s_i - rq_s @ rk_s.T).max()))
        unpermuted = max(unpermuted, float(np.abs(s_i - rq_u @ rk_u.T).max()))
        vectors = max(vectors, float(np.abs(rq_i[:, perm] - rq_s).max()))
    return {"permuted": permuted, "unpermuted": unpermuted, "vectors": vectors}


def decay_distances(length: int) -> np.ndarray:
    return np.arange(max(length, 2), dtype=np.float64)


@st.cache_data(max_entries=8, show_spinner=False)
def decay_curves(head_dim: int, base: float, length: int, kind: str, bases: tuple) -> dict:
    """The RoFormer bound (or the same-content expectation) for several bases."""
    r = decay_distances(length)
    curve = decay_bound if kind == "bound" else same_content_decay
    all_bases = tuple(dict.fromkeys((*bases, float(base))))
    return {b: curve(r, posenc.rope_frequencies(head_dim, b)[0]) for b in all_bases}


def extended_context(factor: float, original: int) -> int:
    return max(original, min(MAX_CONTEXT, math.ceil(factor * original)))


@st.cache_data(max_entries=8, show_spinner=False)
def extension_view(head_dim, base, layout, kind, text, seed, scaling, factor, original, scale):
    """inv_freq and turns per method; score and bound over distance, none vs ``scaling``."""
    context = extended_context(factor, original)
    freqs = {}
    for code, method in SCALINGS.items():
        freqs[code] = posenc.rope_frequencies(
            head_dim,
            base,
            scaling=method,
            factor=factor,
            original_context=original,
            context=context,
        )
    c = make_content(head_dim, 1, kind, text, seed)
    r = np.arange(context, dtype=np.float64)
    norm = math.sqrt(head_dim) if scale else 1.0
    scores, bounds = {}, {}
    for code in dict.fromkeys(("none", scaling)):
        inv, factor_a = freqs[code]
        scores[code] = (
            relative_scores(c.q[0], c.q[0], r, inv, layout=layout, attention_factor=factor_a) / norm
        )
        bounds[code] = decay_bound(r, inv)
    return {
        "context": context,
        "inv_freq": {code: inv for code, (inv, _) in freqs.items()},
        "turns": {code: rotations(inv, original) for code, (inv, _) in freqs.items()},
        "attention_factor": freqs[scaling][1],
        "distances": r,
        "scores": scores,
        "bounds": bounds,
    }


def pair_state(head_dim, base, layout, kind, text, seed, pair, m, n) -> dict:
    """One 2-D pair j of q (at m) and k (at n), rotated by posenc.rope."""
    c = make_content(head_dim, 1, kind, text, seed)
    half = head_dim // 2
    pair = min(pair, half - 1)
    dims = [2 * pair, 2 * pair + 1] if layout == "interleaved" else [pair, pair + half]
    theta = posenc.rope_frequencies(head_dim, base)[0][pair]
    q, k = c.q[0, dims], c.k[0, dims]
    q_m = posenc.rope(q[None], [m], inv_freq=[theta])[0]
    k_n = posenc.rope(k[None], [n], inv_freq=[theta])[0]
    measured = math.atan2(q_m[1], q_m[0]) - math.atan2(k_n[1], k_n[0])
    start = math.atan2(q[1], q[0]) - math.atan2(k[1], k[0])
    return {
        "pair": pair,
        "dims": dims,
        "theta": float(theta),
        "q": q,
        "k": k,
        "q_m": q_m,
        "k_n": k_n,
        "measured": _wrap(measured),
        "predicted": _wrap(start + (m - n) * theta),
        "start": _wrap(start),
        "score": float(q_m @ k_n),
    }


def _wrap(angle: float) -> float:
    """Angle in (-pi, pi]."""
    return float(math.pi - (math.pi - angle) % (2 * math.pi))
