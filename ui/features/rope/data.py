"""Cached computations of the RoPE page: content (q, k), score views, checks, curves.

The numbers come from posenc (``posenc.score_block_means`` reduces a score matrix by
row blocks on posenc's shared pool, never holding the 4096 x 4096 whole;
``posenc.layout_differences``, ``posenc.pair_rotation``, ``posenc.pair_counts``). Here:
the content built from ui.plain.tokens, the ``st.cache_data`` wrappers, the display budgets
and the conversion to ``Grid``. Only a download builds a whole matrix, capped at
``EXPORT_MAX`` positions.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import posenc
from posenc.attention import (
    causal_softmax,
    decay_bound,
    relative_scores,
    rotations,
    same_content_decay,
)
from posenc.rope_base import TABLE_PLAN
from posenc.rope_pairs import PairCounts
from ui.features.rope.data_models import PRESETS, config_of
from ui.features.rope.specs import METHODS
from ui.plain.grids import MAX_LINE_POINTS, Grid, grid_from_row_means, steps
from ui.plain.tokens import token_vector, tokenize
from ui.shared import data_cache

# Cells per axis of a displayed heatmap: 346^2 float32 cells fit the shared cell budget
# (ui.figures.common.MAX_TOTAL_CELLS, under 1 MB of JSON) with equal steps on both axes.
MAX_SIDE = 346
# Per panel of the three-panel comparison (one figure).
COMPARE_SIDE = 200
# Downloads hold at most this many positions (a 2048^2 CSV is 84 MB already).
EXPORT_MAX = 2048
# Multiply-adds per score product of the layout check: above, it checks every
# `step`-th query row against all keys (at L = 4096, d = 256: every 2nd row, 0.27 s ->
# 0.15 s; three exact products of all 4096^2 scores took 2/3 of a 3x-default rerun).
LAYOUT_WORK = 2**31
# Longest evaluated context in the extension tab.
MAX_CONTEXT = 4096
# Method code in the URL -> ``scaling`` of posenc.rope_frequencies.
SCALINGS = dict(zip(METHODS, posenc.SCALINGS, strict=True))
# The page's view code -> ``softmax`` of posenc.score_block_means ("attention_all":
# every key, seed 002).
SOFTMAX = {"scores": None, "attention": "causal", "attention_all": "all"}

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
    """posenc.score_block_means of ``S = left @ right.T`` as a display grid of at most
    ``side`` x ``side`` cells, with the content's period and tokens."""
    n = left.shape[0]
    row_step, col_step = steps(n, n, side, side)
    found = posenc.score_block_means(
        left,
        right,
        row_step,
        period=content.period,
        head_dim=head_dim if scale else None,
        softmax=SOFTMAX[view],
    )
    grid = grid_from_row_means(found.means, n, n, row_step, col_step)
    return ScoreView(grid, found.residual, found.max_abs, content.period, content.tokens)


def rope_matrix(
    *,
    head_dim: int,
    base: float,
    length: int,
    layout: str,
    kind: str,
    text: str,
    seed: int,
    scale: bool,
    view: str,
) -> np.ndarray:
    """The full (scaled / softmaxed) RoPE score matrix of :func:`score_view`'s settings;
    for downloads, capped positions."""
    length = min(length, EXPORT_MAX)
    c = make_content(head_dim, length, kind, text, seed)
    s = posenc.rope_scores(c.q, c.k, base=base, layout=layout)
    if scale:
        s /= math.sqrt(head_dim)
    return s if view == "scores" else causal_softmax(s, causal=view == "attention", out=s)


@data_cache.cache_data(max_entries=8)
def score_view(
    *,
    head_dim: int,
    base: float,
    length: int,
    layout: str,
    kind: str,
    text: str,
    seed: int,
    scale: bool,
    view: str,
) -> ScoreView:
    """The Scores tab's heatmap: the RoPE scores of the sidebar's model (``head_dim``,
    ``base``, ``length``, ``layout``) and content (``kind``, ``text``, ``seed``; see
    :func:`make_content`), divided by sqrt(d) if ``scale``, as ``view`` (a ``SOFTMAX``
    code), reduced to at most ``MAX_SIDE`` cells a side."""
    c = make_content(head_dim, length, kind, text, seed)
    rq, rk = posenc.rope(np.stack([c.q, c.k]), base=base, layout=layout)  # one cos / sin table
    return _score_view(rq, rk, c, head_dim, scale, view, MAX_SIDE)


@data_cache.cache_data(max_entries=8)
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


@data_cache.cache_data(max_entries=8)
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


@data_cache.cache_data(max_entries=8)
def layout_check(head_dim, base, length, kind, text, seed) -> dict[str, float | int]:
    """Interleaved vs split on permuted dimensions (and without permuting):
    posenc.layout_differences on query rows ``0, step, 2 step, ...`` (``layout_step``)."""
    c = make_content(head_dim, length, kind, text, seed)
    step = layout_step(head_dim, length)
    found = posenc.layout_differences(c.q, c.k, base, step=step)
    return {
        "permuted": found.permuted,
        "unpermuted": found.unpermuted,
        "vectors": found.vectors,
        "rows": found.rows,
        "step": step,
    }


