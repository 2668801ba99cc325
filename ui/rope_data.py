"""Computations of the RoPE page: content (q, k), cached score views, checks, curves.

Score views never hold the full matrix (4096 x 4096 float64 would be 134 MB): it is
computed in blocks of rows on every core, each block reduced to its residual, max and
display means (``_score_view``). Only a download builds a whole matrix, capped at
``EXPORT_MAX`` positions.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import NamedTuple

import numpy as np
import streamlit as st

import posenc
from posenc.attention import (
    causal_softmax,
    decay_bound,
    relative_scores,
    rotations,
    same_content_decay,
)
from ui.figures.common import Grid, grid_from_row_means, steps
from ui.tokens import token_vector, tokenize

# Cells per axis of a displayed heatmap: 346^2 float32 cells fit the shared cell budget
# (ui.figures.common.MAX_TOTAL_CELLS, under 1 MB of JSON) with equal steps on both axes.
MAX_SIDE = 346
# Per panel of the three-panel comparison (one figure).
COMPARE_SIDE = 200
# Downloads hold at most this many positions (a 2048^2 CSV is 84 MB already).
EXPORT_MAX = 2048
# Score rows per block (a 128 x 4096 float64 block is 4 MB: faster than 256 or 512
# rows, it stays in cache), and threads per call.
_BLOCK_ROWS = 128
# The layout check reuses two buffers per thread: there 256 rows measured fastest
# (0.308 s at 4096 x 256 vs 0.333 s with 128 and 0.345 s with 1024).
_LAYOUT_ROWS = 256
# Multiply-adds per score product of the layout check: above, it checks every
# `step`-th query row against all keys (at L = 4096, d = 256: every 2nd row, 0.27 s ->
# 0.15 s; three exact products of all 4096^2 scores took 2/3 of a 3x-default rerun).
LAYOUT_WORK = 2**31
_MAX_WORKERS = 4
# Longest evaluated context in the extension tab.
MAX_CONTEXT = 4096
# Method code in the URL -> ``scaling`` of posenc.rope_frequencies.
SCALINGS = {
    "none": None,
    "linear": "linear",
    "ntk": "ntk",
    "yarn": "yarn",
    "llama3": "llama3",
}

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


def _score_view(left, right, content: Content, head_dim: int, scale: bool, view: str, side: int):
    """``S = left @ right.T`` by row blocks on every core, never whole: the residual and
    max of the raw scores, then scale / causal softmax per row and the display grid."""
    n = left.shape[0]
    shift = content.period  # None, or < n
    row_step, col_step = steps(n, n, side, side)
    if shift and view == "scores" and _periodic(left, shift) and _periodic(right, shift):
        return _periodic_view(left, right, content, head_dim, scale, row_step, col_step)
    rows_per_block = row_step * max(1, _BLOCK_ROWS // row_step)
    starts = range(0, n, rows_per_block)
    means = np.empty((-(-n // row_step), n))

    def block(a: int) -> tuple[float, float]:
        b = min(a + rows_per_block, n)
        s = left[a : min(b + (shift or 0), n)] @ right.T  # + the rows m + shift
        residual = 0.0
        if shift and (m := min(b, n - shift) - a) > 0:
            diff = np.subtract(s[shift : shift + m, shift:], s[:m, : n - shift])
            residual = float(np.abs(diff, out=diff).max())
        s = s[: b - a]
        top = float(max(s.max(), -s.min()))
        factor = 1 / math.sqrt(head_dim) if scale else 1.0
        if view != "scores":  # "attention": causal; "attention_all": every key (seed 002)
            s *= factor
            causal_softmax(s, causal=view == "attention", out=s, first_row=a)
            factor = 1.0
        local = np.arange(0, b - a, row_step)
        sizes = np.diff(np.append(local, b - a))
        means[a // row_step : a // row_step + local.size] = np.add.reduceat(s, local, axis=0) * (
            factor / sizes[:, None]
        )  # scores: the mean of S / sqrt(d) is mean(S) / sqrt(d), one pass less
        return residual, top

    workers = min(os.cpu_count() or 1, _MAX_WORKERS) if len(starts) > 1 else 1
    if workers > 1:
        with ThreadPoolExecutor(workers) as pool:
            found = list(pool.map(block, starts))
    else:
        found = [block(a) for a in starts]
    residual = max(r for r, _ in found) if shift else None
    grid = grid_from_row_means(means, n, n, row_step, col_step)
    return ScoreView(grid, residual, max(top for _, top in found), shift, content.tokens)


def _periodic(x: np.ndarray, period: int) -> bool:
    """Row m + period of ``x`` equals row m, exactly, for every m."""
    return bool(np.array_equal(x[period:], x[:-period]))


def _periodic_view(left, right, content: Content, head_dim: int, scale: bool, row_step, col_step):
    """``_score_view`` of contents that repeat with period P in rows (checked exactly):
    ``S(m, n) = s(m mod P, n mod P)`` with ``s = left[:P] @ right[:P].T``, so the residual
    is exactly 0 and each block mean is ``counts_R s counts_C / (|R| |C|)`` (no L x L)."""
    n, period = left.shape[0], content.period
    small = left[:period] @ right[:period].T
    top = float(np.abs(small).max())
    if scale:
        small /= math.sqrt(head_dim)
    starts = np.arange(0, n, row_step)
    residues = np.arange(n) % period
    counts = np.add.reduceat(np.eye(period)[residues], starts, axis=0)
    counts /= np.diff(np.append(starts, n))[:, None]
    means = (counts @ small)[:, residues]
    grid = grid_from_row_means(means, n, n, row_step, col_step)
    return ScoreView(grid, 0.0, top, period, content.tokens)


def rope_matrix(head_dim, base, length, layout, kind, text, seed, scale, view) -> np.ndarray:
    """The full (scaled / softmaxed) RoPE score matrix; for downloads, capped positions."""
    length = min(length, EXPORT_MAX)
    c = make_content(head_dim, length, kind, text, seed)
    s = posenc.rope_scores(c.q, c.k, base=base, layout=layout)
    if scale:
        s /= math.sqrt(head_dim)
    return s if view == "scores" else causal_softmax(s, causal=view == "attention", out=s)


@st.cache_data(max_entries=8, show_spinner=False)
def score_view(head_dim, base, length, layout, kind, text, seed, scale, view) -> ScoreView:
    c = make_content(head_dim, length, kind, text, seed)
    rq, rk = posenc.rope(np.stack([c.q, c.k]), base=base, layout=layout)  # one cos / sin table
    return _score_view(rq, rk, c, head_dim, scale, view, MAX_SIDE)


@st.cache_data(max_entries=8, show_spinner=False)
def compare_views(head_dim, base, length, layout, kind, text, seed, scale) -> tuple:
    """No position code / additive sinusoidal PE / RoPE for the same q, k (one at a time)."""
    c = make_content(head_dim, length, kind, text, seed)
    pe = posenc.sinusoidal(length, head_dim, base)
    pe_q, pe_k = (pe, pe) if c.w_q is None else (pe @ c.w_q.T, pe @ c.w_k.T)
    factors = {
        "none": (c.q, c.k),
        "additive": (c.q + pe_q, c.k + pe_k),  # posenc.additive_scores, by row blocks
        "rope": tuple(posenc.rope(np.stack([c.q, c.k]), base=base, layout=layout)),  # one table
    }
    views = [
        _score_view(left, right, c, head_dim, scale, "scores", COMPARE_SIDE)
        for left, right in factors.values()
    ]
    return tuple(views)


@st.cache_data(max_entries=8, show_spinner=False)
def position_term(head_dim, base, length, text, seed) -> ScoreView:
    """The position-only part of the additive scores of a sentence,
    ``p_m^T W_q^T W_k p_n``, with its Toeplitz residual at shift 1 (by row blocks):
    with projections it depends on m and n, not on m - n only."""
    c = make_content(head_dim, 1, "sentence", text, seed)  # W_q, W_k: from the seed alone
    pe = posenc.sinusoidal(length, head_dim, base)
    left, right = pe @ c.w_q.T, pe @ c.w_k.T
    positions = Content(left, right, c.w_q, c.w_k, (), 1)
    return _score_view(left, right, positions, head_dim, False, "scores", 2)


def layout_step(head_dim: int, length: int) -> int:
    """Query rows the layout check steps by: 1 (all) up to ``LAYOUT_WORK``."""
    return max(1, math.ceil(length * length * head_dim / LAYOUT_WORK))


@st.cache_data(max_entries=8, show_spinner=False)
def layout_check(head_dim, base, length, kind, text, seed) -> dict[str, float | int]:
    """Interleaved vs split on permuted dimensions (and without permuting): the rotated
    vectors at every position, the scores of query rows ``0, step, 2 step, ...``
    (``layout_step``) against every key, in row blocks on every core."""
    c = make_content(head_dim, length, kind, text, seed)
    perm = posenc.split_permutation(head_dim)
    workers = min(os.cpu_count() or 1, _MAX_WORKERS)
    step = layout_step(head_dim, length)

    def shares(rows: int) -> list[list[tuple[int, int]]]:
        """Blocks of `_LAYOUT_ROWS` of `rows` rows, one contiguous share per thread."""
        bounds = [*range(0, rows, _LAYOUT_ROWS), rows]
        cuts = np.linspace(0, len(bounds) - 1, workers + 1).round().astype(int)
        return [list(pairwise(bounds[a : b + 1])) for a, b in pairwise(cuts)]

    # (interleaved, split on permuted dimensions, split) x (q, k), rotated first, each
    # thread a share of the rows. q and k of one row share its angles, so one `rope`
    # call per layout serves both (one cos / sin table instead of two).
    rotated = np.empty((3, 2, length, head_dim))

    def rotate(blocks: list[tuple[int, int]]) -> float:
        worst = 0.0
        for start, stop in blocks:
            q, k, at = c.q[start:stop], c.k[start:stop], np.arange(start, stop)
            both = posenc.rope(np.stack([q, k]), at, base, layout="interleaved")
            split = posenc.rope(np.stack([q[:, perm], k[:, perm], q, k]), at, base, layout="split")
            rotated[0, :, start:stop] = both
            rotated[1:, :, start:stop] = split.reshape(2, 2, stop - start, head_dim)
            worst = max(worst, float(np.abs(both[0][:, perm] - split[0]).max()))
        return worst

    (rq_i, rk_i), (rq_s, rk_s), (rq_u, rk_u) = rotated
    rq_i, rq_s, rq_u = rq_i[::step], rq_s[::step], rq_u[::step]

    def scores(blocks: list[tuple[int, int]]) -> list[float]:
        # One pair of score buffers per thread, reused by its blocks (fresh 8 MB
        # arrays cost page faults each time: about 10 % of the check).
        s_i = np.empty((_LAYOUT_ROWS, length))
        other = np.empty_like(s_i)
        worst = [0.0, 0.0]
        for start, stop in blocks:
            rows = slice(start, stop)
            np.matmul(rq_i[rows], rk_i.T, out=s_i[: stop - start])
            for i, (rq, rk) in enumerate(((rq_s, rk_s), (rq_u, rk_u))):
                out = other[: stop - start]
                np.matmul(rq[rows], rk.T, out=out)
                np.subtract(out, s_i[: stop - start], out=out)
                worst[i] = max(worst[i], float(out.max()), -float(out.min()))
        return worst

    with ThreadPoolExecutor(workers) as pool:
        vectors = max(pool.map(rotate, shares(length)))
        permuted, unpermuted = np.max(list(pool.map(scores, shares(rq_i.shape[0]))), axis=0)
    return {
        "permuted": float(permuted),
        "unpermuted": float(unpermuted),
        "vectors": vectors,
        "rows": rq_i.shape[0],
        "step": step,
    }


def decay_distances(length: int) -> np.ndarray:
    return np.arange(max(length, 2), dtype=np.float64)


@st.cache_data(max_entries=8, show_spinner=False)
def decay_curves(head_dim: int, base: float, length: int, kind: str, bases: tuple) -> dict:
    """The RoFormer bound (or the same-content expectation) for several bases."""
    r = decay_distances(length)
    curve = decay_bound if kind == "bound" else same_content_decay
    all_bases = tuple(dict.fromkeys((*bases, float(base))))
    return {b: curve(r, posenc.rope_frequencies(head_dim, b)[0]) for b in all_bases}


PAIR_KINDS = ("kept", "blended", "slowed", "beyond")


def pair_counts(inv_freq: dict, factor: float) -> dict[str, dict[str, int]]:
    """Per method, how many pairs keep ``theta_j`` (kept), lie strictly between
    ``theta_j / s`` and ``theta_j`` (blended), equal ``theta_j / s`` (slowed) or turn
    slower still (beyond: NTK's slowest pairs). ``inv_freq["none"]`` is ``theta``."""
    theta, tolerance = inv_freq["none"], 8 * np.finfo(np.float64).eps  # a few roundings
    counts = {}
    for code, inv in inv_freq.items():
        ratio = inv / theta
        kept = np.abs(ratio - 1.0) <= tolerance
        slowed = ~kept & (np.abs(ratio * factor - 1.0) <= tolerance)
        beyond = ~kept & ~slowed & (ratio < 1.0 / factor)
        blended = ~kept & ~slowed & ~beyond
        masks = (kept, blended, slowed, beyond)
        counts[code] = {kind: int(m.sum()) for kind, m in zip(PAIR_KINDS, masks, strict=True)}
    return counts


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
    inv_freq = {code: inv for code, (inv, _) in freqs.items()}
    counts = pair_counts(inv_freq, factor)
    return {
        "context": context,
        "inv_freq": inv_freq,
        "turns": {code: rotations(inv, original) for code, inv in inv_freq.items()},
        "attention_factor": freqs[scaling][1],
        "counts": counts,
        # YaRN slows even pair 0, which turns more than 32 times inside L0: the reference
        # ramp (by pair index, its ends clamped to 0 .. d - 1) has turned over.
        "yarn_turned_over": counts["yarn"]["slowed"] == head_dim // 2,
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
    # Seed 002's g = Re[q k* e^{i(m-n)theta}], expanded: from q and k, not from the rotation.
    dot, cross = q[0] * k[0] + q[1] * k[1], q[1] * k[0] - q[0] * k[1]
    g = dot * math.cos((m - n) * theta) - cross * math.sin((m - n) * theta)
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
        "g": (float(dot), float(cross), float(g)),
    }


def _wrap(angle: float) -> float:
    """Angle in (-pi, pi]."""
    return float(math.pi - (math.pi - angle) % (2 * math.pi))


# The pair view's animation: this many steps with m - n fixed, then as many moving m alone.
ANIMATION_STEPS = 12


def animation_positions(m: int, n: int, steps: int = ANIMATION_STEPS, top: int = 4095):
    """(m, n) of each frame: first both move by one position a frame (m - n fixed), then
    m alone (m - n grows by one a frame). Frame 0 is (m, n). A move that would leave
    ``0 .. top`` goes the other way."""
    together = 1 if max(m, n) + 2 * steps <= top else -1
    frames = [(m + together * s, n + together * s) for s in range(steps + 1)]
    m1, n1 = frames[-1]
    alone = 1 if m1 + steps <= top else -1
    return frames + [(m1 + alone * s, n1) for s in range(1, steps + 1)]


@st.cache_data(max_entries=8, show_spinner=False)
def pair_frames(head_dim, base, layout, kind, text, seed, pair, m, n) -> list[dict]:
    """:func:`pair_state` at every (m, n) of :func:`animation_positions`."""
    return [
        pair_state(head_dim, base, layout, kind, text, seed, pair, a, b) | {"m": a, "n": b}
        for a, b in animation_positions(m, n)
    ]