def decay_distances(length: int) -> np.ndarray:
    return np.arange(max(length, 2), dtype=np.float64)


@data_cache.cache_data(max_entries=8)
def decay_curves(head_dim: int, base: float, length: int, kind: str, bases: tuple) -> dict:
    """The RoFormer bound (or the same-content expectation) for several bases."""
    r = decay_distances(length)
    curve = decay_bound if kind == "bound" else same_content_decay
    all_bases = tuple(dict.fromkeys((*bases, float(base))))
    return {b: curve(r, posenc.rope_frequencies(head_dim, b)[0]) for b in all_bases}


PAIR_KINDS = PairCounts._fields  # ("kept", "blended", "slowed", "beyond")


def pair_counts(inv_freq: dict, factor: float) -> dict[str, dict[str, int]]:
    """posenc.pair_counts of every method against ``inv_freq["none"]`` (``theta``)."""
    theta = inv_freq["none"]
    return {
        code: posenc.pair_counts(theta, inv, factor)._asdict() for code, inv in inv_freq.items()
    }


def extended_context(factor: float, original: int) -> int:
    return max(original, min(MAX_CONTEXT, math.ceil(factor * original)))


@data_cache.cache_data(max_entries=8)
def extension_view(
    *,
    head_dim: int,
    base: float,
    layout: str,
    kind: str,
    text: str,
    seed: int,
    scaling: str,
    factor: float,
    original: int,
    scale: bool,
) -> dict:
    """inv_freq and turns per method; score and bound over distance, none vs ``scaling``
    (a method code of ``SCALINGS``) stretched ``factor`` times from the pretrained
    context ``original`` (L0). The model and content are the sidebar's, as in
    :func:`score_view`; the score is divided by sqrt(d) if ``scale``."""
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


# Lengths L drawn on the temperature chart (log-spaced; every curve is known at every L).
ENTROPY_POINTS = 400
# Softmax multipliers of the temperature view, as powers of the attention factor a.
TEMPERATURES = {"off": 0, "on": 2, "twice": 4}


def entropy_lengths(context: int, points: int = ENTROPY_POINTS) -> np.ndarray:
    """Distinct lengths 1 .. ``context``, log-spaced, both ends included."""
    grid = np.geomspace(1, context, num=min(points, context))
    return np.unique(np.rint(grid).astype(np.int64))


@data_cache.cache_data(max_entries=8)
def temperature_view(
    *,
    head_dim: int,
    base: float,
    layout: str,
    kind: str,
    text: str,
    seed: int,
    scaling: str,
    factor: float,
    original: int,
) -> dict:
    """The last query's attention entropy H(L) over its L nearest keys, all carrying the
    extension tab's content (its score S(r) of q with itself r positions apart, / sqrt(d),
    from :func:`extension_view`): plain RoPE, and ``scaling``'s frequencies with the scores
    times a^0, a^2 (as the method sets it) and a^4 (applied twice), by
    posenc.prefix_entropies."""
    ext = extension_view(
        head_dim=head_dim, base=base, layout=layout, kind=kind, text=text, seed=seed,
        scaling=scaling, factor=factor, original=original, scale=True,
    )  # fmt: skip
    context, a = ext["context"], ext["attention_factor"]
    # extension_view's curves carry the method's a^2: divide it out for the bare scores.
    stretched = ext["scores"][scaling] / (a * a)
    entropy = {"plain": posenc.prefix_entropies(ext["scores"]["none"])}
    powers = TEMPERATURES if a != 1.0 else {"off": 0}
    for key, power in powers.items():
        entropy[key] = posenc.prefix_entropies(stretched, scale=a**power)
    lengths = entropy_lengths(context)
    drawn = [key for key in entropy if not (scaling == "none" and key == "off")]  # = plain
    return {
        "context": context,
        "attention_factor": a,
        "lengths": lengths,
        "curves": {key: entropy[key][lengths - 1] for key in drawn},
        "at_context": {key: float(h[-1]) for key, h in entropy.items()},
        "trained": float(entropy["plain"][min(original, context) - 1]),
    }


def deepseek_temperature() -> dict[str, float]:
    """DeepSeek-V3's split of YaRN's temperature, from its config.json (the preset): the
    factor inside RoPE (posenc.rope_from_config) and the softmax scale's extra
    mu(s, mscale_all_dim)^2 (posenc.yarn_mscale), and their product on every score."""
    config = config_of(PRESETS["deepseek_v3"])
    scaling = config["rope_scaling"]
    rope_factor = posenc.rope_from_config(config)[1]
    softmax = posenc.yarn_mscale(scaling["factor"], scaling["mscale_all_dim"]) ** 2
    return {
        "factor": float(scaling["factor"]),
        "rope": rope_factor,
        "softmax": softmax,
        "total": rope_factor**2 * softmax,
        "yarn": posenc.yarn_mscale(scaling["factor"]) ** 2,  # plain YaRN's a^2 at that s
    }


def pair_state(head_dim, base, layout, kind, text, seed, pair, m, n) -> dict:
    """One 2-D pair j of q (at m) and k (at n): posenc.pair_rotation."""
    c = make_content(head_dim, 1, kind, text, seed)
    half = head_dim // 2
    pair = min(pair, half - 1)
    dims = [2 * pair, 2 * pair + 1] if layout == "interleaved" else [pair, pair + half]
    theta = posenc.rope_frequencies(head_dim, base)[0][pair]
    q, k = c.q[0, dims], c.k[0, dims]
    r = posenc.pair_rotation(q, k, theta, m, n)
    return {
        "pair": pair,
        "dims": dims,
        "theta": float(theta),
        "q": q,
        "k": k,
        "q_m": r.q_m,
        "k_n": r.k_n,
        "measured": r.measured,
        "predicted": r.predicted,
        "start": r.start,
        "score": r.score,
        "g": (r.dot, r.cross, r.g),
    }


# The pair view's animation: this many steps with m - n fixed, then as many moving m alone.
ANIMATION_STEPS = 12


def animation_positions(m: int, n: int, steps: int = ANIMATION_STEPS, top: int = 4095):
    """(m, n) of each frame: first both move by one position a frame (m - n fixed), then
    m alone (m - n grows by one a frame). Frame 0 is (m, n). A move that would leave
    ``0 .. top`` goes the other way; where neither way has room for all its steps
    (m = 4090, n = 3), it goes the roomier way and stops at the edge."""
    low, high = min(m, n), max(m, n)
    together = 1 if high + 2 * steps <= top else -1
    if together < 0 and low < steps:
        together = 1 if top - high >= low else -1
    room = top - high if together > 0 else low
    frames = [(m + together * min(s, room), n + together * min(s, room)) for s in range(steps + 1)]
    m1, n1 = frames[-1]
    alone = 1 if m1 + steps <= top else -1
    room = top - m1 if alone > 0 else m1
    return frames + [(m1 + alone * min(s, room), n1) for s in range(1, steps + 1)]


@data_cache.cache_data(max_entries=8)
def pair_frames(head_dim, base, layout, kind, text, seed, pair, m, n) -> list[dict]:
    """:func:`pair_state` at every (m, n) of :func:`animation_positions`."""
    return [
        pair_state(head_dim, base, layout, kind, text, seed, pair, a, b) | {"m": a, "n": b}
        for a, b in animation_positions(m, n)
    ]


# --- tab "base": the base a context needs (Men et al. 2024) ------------------------------


def envelope(
    values: np.ndarray, points: int = MAX_LINE_POINTS
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(offsets, values at them, block)``: at most ``points`` points of a long curve, the
    lowest and the highest of each block of ``block`` offsets (in order), so every dip
    stays drawn; ``block`` 1 (all points) if they fit."""
    n = values.size
    if n <= points:
        return np.arange(n), values, 1
    block = math.ceil(n / (points // 2))
    blocks = math.ceil(n / block)
    padded = np.full(blocks * block, np.nan)
    padded[:n] = values
    padded = padded.reshape(blocks, block)
    starts = np.arange(blocks) * block
    keep = np.union1d(starts + np.nanargmin(padded, axis=1), starts + np.nanargmax(padded, axis=1))
    return keep, values[keep], block


@data_cache.cache_data(max_entries=4)
def base_check(base: float, context: int, head_dim: int) -> dict:
    """B(m) for m = 0 .. L (``posenc.rope_base_sums``) as an envelope for the chart, the
    first negative offset (``posenc.rope_base_failure``) and ``b*(L)``
    (``posenc.rope_base_lower_bound``, a lookup for the tab's head dims)."""
    sums = posenc.rope_base_sums(base, context, head_dim)
    offsets, shown, block = envelope(sums)
    failure = posenc.rope_base_failure(base, context, head_dim)
    return {
        "bound": posenc.rope_base_lower_bound(context, head_dim),
        "failure": failure,
        "failure_sum": None if failure is None else float(sums[failure]),
        "offsets": offsets,
        "sums": shown,
        "block": block,
        "count": sums.size,
    }


def stored_bound(head_dim: int, context: int) -> bool:
    """Whether ``b*(L)`` is a lookup (posenc's stored table), not a sweep of seconds."""
    return context <= TABLE_PLAN.get(head_dim, 0)


@data_cache.cache_data(max_entries=2)
def preset_bounds(models: tuple[tuple[str, int, float, int], ...]) -> list[dict]:
    """(name, rotated head dim, base, context) -> each model's base against ``b*(L)``."""
    return [
        {
            "name": name,
            "context": context,
            "base": base,
            "bound": posenc.rope_base_lower_bound(context, head_dim),
            "failure": posenc.rope_base_failure(base, context, head_dim),
        }
        for name, head_dim, base, context in models
    ]
